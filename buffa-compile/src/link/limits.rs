//! Edition 2026's limits: protoc's `ValidateProtoLimits`, which refuses a
//! message with more than 1,500 fields or 1,000 oneofs, a oneof with more
//! than 1,200 fields and an enum with more than 1,700 values, wherever
//! `features.enforce_proto_limits` resolves to `PROTO_LIMITS2026` (the
//! default from edition 2026; `LEGACY_NO_EXPLICIT_LIMITS` opts an element
//! and what it encloses out).
//!
//! protoc checks the limits of a file with no other error, after its
//! naming style, visiting the elements as that check does (each message,
//! then its enums, oneofs and nested messages; then the file's enums),
//! and reports each excess at the element's name (a oneof's without
//! position: its parser records none).

use buffa_types::google::protobuf::feature_set::proto_limits_feature::EnforceProtoLimits;
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, FeatureSet, FileDescriptorProto,
};

use super::locate::{ErrorLocation, Located};

/// The most fields a message may have.
const FIELDS_PER_MESSAGE: usize = 1500;
/// The most oneofs a message may have.
const ONEOFS_PER_MESSAGE: usize = 1000;
/// The most fields a oneof may have.
const FIELDS_PER_ONEOF: usize = 1200;
/// The most values an enum may have.
const VALUES_PER_ENUM: usize = 1700;

/// What protoc appends to a limit error.
const OPT_OUT: &str = " (features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS can be used to opt out of this check)";

/// The limit errors of `file` (linked, options interpreted, free of any
/// other error), in protoc's order.
pub(crate) fn validate(file: &FileDescriptorProto) -> Vec<Located> {
    let edition_default = file.syntax() == "editions"
        && file
            .edition
            .is_some_and(|e| e as i32 >= Edition::Edition2026 as i32);
    let enforced = merge(edition_default, file.options.features.as_option());
    let mut errors = Vec::new();
    for (i, message) in file.message_type.iter().enumerate() {
        check_message(message, enforced, vec![4, i as i32], &mut errors);
    }
    for (i, enumeration) in file.enum_type.iter().enumerate() {
        check_enum(enumeration, enforced, vec![5, i as i32], &mut errors);
    }
    errors
}

/// Whether the limits apply to an element whose scope's say `inherited`
/// and whose own features are `declared` (`*_UNKNOWN` sets nothing).
fn merge(inherited: bool, declared: Option<&FeatureSet>) -> bool {
    match declared.and_then(|f| f.enforce_proto_limits) {
        Some(EnforceProtoLimits::ProtoLimits2026) => true,
        Some(EnforceProtoLimits::LegacyNoExplicitLimits) => false,
        _ => inherited,
    }
}

/// A message's limits, then its enums', oneofs' and nested messages'.
fn check_message(
    message: &DescriptorProto,
    inherited: bool,
    path: Vec<i32>,
    errors: &mut Vec<Located>,
) {
    let enforced = merge(inherited, message.options.features.as_option());
    let child = |more: [i32; 2]| [path.as_slice(), &more].concat();
    if enforced {
        let name = message.name();
        if message.field.len() > FIELDS_PER_MESSAGE {
            errors.push(Located::new(
                path.clone(),
                ErrorLocation::Name,
                format!(
                    "Message name {name} should not contain more than {FIELDS_PER_MESSAGE} fields{OPT_OUT}"
                ),
            ));
        }
        if message.oneof_decl.len() > ONEOFS_PER_MESSAGE {
            errors.push(Located::new(
                path.clone(),
                ErrorLocation::Name,
                format!(
                    "Message name {name} should not contain more than {ONEOFS_PER_MESSAGE} oneofs{OPT_OUT}"
                ),
            ));
        }
    }
    for (i, enumeration) in message.enum_type.iter().enumerate() {
        check_enum(enumeration, enforced, child([4, i as i32]), errors);
    }
    for (i, oneof) in message.oneof_decl.iter().enumerate() {
        if !merge(enforced, oneof.options.features.as_option()) {
            continue;
        }
        let fields = message
            .field
            .iter()
            .filter(|f| f.oneof_index == Some(i as i32))
            .count();
        if fields > FIELDS_PER_ONEOF {
            errors.push(Located::new(
                child([8, i as i32]),
                ErrorLocation::Unrecorded,
                format!(
                    "Oneof name {} should not contain more than {FIELDS_PER_ONEOF} fields{OPT_OUT}",
                    oneof.name()
                ),
            ));
        }
    }
    for (i, nested) in message.nested_type.iter().enumerate() {
        check_message(nested, enforced, child([3, i as i32]), errors);
    }
}

/// An enum's limit.
fn check_enum(
    enumeration: &EnumDescriptorProto,
    inherited: bool,
    path: Vec<i32>,
    errors: &mut Vec<Located>,
) {
    if merge(inherited, enumeration.options.features.as_option())
        && enumeration.value.len() > VALUES_PER_ENUM
    {
        errors.push(Located::new(
            path,
            ErrorLocation::Name,
            format!(
                "Enum name {} should not contain more than {VALUES_PER_ENUM} values{OPT_OUT}",
                enumeration.name()
            ),
        ));
    }
}
