//! The wire format of interpreted options: the records protoc writes for
//! each option, and the canonical form protoc's output gives them.
//!
//! protoc writes every interpreted option as a record in the options
//! message's unknown fields; when it writes the descriptor set it decodes
//! each file as a dynamic message of the pool's `FileDescriptorProto`
//! (where every extension the pool declares is a field), strips
//! source-retention options and encodes it again. The options therefore
//! come out canonical: fields and extensions in field-number order,
//! repeated occurrences of a singular message merged, a singular scalar
//! set twice reduced to its last value, repeated scalars packed as their
//! declaration says, and only fields the pool does not know left in the
//! order they were written, after the rest. [`canonical`] computes that
//! form from any encoding of the message.

use std::cell::RefCell;

use buffa_descriptor::{Cardinality, DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};
use buffa_types::google::protobuf::field_options::OptionRetention;

/// How deep [`canonical`] follows nested messages before it leaves the
/// rest as written (the text format caps aggregate nesting well below).
const MAX_DEPTH: u32 = 100;

/// Wire type of a varint record.
pub(crate) const VARINT: u32 = 0;
/// Wire type of an 8-byte record.
pub(crate) const FIXED64: u32 = 1;
/// Wire type of a length-delimited record.
pub(crate) const LEN: u32 = 2;
/// Wire type of a start-group tag.
pub(crate) const START_GROUP: u32 = 3;
/// Wire type of an end-group tag.
pub(crate) const END_GROUP: u32 = 4;
/// Wire type of a 4-byte record.
pub(crate) const FIXED32: u32 = 5;

/// Appends `value` as a base-128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends the tag of field `number` with `wire_type`.
pub(crate) fn put_tag(out: &mut Vec<u8>, number: u32, wire_type: u32) {
    put_varint(out, (u64::from(number) << 3) | u64::from(wire_type));
}

/// Appends a length-delimited record.
pub(crate) fn put_len(out: &mut Vec<u8>, number: u32, payload: &[u8]) {
    put_tag(out, number, LEN);
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

/// Reads a varint at `*at`, advancing past it.
fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
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

/// One record of an encoded message.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Record<'a> {
    /// The field number.
    pub(crate) number: u32,
    /// The wire type.
    pub(crate) wire_type: u32,
    /// The value: the varint or fixed bytes, a length-delimited payload
    /// (without its length), or a group's body (without its end tag).
    pub(crate) value: &'a [u8],
    /// The whole record as written, tag included.
    pub(crate) raw: &'a [u8],
}

/// The records of `bytes`, or `None` when it is not a well-formed
/// encoding (groups nested beyond [`MAX_DEPTH`] included).
pub(crate) fn records(bytes: &[u8]) -> Option<Vec<Record<'_>>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (record, next) = record_at(bytes, at, 0)?;
        if record.wire_type == END_GROUP {
            return None;
        }
        out.push(record);
        at = next;
    }
    Some(out)
}

/// The record starting at `start` and the offset after it.
fn record_at(bytes: &[u8], start: usize, depth: u32) -> Option<(Record<'_>, usize)> {
    let mut at = start;
    let tag = get_varint(bytes, &mut at)?;
    let number = u32::try_from(tag >> 3).ok()?;
    let wire_type = (tag & 7) as u32;
    if number == 0 {
        return None;
    }
    let value_start = at;
    let value_end = match wire_type {
        VARINT => {
            get_varint(bytes, &mut at)?;
            at
        }
        FIXED64 => value_start.checked_add(8)?,
        FIXED32 => value_start.checked_add(4)?,
        LEN => {
            let len = usize::try_from(get_varint(bytes, &mut at)?).ok()?;
            let end = at.checked_add(len)?;
            let record = Record {
                number,
                wire_type,
                value: bytes.get(at..end)?,
                raw: bytes.get(start..end)?,
            };
            return Some((record, end));
        }
        START_GROUP => {
            if depth >= MAX_DEPTH {
                return None;
            }
            loop {
                let (inner, next) = record_at(bytes, at, depth + 1)?;
                if inner.wire_type == END_GROUP {
                    if inner.number != number {
                        return None;
                    }
                    let record = Record {
                        number,
                        wire_type,
                        value: &bytes[value_start..at],
                        raw: &bytes[start..next],
                    };
                    return Some((record, next));
                }
                at = next;
            }
        }
        END_GROUP => value_start,
        _ => return None,
    };
    let record = Record {
        number,
        wire_type,
        value: bytes.get(value_start..value_end)?,
        raw: bytes.get(start..value_end)?,
    };
    Some((record, value_end))
}

/// The field numbered `number` of `message`: a field of its own, or an
/// extension of it that `pool` declares.
pub(crate) fn field_of(
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    number: u32,
) -> Option<FieldDescriptor> {
    message
        .get_field(number)
        .or_else(|| pool.get_extension_by_number(message, number))
        .or_else(|| message.pool().get_extension_by_number(message, number))
}

