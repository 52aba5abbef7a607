//! Fixed records: the one encoding a small message of fixed-width scalars
//! has when every field is set.
//!
//! A message whose fields are all singular fixed-width scalars (`float`,
//! `double`, `fixed32`, `fixed64`, `sfixed32`, `sfixed64`) with implicit
//! presence and field numbers 1 to 15 (one-byte keys) is written, when no
//! field holds its default, as the same bytes every time: each field's key
//! byte and its value, in field-number order. A point `{x, y, z}` of three
//! `float`s is always 15 bytes with keys at offsets 0, 5 and 10. Such
//! messages are common in geometry and telemetry schemas, and usually
//! repeated by the thousand.
//!
//! One level of nesting is a record too: a message whose fields are such
//! scalars or singular message fields of a record type held in place (a
//! triangle of three points), each sub-message behind its key and a
//! one-byte length. Deeper nesting is not a record.
//!
//! Decoding checks for that layout first: a payload of exactly the
//! record's length with every key and length in its place is read with one
//! load per value and no key dispatch; anything else (a field left out,
//! fields out of order, an unknown field) takes the general field loop.
//! Both give the same message: a fixed record sets every field, as the
//! general loop would when it reads each one once. Generated code declares
//! a message's record with
//! [`Message::FIXED_RECORD`](crate::Message::FIXED_RECORD) (and a view's
//! with [`Mergeable::FIXED_RECORD`]) and reads one with
//! `merge_fixed_record`.

use super::types::ScalarType;
use crate::message::Mergeable;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;
use crate::wire::WireType;

/// One field of a fixed record: its key byte, the width of its value and,
/// for a sub-message, the sub-message's own record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedField {
    key: u8,
    /// The value's width: a sub-message's length byte and record included.
    width: u8,
    nested: Option<FixedRecord>,
    /// Whether the field can be part of a record: not a sub-message
    /// without a record of its own, nor one stored through a pointer that
    /// allocates (decoding charges those to the allocation budget).
    fits: bool,
}

impl FixedField {
    /// Field `field_number` of fixed-width scalar type `S`.
    ///
    /// Panics (at compile time, in a constant) if the field number needs a
    /// key longer than one byte or `S` is not fixed-width: generated code
    /// only declares records that satisfy both.
    pub const fn of<S: ScalarType>(field_number: u32) -> FixedField {
        let width = match S::FIXED_SIZE {
            Some(width) => width,
            None => panic!("a fixed record holds fixed-width scalars only"),
        };
        FixedField {
            key: key(field_number, S::WIRE_TYPE),
            width: width as u8,
            nested: None,
            fits: true,
        }
    }

    /// Field `field_number` holding a sub-message in `F`, a
    /// `MessageField<M, P>`: part of a record when `M` has a record without
    /// sub-messages of its own and `P` stores it in place.
    pub const fn message<'a, F: RecordField<'a>>(field_number: u32) -> FixedField {
        let nested = <F::Message as Mergeable<'a>>::FIXED_RECORD;
        let (width, fits) = match nested {
            Some(record) => (1 + record.len, record.depth == 0 && !F::ALLOCATES),
            None => (0, false),
        };
        FixedField {
            key: key(field_number, WireType::LengthDelimited),
            width: width as u8,
            nested,
            fits,
        }
    }
}

/// The one-byte key of field `field_number`.
const fn key(field_number: u32, wire_type: WireType) -> u8 {
    assert!(
        field_number >= 1 && field_number <= 15,
        "a fixed record's field numbers have one-byte keys (1 to 15)"
    );
    (field_number << 3) as u8 | wire_type as u8
}

/// A singular message field, as [`FixedField::message`] sees it: the
/// message type and whether storing one allocates.
pub trait RecordField<'a> {
    /// The sub-message type.
    type Message: Mergeable<'a>;
    /// Whether setting the field allocates.
    const ALLOCATES: bool;
}

impl<'a, M: Mergeable<'a>, P: ProtoBox<M>> RecordField<'a> for MessageField<M, P> {
    type Message = M;
    const ALLOCATES: bool = P::ALLOCATES;
}

/// The longest record: its length must fit a one-byte length prefix.
const MAX_LEN: usize = 127;

/// The layout of a fixed record: the bytes every encoding of it shares.
///
/// Held as a template, the record with every value zeroed, and a mask
/// over it, so that [`FixedRecord::matches`] compares whole bytes in one
/// straight loop (which the compiler turns into a few vector compares)
/// instead of walking the fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedRecord {
    len: usize,
    /// Nesting levels below the message: 1 with sub-messages, else 0.
    depth: u32,
    /// The record's keys and sub-messages' lengths in place, zeros under
    /// the values.
    template: [u8; MAX_LEN],
    /// `0xff` under each byte of `template` that every encoding shares,
    /// `0` under the values.
    mask: [u8; MAX_LEN],
}

