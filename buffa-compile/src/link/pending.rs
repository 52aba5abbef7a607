//! The file as the option interpreter's pool holds it: linked, options not
//! yet interpreted.
//!
//! protoc interprets options before it validates a file, so nothing it
//! checks then depends on options. The pool checks a file as it is added,
//! reading its options and features; a file whose options are still
//! uninterpreted would fail checks its options would pass (aliases
//! without `allow_alias`, a MessageSet's extension ranges, JSON name or
//! enum rules a feature relaxes, rules the linker reports in protoc's
//! words). The copy added for interpretation sets
//! the options that relax those checks; the file itself, interpreted, is
//! checked in full afterwards.

use buffa::MessageField;
use buffa_types::google::protobuf::feature_set::EnumType;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FeatureSet, FileDescriptorProto,
};

/// The largest field number plus one: the end of the widest extension
/// range of a message that is not a MessageSet.
const FIELD_RANGE_END: i32 = 1 << 29;

/// `file` (a copy of the file being linked) with the checks that its
/// uninterpreted options could relax relaxed, for the pool the options
/// are interpreted against.
pub(crate) fn for_interpretation(mut file: FileDescriptorProto) -> FileDescriptorProto {
    for message in &mut file.message_type {
        relax_message(message);
    }
    for enumeration in &mut file.enum_type {
        relax_enum(enumeration);
    }
    file
}

/// [`for_interpretation`] for a message and what it nests.
fn relax_message(message: &mut DescriptorProto) {
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
        relax_enum(enumeration);
    }
    for nested in &mut message.nested_type {
        relax_message(nested);
    }
}

/// [`for_interpretation`] for an enum: aliases allowed.
fn relax_enum(enumeration: &mut EnumDescriptorProto) {
    enumeration.options.get_or_insert_default().allow_alias = Some(true);
}

/// Calls `f` with the `SourceCodeInfo` path of each element of `file` that
/// has options, and its options' `features`.
pub(crate) fn visit_features(
    file: &mut FileDescriptorProto,
    f: &mut dyn FnMut(&[i32], &mut MessageField<FeatureSet>),
) {
    if let Some(options) = file.options.as_option_mut() {
        f(&[], &mut options.features);
    }
    for (i, message) in file.message_type.iter_mut().enumerate() {
        visit_message(message, &mut vec![4, i as i32], f);
    }
    for (i, enumeration) in file.enum_type.iter_mut().enumerate() {
        visit_enum(enumeration, &mut vec![5, i as i32], f);
    }
    for (i, service) in file.service.iter_mut().enumerate() {
        if let Some(options) = service.options.as_option_mut() {
            f(&[6, i as i32], &mut options.features);
        }
        for (j, method) in service.method.iter_mut().enumerate() {
            if let Some(options) = method.options.as_option_mut() {
                f(&[6, i as i32, 2, j as i32], &mut options.features);
            }
        }
    }
    for (i, extension) in file.extension.iter_mut().enumerate() {
        if let Some(options) = extension.options.as_option_mut() {
            f(&[7, i as i32], &mut options.features);
        }
    }
}

/// [`visit_features`] for a message and what it holds.
fn visit_message(
    message: &mut DescriptorProto,
    path: &mut Vec<i32>,
    f: &mut dyn FnMut(&[i32], &mut MessageField<FeatureSet>),
) {
    if let Some(options) = message.options.as_option_mut() {
        f(path, &mut options.features);
    }
    let base = path.len();
    for (tag, fields) in [(2, &mut message.field), (6, &mut message.extension)] {
        for (i, field) in fields.iter_mut().enumerate() {
            if let Some(options) = field.options.as_option_mut() {
                path.extend([tag, i as i32]);
                f(path, &mut options.features);
                path.truncate(base);
            }
        }
    }
    for (i, oneof) in message.oneof_decl.iter_mut().enumerate() {
        if let Some(options) = oneof.options.as_option_mut() {
            path.extend([8, i as i32]);
            f(path, &mut options.features);
            path.truncate(base);
        }
    }
    for (i, range) in message.extension_range.iter_mut().enumerate() {
        if let Some(options) = range.options.as_option_mut() {
            path.extend([5, i as i32]);
            f(path, &mut options.features);
            path.truncate(base);
        }
    }
    for (i, enumeration) in message.enum_type.iter_mut().enumerate() {
        path.extend([4, i as i32]);
        visit_enum(enumeration, path, f);
        path.truncate(base);
    }
    for (i, nested) in message.nested_type.iter_mut().enumerate() {
        path.extend([3, i as i32]);
        visit_message(nested, path, f);
        path.truncate(base);
    }
}

/// [`visit_features`] for an enum and its values.
fn visit_enum(
    enumeration: &mut EnumDescriptorProto,
    path: &mut Vec<i32>,
    f: &mut dyn FnMut(&[i32], &mut MessageField<FeatureSet>),
) {
    if let Some(options) = enumeration.options.as_option_mut() {
        f(path, &mut options.features);
    }
    let base = path.len();
    for (i, value) in enumeration.value.iter_mut().enumerate() {
        if let Some(options) = value.options.as_option_mut() {
            path.extend([2, i as i32]);
            f(path, &mut options.features);
            path.truncate(base);
        }
    }
}

/// What [`for_interpretation`] relaxes once the file's builtin options
/// are interpreted into it: a proto2 or proto3 file's features cleared
/// (the linker reports them in protoc's words,
/// [`super::option_checks::feature_resolution`]), and in an
/// editions file every enum whose first value is not zero closed (the
/// linker checks open ones, [`super::checks::validate`]); and extension
/// declarations dropped (the linker checks them once the file is
/// interpreted, at protoc's positions: [`super::declarations`]).
pub(crate) fn after_builtin_options(file: &mut FileDescriptorProto) {
    fn drop_declarations(messages: &mut [DescriptorProto]) {
        for message in messages {
            for range in &mut message.extension_range {
                if let Some(options) = range.options.as_option_mut() {
                    options.declaration.clear();
                }
            }
            drop_declarations(&mut message.nested_type);
        }
    }
    drop_declarations(&mut file.message_type);
    if file.edition.is_none() {
        visit_features(file, &mut |_, features| features.clear());
        return;
    }
    fn close(enums: &mut [EnumDescriptorProto]) {
        for enumeration in enums {
            if enumeration.value.first().is_some_and(|v| v.number() != 0) {
                let options = enumeration.options.get_or_insert_default();
                options.features.get_or_insert_default().enum_type = Some(EnumType::Closed);
            }
        }
    }
    fn close_in(messages: &mut [DescriptorProto]) {
        for message in messages {
            close(&mut message.enum_type);
            close_in(&mut message.nested_type);
        }
    }
    close(&mut file.enum_type);
    close_in(&mut file.message_type);
}
