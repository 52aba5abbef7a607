//! Explicit field defaults: reading the `default_value` text of a
//! `FieldDescriptorProto` (`[default = ...]` in a proto2 or editions
//! `.proto` file) as a value of the field's type.
//!
//! protoc writes the text in one canonical form: integers in decimal,
//! floats as C++'s `SimpleDtoa` prints them (`1.5`, `1e+30`, `inf`,
//! `-inf`, `nan`), `true`/`false`, strings verbatim, bytes `CEscape`d and
//! enum values by name. C++'s `DescriptorPool`, which reads descriptor sets
//! that protoc did not necessarily write, is more lenient, and so is
//! [`parse_default_value`] where it is unambiguous:
//!
//! | type | accepted | as C++'s `DescriptorPool` |
//! |---|---|---|
//! | integers | an optional sign, then decimal, `0x`/`0X` hex or `0` octal digits | `strtol(text, 0)`: the same bases |
//! | `float`, `double` | a decimal float, with exponent; `inf`, `-inf`, `nan` (any case, `infinity`) | `strtod`; `float` rounds the `double` once |
//! | `bool` | `true`, `false` | the same |
//! | `string` | the text | the same |
//! | `bytes` | C escapes ([`Escapes::DefaultValue`]) | `UnescapeCEscapeString` |
//! | enums | a value's name | the same |
//!
//! Where C++'s reading is an accident of the C library rather than a rule
//! it is refused here: an integer out of its type's range (which `strtol`
//! clamps and the cast truncates), a negative unsigned integer (which
//! `strtoul` wraps), leading white space, and hex floats.
//!
//! `tests/rules_protoc.rs` compiles `[default = ...]` options with protoc
//! and reads back what protoc wrote.

use core::fmt;

use buffa_types::google::protobuf::field_descriptor_proto::Type;

use super::escape::{Escapes, unescape};

/// The value a singular field reads as when it is not set.
///
/// An explicit `[default = ...]` (proto2 and editions fields with explicit
/// presence) is parsed from the descriptor's `default_value` text by
/// [`parse_default_value`]; otherwise it is the zero value of the field's
/// type: `false`, `0`, `""`, empty bytes, or an enum's first declared
/// value.
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

/// A `default_value` that [`parse_default_value`] refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultValueError {
    message: String,
}

impl DefaultValueError {
    /// What is wrong, e.g. `invalid default value "abc"`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DefaultValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DefaultValueError {}

/// Reads `text`, the `default_value` of a field of type `field_type`, as
/// the module documentation describes; `enum_value` gives the number of
/// the field's enum's value of a name (it is called only for enum fields).
///
/// ```
/// use buffa_descriptor::rules::{DefaultValue, parse_default_value};
/// use buffa_types::google::protobuf::field_descriptor_proto::Type;
///
/// let int = |text| parse_default_value(Type::Int32, text, |_| None);
/// assert_eq!(int("-8"), Ok(DefaultValue::I32(-8)));
/// assert_eq!(int("0x10"), Ok(DefaultValue::I32(16)));
/// assert!(int("2147483648").is_err());
/// let float = parse_default_value(Type::Float, "1e+40", |_| None);
/// assert_eq!(float, Ok(DefaultValue::F32(f32::INFINITY)));
/// let color = parse_default_value(Type::Enum, "RED", |name| (name == "RED").then_some(2));
/// assert_eq!(color, Ok(DefaultValue::EnumNumber(2)));
/// ```
pub fn parse_default_value(
    field_type: Type,
    text: &str,
    enum_value: impl FnOnce(&str) -> Option<i32>,
) -> Result<DefaultValue, DefaultValueError> {
    let bad = || DefaultValueError {
        message: format!("invalid default value {text:?}"),
    };
    let int = || parse_integer(text).ok_or_else(bad);
    Ok(match field_type {
        Type::Double => DefaultValue::F64(parse_float(text).ok_or_else(bad)?),
        // Rounded once, from the `double`, as C++ does.
        Type::Float => DefaultValue::F32(parse_float(text).ok_or_else(bad)? as f32),
        Type::Int32 | Type::Sint32 | Type::Sfixed32 => {
            DefaultValue::I32(int()?.try_into().map_err(|_| bad())?)
        }
        Type::Int64 | Type::Sint64 | Type::Sfixed64 => {
            DefaultValue::I64(int()?.try_into().map_err(|_| bad())?)
        }
        Type::Uint32 | Type::Fixed32 => DefaultValue::U32(int()?.try_into().map_err(|_| bad())?),
        Type::Uint64 | Type::Fixed64 => DefaultValue::U64(int()?.try_into().map_err(|_| bad())?),
        Type::Bool => match text {
            "true" => DefaultValue::Bool(true),
            "false" => DefaultValue::Bool(false),
            _ => return Err(bad()),
        },
        Type::String => DefaultValue::String(text.to_owned()),
        Type::Bytes => DefaultValue::Bytes(unescape(text, Escapes::DefaultValue).map_err(|e| {
            DefaultValueError {
                message: format!("invalid default value {text:?}: {e}"),
            }
        })?),
        Type::Enum => {
            DefaultValue::EnumNumber(enum_value(text).ok_or_else(|| DefaultValueError {
                message: format!("default value {text} is not a value of the enum"),
            })?)
        }
        Type::Message | Type::Group => {
            return Err(DefaultValueError {
                message: "message fields cannot have default values".into(),
            });
        }
    })
}

/// An integer as `strtol` with base 0 reads it: an optional sign, then
/// `0x`/`0X` and hex digits, `0` and octal digits, or decimal digits; the
/// whole text, and within `i128` (which holds every protobuf integer).
fn parse_integer(text: &str) -> Option<i128> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(hex) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        (16, hex)
    } else if unsigned.len() > 1 && unsigned.starts_with('0') {
        (8, &unsigned[1..])
    } else {
        (10, unsigned)
    };
    // `from_str_radix` would take a second sign.
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