/// The wire type of one (unpacked) value of `kind`.
fn value_wire_type(field: &FieldDescriptor) -> u32 {
    if field.is_group() {
        return START_GROUP;
    }
    match field.kind() {
        Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => FIXED64,
        Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => FIXED32,
        Kind::String | Kind::Bytes | Kind::Message(_) => LEN,
        _ => VARINT,
    }
}

/// The values of one known field, collected from its records.
enum Values<'a> {
    /// Scalar values (varint or fixed bytes) in order.
    Scalars(Vec<&'a [u8]>),
    /// Length-delimited payloads (strings, bytes, messages) in order.
    Payloads(Vec<&'a [u8]>),
    /// Group bodies in order.
    Groups(Vec<&'a [u8]>),
}

/// What [`canonical`] does besides ordering.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Canon<'t> {
    /// Drop fields whose options say `retention = RETENTION_SOURCE`, and
    /// options messages (`google.protobuf.*Options`) left empty by that.
    pub(crate) strip_source_retention: bool,
    /// Where to record the paths of what was stripped.
    pub(crate) trace: Option<&'t RefCell<Trace>>,
}

/// The paths of stripped fields, as protoc's `StripMessage` records them
/// for removing their source info.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    /// The path of the message being written (field numbers, and indices
    /// of repeated fields).
    pub(crate) path: Vec<i32>,
    /// Each stripped field's path.
    pub(crate) stripped: Vec<Vec<i32>>,
}

impl Canon<'_> {
    /// Records that the field `number` of the current message was
    /// stripped.
    fn stripped(&self, number: u32) {
        if let Some(trace) = self.trace {
            let mut trace = trace.borrow_mut();
            let mut path = trace.path.clone();
            path.push(number as i32);
            trace.stripped.push(path);
        }
    }

    /// Runs `f` with `steps` appended to the current path.
    fn under<R>(&self, steps: &[i32], f: impl FnOnce() -> R) -> R {
        if let Some(trace) = self.trace {
            trace.borrow_mut().path.extend_from_slice(steps);
        }
        let result = f();
        if let Some(trace) = self.trace {
            let mut trace = trace.borrow_mut();
            let len = trace.path.len() - steps.len();
            trace.path.truncate(len);
        }
        result
    }
}

/// `bytes`, an encoding of a `message`, in the form protoc's output gives
/// it (see the module documentation). Extensions are those of `pool`.
/// Input that does not decode is returned as it is.
pub(crate) fn canonical(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    canon: Canon,
) -> Vec<u8> {
    canonical_at(bytes, message, pool, canon, 0).unwrap_or_else(|| bytes.to_vec())
}

/// [`canonical`] at nesting `depth`; `None` when `bytes` does not decode.
fn canonical_at(
    bytes: &[u8],
    message: &MessageDescriptor,
    pool: &DescriptorPool,
    canon: Canon,
    depth: u32,
) -> Option<Vec<u8>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let message_set = message.options().message_set_wire_format == Some(true);
    let mut records = records(bytes)?;
    if message_set {
        for record in &mut records {
            if let Some(item) = message_set_item(record) {
                *record = item;
            }
        }
    }
    let mut known: Vec<(FieldDescriptor, Values<'_>)> = Vec::new();
    // Where each known field number is in `known`.
    let mut index: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut unknown = Vec::new();
    for record in &records {
        let Some(field) = field_of(message, pool, record.number) else {
            unknown.extend_from_slice(record.raw);
            continue;
        };
        let expected = value_wire_type(&field);
        let packed_form = record.wire_type == LEN
            && field.cardinality() == Cardinality::Repeated
            && field.kind().is_packable();
        if record.wire_type != expected && !packed_form {
            unknown.extend_from_slice(record.raw);
            continue;
        }
        let slot = match index.get(&field.number()) {
            Some(&i) => &mut known[i].1,
            None => {
                index.insert(field.number(), known.len());
                let values = match expected {
                    START_GROUP => Values::Groups(Vec::new()),
                    LEN => Values::Payloads(Vec::new()),
                    _ => Values::Scalars(Vec::new()),
                };
                known.push((field.clone(), values));
                &mut known.last_mut()?.1
            }
        };
        match slot {
            Values::Scalars(values) if packed_form => unpack(record.value, expected, values)?,
            Values::Scalars(values) | Values::Payloads(values) | Values::Groups(values) => {
                values.push(record.value)
            }
        }
    }
    known.sort_by_key(|(field, _)| field.number());
    let mut out = Vec::with_capacity(bytes.len());
    for (field, values) in known {
        if canon.strip_source_retention && is_source_retention(&field) {
            canon.stripped(field.number());
            continue;
        }
        if message_set && field.is_extension() {
            if let Values::Payloads(values) = values {
                let Kind::Message(item_type) = field.kind() else {
                    continue;
                };
                let payload = canon.under(&[field.number() as i32], || {
                    canonical_at(&values.concat(), &item_type, pool, canon, depth + 1)
                })?;
                put_tag(&mut out, 1, START_GROUP);
                put_tag(&mut out, 2, VARINT);
                put_varint(&mut out, u64::from(field.number()));
                put_len(&mut out, 3, &payload);
                put_tag(&mut out, 1, END_GROUP);
            }
            continue;
        }
        write_field(&mut out, &field, values, pool, canon, depth)?;
    }
    out.extend_from_slice(&unknown);
    Some(out)
}

