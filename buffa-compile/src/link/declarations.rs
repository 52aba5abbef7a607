//! Extension ranges and their declarations (`extensions 4 to 9
//! [declaration = {...}]`): a range may not reach past the largest
//! extension number (larger in a MessageSet, which an option makes one),
//! what a range declares must be well formed (numbers inside the range,
//! each number and name declared once, names fully qualified), and an
//! extension of a range that declares its extensions must match its
//! declaration. These are checks of protoc's `ValidateOptions`, made once
//! options are interpreted; the ones about a range point at its start, or
//! nowhere when protoc's location is one its parser never records. The
//! first are the language's, which the pool applies too
//! ([`extension_declarations`]); the second, protoc's own.

use buffa_descriptor::DescriptorPool;
use buffa_descriptor::rules::{extension_declarations, is_scalar_type_name};
use buffa_types::google::protobuf::extension_range_options::VerificationState;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};

use super::locate::{ErrorLocation, Located};
use super::option_checks::local_message;

/// The largest field number, and extension number of a message that is
/// not a MessageSet.
const MAX_FIELD_NUMBER: i32 = (1 << 29) - 1;

/// The messages whose extensions protoc never checks against
/// declarations: descriptor.proto's options, which custom options extend.
const OPTIONS_MESSAGES: &[&str] = &[
    "google.protobuf.EnumOptions",
    "google.protobuf.EnumValueOptions",
    "google.protobuf.ExtensionRangeOptions",
    "google.protobuf.FieldOptions",
    "google.protobuf.FileOptions",
    "google.protobuf.MessageOptions",
    "google.protobuf.MethodOptions",
    "google.protobuf.OneofOptions",
    "google.protobuf.ServiceOptions",
];

/// The declaration errors of `file` (options interpreted), whose imports
/// `pool` holds: each message's ranges, then its extensions and its nested
/// messages', then the file's extensions.
pub(crate) fn validate(file: &FileDescriptorProto, pool: &DescriptorPool) -> Vec<Located> {
    let mut errors = Vec::new();
    let package = file.package();
    for (i, message) in file.message_type.iter().enumerate() {
        let name = join(package, message.name());
        self::message(file, pool, message, &name, &[4, i as i32], &mut errors);
    }
    for (i, extension) in file.extension.iter().enumerate() {
        let name = join(package, extension.name());
        self::extension(file, pool, extension, &name, &[7, i as i32], &mut errors);
    }
    errors
}

/// `scope.name`, or `name` in the unnamed scope.
fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_owned()
    } else {
        format!("{scope}.{name}")
    }
}

/// `path` followed by `more`.
fn child(path: &[i32], more: [i32; 2]) -> Vec<i32> {
    let mut path = path.to_vec();
    path.extend(more);
    path
}

/// A message (whose full name is `full_name`): its ranges, its
/// extensions and its nested messages'.
fn message(
    file: &FileDescriptorProto,
    pool: &DescriptorPool,
    message: &DescriptorProto,
    full_name: &str,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    ranges(message, path, errors);
    for (i, extension) in message.extension.iter().enumerate() {
        let name = join(full_name, extension.name());
        let path = child(path, [6, i as i32]);
        self::extension(file, pool, extension, &name, &path, errors);
    }
    for (i, nested) in message.nested_type.iter().enumerate() {
        let name = join(full_name, nested.name());
        let path = child(path, [3, i as i32]);
        self::message(file, pool, nested, &name, &path, errors);
    }
}

/// A message's extension ranges: each within the largest number an
/// extension of the message may have (nowhere, as protoc places it), then
/// its declarations, as the pool's rule finds them: problems with a
/// number at the range's start, the others nowhere.
fn ranges(message: &DescriptorProto, path: &[i32], errors: &mut Vec<Located>) {
    let message_set = message
        .options
        .as_option()
        .is_some_and(|o| o.message_set_wire_format == Some(true));
    let max = if message_set {
        i32::MAX
    } else {
        MAX_FIELD_NUMBER
    };
    let mut declarations = extension_declarations(message).into_iter().peekable();
    for (i, range) in message.extension_range.iter().enumerate() {
        if i64::from(range.end()) > i64::from(max) + 1 {
            errors.push(Located::new(
                Vec::new(),
                ErrorLocation::Unrecorded,
                format!("Extension numbers cannot be greater than {max}."),
            ));
        }
        while let Some(error) = declarations.next_if(|e| e.range == i) {
            let located = if error.about_number {
                Located::new(
                    child(path, [5, i as i32]),
                    ErrorLocation::Other,
                    error.message,
                )
            } else {
                Located::new(Vec::new(), ErrorLocation::Unrecorded, error.message)
            };
            errors.push(located);
        }
    }
}

