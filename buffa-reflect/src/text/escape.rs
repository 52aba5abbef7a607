//! String and bytes literals: escaping for printing, unescaping for
//! parsing (the shared rule, [`buffa_descriptor::rules::unescape`], in its
//! text-format dialect).
//!
//! Printing escapes as C++ protobuf's text printer does (`absl::CEscape`),
//! so that output matches `protoc --decode` byte for byte: `\n`, `\r`,
//! `\t`, `\"`, `\'` and `\\` by name, every other byte below 0x20 or from
//! 0x7f up as three octal digits. UTF-8 text is therefore printed as octal
//! escapes of its bytes; parsing them back yields the same bytes.

use std::fmt::Write;

use buffa_descriptor::rules::{Escapes, unescape_into};

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

/// Appends the bytes of the quoted string literal `literal` (quotes
/// included, as the lexer found it) to `out`: the text format's escapes,
/// [`Escapes::TextFormat`] of the rule the descriptor model holds. An
/// error's offset counts from the opening quote.
pub(crate) fn unescape(literal: &str, out: &mut Vec<u8>) -> Result<(), EscapeError> {
    // The lexer guarantees the quotes (ASCII, so the slice is on
    // character boundaries).
    let body = literal
        .get(1..literal.len().saturating_sub(1).max(1))
        .unwrap_or_default();
    unescape_into(body, Escapes::TextFormat, out).map_err(|error| EscapeError {
        offset: error.offset() + 1,
        message: error.message().to_owned(),
    })
}

/// An escape that [`unescape`] rejects, at `offset` bytes into the
/// literal (its opening quote included).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EscapeError {
    pub offset: usize,
    pub message: String,
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

    /// Offsets count from the opening quote (the rule itself is tested
    /// in buffa-descriptor).
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
