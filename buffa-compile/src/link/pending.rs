//! The file as the option interpreter's pool holds it: linked, options not
//! yet interpreted.
//!
//! protoc interprets options before it validates a file, so nothing it
//! checks then depends on options. The pool checks a file as it is added,
//! reading its options and features; a file whose options are still
//! uninterpreted would fail checks its options would pass (aliases
//! without `allow_alias`, a MessageSet's extension ranges, JSON name or
//! enum rules a feature relaxes). The copy added for interpretation sets
//! the options that relax those checks; the file itself, interpreted, is
//! checked in full afterwards.

use buffa_types::google::protobuf::feature_set::EnumType;
use buffa_types::google::protobuf::{DescriptorProto, EnumDescriptorProto, FileDescriptorProto};

/// The largest field number plus one: the end of the widest extension
/// range of a message that is not a MessageSet.
const FIELD_RANGE_END: i32 = 1 << 29;

/// `file` with the checks that its uninterpreted options could relax
/// relaxed, for the pool the options are interpreted against.
pub(crate) fn for_interpretation(file: &FileDescriptorProto) -> FileDescriptorProto {
    let mut file = file.clone();
    let editions = file.edition.is_some();
    for message in &mut file.message_type {
        relax_message(message, editions);
    }
    for enumeration in &mut file.enum_type {
        relax_enum(enumeration, editions);
    }
    file
}

/// [`for_interpretation`] for a message and what it nests.
fn relax_message(message: &mut DescriptorProto, editions: bool) {
    let options = message.options.get_or_insert_default();
    options.deprecated_legacy_json_field_conflicts = Some(true);
    if message
        .extension_range
        .iter()
        .any(|r| r.end() > FIELD_RANGE_END)
    {
        message
            .options
            .get_or_insert_default()
            .message_set_wire_format = Some(true);
    }
    for enumeration in &mut message.enum_type {
        relax_enum(enumeration, editions);
    }
    for nested in &mut message.nested_type {
        relax_message(nested, editions);
    }
}

/// [`for_interpretation`] for an enum: aliases allowed, and in an editions
/// file (where a feature may close it) a first value other than zero.
fn relax_enum(enumeration: &mut EnumDescriptorProto, editions: bool) {
    let closes = editions && enumeration.value.first().is_some_and(|v| v.number() != 0);
    let options = enumeration.options.get_or_insert_default();
    options.allow_alias = Some(true);
    if closes {
        options.features.get_or_insert_default().enum_type = Some(EnumType::Closed);
    }
}
