//! Encoding a [`DynamicMessage`] in the binary format, through the same
//! wire layer and in the same two passes as generated messages: the size
//! pass records every nested length (messages, map entries, packed runs)
//! in a [`SizeCache`] and counts nesting against the recursion limit, the
//! write pass reads them back in the same order through an [`Encoder`]
//! over a buffer of exactly that length.
//!
//! The output is the bytes a generated message with the same data writes:
//! fields in number order (extensions among them), each map entry with its
//! key and value, then the unknown fields as they were read.

use buffa::wire::{
    Encoder, SizeCache, WireType, tag_len, varint_len, zigzag_encode32, zigzag_encode64,
};
use buffa::{EncodeError, EncodeErrorKind, EncodeOptions, MAX_MESSAGE_LEN};

use super::DynamicMessage;
use crate::value::{Value, ValueRef};
use crate::{FieldDescriptor, Kind};

/// The encoding of `message` under `options`.
pub(super) fn encode(
    message: &DynamicMessage,
    options: &EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    let mut cache = SizeCache::with_options(options);
    cache.check_unknown_depth(message.unknown.group_depth());
    let len = size_message(message, &mut cache);
    let error = |kind| EncodeError::new(kind, message.descriptor.full_name().to_owned());
    if cache.recursion_exceeded() {
        return Err(error(EncodeErrorKind::RecursionLimitExceeded {
            limit: cache.recursion_limit(),
        }));
    }
    if len > MAX_MESSAGE_LEN {
        return Err(error(EncodeErrorKind::MessageTooLarge { length: len }));
    }
    let mut out = vec![0; len];
    let mut encoder = Encoder::from_slice(&mut out);
    write_message(message, &mut cache, &mut encoder);
    debug_assert_eq!(encoder.position(), len);
    Ok(out)
}

/// The encoded length of `message`, without limits.
pub(super) fn encoded_len(message: &DynamicMessage) -> usize {
    let unlimited = EncodeOptions::new().with_recursion_limit(u32::MAX);
    size_message(message, &mut SizeCache::with_options(&unlimited))
}

/// The fields of `message` to write, with their descriptors: set fields
/// only (an implicit-presence scalar at its default is not written), in
/// number order, extensions after the message's own fields as generated
/// code writes them (among its unknown fields, behind the known ones).
fn written_fields(message: &DynamicMessage) -> impl Iterator<Item = (FieldDescriptor, &Value)> {
    let (fields, extensions): (Vec<_>, Vec<_>) = message
        .set_entries()
        .partition(|(field, _)| !field.is_extension());
    fields.into_iter().chain(extensions)
}

/// The size pass over a message's fields.
fn size_message(message: &DynamicMessage, cache: &mut SizeCache) -> usize {
    let mut len = message.unknown.encoded_len();
    for (field, value) in written_fields(message) {
        len += size_field(&field, value, cache);
    }
    len
}

/// A nested message's length, recorded; the body counts one level, and
/// the groups among its unknown fields count below it.
fn size_nested(message: &DynamicMessage, cache: &mut SizeCache) -> usize {
    if !cache.enter(message.unknown.group_depth()) {
        return 0;
    }
    let slot = cache.reserve();
    let len = size_message(message, cache);
    cache.set(slot, len);
    cache.leave();
    len
}

fn size_field(field: &FieldDescriptor, value: &Value, cache: &mut SizeCache) -> usize {
    let key = tag_len(field.number());
    match value {
        Value::List(list) if field.is_packed() => {
            let kind = field.kind();
            let payload: usize = list.iter().map(|v| scalar_len(&kind, v.as_ref())).sum();
            cache.push(payload);
            key + varint_len(payload as u64) + payload
        }
        Value::List(list) => list
            .iter()
            .map(|v| size_element(field, key, v, cache))
            .sum(),
        Value::Map(map) => {
            let Kind::Message(entry) = field.kind() else {
                return 0;
            };
            // Each entry is a nested message one level down, as decoding
            // counts it; entries are siblings, so one level covers them all.
            if !cache.enter(0) {
                return 0;
            }
            let key_kind = entry.map_entry_key_field().kind();
            let value_field = entry.map_entry_value_field();
            let mut total = 0;
            for (map_key, map_value) in map {
                let slot = cache.reserve();
                let len = tag_len(1)
                    + scalar_len(&key_kind, map_key.as_ref().into())
                    + size_element(&value_field, tag_len(2), map_value, cache);
                cache.set(slot, len);
                total += key + varint_len(len as u64) + len;
            }
            cache.leave();
            total
        }
        _ => size_element(field, key, value, cache),
    }
}

/// One value of `field` behind its key of `key` bytes.
fn size_element(
    field: &FieldDescriptor,
    key: usize,
    value: &Value,
    cache: &mut SizeCache,
) -> usize {
    match value {
        Value::Message(nested) if field.is_group() => 2 * key + size_nested(nested, cache),
        Value::Message(nested) => {
            let len = size_nested(nested, cache);
            key + varint_len(len as u64) + len
        }
        scalar => key + scalar_len(&field.kind(), scalar.as_ref()),
    }
}

