//! Encoding a [`DynamicMessage`] in the binary format, in two passes as
//! generated messages encode: the first computes the length and records
//! every nested length (messages, map entries, packed runs) in order, the
//! second writes into a buffer reserved once at that length.
//!
//! The output is the bytes a generated message with the same data writes:
//! fields in number order (extensions among them), each map entry with its
//! key and value, then the unknown fields as they were read.

use buffa::__private::{tag_len, varint_len, zigzag_encode32, zigzag_encode64};
use buffa::{EncodeError, EncodeErrorKind, EncodeOptions, MAX_MESSAGE_LEN, WireType};

use super::DynamicMessage;
use super::decode::put_varint;
use crate::value::{Value, ValueRef};
use crate::{FieldDescriptor, Kind};

/// The encoding of `message` under `options`.
pub(super) fn encode(
    message: &DynamicMessage,
    options: &EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    let mut sizes = Sizes {
        lengths: Vec::new(),
        depth_remaining: options.recursion_limit(),
        too_deep: false,
    };
    let len = sizes.message(message);
    let error = |kind| EncodeError::new(kind, message.descriptor.full_name().to_owned());
    if sizes.too_deep {
        return Err(error(EncodeErrorKind::RecursionLimitExceeded {
            limit: options.recursion_limit(),
        }));
    }
    if len > MAX_MESSAGE_LEN {
        return Err(error(EncodeErrorKind::MessageTooLarge { length: len }));
    }
    let mut writer = Writer {
        out: Vec::with_capacity(len),
        lengths: sizes.lengths.into_iter(),
    };
    writer.message(message);
    debug_assert_eq!(writer.out.len(), len);
    Ok(writer.out)
}

