//! Extensions of generated messages through reflection.
//!
//! A generated message keeps its extensions encoded among its unknown
//! fields, as the binary format delivered them. Reflection reads one by
//! decoding its occurrences into a [`DynamicMessage`] of the extended
//! type, which knows the extension, and writes one by encoding a value
//! through such a message; the bytes stay the only copy.

use buffa::{EncodeOptions, UnknownFields, UnknownValue};

use crate::dynamic::DynamicMessage;
use crate::reflect::{ReflectError, ReflectMessage};
use crate::value::Value;
use crate::{FieldDescriptor, Kind};

/// Whether `unknown` holds `extension`: an occurrence of a message
/// extension with a message's wire type (not decoded), or a scalar
/// extension that decodes to a value.
pub(crate) fn has(unknown: &UnknownFields, extension: &FieldDescriptor) -> bool {
    let number = extension.number();
    match extension.kind() {
        Kind::Message(_) => unknown.iter().any(|field| {
            field.number == number
                && match field.value {
                    UnknownValue::Group(_) => extension.is_group(),
                    UnknownValue::LengthDelimited(_) => !extension.is_group(),
                    _ => false,
                }
        }),
        _ => get(unknown, extension).is_some(),
    }
}

/// The value of `extension` decoded from its occurrences in `unknown`, or
/// `None` if it has none that decode.
pub(crate) fn get(unknown: &UnknownFields, extension: &FieldDescriptor) -> Option<Value> {
    let number = extension.number();
    if !unknown.iter().any(|field| field.number == number) {
        return None;
    }
    let mut occurrences = unknown.clone();
    occurrences.retain(|field| field.number == number);
    // The extended type of the extension's own pool knows it; occurrences
    // of another wire type stay unknown there.
    let holder = DynamicMessage::decode(extension.containing_message(), occurrences.as_bytes());
    holder.ok()?.field_by_number(number).cloned()
}

/// Replaces the occurrences of `extension` in `unknown` with `value`
/// encoded; on an error (a value that does not fit, or cannot be
/// encoded) `unknown` is unchanged.
pub(crate) fn set(
    unknown: &mut UnknownFields,
    extension: &FieldDescriptor,
    value: Value,
) -> Result<(), ReflectError> {
    let mut holder = DynamicMessage::new(extension.containing_message());
    holder.set_field(extension, value)?;
    let encoded = holder
        .encode_to_vec_with_options(&EncodeOptions::new())
        .map_err(|error| {
            ReflectError::new(format!(
                "cannot encode extension {}: {error}",
                extension.full_name()
            ))
        })?;
    let number = extension.number();
    unknown.retain(|field| field.number != number);
    unknown
        .push_raw(&encoded)
        .expect("a dynamic message encodes whole, well-formed fields");
    Ok(())
}

/// Removes every occurrence of `extension` from `unknown`.
pub(crate) fn clear(unknown: &mut UnknownFields, extension: &FieldDescriptor) {
    let number = extension.number();
    unknown.retain(|field| field.number != number);
}

/// The extensions `message` keeps encoded among its unknown fields, as a
/// dynamic message of its type holding them decoded, whose unknown fields
/// are the rest, in their order; `None` when it keeps none (a dynamic
/// message stores its extensions as fields), or when its unknown fields
/// do not decode as its type, or hold one of its fields (put there by
/// hand): they are then read as unknown fields only.
pub(crate) fn decode_kept(message: &dyn ReflectMessage) -> Option<DynamicMessage> {
    let unknown = message.unknown_fields();
    if unknown.is_empty() {
        return None;
    }
    let descriptor = message.descriptor();
    let pool = descriptor.pool();
    if !unknown.iter().any(|field| {
        pool.get_extension_by_number(&descriptor, field.number)
            .is_some()
    }) {
        return None;
    }
    let kept = DynamicMessage::decode(descriptor, unknown.as_bytes()).ok()?;
    let fields = kept.set_fields();
    if fields.is_empty() || fields.iter().any(|(field, _)| !field.is_extension()) {
        return None;
    }
    Some(kept)
}
