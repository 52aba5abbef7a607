//! The elements of a file that have options, visited in the order protoc
//! builds them, each with its options message behind one interface.

use buffa::{Message, MessageField};
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, EnumOptions, EnumValueOptions, ExtensionRangeOptions,
    FieldOptions, FileDescriptorProto, FileOptions, MessageOptions, MethodOptions, OneofOptions,
    ServiceOptions, UninterpretedOption,
};

use super::names::join;

/// Where an element's options are and how their names are looked up.
#[derive(Debug, Clone)]
pub(crate) struct Element {
    /// The source info path of the options message (`[4, 0, 7]` for the
    /// first message's options).
    pub(crate) options_path: Vec<i32>,
    /// The scope extension names are looked up from: the element's full
    /// name (for the file, `package.dummy`, as protoc has it).
    pub(crate) scope: String,
    /// The options message's full name (`google.protobuf.FileOptions`).
    pub(crate) type_name: &'static str,
}

/// An element's options message, whatever its type.
pub(crate) trait Slot {
    /// Whether the element has options.
    fn is_set(&self) -> bool;
    /// Its uninterpreted options.
    fn uninterpreted(&self) -> &[UninterpretedOption];
    /// The options encoded.
    fn encode(&self) -> Vec<u8>;
    /// The options encoded without their uninterpreted options.
    fn encode_without_uninterpreted(&self) -> Vec<u8>;
    /// Replaces the options with those `bytes` encode.
    fn replace(&mut self, bytes: &[u8]) -> Result<(), buffa::DecodeError>;
    /// Removes the options.
    fn clear(&mut self);
    /// The options message's full name.
    fn type_name(&self) -> &'static str;
}

/// Implements [`Slot`] for the `MessageField` of an options type.
macro_rules! slot {
    ($($options:ty),* $(,)?) => {$(
        impl Slot for MessageField<$options> {
            fn is_set(&self) -> bool {
                MessageField::is_set(self)
            }
            fn uninterpreted(&self) -> &[UninterpretedOption] {
                self.as_option().map_or(&[], |o| o.uninterpreted_option.as_slice())
            }
            fn encode(&self) -> Vec<u8> {
                self.as_option().map(|o| o.encode_to_vec()).unwrap_or_default()
            }
            fn encode_without_uninterpreted(&self) -> Vec<u8> {
                let mut options = self.as_option().cloned().unwrap_or_default();
                options.uninterpreted_option.clear();
                options.encode_to_vec()
            }
            fn replace(&mut self, bytes: &[u8]) -> Result<(), buffa::DecodeError> {
                self.set(<$options>::decode_from_slice(bytes)?);
                Ok(())
            }
            fn clear(&mut self) {
                MessageField::clear(self)
            }
            fn type_name(&self) -> &'static str {
                <$options as Message>::NAME
            }
        }
    )*};
}

slot!(
    FileOptions,
    MessageOptions,
    FieldOptions,
    OneofOptions,
    EnumOptions,
    EnumValueOptions,
    ExtensionRangeOptions,
    ServiceOptions,
    MethodOptions,
);

/// A visitor of elements and their options.
pub(crate) type Visit<'v> = dyn FnMut(&Element, &mut dyn Slot) + 'v;

/// Which elements [`walk`] visits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    /// Every element that can have options.
    Every,
    /// Only the elements whose options are set: the others' names and
    /// paths are not even built.
    WithOptions,
}

/// The visitor and which elements it is given.
struct Walker<'w, 'v> {
    which: Which,
    visit: &'w mut Visit<'v>,
}

impl Walker<'_, '_> {
    /// Visits `slot`, whose element `element` describes, when it is one
    /// of those wanted.
    fn visit(&mut self, slot: &mut dyn Slot, element: impl FnOnce() -> Element) {
        if self.which == Which::Every || slot.is_set() {
            (self.visit)(&element(), slot);
        }
    }
}

