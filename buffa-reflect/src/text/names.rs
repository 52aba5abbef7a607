//! How fields are named in the text format: extensions by their full
//! name in brackets (message set items by their type's), group-like
//! fields by their type's name, every other field by its own name; how
//! the parser finds a field by any of those names; and where the type
//! named in an expanded `Any` is found.

use crate::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};

/// The name of an extension in brackets: its full name, or for a message
/// set item (a message extension of a message set, declared in its own
/// type) the type's full name.
pub(super) fn printable_extension_name(field: &FieldDescriptor) -> String {
    let extendee = field.containing_message();
    if extendee.options().message_set_wire_format()
        && !field.is_list()
        && let Kind::Message(message) = field.kind()
        && field.extension_scope().as_ref() == Some(&message)
    {
        return message.full_name().to_owned();
    }
    field.full_name().to_owned()
}

/// The type name a group-like field is written under: a field encoded as
/// a group whose name is its type's name in lower case, the type declared
/// beside the field (in the same file and scope). Such fields are
/// proto2's `group`s; C++ protobuf prints them by type name and accepts
/// both names.
pub(super) fn group_type_name(field: &FieldDescriptor) -> Option<String> {
    if !field.is_group() {
        return None;
    }
    let Kind::Message(message) = field.kind() else {
        return None;
    };
    let scope = if field.is_extension() {
        field.extension_scope()
    } else {
        Some(field.containing_message())
    };
    let group_like = field.name() == message.name().to_ascii_lowercase()
        && message.parent_file() == field.parent_file()
        && message.parent_message() == scope;
    group_like.then(|| message.name().to_owned())
}

/// Whether `text` is identifiers joined by dots, as the parser reads type
/// names and `Any` domains.
pub(super) fn is_dotted_identifier(text: &str) -> bool {
    text.split('.').all(|part| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The field named `name` in `descriptor`: by field name, or by type name
/// for a group-like field.
pub(super) fn find_field(descriptor: &MessageDescriptor, name: &str) -> Option<FieldDescriptor> {
    if let Some(field) = descriptor.get_field_by_name(name) {
        return Some(field);
    }
    let field = descriptor.get_field_by_name(&name.to_ascii_lowercase())?;
    (group_type_name(&field).as_deref() == Some(name)).then_some(field)
}

/// The extension of `descriptor` named `name`: by full name, or for a
/// message set item by its type's full name, as the printer names it.
pub(super) fn find_extension(
    descriptor: &MessageDescriptor,
    name: &str,
) -> Option<FieldDescriptor> {
    let pool = descriptor.pool();
    if let Some(extension) = pool.get_extension_by_name(name) {
        return (extension.containing_message() == *descriptor).then_some(extension);
    }
    if !descriptor.options().message_set_wire_format() {
        return None;
    }
    pool.extensions_of(descriptor)
        .find(|extension| printable_extension_name(extension) == name)
}

/// The message type `name` that an expanded `Any` (of type `any`) holds,
/// looked up in `types` (the pool of the message printed or parsed), then
/// in the `Any`'s own pool, then among the well-known types, which every
/// `Any` can hold, as in JSON (`buffa-types` registers them all). The
/// name is taken literally, as JSON takes it: a full name never starts
/// with a dot, so `.pkg.Msg` names no type (the pool's lookups would
/// forgive the dot).
pub(super) fn find_any_type(
    types: &DescriptorPool,
    any: &MessageDescriptor,
    name: &str,
) -> Option<MessageDescriptor> {
    if name.starts_with('.') {
        return None;
    }
    types
        .get_message_by_name(name)
        .or_else(|| any.pool().get_message_by_name(name))
        .or_else(|| {
            crate::well_known::google::protobuf::descriptor_pool().get_message_by_name(name)
        })
}
