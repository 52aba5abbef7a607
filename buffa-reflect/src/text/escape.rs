//! String and bytes literals: escaping for printing, unescaping for
//! parsing.
//!
//! Printing escapes as C++ protobuf's text printer does (`absl::CEscape`),
//! so that output matches `protoc --decode` byte for byte: `\n`, `\r`,
//! `\t`, `\"`, `\'` and `\\` by name, every other byte below 0x20 or from
//! 0x7f up as three octal digits. UTF-8 text is therefore printed as octal
//! escapes of its bytes; parsing them back yields the same bytes.

use std::fmt::Write;

/// Appends `bytes` to `out`, escaped for a double-quoted literal (without
/// the quotes).
pub(crate) fn escape_bytes(bytes: &[u8], out: &mut String) {
    for &byte in bytes {
        match byte {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\{byte:03o}");
            }
        }
    }
}

/// An escape that [`unescape`] rejects, at `offset` bytes into the
/// literal.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EscapeError {
    pub offset: usize,
    pub message: String,
}

/// Appends the bytes of the quoted string literal `literal` (quotes
/// included, as the lexer found it) to `out`.
///
/// The escapes are the text format's: `\a \b \f \n \r \t \v \\ \' \" \?`,
/// one to three octal digits (`\0`, `\101`; a value above `\377` keeps its
/// low eight bits, as C++ protobuf does), `\x` with one or two hex digits,
/// and `\u` with four or `\U` with eight hex digits naming a Unicode scalar
/// value (not a surrogate, at most 0x10FFFF), appended as UTF-8.
pub(crate) fn unescape(literal: &str, out: &mut Vec<u8>) -> Result<(), EscapeError> {
    let bytes = literal.as_bytes();
    // The lexer guarantees the quotes.
    let body = &bytes[1..bytes.len().saturating_sub(1).max(1)];
    let mut i = 0;
    while i < body.len() {
        let byte = body[i];
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        let start = i;
        let error = |message: &str| EscapeError {
            offset: start + 1,
            message: message.to_owned(),
        };
        let Some(&kind) = body.get(i + 1) else {
            return Err(error("a string cannot end with a lone backslash"));
        };
        i += 2;
        match kind {
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => out.push(kind),
            b'0'..=b'7' => {
                let mut value = u32::from(kind - b'0');
                for _ in 0..2 {
                    match body.get(i) {
                        Some(&digit @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(digit - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push((value & 0xff) as u8);
            }
            b'x' | b'X' => {
                let digits = hex_digits(&body[i..], 2);
                if digits == 0 {
                    return Err(error("\\x must be followed by hex digits"));
                }
                out.push(hex_value(&body[i..i + digits]) as u8);
                i += digits;
            }
            b'u' | b'U' => {
                let width = if kind == b'u' { 4 } else { 8 };
                if hex_digits(&body[i..], width) != width {
                    return Err(error(if kind == b'u' {
                        "\\u must be followed by four hex digits"
                    } else {
                        "\\U must be followed by eight hex digits"
                    }));
                }
                let code = hex_value(&body[i..i + width]);
                i += width;
                let Some(c) = char::from_u32(code) else {
                    return Err(error(if (0xd800..0xe000).contains(&code) {
                        "unicode escapes cannot name surrogates"
                    } else {
                        "unicode escape beyond U+10FFFF"
                    }));
                };
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => return Err(error("invalid escape sequence")),
        }
    }
    Ok(())
}

/// How many of the first `max` bytes of `bytes` are hex digits, in a row.
fn hex_digits(bytes: &[u8], max: usize) -> usize {
    bytes
        .iter()
        .take(max)
        .take_while(|b| b.is_ascii_hexdigit())
        .count()
}

/// The value of a run of at most eight hex digits.
fn hex_value(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |value, &digit| {
        let d = char::from(digit).to_digit(16).unwrap_or(0);
        (value << 4) | d
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unescaped(literal: &str) -> Result<Vec<u8>, EscapeError> {
        let mut out = Vec::new();
        unescape(literal, &mut out).map(|()| out)
    }

    #[test]
    fn escapes_like_c_escape() {
        let mut out = String::new();
        escape_bytes(b"a\"'\\\n\r\t\x07\x1b\x7f\xc3\xa9 ?", &mut out);
        assert_eq!(out, r#"a\"\'\\\n\r\t\007\033\177\303\251 ?"#);
    }

    #[test]
    fn reads_every_escape() {
        assert_eq!(
            unescaped(r#"'\a\b\f\n\r\t\v\\\'\"\?'"#).unwrap(),
            b"\x07\x08\x0c\n\r\t\x0b\\'\"?"
        );
        assert_eq!(
            unescaped(r#""\0\12\101\1011\777""#).unwrap(),
            b"\0\nAA1\xff"
        );
        assert_eq!(unescaped(r#""\x4\x41\X414""#).unwrap(), b"\x04\x41\x414");
        assert_eq!(
            unescaped(r#""\u00e9\U0001F600""#).unwrap(),
            "é😀".as_bytes()
        );
    }

    #[test]
    fn rejects_bad_escapes() {
        for (literal, offset) in [
            (r#""ab\q""#, 3),
            (r#""\x""#, 1),
            (r#""\u12""#, 1),
            (r#""a\ud800""#, 2),
            (r#""\U00110000""#, 1),
            (r#""\U0000dc00""#, 1),
        ] {
            let error = unescaped(literal).expect_err(literal);
            assert_eq!(error.offset, offset, "{literal}: {}", error.message);
        }
    }

    #[test]
    fn escaping_round_trips_every_byte() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut literal = String::from("\"");
        escape_bytes(&bytes, &mut literal);
        literal.push('"');
        assert_eq!(unescaped(&literal).unwrap(), bytes);
    }
}
