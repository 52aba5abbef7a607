//! Decoding the binary format into a [`DynamicMessage`], by the same rules
//! generated messages follow: a known field with a wire type its
//! declaration does not allow is an error, a closed enum's undeclared
//! number goes to the unknown fields, a oneof keeps its last member, a
//! message seen twice is merged.

use std::collections::BTreeMap;

use buffa::wire::{Decoder, Encoder, Tag, tag_len, zigzag_decode32, zigzag_decode64};
use buffa::{DecodeError, DecodeErrorKind, DecodeOptions, UnknownFields, WireType};

use super::DynamicMessage;
use crate::value::{MapKey, Value};
use crate::{FieldDescriptor, Kind};

/// Merges `bytes` into `message`.
pub(super) fn merge(
    message: &mut DynamicMessage,
    bytes: &[u8],
    options: &DecodeOptions,
) -> Result<(), DecodeError> {
    let mut decoder = Decoder::new(bytes, options)?;
    merge_fields(message, &mut decoder, None)
}

/// Merges fields up to the end of the decoder's input or, for a group, up
/// to the end-group key of field `group`.
fn merge_fields(
    message: &mut DynamicMessage,
    decoder: &mut Decoder<'_>,
    group: Option<u32>,
) -> Result<(), DecodeError> {
    while let Some(tag) = decoder.read_tag()? {
        if tag.wire_type() == WireType::EndGroup {
            return match group {
                Some(number) => decoder.check_end_group(tag, number),
                None => Err(decoder.error(DecodeErrorKind::UnmatchedEndGroup {
                    field_number: tag.field_number(),
                })),
            };
        }
        match message.field_descriptor(tag.field_number()) {
            // Generated code keeps extensions among its unknown fields and
            // reads them on demand, skipping occurrences whose wire type
            // cannot hold the value: such an occurrence stays unknown here
            // too, rather than failing the decode.
            Some(field) if field.is_extension() && !wire_type_fits(&field, tag.wire_type()) => {
                decoder.skip_to_unknown(tag, &mut message.unknown)?
            }
            Some(field) => merge_field(message, &field, tag, decoder).map_err(|e| {
                e.in_field(message.descriptor.full_name().to_owned(), field.number())
            })?,
            None => decoder.skip_to_unknown(tag, &mut message.unknown)?,
        }
    }
    match group {
        Some(field_number) => Err(decoder.error(DecodeErrorKind::MissingEndGroup { field_number })),
        None => Ok(()),
    }
}

/// Whether an occurrence of `field` may have `wire_type`: its own, or
/// length-delimited for a packed run of a repeated scalar.
fn wire_type_fits(field: &FieldDescriptor, wire_type: WireType) -> bool {
    let kind = field.kind();
    let own = match kind {
        Kind::Message(_) if field.is_group() => WireType::StartGroup,
        Kind::Message(_) => WireType::LengthDelimited,
        _ => kind.wire_type(),
    };
    wire_type == own
        || (field.is_list() && kind.is_packable() && wire_type == WireType::LengthDelimited)
}

/// Merges one occurrence of a known field (or extension).
fn merge_field(
    message: &mut DynamicMessage,
    field: &FieldDescriptor,
    tag: Tag,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    let number = field.number();
    if field.is_map() {
        return merge_map_entry(message, field, tag, decoder);
    }
    let kind = field.kind();
    if field.is_list() {
        let Value::List(list) = message
            .fields
            .entry(number)
            .or_insert_with(|| Value::List(Vec::new()))
        else {
            unreachable!("a repeated field holds a list");
        };
        let unknown = &mut message.unknown;
        merge_list(field, &kind, list, unknown, tag, decoder)?;
        if list.is_empty() {
            // An empty packed run, or one of undeclared closed-enum
            // numbers only: the field stays unset.
            message.fields.remove(&number);
        }
        return Ok(());
    }
    if let Kind::Message(_) = kind {
        clear_oneof_siblings(message, field);
        let entry = message.fields.entry(number);
        let value = match entry {
            std::collections::btree_map::Entry::Occupied(occupied) => occupied.into_mut(),
            std::collections::btree_map::Entry::Vacant(vacant) => {
                decoder.charge(size_of::<DynamicMessage>())?;
                vacant.insert(Value::default_of(&kind))
            }
        };
        let Value::Message(nested) = value else {
            unreachable!("a message field holds a message");
        };
        return merge_message(nested, field, tag, decoder);
    }
    match read_scalar(field, &kind, tag, decoder)? {
        Scalar::Known(value) => {
            clear_oneof_siblings(message, field);
            message.store(field, value);
        }
        Scalar::UndeclaredEnum(raw) => push_varint(&mut message.unknown, number, raw, decoder)?,
    }
    Ok(())
}

