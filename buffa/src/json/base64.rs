//! Base64 for `bytes` fields: standard alphabet with padding on output;
//! standard or URL-safe alphabet, padded or not, on input (RFC 4648).

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64 with padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let group = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= n {
                out.push(char::from(STANDARD[(group >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The 6-bit value of a base64 digit of either alphabet.
fn digit(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    } as u32)
}

/// Decodes base64 in either alphabet, with or without padding. Errors say
/// what is wrong.
pub fn decode(text: &str) -> Result<Vec<u8>, &'static str> {
    let bytes = text.as_bytes();
    let unpadded = match bytes {
        [rest @ .., b'=', b'='] if bytes.len().is_multiple_of(4) => rest,
        [rest @ .., b'='] if bytes.len().is_multiple_of(4) => rest,
        _ => bytes,
    };
    if unpadded.len() % 4 == 1 {
        return Err("invalid base64: wrong length");
    }
    let mut out = Vec::with_capacity(unpadded.len() / 4 * 3 + 2);
    for chunk in unpadded.chunks(4) {
        let mut group = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let value = digit(c).ok_or("invalid base64: unexpected character")?;
            group |= value << (18 - 6 * i);
        }
        let decoded = [(group >> 16) as u8, (group >> 8) as u8, group as u8];
        out.extend_from_slice(&decoded[..chunk.len() - 1]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_rfc4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
            assert_eq!(
                decode(encoded.trim_end_matches('=')).unwrap(),
                plain.as_bytes()
            );
        }
    }

    #[test]
    fn decodes_both_alphabets() {
        assert_eq!(decode("-_8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("+/8=").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
    }

    #[test]
    fn rejects_malformed_input() {
        for bad in [
            "Z", "Zm9vY", "Zm9v!", "Zg=", "Z===", "=", "Zm 9v", "Zg==Zg==",
        ] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
    }
}
