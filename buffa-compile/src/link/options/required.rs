//! Required fields an aggregate value leaves unset: C++'s text parser
//! rejects such a value ("Message missing required fields: a, inner.x"),
//! buffa-reflect's does not check.

use buffa_descriptor::{Cardinality, DescriptorPool, Kind, MessageDescriptor};

use super::wire::{self, LEN, START_GROUP};

/// How deep the search follows nested messages.
const MAX_DEPTH: u32 = 100;

/// The paths of the required fields unset in `bytes`, an encoded
/// `message`, named as C++'s `FindInitializationErrors` names them: this
/// message's own first (in declaration order), then those of its message
/// fields in field-number order (`inner.x`, `list[0].x`, `(pkg.ext).y`).
pub(crate) fn missing(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
) -> Vec<String> {
    let mut out = Vec::new();
    find(bytes, message, pool, "", &mut out, 0);
    out
}

/// [`missing`] under `prefix`, at nesting `depth`.
fn find(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    prefix: &str,
    out: &mut Vec<String>,
    depth: u32,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(records) = wire::records(bytes) else {
        return;
    };
    for field in message.fields() {
        if field.cardinality() == Cardinality::Required
            && !records.iter().any(|r| r.number == field.number())
        {
            out.push(format!("{prefix}{}", field.name()));
        }
    }
    let mut numbers: Vec<u32> = records.iter().map(|r| r.number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    for number in numbers {
        let Some(field) = wire::field_of(message, pool, number) else {
            continue;
        };
        let Kind::Message(sub) = field.kind() else {
            continue;
        };
        let expected = if field.is_group() { START_GROUP } else { LEN };
        let values: Vec<&[u8]> = records
            .iter()
            .filter(|r| r.number == number && r.wire_type == expected)
            .map(|r| r.value)
            .collect();
        let name = if field.is_extension() {
            format!("({})", field.full_name())
        } else {
            field.name().to_owned()
        };
        if field.cardinality() == Cardinality::Repeated {
            for (i, value) in values.iter().enumerate() {
                find(
                    value,
                    &sub,
                    pool,
                    &format!("{prefix}{name}[{i}]."),
                    out,
                    depth + 1,
                );
            }
        } else if !values.is_empty() {
            find(
                &values.concat(),
                &sub,
                pool,
                &format!("{prefix}{name}."),
                out,
                depth + 1,
            );
        }
    }
}
