//! Percent-decoding (RFC 3986 section 2.1), the one rule that path
//! variables, template literals and query parameters share.
//!
//! An escape is `%` and two hex digits of either case; anything else after
//! `%` is malformed. What a decoded value may keep as written is named by
//! [`Keep`]: http.proto decodes single-segment variables fully and leaves
//! RFC 6570's reserved characters escaped in multi-segment ones.

/// The escapes [`decode`] leaves as written (`%2F` stays `%2F`, `%2f`
/// stays `%2f`) instead of decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Decode every escape.
    Nothing,
    /// Keep `%2F` and `%2f`, decode the rest.
    Slash,
    /// Keep the escapes of RFC 6570's reserved characters (`:/?#[]@` and
    /// `!$&'()*+,;=`), decode the rest.
    Reserved,
}

impl Keep {
    fn keeps(self, byte: u8) -> bool {
        match self {
            Keep::Nothing => false,
            Keep::Slash => byte == b'/',
            Keep::Reserved => b":/?#[]@!$&'()*+,;=".contains(&byte),
        }
    }
}

/// Why [`decode`] refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// The `%` at this byte offset is not followed by two hex digits.
    MalformedEscape(usize),
    /// The decoded bytes are not UTF-8.
    NotUtf8,
}

/// The value of the hex digit `byte`, if it is one.
fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// The byte that the escape starting at `bytes[at]` (a `%`) stands for,
/// or `None` if it is malformed.
pub(crate) fn escape_at(bytes: &[u8], at: usize) -> Option<u8> {
    let high = hex_value(*bytes.get(at + 1)?)?;
    let low = hex_value(*bytes.get(at + 2)?)?;
    Some(high << 4 | low)
}

/// The byte offset of the first malformed escape in `text`, if any.
pub(crate) fn first_malformed_escape(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(found) = bytes[at..].iter().position(|&b| b == b'%') {
        at += found;
        if escape_at(bytes, at).is_none() {
            return Some(at);
        }
        at += 3;
    }
    None
}

/// `text` with its escapes decoded, except those `keep` keeps, and with
/// `+` read as a space when `plus_is_space` (the query string's form
/// encoding). The result must be UTF-8.
pub(crate) fn decode(text: &str, keep: Keep, plus_is_space: bool) -> Result<String, DecodeError> {
    let escaped = text.contains('%') || (plus_is_space && text.contains('+'));
    if !escaped {
        return Ok(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'%' => {
                let byte = escape_at(bytes, at).ok_or(DecodeError::MalformedEscape(at))?;
                if keep.keeps(byte) {
                    out.extend_from_slice(&bytes[at..at + 3]);
                } else {
                    out.push(byte);
                }
                at += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                at += 1;
            }
            byte => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| DecodeError::NotUtf8)
}

/// The bytes `text` stands for, every escape decoded; `text` must hold no
/// malformed escape (a `%` without two hex digits reads as itself).
fn decoded_bytes(text: &str) -> impl Iterator<Item = u8> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        let byte = *bytes.get(at)?;
        match escape_at(bytes, at).filter(|_| byte == b'%') {
            Some(decoded) => {
                at += 3;
                Some(decoded)
            }
            None => {
                at += 1;
                Some(byte)
            }
        }
    })
}

/// Whether `a` and `b` stand for the same bytes once decoded: `v1`,
/// `%761` and `%76%31` are the same literal.
pub(crate) fn same_decoded(a: &str, b: &str) -> bool {
    decoded_bytes(a).eq(decoded_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_every_escape_when_keeping_nothing() {
        assert_eq!(
            decode("a%2Fb%20c%C3%A9", Keep::Nothing, false).unwrap(),
            "a/b cé"
        );
        assert_eq!(decode("%25", Keep::Nothing, false).unwrap(), "%");
    }

    #[test]
    fn keeps_slash_escapes_as_written() {
        assert_eq!(
            decode("a%2fb%2Fc%3A", Keep::Slash, false).unwrap(),
            "a%2fb%2Fc:"
        );
    }

    #[test]
    fn keeps_every_reserved_escape_as_written() {
        let reserved = "%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D";
        assert_eq!(decode(reserved, Keep::Reserved, false).unwrap(), reserved);
        // Unreserved and other characters decode: space, `%`, `"`, é, `-`.
        assert_eq!(
            decode("%20%25%22%C3%A9%2D", Keep::Reserved, false).unwrap(),
            " %\"é-"
        );
    }

    #[test]
    fn plus_is_a_space_only_when_asked() {
        assert_eq!(decode("a+b%2B", Keep::Nothing, true).unwrap(), "a b+");
        assert_eq!(decode("a+b", Keep::Nothing, false).unwrap(), "a+b");
    }

    #[test]
    fn malformed_escapes_are_errors_with_their_offset() {
        assert_eq!(
            decode("ab%G1", Keep::Nothing, false),
            Err(DecodeError::MalformedEscape(2))
        );
        assert_eq!(
            decode("ab%", Keep::Nothing, false),
            Err(DecodeError::MalformedEscape(2))
        );
        assert_eq!(
            decode("%4", Keep::Nothing, false),
            Err(DecodeError::MalformedEscape(0))
        );
        assert_eq!(first_malformed_escape("%41%4g"), Some(3));
        assert_eq!(first_malformed_escape("a%"), Some(1));
        assert_eq!(first_malformed_escape("%41%42"), None);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_an_error() {
        assert_eq!(
            decode("%FF", Keep::Nothing, false),
            Err(DecodeError::NotUtf8)
        );
        assert_eq!(
            decode("%C3", Keep::Reserved, false),
            Err(DecodeError::NotUtf8)
        );
    }

    #[test]
    fn same_decoded_compares_the_bytes_stood_for() {
        assert!(same_decoded("v1", "%761"));
        assert!(same_decoded("a%2fb", "a%2Fb"));
        assert!(!same_decoded("v1", "v2"));
        assert!(!same_decoded("v1", "v"));
    }
}
