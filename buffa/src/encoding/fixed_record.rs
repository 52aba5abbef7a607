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
//! Decoding checks for that layout first: a payload of exactly the
//! record's length with every key in its place is read with one load per
//! field and no key dispatch; anything
//! else (a field left out, fields out of order, an unknown field) takes the
//! general field loop. Both give the same message: a fixed record sets
//! every field, as the general loop would when it reads each one once.
//! Generated code declares a message's record with
//! [`Message::FIXED_RECORD`](crate::Message::FIXED_RECORD) (and a view's
//! with [`Mergeable::FIXED_RECORD`](crate::message::Mergeable::FIXED_RECORD))
//! and reads one with `merge_fixed_record`.

use super::types::ScalarType;

/// One field of a fixed record: its key byte and the width of its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedField {
    key: u8,
    width: u8,
}

impl FixedField {
    /// Field `field_number` of fixed-width scalar type `S`.
    ///
    /// Panics (at compile time, in a constant) if the field number needs a
    /// key longer than one byte or `S` is not fixed-width: generated code
    /// only declares records that satisfy both.
    pub const fn of<S: ScalarType>(field_number: u32) -> FixedField {
        assert!(
            field_number >= 1 && field_number <= 15,
            "a fixed record's field numbers have one-byte keys (1 to 15)"
        );
        let width = match S::FIXED_SIZE {
            Some(width) => width,
            None => panic!("a fixed record holds fixed-width scalars only"),
        };
        FixedField {
            key: (field_number << 3) as u8 | S::WIRE_TYPE as u8,
            width: width as u8,
        }
    }
}

/// The layout of a fixed record: its fields in field-number order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedRecord {
    fields: &'static [FixedField],
    len: usize,
}

impl FixedRecord {
    /// The record of `fields`, which are in field-number order.
    pub const fn new(fields: &'static [FixedField]) -> FixedRecord {
        let mut len = 0;
        let mut i = 0;
        while i < fields.len() {
            len += 1 + fields[i].width as usize;
            i += 1;
        }
        FixedRecord { fields, len }
    }

    /// The record's encoded length.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the record has no fields (a message without fields has no
    /// record: its encoding is empty).
    pub const fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Whether `bytes` are exactly one record: the record's length, with
    /// each field's key in its place.
    #[inline(always)]
    pub fn matches(&self, bytes: &[u8]) -> bool {
        if bytes.len() != self.len {
            return false;
        }
        let mut at = 0;
        for field in self.fields {
            if bytes[at] != field.key {
                return false;
            }
            at += 1 + field.width as usize;
        }
        true
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::types::{Double, Fixed32, Float, ProtoString};
    use alloc::{vec, vec::Vec};

    const POINT: FixedRecord = FixedRecord::new(&[
        FixedField::of::<Float>(1),
        FixedField::of::<Float>(2),
        FixedField::of::<Double>(3),
    ]);

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