/// Merges one occurrence of a repeated field: one element, or a packed
/// run of them.
fn merge_list(
    field: &FieldDescriptor,
    kind: &Kind,
    list: &mut Vec<Value>,
    unknown: &mut UnknownFields,
    tag: Tag,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    if let Kind::Message(descriptor) = kind {
        decoder.charge(size_of::<Value>())?;
        let mut nested = DynamicMessage::new(descriptor.clone());
        merge_message(&mut nested, field, tag, decoder)?;
        list.push(Value::Message(nested));
        return Ok(());
    }
    if tag.wire_type() == WireType::LengthDelimited && kind.is_packable() {
        return decoder.read_packed(|_, packed| {
            while !packed.is_empty() {
                let element = read_scalar_value(kind, packed)?;
                push_element(list, unknown, field.number(), element, packed)?;
            }
            Ok(())
        });
    }
    let element = read_scalar(field, kind, tag, decoder)?;
    push_element(list, unknown, field.number(), element, decoder)
}

/// Appends a decoded element, or keeps an undeclared closed-enum number
/// among the unknown fields.
fn push_element(
    list: &mut Vec<Value>,
    unknown: &mut UnknownFields,
    number: u32,
    element: Scalar,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    match element {
        Scalar::Known(value) => {
            decoder.charge(size_of::<Value>())?;
            list.push(value);
            Ok(())
        }
        Scalar::UndeclaredEnum(raw) => push_varint(unknown, number, raw, decoder),
    }
}

/// Merges a message or group occurrence into `nested`.
fn merge_message(
    nested: &mut DynamicMessage,
    field: &FieldDescriptor,
    tag: Tag,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    if field.is_group() {
        decoder.check_wire_type(tag, WireType::StartGroup)?;
        decoder.read_group(|d| merge_fields(nested, d, Some(tag.field_number())))
    } else {
        decoder.check_wire_type(tag, WireType::LengthDelimited)?;
        decoder.read_nested(|d| merge_fields(nested, d, None))
    }
}

/// Merges one map entry. An entry whose value is an undeclared number of
/// a closed enum is kept whole among the unknown fields, as generated code
/// keeps it.
fn merge_map_entry(
    message: &mut DynamicMessage,
    field: &FieldDescriptor,
    tag: Tag,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    let Kind::Message(entry) = field.kind() else {
        unreachable!("a map field's kind is its entry message");
    };
    let key_field = entry.map_entry_key_field();
    let value_field = entry.map_entry_value_field();
    let key_kind = key_field.kind();
    let value_kind = value_field.kind();
    decoder.charge(2 * size_of::<Value>())?;
    let entry_start = decoder.remaining_slice();
    let mut key = MapKey::default_of(&key_kind);
    let mut value = Value::default_of(&value_kind);
    let known = decoder.read_nested(|d| {
        let mut known = true;
        while let Some(tag) = d.read_tag()? {
            match tag.field_number() {
                1 => match read_scalar(&key_field, &key_kind, tag, d)? {
                    Scalar::Known(read) => key = MapKey::from_value(read),
                    Scalar::UndeclaredEnum(_) => unreachable!("map keys are not enums"),
                },
                2 => match (&value_kind, &mut value) {
                    (Kind::Message(_), Value::Message(nested)) => {
                        merge_message(nested, &value_field, tag, d)?
                    }
                    // The last value wins, as in generated code: a declared
                    // number after an undeclared one makes the entry known.
                    _ => match read_scalar(&value_field, &value_kind, tag, d)? {
                        Scalar::Known(read) => {
                            value = read;
                            known = true;
                        }
                        Scalar::UndeclaredEnum(_) => known = false,
                    },
                },
                _ => d.skip_field(tag)?,
            }
        }
        Ok(known)
    })?;
    if !known {
        let consumed = entry_start.len() - decoder.remaining();
        let mut entry_bytes = vec![0; tag_len(tag.field_number()) + consumed];
        let mut encoder = Encoder::from_slice(&mut entry_bytes);
        encoder.put_tag(tag.field_number(), WireType::LengthDelimited);
        encoder.put_slice(&entry_start[..consumed]);
        decoder.charge(entry_bytes.len())?;
        return message
            .unknown
            .push_raw(&entry_bytes)
            .map_err(|e| e.in_field(field.full_name().to_owned(), field.number()));
    }
    let Some(key) = key else {
        unreachable!("map keys are of key types");
    };
    let Value::Map(map) = message
        .fields
        .entry(field.number())
        .or_insert_with(|| Value::Map(BTreeMap::new()))
    else {
        unreachable!("a map field holds a map");
    };
    map.insert(key, value);
    Ok(())
}

