//! Explicit default values (`[default = ...]`) as Rust expressions: the
//! `default_value` text is read by buffa-descriptor's
//! [`parse_default_value`], the rule the pool reads it with, and the value
//! is printed here.

use buffa_descriptor::rules::{DefaultValue, parse_default_value};
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::error::Error;
use crate::layout::field::Scalar;

/// The Rust expression for a scalar default written in a descriptor's
/// `default_value`; `path` (the field's) names it in the error.
pub fn scalar_default(scalar: Scalar, text: &str, path: &str) -> Result<TokenStream, Error> {
    let value = parse_default_value(descriptor_type(scalar), text, |_| None)
        .map_err(|e| Error::new(format!("{path}: {e}")))?;
    Ok(match value {
        DefaultValue::I32(v) => literal(Literal::i32_suffixed(v)),
        DefaultValue::I64(v) => literal(Literal::i64_suffixed(v)),
        DefaultValue::U32(v) => literal(Literal::u32_suffixed(v)),
        DefaultValue::U64(v) => literal(Literal::u64_suffixed(v)),
        DefaultValue::Bool(v) => quote!(#v),
        DefaultValue::F32(v) => float(
            v.is_nan(),
            v.is_infinite(),
            v.is_sign_negative(),
            quote!(f32),
            || Literal::f32_suffixed(v.abs()),
        ),
        DefaultValue::F64(v) => float(
            v.is_nan(),
            v.is_infinite(),
            v.is_sign_negative(),
            quote!(f64),
            || Literal::f64_suffixed(v.abs()),
        ),
        DefaultValue::String(v) => literal(Literal::string(&v)),
        DefaultValue::Bytes(v) => literal(Literal::byte_string(&v)),
        DefaultValue::EnumNumber(_) | DefaultValue::Message => {
            unreachable!("a scalar's default is a scalar")
        }
    })
}

/// The descriptor type whose `default_value` rule applies to `scalar`.
fn descriptor_type(scalar: Scalar) -> Type {
    match scalar {
        Scalar::Double => Type::Double,
        Scalar::Float => Type::Float,
        Scalar::Int32 => Type::Int32,
        Scalar::Int64 => Type::Int64,
        Scalar::UInt32 => Type::Uint32,
        Scalar::UInt64 => Type::Uint64,
        Scalar::SInt32 => Type::Sint32,
        Scalar::SInt64 => Type::Sint64,
        Scalar::Fixed32 => Type::Fixed32,
        Scalar::Fixed64 => Type::Fixed64,
        Scalar::SFixed32 => Type::Sfixed32,
        Scalar::SFixed64 => Type::Sfixed64,
        Scalar::Bool => Type::Bool,
        Scalar::String | Scalar::SharedStr | Scalar::BorrowedStr => Type::String,
        Scalar::Bytes | Scalar::SharedBytes | Scalar::BorrowedBytes => Type::Bytes,
    }
}

fn literal(literal: Literal) -> TokenStream {
    quote!(#literal)
}

/// A float: `NAN`, `INFINITY` and `NEG_INFINITY` by name (a literal
/// cannot spell them), else the literal of the magnitude, negated.
fn float(
    nan: bool,
    infinite: bool,
    negative: bool,
    ty: TokenStream,
    magnitude: impl FnOnce() -> Literal,
) -> TokenStream {
    match (nan, infinite, negative) {
        (true, _, _) => quote!(#ty::NAN),
        (_, true, false) => quote!(#ty::INFINITY),
        (_, true, true) => quote!(#ty::NEG_INFINITY),
        (_, false, false) => literal(magnitude()),
        (_, false, true) => {
            let magnitude = magnitude();
            quote!(-#magnitude)
        }
    }
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
        // `f32` infinity from a double beyond its range, and the spellings
        // `strtod` reads: before the shared rule, printing each as a
        // literal panicked.
        for (scalar, text, printed) in [
            (Scalar::Float, "1e+40", "f32 :: INFINITY"),
            (Scalar::Double, "-Infinity", "f64 :: NEG_INFINITY"),
            (Scalar::Double, "-nan", "f64 :: NAN"),
            (Scalar::Float, "-0", "- 0f32"),
            (Scalar::Int32, "0x10", "16i32"),
        ] {
            assert_eq!(
                scalar_default(scalar, text, path).unwrap().to_string(),
                printed,
                "{text}"
            );
        }
        assert_eq!(
            scalar_default(Scalar::UInt32, "-1", path)
                .unwrap_err()
                .to_string(),
            ".p.M.f: invalid default value \"-1\""
        );
        assert_eq!(
            scalar_default(Scalar::Int64, "-9223372036854775808", path)
                .unwrap()
                .to_string(),
            "- 9223372036854775808i64"
        );
    }
}