/// A MessageSet item (group 1 holding `type_id` = 2 and `message` = 3)
/// as the record of the extension it holds.
fn message_set_item<'a>(record: &Record<'a>) -> Option<Record<'a>> {
    if record.number != 1 || record.wire_type != START_GROUP {
        return None;
    }
    let inner = records(record.value)?;
    let type_id = inner
        .iter()
        .find(|r| r.number == 2 && r.wire_type == VARINT)?;
    let mut at = 0;
    let number = u32::try_from(get_varint(type_id.value, &mut at)?).ok()?;
    let message = inner.iter().find(|r| r.number == 3 && r.wire_type == LEN)?;
    Some(Record {
        number,
        wire_type: LEN,
        value: message.value,
        raw: record.raw,
    })
}

/// Whether `field` is declared with `retention = RETENTION_SOURCE`.
fn is_source_retention(field: &FieldDescriptor) -> bool {
    field.options().retention == Some(OptionRetention::RetentionSource)
}

/// Whether `message` is one of descriptor.proto's options messages.
fn is_options_message(message: &MessageDescriptor) -> bool {
    message.parent_file().name() == "google/protobuf/descriptor.proto"
        && message.name().ends_with("Options")
}

/// Splits a packed payload of values of `wire_type` into `values`.
fn unpack<'a>(payload: &'a [u8], wire_type: u32, values: &mut Vec<&'a [u8]>) -> Option<()> {
    let mut at = 0;
    while at < payload.len() {
        let start = at;
        match wire_type {
            VARINT => {
                get_varint(payload, &mut at)?;
            }
            FIXED64 => at += 8,
            FIXED32 => at += 4,
            _ => return None,
        }
        values.push(payload.get(start..at)?);
    }
    Some(())
}

/// Writes the canonical records of one known field.
fn write_field(
    out: &mut Vec<u8>,
    field: &FieldDescriptor,
    values: Values<'_>,
    pool: &DescriptorPool,
    canon: Canon,
    depth: u32,
) -> Option<()> {
    let number = field.number();
    let repeated = field.cardinality() == Cardinality::Repeated;
    let nested = |payload: &[u8], index: Option<usize>| -> Option<Vec<u8>> {
        let Kind::Message(message) = field.kind() else {
            return Some(payload.to_vec());
        };
        let steps: &[i32] = match index {
            Some(i) => &[number as i32, i as i32],
            None => &[number as i32],
        };
        canon.under(steps, || {
            canonical_at(payload, &message, pool, canon, depth + 1)
        })
    };
    match values {
        Values::Scalars(values) => {
            let wire_type = value_wire_type(field);
            if repeated && field.is_packed() {
                let payload: Vec<u8> = values.concat();
                put_len(out, number, &payload);
            } else if repeated {
                for value in values {
                    put_tag(out, number, wire_type);
                    out.extend_from_slice(value);
                }
            } else if let Some(value) = values.last() {
                put_tag(out, number, wire_type);
                out.extend_from_slice(value);
            }
        }
        Values::Payloads(values) => {
            let is_message = matches!(field.kind(), Kind::Message(_));
            if repeated {
                for (i, value) in values.iter().enumerate() {
                    put_len(out, number, &nested(value, Some(i))?);
                }
            } else if is_message {
                let merged = nested(&values.concat(), None)?;
                let emptied = canon.strip_source_retention
                    && merged.is_empty()
                    && values.iter().any(|v| !v.is_empty());
                if let (true, Kind::Message(message)) = (emptied, field.kind())
                    && is_options_message(&message)
                {
                    canon.stripped(number);
                    return Some(());
                }
                put_len(out, number, &merged);
            } else if let Some(value) = values.last() {
                put_len(out, number, value);
            }
        }
        Values::Groups(values) => {
            let bodies: Vec<Vec<u8>> = if repeated {
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| nested(v, Some(i)))
                    .collect::<Option<_>>()?
            } else {
                vec![nested(&values.concat(), None)?]
            };
            for body in bodies {
                put_tag(out, number, START_GROUP);
                out.extend_from_slice(&body);
                put_tag(out, number, END_GROUP);
            }
        }
    }
    Some(())
}