/// A scalar read from the wire.
enum Scalar {
    /// A value of the field's kind.
    Known(Value),
    /// A number a closed enum does not declare, to keep as unknown.
    UndeclaredEnum(u64),
}

/// Reads one unpacked scalar of a field, checking its wire type.
fn read_scalar(
    field: &FieldDescriptor,
    kind: &Kind,
    tag: Tag,
    decoder: &mut Decoder<'_>,
) -> Result<Scalar, DecodeError> {
    debug_assert!(!matches!(kind, Kind::Message(_)), "{}", field.full_name());
    decoder.check_wire_type(tag, kind.wire_type())?;
    read_scalar_value(kind, decoder)
}

/// Reads one scalar of `kind` (its wire type already checked).
fn read_scalar_value(kind: &Kind, decoder: &mut Decoder<'_>) -> Result<Scalar, DecodeError> {
    let value = match kind {
        Kind::Double => Value::F64(f64::from_bits(decoder.read_fixed64()?)),
        Kind::Float => Value::F32(f32::from_bits(decoder.read_fixed32()?)),
        Kind::Int64 => Value::I64(decoder.read_varint()? as i64),
        Kind::Uint64 => Value::U64(decoder.read_varint()?),
        Kind::Int32 => Value::I32(decoder.read_varint()? as i32),
        Kind::Fixed64 => Value::U64(decoder.read_fixed64()?),
        Kind::Fixed32 => Value::U32(decoder.read_fixed32()?),
        Kind::Bool => Value::Bool(decoder.read_varint()? != 0),
        Kind::String => {
            let text = decoder.read_str()?;
            decoder.charge(text.len())?;
            Value::String(text.to_owned())
        }
        Kind::Bytes => {
            let bytes = decoder.read_length_delimited()?;
            decoder.charge(bytes.len())?;
            Value::Bytes(bytes.to_vec())
        }
        Kind::Uint32 => Value::U32(decoder.read_varint()? as u32),
        Kind::Sfixed32 => Value::I32(decoder.read_fixed32()? as i32),
        Kind::Sfixed64 => Value::I64(decoder.read_fixed64()? as i64),
        Kind::Sint32 => Value::I32(zigzag_decode32(decoder.read_varint()? as u32)),
        Kind::Sint64 => Value::I64(zigzag_decode64(decoder.read_varint()?)),
        Kind::Enum(descriptor) => {
            let raw = decoder.read_varint()?;
            let number = raw as i32;
            if descriptor.is_closed() && descriptor.get_value(number).is_none() {
                return Ok(Scalar::UndeclaredEnum(raw));
            }
            Value::EnumNumber(number)
        }
        Kind::Message(_) => unreachable!("messages are not scalars"),
    };
    Ok(Scalar::Known(value))
}

/// Keeps varint `raw` of field `number` among the unknown fields.
fn push_varint(
    unknown: &mut UnknownFields,
    number: u32,
    raw: u64,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    decoder.charge(16)?;
    unknown.push_varint(number, raw);
    Ok(())
}

/// Setting a member of a oneof clears the others.
pub(super) fn clear_oneof_siblings(message: &mut DynamicMessage, field: &FieldDescriptor) {
    if let Some(oneof) = field.containing_oneof() {
        for member in oneof.fields() {
            if member.number() != field.number() {
                message.fields.remove(&member.number());
            }
        }
    }
}