impl FixedRecord {
    /// The record of `fields`, which are in field-number order; `None`
    /// when there are none, one of them cannot be part of a record (see
    /// [`FixedField::message`]), or the record would be longer than a
    /// one-byte length can say.
    pub const fn new(fields: &[FixedField]) -> Option<FixedRecord> {
        let mut record = FixedRecord {
            len: 0,
            depth: 0,
            template: [0; MAX_LEN],
            mask: [0; MAX_LEN],
        };
        let mut i = 0;
        while i < fields.len() {
            let field = &fields[i];
            let at = record.len;
            if !field.fits || at + 1 + field.width as usize > MAX_LEN {
                return None;
            }
            record.shared_byte(at, field.key);
            if let Some(nested) = &field.nested {
                record.depth = 1;
                record.shared_byte(at + 1, nested.len as u8);
                let mut j = 0;
                while j < nested.len {
                    record.template[at + 2 + j] = nested.template[j];
                    record.mask[at + 2 + j] = nested.mask[j];
                    j += 1;
                }
            }
            record.len = at + 1 + field.width as usize;
            i += 1;
        }
        if fields.is_empty() {
            return None;
        }
        Some(record)
    }

    /// Puts `byte`, which every encoding has at `at`, into the template.
    const fn shared_byte(&mut self, at: usize, byte: u8) {
        self.template[at] = byte;
        self.mask[at] = 0xff;
    }

    /// The record's encoded length.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the record has no fields; never, since [`FixedRecord::new`]
    /// makes none such.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Nesting levels below the message: reading a record with
    /// sub-messages needs one level of the recursion limit left.
    pub const fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether `bytes` are exactly one record: the record's length, with
    /// each key, and each sub-message's length and keys, in its place.
    #[inline(always)]
    pub fn matches(&self, bytes: &[u8]) -> bool {
        if bytes.len() != self.len {
            return false;
        }
        // No early exit: the loop stays one the compiler vectorizes.
        let mut differs = 0;
        for ((byte, shared), mask) in bytes.iter().zip(&self.template).zip(&self.mask) {
            differs |= (byte ^ shared) & mask;
        }
        differs == 0
    }
}

/// A fixed-width scalar type: how its value is read from a fixed record.
pub trait FixedScalar: ScalarType {
    /// The value whose little-endian bytes start at `at` in `record`.
    fn read_at(record: &[u8], at: usize) -> Self::Value;
}

/// The value of type `S` at offset `at` of a record that
/// [`FixedRecord::matches`] accepted: `at` is just behind the field's key.
#[inline(always)]
pub fn read<S: FixedScalar>(record: &[u8], at: usize) -> S::Value {
    S::read_at(record, at)
}

/// Merges `record`, the bytes of a sub-message's record inside its
/// parent's, into the sub-message field `field`, setting it.
#[inline(always)]
pub fn merge_message<'a, M: Mergeable<'a>, P: ProtoBox<M>>(
    field: &mut MessageField<M, P>,
    record: &[u8],
) {
    field.get_or_insert_default().merge_fixed_record(record);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::types::{Double, Fixed32, Float, ProtoString};
    use alloc::{vec, vec::Vec};

    const POINT: FixedRecord = FixedRecord::new(&[
        FixedField::of::<Float>(1),
        FixedField::of::<Float>(2),
        FixedField::of::<Double>(3),
    ])
    .unwrap();

    fn point_bytes(x: f32, y: f32, z: f64) -> Vec<u8> {
        let mut bytes = vec![0x0d];
        bytes.extend(x.to_le_bytes());
        bytes.push(0x15);
        bytes.extend(y.to_le_bytes());
        bytes.push(0x19);
        bytes.extend(z.to_le_bytes());
        bytes
    }

    #[test]
    fn keys_and_length_follow_the_fields() {
        assert_eq!(POINT.len(), 5 + 5 + 9);
        assert_eq!(FixedField::of::<Fixed32>(15).key, 0x7d);
        let bytes = point_bytes(1.5, -2.0, 3.25);
        assert!(POINT.matches(&bytes));
        assert_eq!(read::<Float>(&bytes, 1), 1.5);
        assert_eq!(read::<Float>(&bytes, 6), -2.0);
        assert_eq!(read::<Double>(&bytes, 11), 3.25);
    }

    #[test]
    fn anything_but_the_exact_layout_is_refused() {
        let bytes = point_bytes(1.0, 2.0, 3.0);
        // Truncated, extended, a key changed, fields swapped.
        assert!(!POINT.matches(&bytes[..bytes.len() - 1]));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(!POINT.matches(&longer));
        let mut other_key = bytes.clone();
        other_key[5] = 0x25;
        assert!(!POINT.matches(&other_key));
        let mut swapped = bytes.clone();
        swapped[0] = 0x15;
        swapped[5] = 0x0d;
        assert!(!POINT.matches(&swapped));
        assert!(!POINT.matches(&[]));
    }

    #[test]
    #[should_panic(expected = "fixed-width")]
    fn a_varint_or_length_delimited_field_has_no_record() {
        FixedField::of::<ProtoString>(1);
    }

    #[test]
    #[should_panic(expected = "one-byte keys")]
    fn a_two_byte_key_has_no_record() {
        FixedField::of::<Float>(16);
    }
}
