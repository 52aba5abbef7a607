//! How protoc's parser writes the `default_value` of float and bytes
//! fields: doubles as `SimpleDtoa` prints them, bytes as `CEscape` does.

/// `value` as protoc's `SimpleDtoa`: `%.15g`, or `%.17g` when that does
/// not read back to the same double; `inf`, `-inf`, `nan` as such.
pub(crate) fn simple_dtoa(value: f64) -> String {
    if value.is_nan() {
        return "nan".into();
    }
    if value.is_infinite() {
        return if value > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let short = format_g(value, 15);
    if short.parse::<f64>().ok() == Some(value) {
        short
    } else {
        format_g(value, 17)
    }
}

/// C's `%.{precision}g` for a finite `value`.
fn format_g(value: f64, precision: usize) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let scientific = format!("{:.*e}", precision - 1, value);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= precision as i32 {
        let mantissa = strip_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        strip_zeros(&format!("{value:.decimals$}")).to_owned()
    }
}

/// `text` without the trailing zeros of its fraction (and without a
/// trailing decimal point).
fn strip_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// `bytes` as absl's `CEscape` writes them: `\n`, `\r`, `\t`, `\"`, `\'`
/// and `\\` named, other bytes outside printable ASCII as three octal
/// digits.
pub(crate) fn c_escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_as_printf_g_does() {
        assert_eq!(simple_dtoa(1.0), "1");
        assert_eq!(simple_dtoa(0.1), "0.1");
        assert_eq!(simple_dtoa(1.5e300), "1.5e+300");
        assert_eq!(simple_dtoa(1e-5), "1e-05");
        assert_eq!(simple_dtoa(123456789012345680.0), "1.2345678901234568e+17");
        assert_eq!(simple_dtoa(0.0001), "0.0001");
        assert_eq!(simple_dtoa(f64::INFINITY), "inf");
        assert_eq!(simple_dtoa(1.0 / 3.0), "0.33333333333333331");
    }

    #[test]
    fn bytes_escape_as_cescape_does() {
        assert_eq!(c_escape(b"a\x01\xff\"\n"), "a\\001\\377\\\"\\n");
    }
}
