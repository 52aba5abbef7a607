//! Feature and option lifetimes: an option, a feature or an enum value
//! used in an edition before the one that introduced it, or from the one
//! that removed it, is an error (protoc's `ValidateFeatureLifetimes`,
//! which runs once a file is built; deprecation warnings are not errors).

use buffa_descriptor::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};
use buffa_types::google::protobuf::field_options::FeatureSupport;

use super::wire::{self, VARINT};

/// How deep the check follows nested messages.
const MAX_DEPTH: u32 = 100;

/// The lifetime errors of an element's options, `bytes` encoding a
/// `message` (its features first, then the rest, as protoc checks them),
/// in a file of `edition` (its number: 998 for proto2, 999 for proto3).
pub(crate) fn errors(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    edition: i32,
) -> Vec<String> {
    let mut out = Vec::new();
    let features = message.get_field_by_name("features").map(|f| f.number());
    let records = wire::records(bytes).unwrap_or_default();
    let (features_bytes, rest): (Vec<&wire::Record<'_>>, Vec<&wire::Record<'_>>) =
        records.iter().partition(|r| Some(r.number) == features);
    if let (Some(number), false) = (features, features_bytes.is_empty())
        && let Some(field) = message.get_field(number)
        && let Kind::Message(feature_set) = field.kind()
    {
        let payload: Vec<u8> = features_bytes
            .iter()
            .flat_map(|r| r.value.to_vec())
            .collect();
        check(&payload, &feature_set, pool, edition, &mut out, 0);
    }
    let rest: Vec<u8> = rest.iter().flat_map(|r| r.raw.to_vec()).collect();
    check(&rest, message, pool, edition, &mut out, 0);
    out
}

/// Checks the fields set in `bytes`, in field-number order.
fn check(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    edition: i32,
    out: &mut Vec<String>,
    depth: u32,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(records) = wire::records(bytes) else {
        return;
    };
    let mut numbers: Vec<u32> = records.iter().map(|r| r.number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    for number in numbers {
        let Some(field) = wire::field_of(message, pool, number) else {
            continue;
        };
        let values = records.iter().filter(|r| r.number == number);
        match field.kind() {
            Kind::Message(sub) => {
                let repeated = field.cardinality() == buffa_descriptor::Cardinality::Repeated;
                if repeated {
                    for record in values {
                        check(record.value, &sub, pool, edition, out, depth + 1);
                    }
                } else {
                    let merged: Vec<u8> = values.flat_map(|r| r.value.to_vec()).collect();
                    check(&merged, &sub, pool, edition, out, depth + 1);
                }
            }
            Kind::Enum(enum_type) => {
                let mut numbers = Vec::new();
                for record in values {
                    let mut at = 0;
                    if record.wire_type == VARINT {
                        numbers.extend(varint(record.value, &mut at));
                    } else {
                        while let Some(n) = varint(record.value, &mut at) {
                            numbers.push(n);
                        }
                    }
                }
                if field.cardinality() != buffa_descriptor::Cardinality::Repeated {
                    numbers = numbers.last().copied().into_iter().collect();
                }
                for n in numbers {
                    if let Some(value) = enum_type.get_value(n as i32)
                        && let Some(support) = value.options().feature_support.as_option()
                    {
                        single(edition, value.full_name(), support, pool, out);
                    }
                }
            }
            _ => {}
        }
        check_field(&field, edition, pool, out);
    }
}

/// Checks the lifetime of `field` itself.
fn check_field(
    field: &FieldDescriptor,
    edition: i32,
    pool: &DescriptorPool,
    out: &mut Vec<String>,
) {
    if let Some(support) = field.options().feature_support.as_option() {
        single(edition, field.full_name(), support, pool, out);
    }
}

/// protoc's `ValidateSingleFeatureLifetimes`, errors only.
fn single(
    edition: i32,
    full_name: &str,
    support: &FeatureSupport,
    pool: &DescriptorPool,
    out: &mut Vec<String>,
) {
    let introduced = support.edition_introduced.map_or(0, |e| e as i32);
    if edition < introduced {
        out.push(format!(
            "{full_name} wasn't introduced until edition {} and can't be used in edition {}",
            edition_name(introduced, pool),
            edition_name(edition, pool)
        ));
    }
    if let Some(removed) = support.edition_removed.map(|e| e as i32)
        && edition >= removed
    {
        let error = support
            .removal_error
            .as_deref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default();
        out.push(format!(
            "{full_name} has been removed in edition {}{error}",
            edition_name(removed, pool)
        ));
    }
}

/// An edition as protoc prints it: `2023`, `PROTO2`.
fn edition_name(number: i32, pool: &DescriptorPool) -> String {
    let builtin = super::names::options_type(pool, "google.protobuf.FileOptions")
        .and_then(|o| o.pool().get_enum_by_name("google.protobuf.Edition"));
    builtin
        .and_then(|e| e.get_value(number))
        .map(|v| v.name().trim_start_matches("EDITION_").to_owned())
        .unwrap_or_else(|| number.to_string())
}

/// Reads a varint at `*at`.
fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}
