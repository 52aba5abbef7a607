//! Floating-point values as C++ protobuf prints them (`io::SimpleDtoa` and
//! `io::SimpleFtoa`): the form protoc writes a float or double field's
//! `default_value` in, and the text format prints floats in.

/// A double as C++'s `SimpleDtoa` prints it: `inf`, `-inf`, `nan`, or the
/// fewer of 15 or 17 significant digits (in C's `%g` style) that read
/// back as the same value.
///
/// ```
/// use buffa_descriptor::rules::format_double;
///
/// assert_eq!(format_double(0.1), "0.1");
/// assert_eq!(format_double(1e15), "1e+15");
/// assert_eq!(format_double(0.30000000000000004), "0.30000000000000004");
/// ```
pub fn format_double(value: f64) -> String {
    if let Some(special) = special(value) {
        return special.to_owned();
    }
    let short = format_g(value, 15);
    if short.parse::<f64>().ok() == Some(value) {
        short
    } else {
        format_g(value, 17)
    }
}

/// A float as C++'s `SimpleFtoa` prints it: `inf`, `-inf`, `nan`, or 6
/// significant digits if they read back as the same normal float, else 9.
///
/// ```
/// use buffa_descriptor::rules::format_float;
///
/// assert_eq!(format_float(0.1), "0.1");
/// assert_eq!(format_float(3.14159265), "3.14159274");
/// ```
pub fn format_float(value: f32) -> String {
    if let Some(special) = special(f64::from(value)) {
        return special.to_owned();
    }
    let short = format_g(f64::from(value), 6);
    // C++ checks with strtof, which reports a subnormal result as a range
    // error: subnormal floats always take nine digits.
    match short.parse::<f32>() {
        Ok(parsed) if parsed == value && !parsed.is_subnormal() => short,
        _ => format_g(f64::from(value), 9),
    }
}

/// The text of the values `%g` does not print as digits.
fn special(value: f64) -> Option<&'static str> {
    if value.is_nan() {
        Some("nan")
    } else if value == f64::INFINITY {
        Some("inf")
    } else if value == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// `value` (finite) as C's `printf("%.{precision}g")`: `precision`
/// significant digits, correctly rounded, trailing zeros dropped;
/// exponent form (`1.5e+20`, `1e-05`) when the exponent is below -4 or at
/// least `precision`.
fn format_g(value: f64, precision: usize) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let scientific = format!("{:.*e}", precision - 1, value);
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let exponent: i32 = exponent.parse().unwrap_or_default();
    if exponent < -4 || exponent >= precision as i32 {
        let mantissa = strip_fraction_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (precision as i32 - 1 - exponent) as usize;
        strip_fraction_zeros(&format!("{value:.decimals$}")).to_owned()
    }
}

/// `1.2500` -> `1.25`, `3.000` -> `3`, `100` -> `100`.
fn strip_fraction_zeros(number: &str) -> &str {
    if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_like_c_plus_plus() {
        // The outputs are protoc 36.2's `--decode` of the same values.
        for (value, text) in [
            (0.1, "0.1"),
            (1e15, "1e+15"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (5e-324, "4.94065645841247e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (0.30000000000000004, "0.30000000000000004"),
            (100000.0, "100000"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (-2.5, "-2.5"),
            (-0.0, "-0"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ] {
            assert_eq!(format_double(value), text);
        }
    }

    #[test]
    fn floats_print_like_c_plus_plus() {
        for (value, text) in [
            (0.1f32, "0.1"),
            (1e10, "1e+10"),
            (f32::MAX, "3.40282347e+38"),
            (1e-45, "1.40129846e-45"),
            (123456789.0, "123456792"),
            (1.17549e-38, "1.17549001e-38"),
            (1e6, "1e+06"),
        ] {
            assert_eq!(format_float(value), text);
        }
    }
}
