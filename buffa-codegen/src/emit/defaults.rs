//! Explicit default values (`[default = ...]`) as Rust expressions.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::error::Error;
use crate::layout::field::Scalar;

/// The Rust expression for a scalar default written in a descriptor's
/// `default_value` (which protoc has already validated).
pub fn scalar_default(scalar: Scalar, text: &str, path: &str) -> Result<TokenStream, Error> {
    let bad = || Error::new(format!("{path}: invalid default value {text:?}"));
    Ok(match scalar {
        Scalar::Int32 | Scalar::SInt32 | Scalar::SFixed32 => {
            Literal::i32_suffixed(text.parse().map_err(|_| bad())?).into_token_stream()
        }
        Scalar::Int64 | Scalar::SInt64 | Scalar::SFixed64 => {
            Literal::i64_suffixed(text.parse().map_err(|_| bad())?).into_token_stream()
        }
        Scalar::UInt32 | Scalar::Fixed32 => {
            Literal::u32_suffixed(text.parse().map_err(|_| bad())?).into_token_stream()
        }
        Scalar::UInt64 | Scalar::Fixed64 => {
            Literal::u64_suffixed(text.parse().map_err(|_| bad())?).into_token_stream()
        }
        Scalar::Bool => match text {
            "true" => quote!(true),
            "false" => quote!(false),
            _ => return Err(bad()),
        },
        Scalar::Float => {
            float_default(text, quote!(f32), |v| Literal::f32_suffixed(v as f32)).ok_or_else(bad)?
        }
        Scalar::Double => {
            float_default(text, quote!(f64), Literal::f64_suffixed).ok_or_else(bad)?
        }
        Scalar::String | Scalar::SharedStr | Scalar::BorrowedStr => {
            let literal = Literal::string(text);
            quote!(#literal)
        }
        Scalar::Bytes | Scalar::SharedBytes | Scalar::BorrowedBytes => {
            let literal = Literal::byte_string(&unescape_bytes(text).ok_or_else(bad)?);
            quote!(#literal)
        }
    })
}

trait IntoTokens {
    fn into_token_stream(self) -> TokenStream;
}

impl IntoTokens for Literal {
    fn into_token_stream(self) -> TokenStream {
        quote!(#self)
    }
}

fn float_default(
    text: &str,
    ty: TokenStream,
    literal: impl Fn(f64) -> Literal,
) -> Option<TokenStream> {
    Some(match text {
        "inf" => quote!(#ty::INFINITY),
        "-inf" => quote!(#ty::NEG_INFINITY),
        "nan" => quote!(#ty::NAN),
        _ => {
            let value: f64 = text.parse().ok()?;
            if value.is_sign_negative() {
                let magnitude = literal(-value);
                quote!(-#magnitude)
            } else {
                let value = literal(value);
                quote!(#value)
            }
        }
    })
}

/// Undoes the C escaping protoc applies to `bytes` defaults: `\n`, `\t`,
/// `\\`, `\'`, `\"`, `\?`, octal `\ooo` and hex `\xhh`.
pub fn unescape_bytes(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        i += 1;
        let escape = *bytes.get(i)?;
        i += 1;
        match escape {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => out.push(escape),
            b'0'..=b'7' => {
                let mut value = u32::from(escape - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(u8::try_from(value).ok()?);
            }
            b'x' | b'X' => {
                let mut value = 0u32;
                let start = i;
                while i < bytes.len() && i - start < 2 && bytes[i].is_ascii_hexdigit() {
                    value = value * 16 + (bytes[i] as char).to_digit(16)?;
                    i += 1;
                }
                if i == start {
                    return None;
                }
                out.push(value as u8);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_c_escapes() {
        assert_eq!(
            unescape_bytes(r"a\001\x7f\n\\\'").unwrap(),
            b"a\x01\x7f\n\\'"
        );
        assert_eq!(unescape_bytes(r"\377").unwrap(), [255]);
        assert!(unescape_bytes("\\").is_none());
    }

    #[test]
    fn float_specials() {
        let path = ".p.M.f";
        assert_eq!(
            scalar_default(Scalar::Float, "inf", path)
                .unwrap()
                .to_string(),
            "f32 :: INFINITY"
        );
        assert_eq!(
            scalar_default(Scalar::Double, "-inf", path)
                .unwrap()
                .to_string(),
            "f64 :: NEG_INFINITY"
        );
        assert_eq!(
            scalar_default(Scalar::Double, "nan", path)
                .unwrap()
                .to_string(),
            "f64 :: NAN"
        );
        assert_eq!(
            scalar_default(Scalar::Double, "-1.5", path)
                .unwrap()
                .to_string(),
            "- 1.5f64"
        );
        assert_eq!(
            scalar_default(Scalar::Int64, "-9223372036854775808", path)
                .unwrap()
                .to_string(),
            "- 9223372036854775808i64"
        );
    }
}
