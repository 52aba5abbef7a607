//! Field helpers for repeated scalar fields, packed or expanded.
//!
//! Whatever the declared encoding, a parser accepts both: a packed run of
//! values and individual values, in any mix, as the specification requires.

use crate::error::DecodeError;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::SizeCache;
use crate::wire::{Tag, WireType, tag_len, varint_len};
use alloc::vec::Vec;

use super::types::{DecodeScalar, Packable, ScalarType};

/// The elements of a repeated field as encoding reads them: an owned
/// field's vector, or a view's [`RepeatedView`](crate::RepeatedView),
/// which reads each element from its input as it is visited.
pub trait Elements<T> {
    /// How many elements there are.
    fn count(&self) -> usize;
    /// Visits the elements in order.
    fn each(&self, f: impl FnMut(&T));
    /// The elements as a slice, where they are stored as one (owned
    /// fields): the back-to-front writer then visits them last first.
    fn as_slice(&self) -> Option<&[T]>;
}

impl<T> Elements<T> for [T] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn each(&self, f: impl FnMut(&T)) {
        self.iter().for_each(f);
    }

    #[inline]
    fn as_slice(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T> Elements<T> for Vec<T> {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn each(&self, f: impl FnMut(&T)) {
        self.iter().for_each(f);
    }

    #[inline]
    fn as_slice(&self) -> Option<&[T]> {
        Some(self)
    }
}

/// Length of the packed payload of `values`, without key and prefix.
#[inline]
pub(crate) fn packed_payload_len<S: Packable>(
    values: &(impl Elements<S::Value> + ?Sized),
) -> usize {
    values_len::<S>(values)
}

/// Length of the values of `values`, keys and prefixes not included.
#[inline]
fn values_len<S: ScalarType>(values: &(impl Elements<S::Value> + ?Sized)) -> usize {
    match S::FIXED_SIZE {
        Some(size) => size * values.count(),
        None => {
            let mut len = 0;
            values.each(|value| len += S::encoded_len(value));
            len
        }
    }
}

/// Size of a packed field; records the payload length of variable-width
/// values in `cache`.
#[inline]
pub fn size_packed<S: Packable>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
    cache: &mut SizeCache,
) -> usize {
    if values.count() == 0 {
        return 0;
    }
    let payload = packed_payload_len::<S>(values);
    if S::FIXED_SIZE.is_none() {
        cache.push(payload);
    }
    tag_len(field_number) + varint_len(payload as u64) + payload
}

/// Writes a packed field: one key, one length, all values.
#[inline]
pub fn write_packed<S: Packable>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    if values.count() == 0 {
        return;
    }
    let payload = match S::FIXED_SIZE {
        Some(size) => size * values.count(),
        None => cache.next_size(),
    };
    encoder.put_tag(field_number, WireType::LengthDelimited);
    encoder.put_varint(payload as u64);
    values.each(|value| S::encode(value, encoder));
}

/// Size of an expanded field: a key per value.
#[inline]
pub fn size_expanded<S: ScalarType>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
) -> usize {
    tag_len(field_number) * values.count() + values_len::<S>(values)
}

/// Writes an expanded field: a key before every value.
#[inline]
pub fn write_expanded<S: ScalarType>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
    encoder: &mut Encoder<'_>,
) {
    values.each(|value| {
        encoder.put_tag(field_number, S::WIRE_TYPE);
        S::encode(value, encoder);
    });
}

/// Merges a repeated packable field: appends one value, or a packed run.
#[inline]
pub fn merge<'a, S: Packable + DecodeScalar<'a>>(
    tag: Tag,
    values: &mut Vec<S::Value>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    if tag.wire_type() == WireType::LengthDelimited {
        merge_packed::<S>(values, decoder)
    } else if tag.wire_type() == S::WIRE_TYPE {
        decoder.charge(size_of::<S::Value>())?;
        values.push(S::decode(decoder)?);
        Ok(())
    } else {
        Err(decoder.wire_type_mismatch(tag, S::WIRE_TYPE))
    }
}

/// Appends the values of a packed run, reserving room for exactly the
/// values it holds.
fn merge_packed<'a, S: Packable + DecodeScalar<'a>>(
    values: &mut Vec<S::Value>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.read_packed(|payload, packed| {
        let count = packed_count::<S>(payload);
        packed.charge(count.saturating_mul(size_of::<S::Value>()))?;
        values.reserve(count);
        while !packed.is_empty() {
            values.push(S::decode(packed)?);
        }
        Ok(())
    })
}

/// How many values a packed payload holds: its length over the width of
/// fixed-width values, or the number of varint terminators (bytes without
/// the continuation bit), so that a run of ten-byte varints reserves one
/// element per value, not one per byte. A truncated last value is not
/// counted; decoding it fails anyway.
#[inline]
pub(crate) fn packed_count<S: ScalarType>(payload: &[u8]) -> usize {
    match S::FIXED_SIZE {
        Some(size) => payload.len() / size,
        None => payload.iter().filter(|&&byte| byte < 0x80).count(),
    }
}

/// Merges a repeated `string` or `bytes` field: appends one value.
#[inline]
pub fn merge_unpackable<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    values: &mut Vec<S::Value>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, S::WIRE_TYPE)?;
    decoder.charge(size_of::<S::Value>())?;
    values.push(S::decode(decoder)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;
    use std::vec;

    use super::*;
    use crate::encoding::types::{Fixed32, Int64};

    #[test]
    fn packed_runs_count_values_not_bytes() {
        // Two ten-byte varints (-1) and a one-byte varint: three values.
        let mut payload = vec![0xff; 9];
        payload.push(0x01);
        payload.extend_from_within(..10);
        payload.push(0x05);
        assert_eq!(packed_count::<Int64>(&payload), 3);
        assert_eq!(packed_count::<Fixed32>(&[0; 12]), 3);
        assert_eq!(packed_count::<Int64>(&[]), 0);
    }
}
