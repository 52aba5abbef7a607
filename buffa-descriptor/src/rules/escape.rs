//! C-style escapes: the one unescaping rule of the `default_value` of
//! `bytes` fields and of the text format's string literals.
//!
//! Both are C's escapes as protobuf's C++ implementation reads them; they
//! differ in two places, named by [`Escapes`]:
//!
//! | escape | [`Escapes::DefaultValue`] | [`Escapes::TextFormat`] |
//! |---|---|---|
//! | `\a \b \f \n \r \t \v \\ \' \" \?` | the byte | the byte |
//! | `\0` to `\377` (one to three octal digits) | the byte | the byte |
//! | octal above `\377` (`\400` to `\777`) | an error | the low eight bits, as C++'s tokenizer keeps them |
//! | `\x` / `\X` with one or two hex digits | the byte | the byte |
//! | `\u` + 4 / `\U` + 8 hex digits | an error | the code point, as UTF-8 |
//!
//! A `default_value` is what protoc wrote with `CEscape` (named escapes and
//! three octal digits), so the stricter reading refuses only hand-made
//! descriptors. Unicode escapes are a feature of the text format's (and
//! the `.proto` language's) string literals, which protoc decodes before it
//! writes a descriptor. Printing (the inverse) is the text format's
//! business: `CEscape`'s output reads back under both.
//!
//! `tests/rules_protoc.rs` holds both dialects to protoc: a `.proto`
//! literal (read by the tokenizer the text format uses) must read as
//! [`Escapes::TextFormat`] reads it, and the `default_value` protoc writes
//! for it must read back to the same bytes as [`Escapes::DefaultValue`].

use core::fmt;

/// Which escapes [`unescape`] reads: the rule's two dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escapes {
    /// The `default_value` of a `bytes` field in a descriptor: C's escapes,
    /// every value a byte (octal above `\377` is refused), no Unicode
    /// escapes.
    DefaultValue,
    /// A string or bytes literal of the text format (without its quotes):
    /// C's escapes as C++ protobuf's tokenizer reads them, with octal above
    /// `\377` keeping its low eight bits, plus `\u` (four hex digits) and
    /// `\U` (eight) naming a Unicode scalar value, written as UTF-8.
    TextFormat,
}

/// An escape [`unescape`] refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnescapeError {
    offset: usize,
    message: String,
}

