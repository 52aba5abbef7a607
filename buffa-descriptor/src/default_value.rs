//! Field defaults: the `default_value` strings of proto2 and editions
//! fields, parsed, and the zero value of each type.

use crate::inner::KindIndex;
use crate::rules::{Escapes, unescape};

/// The value a singular field reads as when it is not set.
///
/// An explicit `[default = ...]` (proto2 and editions fields with explicit
/// presence) is parsed from the descriptor's `default_value` text;
/// otherwise it is the zero value of the field's type: `false`, `0`, `""`,
/// empty bytes, or an enum's first declared value.
///
/// A repeated field defaults to empty; its `default_value` is that of one
/// element (the zero value, as repeated fields cannot declare a default).
/// Message fields (maps included) have no default value: they read as
/// [`DefaultValue::Message`], meaning the message type's default instance.
#[derive(Clone, Debug, PartialEq)]
pub enum DefaultValue {
    /// A `bool` field.
    Bool(bool),
    /// An `int32`, `sint32` or `sfixed32` field.
    I32(i32),
    /// An `int64`, `sint64` or `sfixed64` field.
    I64(i64),
    /// A `uint32` or `fixed32` field.
    U32(u32),
    /// A `uint64` or `fixed64` field.
    U64(u64),
    /// A `float` field.
    F32(f32),
    /// A `double` field.
    F64(f64),
    /// A `string` field.
    String(String),
    /// A `bytes` field.
    Bytes(Vec<u8>),
    /// An enum field: the number of the default value.
    EnumNumber(i32),
    /// A message (or group, or map) field: the default is the message
    /// type's default instance.
    Message,
}

/// The zero value of a field of `kind`; `first_enum_value` is the number of
/// the first value of an enum type.
pub(crate) fn zero(kind: KindIndex, first_enum_value: i32) -> DefaultValue {
    match kind {
        KindIndex::Double => DefaultValue::F64(0.0),
        KindIndex::Float => DefaultValue::F32(0.0),
        KindIndex::Int32 | KindIndex::Sint32 | KindIndex::Sfixed32 => DefaultValue::I32(0),
        KindIndex::Int64 | KindIndex::Sint64 | KindIndex::Sfixed64 => DefaultValue::I64(0),
        KindIndex::Uint32 | KindIndex::Fixed32 => DefaultValue::U32(0),
        KindIndex::Uint64 | KindIndex::Fixed64 => DefaultValue::U64(0),
        KindIndex::Bool => DefaultValue::Bool(false),
        KindIndex::String => DefaultValue::String(String::new()),
        KindIndex::Bytes => DefaultValue::Bytes(Vec::new()),
        KindIndex::Enum(_) => DefaultValue::EnumNumber(first_enum_value),
        KindIndex::Message(_) => DefaultValue::Message,
    }
}

/// Parses the `default_value` text of a field of `kind`, as protoc writes
/// it: decimal integers, `true`/`false`, floats including `inf`, `-inf` and
/// `nan`, strings verbatim, bytes C-escaped ([`Escapes::DefaultValue`]) and enum values by name
/// (looked up with `enum_value`).
pub(crate) fn parse(
    kind: KindIndex,
    text: &str,
    enum_value: impl FnOnce(&str) -> Option<i32>,
) -> Result<DefaultValue, String> {
    let bad = || format!("invalid default value {text:?}");
    Ok(match kind {
        KindIndex::Double => DefaultValue::F64(parse_float(text).ok_or_else(bad)?),
        KindIndex::Float => DefaultValue::F32(parse_float(text).ok_or_else(bad)? as f32),
        KindIndex::Int32 | KindIndex::Sint32 | KindIndex::Sfixed32 => {
            DefaultValue::I32(text.parse().map_err(|_| bad())?)
        }
        KindIndex::Int64 | KindIndex::Sint64 | KindIndex::Sfixed64 => {
            DefaultValue::I64(text.parse().map_err(|_| bad())?)
        }
        KindIndex::Uint32 | KindIndex::Fixed32 => {
            DefaultValue::U32(text.parse().map_err(|_| bad())?)
        }
        KindIndex::Uint64 | KindIndex::Fixed64 => {
            DefaultValue::U64(text.parse().map_err(|_| bad())?)
        }
        KindIndex::Bool => match text {
            "true" => DefaultValue::Bool(true),
            "false" => DefaultValue::Bool(false),
            _ => return Err(bad()),
        },
        KindIndex::String => DefaultValue::String(text.to_owned()),
        KindIndex::Bytes => DefaultValue::Bytes(
            unescape(text, Escapes::DefaultValue)
                .map_err(|e| format!("invalid default value {text:?}: {e}"))?,
        ),
        KindIndex::Enum(_) => DefaultValue::EnumNumber(
            enum_value(text)
                .ok_or_else(|| format!("default value {text} is not a value of the enum"))?,
        ),
        KindIndex::Message(_) => return Err("message fields cannot have default values".into()),
    })
}

/// A decimal float, or `inf`, `-inf`, `nan`. Parsed as `f64` and, for
/// `float` fields, rounded once to `f32`, as protoc does.
fn parse_float(text: &str) -> Option<f64> {
    match text {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        // Rust's parser also takes "infinity", "NaN" and a leading '+',
        // which protoc never writes but which are unambiguous.
        _ if text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            text.parse().ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let f = |kind, text| parse(kind, text, |_| None);
        assert_eq!(f(KindIndex::Int32, "-8"), Ok(DefaultValue::I32(-8)));
        assert!(f(KindIndex::Int32, "2147483648").is_err());
        assert_eq!(
            f(KindIndex::Uint64, "18446744073709551615"),
            Ok(DefaultValue::U64(u64::MAX))
        );
        assert!(f(KindIndex::Uint32, "-1").is_err());
        assert_eq!(
            f(KindIndex::Double, "-inf"),
            Ok(DefaultValue::F64(f64::NEG_INFINITY))
        );
        assert!(matches!(f(KindIndex::Float, "nan"), Ok(DefaultValue::F32(v)) if v.is_nan()));
        assert_eq!(f(KindIndex::Float, "1.5e3"), Ok(DefaultValue::F32(1500.0)));
        assert!(f(KindIndex::Double, "1 5").is_err());
        assert!(f(KindIndex::Bool, "True").is_err());
        assert!(f(KindIndex::Message(0), "x").is_err());
    }
}