/// The name protoc gives a field's type in these errors: a scalar's
/// keyword, or the full name (leading dot) of its message or enum.
fn type_name(field: &FieldDescriptorProto) -> String {
    let scalar = match field.r#type {
        Some(Type::Double) => "double",
        Some(Type::Float) => "float",
        Some(Type::Int64) => "int64",
        Some(Type::Uint64) => "uint64",
        Some(Type::Int32) => "int32",
        Some(Type::Fixed64) => "fixed64",
        Some(Type::Fixed32) => "fixed32",
        Some(Type::Bool) => "bool",
        Some(Type::String) => "string",
        Some(Type::Bytes) => "bytes",
        Some(Type::Uint32) => "uint32",
        Some(Type::Sfixed32) => "sfixed32",
        Some(Type::Sfixed64) => "sfixed64",
        Some(Type::Sint32) => "sint32",
        Some(Type::Sint64) => "sint64",
        Some(Type::Message | Type::Group | Type::Enum) | None => {
            return field.type_name().to_owned();
        }
    };
    scalar.to_owned()
}

/// An extension (whose full name is `full_name`) against the
/// declarations of the range its number falls in, when that range
/// declares its extensions.
fn extension(
    file: &FileDescriptorProto,
    pool: &DescriptorPool,
    field: &FieldDescriptorProto,
    full_name: &str,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    let Some(extendee) = field.extendee.as_deref().and_then(|e| e.strip_prefix('.')) else {
        return;
    };
    if OPTIONS_MESSAGES.contains(&extendee) {
        return;
    }
    let imported = pool.get_message_by_name(extendee);
    let imported_file = imported.as_ref().map(|m| m.parent_file());
    let (message, extendee_file) = match (local_message(file, extendee), &imported, &imported_file)
    {
        (Some(message), _, _) => (message, file.name()),
        (None, Some(message), Some(parent)) => (message.descriptor_proto(), parent.name()),
        _ => return,
    };
    let extendee = Extendee {
        message,
        file: extendee_file,
        name: extendee,
    };
    extendee.check(field, full_name, path, errors);
}

/// The message an extension extends.
struct Extendee<'a> {
    /// The message.
    message: &'a DescriptorProto,
    /// The name of its file.
    file: &'a str,
    /// Its full name, without a leading dot.
    name: &'a str,
}

impl Extendee<'_> {
    /// [`extension`] once the extendee is found.
    fn check(
        &self,
        field: &FieldDescriptorProto,
        full_name: &str,
        path: &[i32],
        errors: &mut Vec<Located>,
    ) {
        let (message, extendee) = (self.message, self.name);
        // protoc leaves the extensions of descriptor.proto's messages alone.
        if self.file == "google/protobuf/descriptor.proto" {
            return;
        }
        let number = field.number();
        let Some(options) = message
            .extension_range
            .iter()
            .find(|r| r.start() <= number && number < r.end())
            .and_then(|r| r.options.as_option())
        else {
            return;
        };
        // protoc compares the types only while the file has no error.
        let clean = errors.is_empty();
        let mut error = |message: String| {
            errors.push(Located::new(
                path.to_vec(),
                ErrorLocation::Extendee,
                message,
            ));
        };
        if let Some(declaration) = options.declaration.iter().find(|d| d.number() == number) {
            if declaration.reserved() {
                error(format!(
                    "Cannot use number {number} for extension field {full_name}, as it is reserved \
                 in the extension declarations for message {extendee}."
                ));
                return;
            }
            if let Some(declared) = declaration.r#type.as_deref().filter(|t| !t.is_empty())
                && clean
            {
                let expected = if is_scalar_type_name(declared) || declared.starts_with('.') {
                    declared.to_owned()
                } else {
                    format!(".{declared}")
                };
                let actual = type_name(field);
                if expected != actual {
                    error(format!(
                        "\"{extendee}\" extension field {number} is expected to be type \
                     \"{expected}\", not \"{actual}\"."
                    ));
                }
            }
            if let Some(declared) = declaration.full_name.as_deref().filter(|n| !n.is_empty()) {
                let actual = format!(".{full_name}");
                if declared != actual {
                    error(format!(
                        "\"{extendee}\" extension field {number} is expected to have field name \
                     \"{declared}\", not \"{actual}\"."
                    ));
                }
            }
            let repeated = field.label == Some(Label::Repeated);
            if declaration.repeated() != repeated {
                error(format!(
                    "\"{extendee}\" extension field {number} is expected to be {}.",
                    if declaration.repeated() {
                        "repeated"
                    } else {
                        "optional"
                    }
                ));
            }
            return;
        }
        if !options.declaration.is_empty()
            || options.verification == Some(VerificationState::Declaration)
        {
            error(format!(
                "Missing extension declaration for field {full_name} with number {number} in \
             extendee message {extendee}. An extension range must declare for all extension \
             fields if its verification state is DECLARATION or there's any declaration in the \
             range already. Otherwise, consider splitting up the range."
            ));
        }
    }
}
