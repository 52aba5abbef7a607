//! Base64 for `bytes` fields: standard alphabet with padding on output;
//! standard or URL-safe alphabet, padded or not, on input (RFC 4648).

use alloc::vec::Vec;
#[cfg(test)]
use alloc::{string::String, vec};
use core::fmt;

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64 with padding.
#[cfg(test)]
fn encode(bytes: &[u8]) -> String {
    let mut out = vec![0; bytes.len().div_ceil(3) * 4];
    let len = encode_into(bytes, &mut out);
    debug_assert_eq!(len, out.len());
    String::from_utf8(out).expect("base64 is ASCII")
}

/// `bytes` in standard base64 with padding, written in pieces through
/// [`fmt::Display`] (for `Serializer::collect_str`, without allocating).
pub struct Display<'a>(pub &'a [u8]);

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 768 bytes make 1024 digits.
        let mut digits = [0; 1024];
        for piece in self.0.chunks(768) {
            let len = encode_into(piece, &mut digits);
            f.write_str(core::str::from_utf8(&digits[..len]).expect("base64 is ASCII"))?;
        }
        Ok(())
    }
}

/// Writes `bytes` in standard base64 with padding at the start of `out`
/// (which has room for it), returning its length.
fn encode_into(bytes: &[u8], out: &mut [u8]) -> usize {
    let digit = |group: u32, shift: u32| STANDARD[(group >> shift & 63) as usize];
    let mut len = 0;
    let mut groups = bytes.chunks_exact(3);
    for group in &mut groups {
        let group = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        out[len..len + 4].copy_from_slice(&[
            digit(group, 18),
            digit(group, 12),
            digit(group, 6),
            digit(group, 0),
        ]);
        len += 4;
    }
    match *groups.remainder() {
        [a] => {
            let group = u32::from(a) << 16;
            out[len..len + 4].copy_from_slice(&[digit(group, 18), digit(group, 12), b'=', b'=']);
            len += 4;
        }
        [a, b] => {
            let group = u32::from(a) << 16 | u32::from(b) << 8;
            out[len..len + 4].copy_from_slice(&[
                digit(group, 18),
                digit(group, 12),
                digit(group, 6),
                b'=',
            ]);
            len += 4;
        }
        _ => {}
    }
    len
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
    use alloc::{string::ToString, vec::Vec};

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
            assert_eq!(Display(plain.as_bytes()).to_string(), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
            assert_eq!(
                decode(encoded.trim_end_matches('=')).unwrap(),
                plain.as_bytes()
            );
        }
    }

    #[test]
    fn display_writes_long_input_in_pieces() {
        // Across the 768-byte pieces, every byte value, every remainder.
        let bytes: Vec<u8> = (0..2400u32).map(|i| (i * 7 + i / 256) as u8).collect();
        for len in (0..40).chain(760..780).chain(1530..1540).chain([2400]) {
            let encoded = Display(&bytes[..len]).to_string();
            assert_eq!(encoded, encode(&bytes[..len]));
            assert_eq!(encoded.len(), len.div_ceil(3) * 4);
            assert_eq!(decode(&encoded).unwrap(), &bytes[..len]);
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