/// The encoded length of a scalar value of `kind`, without its key.
fn scalar_len(kind: &Kind, value: ValueRef<'_>) -> usize {
    match (kind, &value) {
        (Kind::Sint32, ValueRef::I32(v)) => varint_len(u64::from(zigzag_encode32(*v))),
        (Kind::Sint64, ValueRef::I64(v)) => varint_len(zigzag_encode64(*v)),
        (Kind::Sfixed32 | Kind::Fixed32 | Kind::Float, _) => 4,
        (Kind::Sfixed64 | Kind::Fixed64 | Kind::Double, _) => 8,
        (_, ValueRef::Bool(_)) => 1,
        (_, ValueRef::I32(v) | ValueRef::EnumNumber(v)) => varint_len(*v as i64 as u64),
        (_, ValueRef::I64(v)) => varint_len(*v as u64),
        (_, ValueRef::U32(v)) => varint_len(u64::from(*v)),
        (_, ValueRef::U64(v)) => varint_len(*v),
        (_, ValueRef::F32(_)) => 4,
        (_, ValueRef::F64(_)) => 8,
        (_, ValueRef::String(v)) => varint_len(v.len() as u64) + v.len(),
        (_, ValueRef::Bytes(v)) => varint_len(v.len() as u64) + v.len(),
        (_, ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_)) => 0,
    }
}

/// The write pass over a message's fields, then its unknown fields.
fn write_message(message: &DynamicMessage, cache: &mut SizeCache, encoder: &mut Encoder<'_>) {
    for (field, value) in written_fields(message) {
        write_field(&field, value, cache, encoder);
    }
    message.unknown.write(encoder);
}

fn write_field(
    field: &FieldDescriptor,
    value: &Value,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    let number = field.number();
    match value {
        Value::List(list) if field.is_packed() => {
            encoder.put_tag(number, WireType::LengthDelimited);
            encoder.put_varint(cache.next_size() as u64);
            let kind = field.kind();
            for element in list {
                write_scalar(&kind, element.as_ref(), encoder);
            }
        }
        Value::List(list) => {
            for element in list {
                write_element(field, number, element, cache, encoder);
            }
        }
        Value::Map(map) => {
            let Kind::Message(entry) = field.kind() else {
                return;
            };
            let key_kind = entry.map_entry_key_field().kind();
            let value_field = entry.map_entry_value_field();
            for (map_key, map_value) in map {
                encoder.put_tag(number, WireType::LengthDelimited);
                encoder.put_varint(cache.next_size() as u64);
                encoder.put_tag(1, key_kind.wire_type());
                write_scalar(&key_kind, map_key.as_ref().into(), encoder);
                write_element(&value_field, 2, map_value, cache, encoder);
            }
        }
        _ => write_element(field, number, value, cache, encoder),
    }
}

/// One value of `field` behind key `number`.
fn write_element(
    field: &FieldDescriptor,
    number: u32,
    value: &Value,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    match value {
        Value::Message(nested) if field.is_group() => {
            encoder.put_tag(number, WireType::StartGroup);
            cache.next_size();
            write_message(nested, cache, encoder);
            encoder.put_tag(number, WireType::EndGroup);
        }
        Value::Message(nested) => {
            encoder.put_tag(number, WireType::LengthDelimited);
            encoder.put_varint(cache.next_size() as u64);
            write_message(nested, cache, encoder);
        }
        scalar => {
            let kind = field.kind();
            encoder.put_tag(number, kind.wire_type());
            write_scalar(&kind, scalar.as_ref(), encoder);
        }
    }
}

/// A scalar of `kind` without its key.
fn write_scalar(kind: &Kind, value: ValueRef<'_>, encoder: &mut Encoder<'_>) {
    match (kind, &value) {
        (Kind::Sint32, ValueRef::I32(v)) => encoder.put_varint(u64::from(zigzag_encode32(*v))),
        (Kind::Sint64, ValueRef::I64(v)) => encoder.put_varint(zigzag_encode64(*v)),
        (Kind::Sfixed32, ValueRef::I32(v)) => encoder.put_fixed32(*v as u32),
        (Kind::Sfixed64, ValueRef::I64(v)) => encoder.put_fixed64(*v as u64),
        (Kind::Fixed32, ValueRef::U32(v)) => encoder.put_fixed32(*v),
        (Kind::Fixed64, ValueRef::U64(v)) => encoder.put_fixed64(*v),
        (_, ValueRef::F32(v)) => encoder.put_fixed32(v.to_bits()),
        (_, ValueRef::F64(v)) => encoder.put_fixed64(v.to_bits()),
        (_, ValueRef::Bool(v)) => encoder.put_u8(u8::from(*v)),
        (_, ValueRef::I32(v) | ValueRef::EnumNumber(v)) => encoder.put_varint(*v as i64 as u64),
        (_, ValueRef::I64(v)) => encoder.put_varint(*v as u64),
        (_, ValueRef::U32(v)) => encoder.put_varint(u64::from(*v)),
        (_, ValueRef::U64(v)) => encoder.put_varint(*v),
        (_, ValueRef::String(v)) => encoder.put_length_delimited(v.as_bytes()),
        (_, ValueRef::Bytes(v)) => encoder.put_length_delimited(v),
        (_, ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_)) => {}
    }
}