/// A decimal float, or `inf`, `-inf`, `nan`, as `f64`.
fn parse_float(text: &str) -> Option<f64> {
    match text {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        // Rust's parser also takes "infinity", "NaN" and a leading '+' (any
        // case), as `strtod` does; protoc never writes them.
        _ => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(field_type: Type, text: &str) -> Result<DefaultValue, DefaultValueError> {
        parse_default_value(field_type, text, |name| (name == "RED").then_some(3))
    }

    #[test]
    fn integers_in_every_base_and_range() {
        assert_eq!(parse(Type::Int32, "-8"), Ok(DefaultValue::I32(-8)));
        assert_eq!(parse(Type::Sint32, "0x1F"), Ok(DefaultValue::I32(31)));
        assert_eq!(parse(Type::Sfixed32, "-0X10"), Ok(DefaultValue::I32(-16)));
        assert_eq!(parse(Type::Int64, "017"), Ok(DefaultValue::I64(15)));
        assert_eq!(parse(Type::Uint32, "0"), Ok(DefaultValue::U32(0)));
        assert_eq!(parse(Type::Fixed32, "+7"), Ok(DefaultValue::U32(7)));
        assert_eq!(
            parse(Type::Uint64, "18446744073709551615"),
            Ok(DefaultValue::U64(u64::MAX))
        );
        assert_eq!(
            parse(Type::Sfixed64, "-9223372036854775808"),
            Ok(DefaultValue::I64(i64::MIN))
        );
        for (field_type, text) in [
            (Type::Int32, "2147483648"),
            (Type::Int32, "-2147483649"),
            (Type::Uint32, "-1"),
            (Type::Uint64, "18446744073709551616"),
            (Type::Int32, ""),
            (Type::Int32, "-"),
            (Type::Int32, "0x"),
            (Type::Int32, "08"),
            (Type::Int32, "0xg"),
            (Type::Int32, "+-1"),
            (Type::Int32, "--1"),
            (Type::Int32, " 1"),
            (Type::Int32, "1.0"),
            (Type::Int64, "99999999999999999999999999999999999999999"),
        ] {
            assert_eq!(
                parse(field_type, text),
                Err(DefaultValueError {
                    message: format!("invalid default value {text:?}")
                }),
                "{field_type:?} {text:?}"
            );
        }
    }

    #[test]
    fn floats() {
        assert_eq!(
            parse(Type::Double, "-inf"),
            Ok(DefaultValue::F64(f64::NEG_INFINITY))
        );
        assert!(matches!(parse(Type::Float, "nan"), Ok(DefaultValue::F32(v)) if v.is_nan()));
        assert_eq!(parse(Type::Float, "1.5e3"), Ok(DefaultValue::F32(1500.0)));
        assert_eq!(parse(Type::Double, "1e+30"), Ok(DefaultValue::F64(1e30)));
        assert_eq!(
            parse(Type::Float, "1e+40"),
            Ok(DefaultValue::F32(f32::INFINITY))
        );
        // Rounded once from the double nearest the text.
        assert_eq!(parse(Type::Float, "0.1"), Ok(DefaultValue::F32(0.1)));
        for text in ["1 5", " 1", "0x1p3", "1_0", ""] {
            assert!(parse(Type::Double, text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn other_types() {
        assert_eq!(parse(Type::Bool, "true"), Ok(DefaultValue::Bool(true)));
        assert!(parse(Type::Bool, "True").is_err());
        assert_eq!(
            parse(Type::String, r"a\n"),
            Ok(DefaultValue::String(r"a\n".into()))
        );
        assert_eq!(
            parse(Type::Bytes, r"a\n\001"),
            Ok(DefaultValue::Bytes(b"a\n\x01".to_vec()))
        );
        assert!(parse(Type::Bytes, r"\u0041").is_err());
        assert_eq!(parse(Type::Enum, "RED"), Ok(DefaultValue::EnumNumber(3)));
        assert_eq!(
            parse(Type::Enum, "BLUE").unwrap_err().message(),
            "default value BLUE is not a value of the enum"
        );
        assert!(parse(Type::Message, "x").is_err());
        assert!(parse(Type::Group, "x").is_err());
    }
}
