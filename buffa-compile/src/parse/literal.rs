//! The values of literal tokens as protoc's tokenizer reads them:
//! integers (decimal, octal, hex), floats, and string literals with their
//! escapes (lenient, since the tokenizer has reported bad ones).

use super::tokenizer::is_octal;

/// Parses an integer token's text (decimal, octal or hex) no greater than
/// `max`, as protoc's `Tokenizer::ParseInteger`.
pub(crate) fn parse_integer(text: &[u8], max: u64) -> Option<u64> {
    let (digits, base) = match text {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', rest @ ..] => (rest, 8),
        _ => (text, 10),
    };
    let mut result: u64 = 0;
    for &c in digits {
        let digit = (c as char).to_digit(36)? as u64;
        if digit >= base {
            return None;
        }
        result = result.checked_mul(base)?.checked_add(digit)?;
    }
    (result <= max).then_some(result)
}

/// Parses a float token's text (or a decimal integer too large for 64
/// bits), as protoc's `Tokenizer::TryParseFloat`.
pub(crate) fn parse_float(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text).ok()?;
    if text.starts_with('-') {
        return None;
    }
    // strtod stops before a dangling exponent ("1e"), which the
    // tokenizer has already reported.
    let trimmed = text.trim_end_matches(['e', 'E', '+', '-']);
    trimmed.parse::<f64>().ok()
}

/// Appends the bytes a string token (quotes included) stands for, as
/// protoc's `Tokenizer::ParseStringAppend` decodes them: lenient, since
/// the tokenizer has reported bad escapes already.
pub(crate) fn parse_string_append(text: &[u8], out: &mut Vec<u8>) {
    let Some(&quote) = text.first() else {
        return;
    };
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    let hex = |c: u8| (c as char).to_digit(16);
    let mut i = 1;
    while i < text.len() {
        let c = text[i];
        if c == b'\\' && i + 1 < text.len() {
            i += 1;
            let e = text[i];
            if is_octal(e) {
                let mut code = u32::from(e - b'0');
                for _ in 0..2 {
                    if is_octal(at(i + 1)) {
                        i += 1;
                        code = code * 8 + u32::from(text[i] - b'0');
                    }
                }
                out.push(code as u8);
            } else if e == b'x' || e == b'X' {
                let mut code = 0;
                for _ in 0..2 {
                    if let Some(d) = hex(at(i + 1)) {
                        i += 1;
                        code = code * 16 + d;
                    }
                }
                out.push(code as u8);
            } else if e == b'u' || e == b'U' {
                match fetch_code_point(text, i) {
                    Some((code_point, end)) => {
                        append_utf8(code_point, out);
                        i = end - 1;
                    }
                    None => out.push(e),
                }
            } else {
                out.push(match e {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'v' => 0x0b,
                    b'\\' | b'?' | b'\'' | b'"' => e,
                    _ => b'?',
                });
            }
        } else if c == quote && i + 1 == text.len() {
            // The closing quote.
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// Reads the code point of the `\u` or `\U` escape whose letter is at
/// `at`, pairing UTF-16 surrogates; the code point and the offset after it.
fn fetch_code_point(text: &[u8], at: usize) -> Option<(u32, usize)> {
    let len = if text[at] == b'u' { 4 } else { 8 };
    let read = |from: usize, len: usize| -> Option<u32> {
        let digits = text.get(from..from + len)?;
        digits.iter().try_fold(0u32, |acc, &c| {
            Some(acc.wrapping_shl(4) + (c as char).to_digit(16)?)
        })
    };
    let mut code_point = read(at + 1, len)?;
    let mut end = at + 1 + len;
    let trail = ((0xd800..0xdc00).contains(&code_point) && text.get(end..end + 2) == Some(b"\\u"))
        .then(|| read(end + 2, 4))
        .flatten()
        .filter(|t| (0xdc00..0xe000).contains(t));
    if let Some(trail) = trail {
        code_point = 0x10000 + (((code_point - 0xd800) << 10) | (trail - 0xdc00));
        end += 6;
    }
    Some((code_point, end))
}

/// Appends `code_point` as UTF-8 (surrogates too, as protoc does), or as
/// `\Uxxxxxxxx` text when it is beyond Unicode.
fn append_utf8(code_point: u32, out: &mut Vec<u8>) {
    let c = code_point;
    match c {
        0..=0x7f => out.push(c as u8),
        0x80..=0x7ff => out.extend([0xc0 | (c >> 6) as u8, 0x80 | (c & 0x3f) as u8]),
        0x800..=0xffff => out.extend([
            0xe0 | (c >> 12) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
        0x10000..=0x10ffff => out.extend([
            0xf0 | (c >> 18) as u8,
            0x80 | ((c >> 12) & 0x3f) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(format!("\\U{c:08x}").as_bytes()),
    }
}