/// Calls `visit` on every element of `file` that can have options (or
/// those whose options are set, as `which` says), in the order protoc
/// allocates their options: each message (its oneofs, fields, enums,
/// extension ranges, extensions, itself, then its nested messages), the
/// enums, the services (methods first), the extensions, and the file last.
pub(crate) fn walk(file: &mut FileDescriptorProto, which: Which, visit: &mut Visit<'_>) {
    let walker = &mut Walker { which, visit };
    let package = file.package.clone().unwrap_or_default();
    for (i, message) in file.message_type.iter_mut().enumerate() {
        walk_message(message, vec![4, i as i32], &package, walker);
    }
    for (i, enum_type) in file.enum_type.iter_mut().enumerate() {
        walk_enum(enum_type, vec![5, i as i32], &package, walker);
    }
    for (i, service) in file.service.iter_mut().enumerate() {
        let name = join(&package, service.name());
        for (j, method) in service.method.iter_mut().enumerate() {
            let method_name = method.name.as_deref().unwrap_or_default();
            walker.visit(&mut method.options, || Element {
                options_path: vec![6, i as i32, 2, j as i32, 4],
                scope: join(&name, method_name),
                type_name: "google.protobuf.MethodOptions",
            });
        }
        walker.visit(&mut service.options, || Element {
            options_path: vec![6, i as i32, 3],
            scope: name,
            type_name: "google.protobuf.ServiceOptions",
        });
    }
    for (i, extension) in file.extension.iter_mut().enumerate() {
        let extension_name = extension.name.as_deref().unwrap_or_default();
        walker.visit(&mut extension.options, || Element {
            options_path: vec![7, i as i32, 8],
            scope: join(&package, extension_name),
            type_name: "google.protobuf.FieldOptions",
        });
    }
    walker.visit(&mut file.options, || Element {
        options_path: vec![8],
        scope: join(&package, "dummy"),
        type_name: "google.protobuf.FileOptions",
    });
}

/// [`walk`] for a message at `path` in `scope`.
fn walk_message(message: &mut DescriptorProto, path: Vec<i32>, scope: &str, walker: &mut Walker) {
    let name = join(scope, message.name());
    let at = |tail: &[i32]| [path.as_slice(), tail].concat();
    for (i, oneof) in message.oneof_decl.iter_mut().enumerate() {
        let oneof_name = oneof.name.as_deref().unwrap_or_default();
        walker.visit(&mut oneof.options, || Element {
            options_path: at(&[8, i as i32, 2]),
            scope: join(&name, oneof_name),
            type_name: "google.protobuf.OneofOptions",
        });
    }
    for (i, field) in message.field.iter_mut().enumerate() {
        let field_name = field.name.as_deref().unwrap_or_default();
        walker.visit(&mut field.options, || Element {
            options_path: at(&[2, i as i32, 8]),
            scope: join(&name, field_name),
            type_name: "google.protobuf.FieldOptions",
        });
    }
    for (i, enum_type) in message.enum_type.iter_mut().enumerate() {
        walk_enum(enum_type, at(&[4, i as i32]), &name, walker);
    }
    for (i, range) in message.extension_range.iter_mut().enumerate() {
        walker.visit(&mut range.options, || Element {
            options_path: at(&[5, i as i32, 3]),
            scope: name.clone(),
            type_name: "google.protobuf.ExtensionRangeOptions",
        });
    }
    for (i, extension) in message.extension.iter_mut().enumerate() {
        let extension_name = extension.name.as_deref().unwrap_or_default();
        walker.visit(&mut extension.options, || Element {
            options_path: at(&[6, i as i32, 8]),
            scope: join(&name, extension_name),
            type_name: "google.protobuf.FieldOptions",
        });
    }
    walker.visit(&mut message.options, || Element {
        options_path: at(&[7]),
        scope: name.clone(),
        type_name: "google.protobuf.MessageOptions",
    });
    for (i, nested) in message.nested_type.iter_mut().enumerate() {
        walk_message(nested, at(&[3, i as i32]), &name, walker);
    }
}

/// [`walk`] for an enum at `path` in `scope`: its values (which live in
/// `scope`, beside the enum), then the enum.
fn walk_enum(
    enum_type: &mut EnumDescriptorProto,
    path: Vec<i32>,
    scope: &str,
    walker: &mut Walker,
) {
    let name = join(scope, enum_type.name());
    for (i, value) in enum_type.value.iter_mut().enumerate() {
        let value_name = value.name.as_deref().unwrap_or_default();
        walker.visit(&mut value.options, || Element {
            options_path: [path.as_slice(), &[2, i as i32, 3]].concat(),
            scope: join(scope, value_name),
            type_name: "google.protobuf.EnumValueOptions",
        });
    }
    walker.visit(&mut enum_type.options, || Element {
        options_path: [path.as_slice(), &[3]].concat(),
        scope: name,
        type_name: "google.protobuf.EnumOptions",
    });
}