/// The encoded length of `message`, without limits.
pub(super) fn encoded_len(message: &DynamicMessage) -> usize {
    Sizes {
        lengths: Vec::new(),
        depth_remaining: u32::MAX,
        too_deep: false,
    }
    .message(message)
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

/// The first pass: lengths.
struct Sizes {
    /// Every nested length, in the order the write pass needs them.
    lengths: Vec<usize>,
    depth_remaining: u32,
    too_deep: bool,
}

impl Sizes {
    fn message(&mut self, message: &DynamicMessage) -> usize {
        let mut len = message.unknown.encoded_len();
        for (field, value) in written_fields(message) {
            len += self.field(&field, value);
        }
        len
    }

    /// A nested message's length, recorded; the body counts one level.
    fn nested(&mut self, message: &DynamicMessage) -> usize {
        if self.depth_remaining == 0 {
            self.too_deep = true;
            return 0;
        }
        self.depth_remaining -= 1;
        let slot = self.reserve();
        let len = self.message(message);
        self.lengths[slot] = len;
        self.depth_remaining += 1;
        len
    }

    fn reserve(&mut self) -> usize {
        self.lengths.push(0);
        self.lengths.len() - 1
    }

    fn field(&mut self, field: &FieldDescriptor, value: &Value) -> usize {
        let key = tag_len(field.number());
        match value {
            Value::List(list) if field.is_packed() => {
                let slot = self.reserve();
                let kind = field.kind();
                let payload: usize = list.iter().map(|v| scalar_len(&kind, v.as_ref())).sum();
                self.lengths[slot] = payload;
                key + varint_len(payload as u64) + payload
            }
            Value::List(list) => list.iter().map(|v| self.element(field, key, v)).sum(),
            Value::Map(map) => {
                let Kind::Message(entry) = field.kind() else {
                    return 0;
                };
                // Each entry is a nested message one level down, as
                // decoding counts it; entries are siblings, so one level
                // covers them all.
                if self.depth_remaining == 0 {
                    self.too_deep = true;
                    return 0;
                }
                self.depth_remaining -= 1;
                let key_kind = entry.map_entry_key_field().kind();
                let value_field = entry.map_entry_value_field();
                let mut total = 0;
                for (map_key, map_value) in map {
                    let slot = self.reserve();
                    let len = 1
                        + scalar_len(&key_kind, map_key.as_ref().into())
                        + self.element(&value_field, tag_len(2), map_value);
                    self.lengths[slot] = len;
                    total += key + varint_len(len as u64) + len;
                }
                self.depth_remaining += 1;
                total
            }
            _ => self.element(field, key, value),
        }
    }

    /// One value of `field` behind its key of `key` bytes.
    fn element(&mut self, field: &FieldDescriptor, key: usize, value: &Value) -> usize {
        match value {
            Value::Message(nested) if field.is_group() => 2 * key + self.nested(nested),
            Value::Message(nested) => {
                let len = self.nested(nested);
                key + varint_len(len as u64) + len
            }
            scalar => key + scalar_len(&field.kind(), scalar.as_ref()),
        }
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

/// The second pass: bytes.
struct Writer {
    out: Vec<u8>,
    lengths: std::vec::IntoIter<usize>,
}

impl Writer {
    fn message(&mut self, message: &DynamicMessage) {
        for (field, value) in written_fields(message) {
            self.field(&field, value);
        }
        self.out.extend_from_slice(message.unknown.as_bytes());
    }

    fn next_length(&mut self) -> usize {
        self.lengths.next().unwrap_or_default()
    }

    fn key(&mut self, number: u32, wire_type: WireType) {
        put_varint(&mut self.out, u64::from(number << 3 | wire_type as u32));
    }

    fn field(&mut self, field: &FieldDescriptor, value: &Value) {
        let number = field.number();
        match value {
            Value::List(list) if field.is_packed() => {
                self.key(number, WireType::LengthDelimited);
                let len = self.next_length();
                put_varint(&mut self.out, len as u64);
                let kind = field.kind();
                for element in list {
                    self.scalar(&kind, element.as_ref());
                }
            }
            Value::List(list) => {
                for element in list {
                    self.element(field, number, element);
                }
            }
            Value::Map(map) => {
                let Kind::Message(entry) = field.kind() else {
                    return;
                };
                let key_field = entry.map_entry_key_field();
                let value_field = entry.map_entry_value_field();
                let key_kind = key_field.kind();
                for (map_key, map_value) in map {
                    self.key(number, WireType::LengthDelimited);
                    let len = self.next_length();
                    put_varint(&mut self.out, len as u64);
                    self.key(1, key_kind.wire_type());
                    self.scalar(&key_kind, map_key.as_ref().into());
                    self.element(&value_field, 2, map_value);
                }
            }
            _ => self.element(field, number, value),
        }
    }

    /// One value of `field` behind key `number`.
    fn element(&mut self, field: &FieldDescriptor, number: u32, value: &Value) {
        match value {
            Value::Message(nested) if field.is_group() => {
                self.key(number, WireType::StartGroup);
                self.next_length();
                self.message(nested);
                self.key(number, WireType::EndGroup);
            }
            Value::Message(nested) => {
                self.key(number, WireType::LengthDelimited);
                let len = self.next_length();
                put_varint(&mut self.out, len as u64);
                self.message(nested);
            }
            scalar => {
                let kind = field.kind();
                self.key(number, kind.wire_type());
                self.scalar(&kind, scalar.as_ref());
            }
        }
    }

    /// A scalar of `kind` without its key.
    fn scalar(&mut self, kind: &Kind, value: ValueRef<'_>) {
        let out = &mut self.out;
        match (kind, &value) {
            (Kind::Sint32, ValueRef::I32(v)) => put_varint(out, u64::from(zigzag_encode32(*v))),
            (Kind::Sint64, ValueRef::I64(v)) => put_varint(out, zigzag_encode64(*v)),
            (Kind::Sfixed32, ValueRef::I32(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (Kind::Sfixed64, ValueRef::I64(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (Kind::Fixed32, ValueRef::U32(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (Kind::Fixed64, ValueRef::U64(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (_, ValueRef::F32(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (_, ValueRef::F64(v)) => out.extend_from_slice(&v.to_le_bytes()),
            (_, ValueRef::Bool(v)) => out.push(u8::from(*v)),
            (_, ValueRef::I32(v) | ValueRef::EnumNumber(v)) => put_varint(out, *v as i64 as u64),
            (_, ValueRef::I64(v)) => put_varint(out, *v as u64),
            (_, ValueRef::U32(v)) => put_varint(out, u64::from(*v)),
            (_, ValueRef::U64(v)) => put_varint(out, *v),
            (_, ValueRef::String(v)) => {
                put_varint(out, v.len() as u64);
                out.extend_from_slice(v.as_bytes());
            }
            (_, ValueRef::Bytes(v)) => {
                put_varint(out, v.len() as u64);
                out.extend_from_slice(v);
            }
            (_, ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_)) => {}
        }
    }
}
