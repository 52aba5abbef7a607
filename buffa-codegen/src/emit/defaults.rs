//! Explicit default values (`[default = ...]`) as Rust expressions: the
//! pool has read each field's `default_value` text (with buffa-descriptor's
//! `parse_default_value`, where a bad one is refused) and the value is
//! printed here.

use buffa_descriptor::rules::DefaultValue;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The Rust expression for a scalar field's default `value`, as the pool
/// resolved it.
pub fn scalar_default(value: DefaultValue) -> TokenStream {
    match value {
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
    use buffa_descriptor::rules::parse_default_value;
    use buffa_types::google::protobuf::field_descriptor_proto::Type;

    use super::*;

    /// The default `text` of a field of type `ty`, read as the pool reads
    /// it and printed.
    fn printed(ty: Type, text: &str) -> String {
        scalar_default(parse_default_value(ty, text, |_| None).unwrap()).to_string()
    }

    #[test]
    fn float_specials() {
        // `f32` infinity from a double beyond its range, and the spellings
        // `strtod` reads: before the shared rule, printing each as a
        // literal panicked.
        for (ty, text, expected) in [
            (Type::Float, "inf", "f32 :: INFINITY"),
            (Type::Double, "-inf", "f64 :: NEG_INFINITY"),
            (Type::Double, "nan", "f64 :: NAN"),
            (Type::Double, "-1.5", "- 1.5f64"),
            (Type::Float, "1e+40", "f32 :: INFINITY"),
            (Type::Double, "-Infinity", "f64 :: NEG_INFINITY"),
            (Type::Double, "-nan", "f64 :: NAN"),
            (Type::Float, "-0", "- 0f32"),
            (Type::Int32, "0x10", "16i32"),
            (
                Type::Int64,
                "-9223372036854775808",
                "- 9223372036854775808i64",
            ),
            (Type::String, "a\"b", "\"a\\\"b\""),
            (Type::Bytes, "\\001x", "b\"\\x01x\""),
        ] {
            assert_eq!(printed(ty, text), expected, "{text}");
        }
    }
}
