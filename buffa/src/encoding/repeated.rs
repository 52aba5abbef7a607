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

/// An owned field's vector, passed as generated code holds it: its slice.
impl<T> Elements<T> for Vec<T> {
    #[inline]
    fn count(&self) -> usize {
        <[T] as Elements<T>>::count(self)
    }

    #[inline]
    fn each(&self, f: impl FnMut(&T)) {
        <[T] as Elements<T>>::each(self, f);
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
        reserve(values, count);
        while !packed.is_empty() {
            values.push(S::decode(packed)?);
        }
        Ok(())
    })
}

/// Makes room in `values` for `additional` more: a first allocation goes
/// straight to the allocator, which `Vec::reserve`'s growth path (built
/// for moving existing elements) would reach only after its own checks.
#[inline]
pub(crate) fn reserve<T>(values: &mut Vec<T>, additional: usize) {
    if values.capacity() == 0 {
        *values = Vec::with_capacity(additional);
    } else {
        values.reserve(additional);
    }
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
        None => varint_ends(payload),
    }
}

/// How many bytes of `bytes` have the continuation bit clear, eight at a
/// time: each word's terminators become ones in the low bit of their byte
/// lanes, added up lane by lane over up to 31 words, when the lanes
/// together hold at most 248, so that the top byte of one multiplication
/// sums them. Packed runs are mostly a few dozen bytes, where a byte loop
/// costs several times as many instructions.
#[inline]
fn varint_ends(bytes: &[u8]) -> usize {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    /// The terminators of `word`, one per byte lane.
    fn ends(word: u64) -> u64 {
        (!word >> 7) & LOW_BITS
    }
    /// The sum of the byte lanes of `lanes`, which must be below 256.
    fn sum_lanes(lanes: u64) -> usize {
        (lanes.wrapping_mul(LOW_BITS) >> 56) as usize
    }
    let (words, tail) = bytes.as_chunks::<8>();
    let mut count = 0;
    for block in words.chunks(31) {
        let lanes = block
            .iter()
            .fold(0, |lanes, word| lanes + ends(u64::from_le_bytes(*word)));
        count += sum_lanes(lanes);
    }
    if tail.is_empty() {
        return count;
    }
    match bytes.last_chunk::<8>() {
        // The last eight bytes, of which the tail is the high end (the
        // lanes below it were counted with the words).
        Some(last) => {
            let tail_lanes = u64::MAX << (8 * (8 - tail.len()));
            count + sum_lanes(ends(u64::from_le_bytes(*last)) & tail_lanes)
        }
        None => count + tail.iter().filter(|&&byte| byte < 0x80).count(),
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

    #[test]
    fn varint_ends_match_a_bytewise_count() {
        // Lengths on both sides of a word and of a 31-word block, with
        // terminators at every density.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for len in (0..40).chain([247, 248, 249, 255, 256, 257, 500]) {
            for density in [0, 1, 4, 8] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        let byte = state as u8;
                        if (state >> 8) % 8 < density {
                            byte & 0x7f
                        } else {
                            byte | 0x80
                        }
                    })
                    .collect();
                let expected = bytes.iter().filter(|&&byte| byte < 0x80).count();
                assert_eq!(varint_ends(&bytes), expected, "{bytes:02x?}");
            }
        }
    }
}
