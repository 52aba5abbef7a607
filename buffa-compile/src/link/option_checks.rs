//! The checks protoc's `DescriptorBuilder::ValidateOptions` makes on what
//! interpreted options say about fields and files: lazy and packed fields,
//! MessageSets, lite files, and the proto2 syntax editions replace with
//! features; and, among its map checks, the one that needs another file
//! (a map value's enum). They read the file's imports from the pool.

use buffa_descriptor::DescriptorPool;
use buffa_descriptor::rules::known_features;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::file_options::OptimizeMode;
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    FileOptions,
};

use super::locate::{ErrorLocation, Located};

/// What the checks need to know about the file being linked.
struct Context<'a> {
    file: &'a FileDescriptorProto,
    pool: &'a DescriptorPool,
    editions: bool,
}

/// The option checks of `file` (linked, options interpreted), whose
/// imports `pool` holds.
pub(crate) fn validate(file: &FileDescriptorProto, pool: &DescriptorPool) -> Vec<Located> {
    let mut errors = Vec::new();
    let context = Context {
        file,
        pool,
        editions: file.edition.is_some(),
    };
    if !is_lite(file.options.as_option())
        && let Some((i, dependency)) = file.dependency.iter().enumerate().find(|(_, name)| {
            pool.get_file_by_name(name)
                .is_some_and(|f| is_lite(Some(f.options())))
        })
    {
        errors.push(Located::new(
            vec![3, i as i32],
            ErrorLocation::Other,
            format!(
                "Files that do not use optimize_for = LITE_RUNTIME cannot import files which do \
                 use this option.  This file is not lite, but it imports \"{dependency}\" which \
                 is."
            ),
        ));
    }
    for (i, message) in file.message_type.iter().enumerate() {
        context.message(message, &[4, i as i32], &mut errors);
    }
    for (i, extension) in file.extension.iter().enumerate() {
        context.field(extension, None, &[7, i as i32], &mut errors);
    }
    errors
}

/// The errors protoc reports as it resolves features, for each element
/// whose options set features, at its name (the file's at its `syntax` or
/// `edition` statement): "Features are only valid under editions." in a
/// proto2 or proto3 file, and a feature set to its `*_UNKNOWN` value,
/// which no element may resolve to.
pub(crate) fn feature_resolution(file: &mut FileDescriptorProto) -> Vec<Located> {
    let mut errors = Vec::new();
    let editions = file.edition.is_some();
    super::pending::visit_features(file, &mut |path, features| {
        let Some(set) = features.as_option() else {
            return;
        };
        let (path, location) = if path.is_empty() {
            // FileDescriptorProto.syntax: protoc's EDITIONS location.
            (vec![12], ErrorLocation::Other)
        } else if path.len() >= 4 && matches!(path[path.len() - 2], 5 | 8) {
            // A message's extension range or oneof: protoc's parser
            // records no position for either's name.
            (path.to_vec(), ErrorLocation::Unrecorded)
        } else {
            (path.to_vec(), ErrorLocation::Name)
        };
        if !editions && features.is_set() {
            errors.push(Located::new(
                path.clone(),
                location,
                "Features are only valid under editions.".to_owned(),
            ));
        }
        if let Err(message) = known_features(set) {
            errors.push(Located::new(path, location, message));
        }
    });
    errors
}

/// Whether file options ask for the lite runtime.
fn is_lite(options: Option<&FileOptions>) -> bool {
    options.is_some_and(|o| o.optimize_for == Some(OptimizeMode::LiteRuntime))
}

/// The first value's number of the enum of `file` whose full name is
/// `full_name` (no leading dot).
fn local_enum_first(file: &FileDescriptorProto, full_name: &str) -> Option<Option<i32>> {
    let enumeration = local_enum(file, full_name)?;
    Some(enumeration.value.first().map(|v| v.number()))
}

/// The enum of `file` whose full name is `full_name` (no leading dot).
pub(super) fn local_enum<'a>(
    file: &'a FileDescriptorProto,
    full_name: &str,
) -> Option<&'a EnumDescriptorProto> {
    let (scope, name) = full_name.rsplit_once('.').unwrap_or(("", full_name));
    let enums = if scope == file.package() {
        &file.enum_type
    } else {
        &local_message(file, scope)?.enum_type
    };
    enums.iter().find(|e| e.name() == name)
}