impl UnescapeError {
    /// The byte offset of the refused escape's backslash in the text.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong with the escape, e.g. `invalid escape sequence \q`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for UnescapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UnescapeError {}

/// The bytes `text` stands for, with its C-style escapes undone as
/// `escapes` reads them; other characters stand for their UTF-8 bytes.
///
/// ```
/// use buffa_descriptor::rules::{Escapes, unescape};
///
/// assert_eq!(unescape(r"a\001\x41\n", Escapes::DefaultValue).unwrap(), b"a\x01A\n");
/// assert_eq!(unescape(r"\u00e9", Escapes::TextFormat).unwrap(), "é".as_bytes());
/// assert!(unescape(r"\u00e9", Escapes::DefaultValue).is_err());
/// assert_eq!(unescape(r"\777", Escapes::TextFormat).unwrap(), [0xff]);
/// assert!(unescape(r"\777", Escapes::DefaultValue).is_err());
/// ```
pub fn unescape(text: &str, escapes: Escapes) -> Result<Vec<u8>, UnescapeError> {
    let mut out = Vec::with_capacity(text.len());
    unescape_into(text, escapes, &mut out)?;
    Ok(out)
}

/// [`unescape`], appending to `out` (which keeps what was appended before
/// an error): for literals read in pieces, such as the text format's
/// adjacent strings.
pub fn unescape_into(text: &str, escapes: Escapes, out: &mut Vec<u8>) -> Result<(), UnescapeError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        let start = i;
        let error = |message: String| UnescapeError {
            offset: start,
            message,
        };
        let Some(&kind) = bytes.get(i + 1) else {
            return Err(error("a string cannot end with a lone backslash".into()));
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
                    match bytes.get(i) {
                        Some(&digit @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(digit - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                if value > 0xff && escapes == Escapes::DefaultValue {
                    return Err(error(format!("octal escape \\{value:o} is over \\377")));
                }
                out.push((value & 0xff) as u8);
            }
            b'x' | b'X' => {
                let digits = hex_digits(&bytes[i..], 2);
                if digits == 0 {
                    return Err(error("\\x must be followed by hex digits".into()));
                }
                out.push(hex_value(&bytes[i..i + digits]) as u8);
                i += digits;
            }
            b'u' | b'U' if escapes == Escapes::TextFormat => {
                let width = if kind == b'u' { 4 } else { 8 };
                if hex_digits(&bytes[i..], width) != width {
                    return Err(error(if kind == b'u' {
                        "\\u must be followed by four hex digits".into()
                    } else {
                        "\\U must be followed by eight hex digits".into()
                    }));
                }
                let code = hex_value(&bytes[i..i + width]);
                i += width;
                let Some(c) = char::from_u32(code) else {
                    return Err(error(if (0xd800..0xe000).contains(&code) {
                        "unicode escapes cannot name surrogates".into()
                    } else {
                        "unicode escape beyond U+10FFFF".into()
                    }));
                };
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            _ => {
                // The escaped character, whole (it may be multi-byte).
                let escaped = text[start + 1..].chars().next().unwrap_or_default();
                return Err(error(format!(
                    "invalid escape sequence \\{}",
                    escaped.escape_debug()
                )));
            }
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

    #[test]
    fn both_dialects_read_c_escapes() {
        for escapes in [Escapes::DefaultValue, Escapes::TextFormat] {
            assert_eq!(
                unescape(r#"\a\b\f\n\r\t\v\\\'\"\?"#, escapes).unwrap(),
                b"\x07\x08\x0c\n\r\t\x0b\\'\"?"
            );
            assert_eq!(
                unescape(r"a\001\377\0\12\1011\x41\x4g\X414\7é", escapes).unwrap(),
                b"a\x01\xff\0\nA1A\x04gA4\x07\xc3\xa9"
            );
        }
    }

    #[test]
    fn the_dialects_differ_on_large_octal_and_unicode() {
        assert_eq!(unescape(r"\777", Escapes::TextFormat).unwrap(), [0xff]);
        assert_eq!(
            unescape(r"\400", Escapes::DefaultValue)
                .unwrap_err()
                .message(),
            r"octal escape \400 is over \377"
        );
        assert_eq!(
            unescape(r"\u00e9\U0001F600", Escapes::TextFormat).unwrap(),
            "é😀".as_bytes()
        );
        let error = unescape(r"ab\u00e9", Escapes::DefaultValue).unwrap_err();
        assert_eq!(
            (error.offset(), error.message()),
            (2, r"invalid escape sequence \u")
        );
    }

    #[test]
    fn refused_escapes_and_their_offsets() {
        for (text, offset, message) in [
            (r"ab\q", 2, r"invalid escape sequence \q"),
            ("a\\é", 1, "invalid escape sequence \\é"),
            (r"\x", 0, "hex digits"),
            ("\\", 0, "lone backslash"),
            (r"\u12", 0, "four hex digits"),
            (r"a\ud800", 1, "surrogates"),
            (r"\U00110000", 0, "beyond U+10FFFF"),
            (r"\U0000dc00", 0, "surrogates"),
        ] {
            let error = unescape(text, Escapes::TextFormat).expect_err(text);
            assert_eq!(error.offset(), offset, "{text}: {error}");
            assert!(error.message().contains(message), "{text}: {error}");
        }
    }

    #[test]
    fn append_keeps_what_came_before() {
        let mut out = b"x".to_vec();
        unescape_into(r"\x41", Escapes::TextFormat, &mut out).unwrap();
        assert_eq!(out, b"xA");
    }
}
