//! Sizes of varint-encoded values and the ZigZag mapping of signed integers.

/// Number of bytes the tag of `field_number` takes on the wire.
#[inline]
pub const fn tag_len(field_number: u32) -> usize {
    varint_len((field_number as u64) << 3)
}

/// Number of bytes `value` takes as a varint (1 to 10).
#[inline]
pub const fn varint_len(value: u64) -> usize {
    // Each byte carries 7 bits; `| 1` makes zero take one byte.
    let bits = 64 - (value | 1).leading_zeros() as usize;
    (bits * 9 + 64) / 64
}

/// ZigZag-encodes a signed 32-bit value (`sint32`): small magnitudes of
/// either sign become small unsigned numbers.
#[inline]
pub const fn zigzag_encode32(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

/// Inverse of [`zigzag_encode32`].
#[inline]
pub const fn zigzag_decode32(value: u32) -> i32 {
    ((value >> 1) as i32) ^ -((value & 1) as i32)
}

/// ZigZag-encodes a signed 64-bit value (`sint64`).
#[inline]
pub const fn zigzag_encode64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Inverse of [`zigzag_encode64`].
#[inline]
pub const fn zigzag_decode64(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_len_matches_boundaries() {
        let cases = [
            (0u64, 1),
            (1, 1),
            (127, 1),
            (128, 2),
            (16_383, 2),
            (16_384, 3),
            ((1 << 21) - 1, 3),
            (1 << 21, 4),
            (u32::MAX as u64, 5),
            ((1 << 56) - 1, 8),
            (1 << 56, 9),
            ((1 << 63) - 1, 9),
            (1 << 63, 10),
            (u64::MAX, 10),
            (-1i64 as u64, 10),
        ];
        for (value, len) in cases {
            assert_eq!(varint_len(value), len, "varint_len({value})");
        }
    }

    #[test]
    fn zigzag_round_trips_at_boundaries() {
        assert_eq!(zigzag_encode32(0), 0);
        assert_eq!(zigzag_encode32(-1), 1);
        assert_eq!(zigzag_encode32(1), 2);
        assert_eq!(zigzag_encode32(i32::MAX), u32::MAX - 1);
        assert_eq!(zigzag_encode32(i32::MIN), u32::MAX);
        assert_eq!(zigzag_encode64(i64::MIN), u64::MAX);
        for v in [0, 1, -1, 63, -64, i32::MAX, i32::MIN] {
            assert_eq!(zigzag_decode32(zigzag_encode32(v)), v);
        }
        for v in [0, 1, -1, i64::MAX, i64::MIN] {
            assert_eq!(zigzag_decode64(zigzag_encode64(v)), v);
        }
    }
}