/// The message of `file` whose full name is `full_name` (no leading dot).
pub(super) fn local_message<'a>(
    file: &'a FileDescriptorProto,
    full_name: &str,
) -> Option<&'a DescriptorProto> {
    let package = file.package();
    let mut rest = if package.is_empty() {
        full_name
    } else {
        full_name.strip_prefix(package)?.strip_prefix('.')?
    };
    let mut messages = &file.message_type;
    loop {
        let (first, tail) = match rest.split_once('.') {
            Some((first, tail)) => (first, Some(tail)),
            None => (rest, None),
        };
        let message = messages.iter().find(|m| m.name() == first)?;
        match tail {
            None => return Some(message),
            Some(tail) => {
                rest = tail;
                messages = &message.nested_type;
            }
        }
    }
}

impl Context<'_> {
    /// Whether the message `full_name` (leading dot) is a MessageSet, and
    /// whether it belongs to a lite file.
    fn extendee(&self, full_name: &str) -> Option<(bool, bool)> {
        let name = full_name.strip_prefix('.')?;
        if let Some(message) = local_message(self.file, name) {
            let set = message
                .options
                .as_option()
                .is_some_and(|o| o.message_set_wire_format == Some(true));
            return Some((set, is_lite(self.file.options.as_option())));
        }
        let message = self.pool.get_message_by_name(name)?;
        let set = message.options().message_set_wire_format == Some(true);
        Some((set, is_lite(Some(message.parent_file().options()))))
    }

    /// A message's fields and extensions, and its nested messages'.
    fn message(&self, message: &DescriptorProto, path: &[i32], errors: &mut Vec<Located>) {
        for (i, nested) in message.nested_type.iter().enumerate() {
            self.message(nested, &child(path, &[3, i as i32]), errors);
        }
        for (i, field) in message.field.iter().enumerate() {
            let path = child(path, &[2, i as i32]);
            self.field(field, Some(message), &path, errors);
            self.map_value(message, field, &path, errors);
        }
        for (i, extension) in message.extension.iter().enumerate() {
            self.field(extension, None, &child(path, &[6, i as i32]), errors);
        }
    }

    /// A map field's value, if an enum, must have zero as its first value.
    fn map_value(
        &self,
        message: &DescriptorProto,
        field: &FieldDescriptorProto,
        path: &[i32],
        errors: &mut Vec<Located>,
    ) {
        let Some(entry) = field.type_name.as_deref().and_then(|t| {
            let name = t.strip_prefix('.')?;
            let entry = local_message(self.file, name)?;
            let is_nested = message.nested_type.iter().any(|m| std::ptr::eq(m, entry));
            let is_entry = entry
                .options
                .as_option()
                .is_some_and(|o| o.map_entry == Some(true));
            (is_nested && is_entry).then_some(entry)
        }) else {
            return;
        };
        let Some(value) = entry.field.iter().find(|f| f.number() == 2) else {
            return;
        };
        if value.r#type != Some(Type::Enum) {
            return;
        }
        let Some(name) = value.type_name.as_deref().and_then(|t| t.strip_prefix('.')) else {
            return;
        };
        let first = local_enum_first(self.file, name).or_else(|| {
            let enumeration = self.pool.get_enum_by_name(name)?;
            Some(enumeration.values().next().map(|v| v.number()))
        });
        if matches!(first, Some(Some(number)) if number != 0) {
            errors.push(Located::new(
                path.to_vec(),
                ErrorLocation::Type,
                "Enum value in map must define 0 as the first value.".to_owned(),
            ));
        }
    }

    /// The full name of the map entry `field` names as its type, when the
    /// field is not the map field the parser generated it for (repeated,
    /// named after the entry, in the entry's parent message).
    fn map_entry_misused(
        &self,
        field: &FieldDescriptorProto,
        message: Option<&DescriptorProto>,
    ) -> Option<String> {
        if field.r#type != Some(Type::Message) {
            return None;
        }
        let name = field.type_name.as_deref()?.strip_prefix('.')?;
        let local = local_message(self.file, name);
        let is_entry = match local {
            Some(entry) => entry
                .options
                .as_option()
                .is_some_and(|o| o.map_entry == Some(true)),
            None => self
                .pool
                .get_message_by_name(name)
                .is_some_and(|m| m.is_map_entry()),
        };
        if !is_entry {
            return None;
        }
        let entry_name = name.rsplit('.').next().unwrap_or(name);
        let generated_for_field = field.label == Some(Label::Repeated)
            && entry_name == format!("{}Entry", camel_case(field.name()))
            && message.zip(local).is_some_and(|(message, entry)| {
                message.nested_type.iter().any(|m| std::ptr::eq(m, entry))
            });
        (!generated_for_field).then(|| name.to_owned())
    }

    /// One field (`message` is its message) or extension (`None`).
    fn field(
        &self,
        field: &FieldDescriptorProto,
        message: Option<&DescriptorProto>,
        path: &[i32],
        errors: &mut Vec<Located>,
    ) {
        let mut error = |location, message: &str| {
            errors.push(Located::new(path.to_vec(), location, message.to_owned()));
        };
        let is_extension = message.is_none();
        let options = field.options.as_option();
        if (19_000..=19_999).contains(&field.number()) {
            error(
                ErrorLocation::Unrecorded,
                "Field numbers 19000 through 19999 are reserved for the protocol buffer library \
                 implementation.",
            );
        }
        if self.editions {
            if field.label == Some(Label::Required) {
                error(
                    ErrorLocation::Name,
                    "Required label is not allowed under editions.  Use the feature \
                     field_presence = LEGACY_REQUIRED to control this behavior.",
                );
            }
            if field.r#type == Some(Type::Group) {
                error(
                    ErrorLocation::Name,
                    "Group types are not allowed under editions.  Use the feature \
                     message_encoding = DELIMITED to control this behavior.",
                );
            }
            if options.is_some_and(|o| o.packed.is_some()) {
                error(
                    ErrorLocation::Name,
                    "Field option packed is not allowed under editions.  Use the \
                     repeated_field_encoding feature to control this behavior.",
                );
            }
            if self
                .file
                .edition
                .is_some_and(|e| e as i32 >= Edition::Edition2024 as i32)
                && options.is_some_and(|o| o.ctype.is_some())
            {
                error(
                    ErrorLocation::Type,
                    "ctype option is not allowed under edition 2024 and beyond. Use the feature \
                     string_type = VIEW|CORD|STRING|... instead.",
                );
            }
        }
        if let Some(entry) = self.map_entry_misused(field, message) {
            error(
                ErrorLocation::Type,
                &format!(
                    "{entry} is a synthetic MapEntry message type, which is not allowed to be \
                     used as a field type."
                ),
            );
        }
        let lazy = options.is_some_and(|o| o.lazy == Some(true));
        let unverified_lazy = options.is_some_and(|o| o.unverified_lazy == Some(true));
        if lazy || unverified_lazy {
            if field.r#type != Some(Type::Message) {
                error(
                    ErrorLocation::Type,
                    "[lazy = true] can only be specified for submessage fields.",
                );
            }
            if unverified_lazy && is_extension {
                error(
                    ErrorLocation::Type,
                    "Extensions cannot be marked as unverified_lazy.",
                );
            }
        }
        if options.is_some_and(|o| o.packed == Some(true)) && !is_packable(field) {
            error(
                ErrorLocation::Type,
                "[packed = true] can only be specified for repeated primitive fields.",
            );
        }
        let (message_set, extendee_lite) = match message {
            Some(message) => (
                message
                    .options
                    .as_option()
                    .is_some_and(|o| o.message_set_wire_format == Some(true)),
                true,
            ),
            None => self.extendee(field.extendee()).unwrap_or((false, true)),
        };
        if message_set {
            if !is_extension {
                error(
                    ErrorLocation::Name,
                    "MessageSets cannot have fields, only extensions.",
                );
            } else if field.label != Some(Label::Optional) || field.r#type != Some(Type::Message) {
                error(
                    ErrorLocation::Type,
                    "Extensions of MessageSets must be optional messages.",
                );
            }
        }
        if is_extension && is_lite(self.file.options.as_option()) && !extendee_lite {
            error(
                ErrorLocation::Extendee,
                "Extensions to non-lite types can only be declared in non-lite files.  Note that \
                 you cannot extend a non-lite type to contain a lite type, but the reverse is \
                 allowed.",
            );
        }
    }
}

/// protoc's `ToCamelCase(name, false)`: underscores dropped, the first
/// letter and each one after an underscore upper case.
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a field may be packed: repeated, of a scalar number, bool or
/// enum type.
fn is_packable(field: &FieldDescriptorProto) -> bool {
    field.label == Some(Label::Repeated)
        && !matches!(
            field.r#type,
            Some(Type::String | Type::Bytes | Type::Message | Type::Group) | None
        )
}

/// `path` followed by `more`.
fn child(path: &[i32], more: &[i32]) -> Vec<i32> {
    let mut path = path.to_vec();
    path.extend_from_slice(more);
    path
}
