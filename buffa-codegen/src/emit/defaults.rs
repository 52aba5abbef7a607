//! Explicit default values (`[default = ...]`) as Rust expressions.

use buffa_descriptor::rules::{Escapes, unescape};
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
            let bytes = unescape(text, Escapes::DefaultValue).map_err(|_| bad())?;
            let literal = Literal::byte_string(&bytes);
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

#[cfg(test)]
mod tests {
    use super::*;

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
