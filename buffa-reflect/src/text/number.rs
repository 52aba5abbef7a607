//! Numbers: the values of integer and float tokens. Floating-point values
//! are printed by buffa-descriptor's `rules::format_double` and
//! `rules::format_float` (C++'s `SimpleDtoa`/`SimpleFtoa`), shared with
//! the compiler's defaults.

/// The value of an integer token (decimal, `0x` hex or `0` octal), or
/// `None` if it exceeds `max`.
pub(crate) fn parse_unsigned(text: &str, max: u64) -> Option<u64> {
    let (digits, radix) =
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            (hex, 16)
        } else if text.len() > 1 && text.starts_with('0') {
            (&text[1..], 8)
        } else {
            (text, 10)
        };
    u64::from_str_radix(digits, radix)
        .ok()
        .filter(|&value| value <= max)
}

/// Whether an integer token is written in hex or octal.
pub(crate) fn is_hex_or_octal(text: &str) -> bool {
    text.len() > 1 && text.starts_with('0')
}

/// The value of a float token: decimal, with an optional `f`/`F` suffix.
/// Too large a magnitude is infinite, too small zero.
pub(crate) fn parse_float(text: &str) -> f64 {
    let digits = text.strip_suffix(['f', 'F']).unwrap_or(text);
    // The lexer only lets through what Rust's parser accepts: digits with
    // at most one point and an optional exponent.
    digits.parse().unwrap_or(f64::NAN)
}

/// A double narrowed to a float field as C++ protobuf does: beyond the
/// largest float it is infinite, except for the values that round to the
/// largest float (its printed form, `3.40282347e+38`, included).
pub(crate) fn double_to_float(value: f64) -> f32 {
    // The largest double that still rounds to f32::MAX.
    const MAX_ROUNDING_TO_MAX: f64 = 3.4028235677973366e38;
    if value > f64::from(f32::MAX) {
        if value <= MAX_ROUNDING_TO_MAX {
            f32::MAX
        } else {
            f32::INFINITY
        }
    } else if value < -f64::from(f32::MAX) {
        if value >= -MAX_ROUNDING_TO_MAX {
            -f32::MAX
        } else {
            f32::NEG_INFINITY
        }
    } else {
        value as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_every_base() {
        assert_eq!(parse_unsigned("0", u64::MAX), Some(0));
        assert_eq!(parse_unsigned("017", u64::MAX), Some(15));
        assert_eq!(parse_unsigned("0x1F", u64::MAX), Some(31));
        assert_eq!(parse_unsigned("0X1f", u64::MAX), Some(31));
        assert_eq!(
            parse_unsigned("18446744073709551615", u64::MAX),
            Some(u64::MAX)
        );
        assert_eq!(parse_unsigned("18446744073709551616", u64::MAX), None);
        assert_eq!(parse_unsigned("0x100000000", u32::MAX.into()), None);
        assert_eq!(parse_unsigned("2", 1), None);
    }

    #[test]
    fn narrowing_saturates_like_c_plus_plus() {
        assert_eq!(double_to_float(3.4028235e38), f32::MAX);
        assert_eq!(double_to_float(3.4028235677973366e38), f32::MAX);
        assert_eq!(double_to_float(3.5e38), f32::INFINITY);
        assert_eq!(double_to_float(-3.5e38), f32::NEG_INFINITY);
        assert_eq!(double_to_float(0.1), 0.1f32);
    }
}
