//! The JSON form of one value of each protobuf type, keyed by the same
//! marker types as the binary encoding (`Int64`, `ProtoBytes`,
//! `OpenEnum<E>`, ...) plus [`MessageKind`] for messages.

use alloc::{format, string::String, vec::Vec};
use core::fmt;
use core::marker::PhantomData;

use bytes::Bytes;
use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::Serializer;

use super::base64;
use super::read::DeserializeCx;
use super::{JsonMessage, SerializeOptions};
use crate::bytes_str::BytesStr;
use crate::encoding::types::*;
use crate::enumeration::{EnumValue, Enumeration};

/// How one protobuf type is written as and read from JSON.
pub trait JsonKind {
    /// The Rust type holding a value.
    type Value;

    /// Whether values are messages (charged to the allocation budget as
    /// oneof members, which may be boxed).
    const IS_MESSAGE: bool = false;

    /// Whether `value` is the default, which fields without presence omit.
    fn is_default(value: &Self::Value) -> bool;

    /// Writes `value`.
    fn serialize<S: Serializer>(
        value: &Self::Value,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error>;

    /// Reads a value that is not JSON `null`. `Ok(None)` means the value is
    /// to be skipped: an enum name the schema does not declare, read with
    /// `ignore_unknown_fields`.
    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Option<Self::Value>, D::Error>;

    /// The value JSON `null` stands for, if `null` is a value of this type
    /// (`google.protobuf.NullValue` and `google.protobuf.Value`); for every
    /// other type, `null` means "not set" and is an error where a value is
    /// required (in a list or as a map value).
    fn null() -> Option<Self::Value> {
        None
    }
}

/// A protobuf type that may be a map key, written as a JSON object key.
pub trait JsonMapKey: JsonKind {
    /// Writes `value` as an object key.
    fn serialize_key<S: Serializer>(value: &Self::Value, serializer: S) -> Result<S::Ok, S::Error>;

    /// Reads a key.
    fn parse_key(key: &str) -> Result<Self::Value, String>;
}

// --- numbers ------------------------------------------------------------------

/// Whether `text` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_start = i;
    match digits(&mut i) {
        0 => return false,
        n if n > 1 && b[int_start] == b'0' => return false,
        _ => {}
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// A double from a JSON string: `"NaN"`, `"Infinity"`, `"-Infinity"` or a
/// number in JSON syntax. Finite text that overflows is an error.
pub fn parse_f64(text: &str) -> Result<f64, String> {
    match text {
        "NaN" => Ok(f64::NAN),
        "Infinity" => Ok(f64::INFINITY),
        "-Infinity" => Ok(f64::NEG_INFINITY),
        _ if is_json_number(text) => match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("number {text} is out of range of a double")),
        },
        _ => Err(format!("invalid number {text:?}")),
    }
}

/// An integer type of the JSON mapping.
trait Integer: Copy + TryFrom<i64> + TryFrom<u64> + fmt::Display + core::str::FromStr {
    const NAME: &'static str;
    /// Whether JSON writes it as a string (64-bit types).
    const QUOTED: bool;
    fn from_f64(v: f64) -> Option<Self>;
}

macro_rules! integer {
    ($t:ty, $name:literal, $quoted:literal) => {
        impl Integer for $t {
            const NAME: &'static str = $name;
            const QUOTED: bool = $quoted;
            fn from_f64(v: f64) -> Option<Self> {
                // Exact only: integral, inside the type's range, and
                // below 2^53 in magnitude, from which on a double may be a
                // rounded neighbour of the number written (C++ refuses
                // these too). Integers written without fraction or exponent
                // never come this way.
                const EXACT: f64 = (1u64 << 53) as f64;
                (v.fract() == 0.0
                    && v.abs() < EXACT
                    && v > (<$t>::MIN as f64) - 1.0
                    && v < (<$t>::MAX as f64) + 1.0)
                    .then(|| v as $t)
            }
        }
    };
}
integer!(i32, "an int32", false);
integer!(u32, "a uint32", false);
integer!(i64, "an int64", true);
integer!(u64, "a uint64", true);

struct IntegerVisitor<T>(PhantomData<T>);

impl<T: Integer> IntegerVisitor<T> {
    fn exact<E: de::Error>(value: Option<T>, shown: fmt::Arguments<'_>) -> Result<T, E> {
        value.ok_or_else(|| E::custom(format_args!("{shown} is not {}", T::NAME)))
    }

    /// A value read as a double (a fraction or an exponent).
    fn exact_double<E: de::Error>(v: f64, shown: fmt::Arguments<'_>) -> Result<T, E> {
        T::from_f64(v).ok_or_else(|| {
            E::custom(format_args!(
                "{shown} is not {} (written with a fraction or exponent, it must be integral \
                 and below 2^53 in magnitude)",
                T::NAME
            ))
        })
    }
}

impl<'de, T: Integer> Visitor<'de> for IntegerVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (a JSON number or a string holding one)", T::NAME)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Self::exact(T::try_from(v).ok(), format_args!("{v}"))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Self::exact(T::try_from(v).ok(), format_args!("{v}"))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Self::exact_double(v, format_args!("{v}"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        if !is_json_number(v) {
            return Err(E::invalid_value(Unexpected::Str(v), &self));
        }
        if let Ok(exact) = v.parse::<T>() {
            return Ok(exact);
        }
        if !v.contains(['.', 'e', 'E']) {
            return Err(E::custom(format_args!(
                "{v} is out of range of {}",
                T::NAME
            )));
        }
        // A fraction or an exponent: exact when the value is integral.
        match v.parse::<f64>() {
            Ok(f) => Self::exact_double(f, format_args!("{v:?}")),
            Err(_) => Err(E::invalid_value(Unexpected::Str(v), &self)),
        }
    }
}

macro_rules! integer_kind {
    ($($marker:ident: $t:ty),*) => {$(
        impl JsonKind for $marker {
            type Value = $t;

            #[inline]
            fn is_default(value: &$t) -> bool {
                *value == 0
            }

            #[inline]
            fn serialize<S: Serializer>(
                value: &$t,
                serializer: S,
                _: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                if <$t as Integer>::QUOTED {
                    serializer.serialize_str(itoa::Buffer::new().format(*value))
                } else {
                    serializer.serialize_i64(*value as i64)
                }
            }

            #[inline]
            fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
                _: DeserializeCx<'_>,
            ) -> Result<Option<$t>, D::Error> {
                deserializer.deserialize_any(IntegerVisitor::<$t>(PhantomData)).map(Some)
            }
        }

        impl JsonMapKey for $marker {
            #[inline]
            fn serialize_key<S: Serializer>(value: &$t, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(itoa::Buffer::new().format(*value))
            }

            fn parse_key(key: &str) -> Result<$t, String> {
                // Map keys are the decimal integer alone.
                let canonical = key.strip_prefix('-').unwrap_or(key);
                let valid = !canonical.is_empty()
                    && canonical.bytes().all(|b| b.is_ascii_digit())
                    && !(canonical.len() > 1 && canonical.starts_with('0'));
                valid
                    .then(|| key.parse::<$t>().ok())
                    .flatten()
                    .ok_or_else(|| format!("map key {key:?} is not {}", <$t as Integer>::NAME))
            }
        }
    )*};
}
integer_kind!(
    Int32: i32, SInt32: i32, SFixed32: i32,
    UInt32: u32, Fixed32: u32,
    Int64: i64, SInt64: i64, SFixed64: i64,
    UInt64: u64, Fixed64: u64
);

/// A floating-point type of the JSON mapping.
trait FloatValue: Copy + PartialEq {
    const NAME: &'static str;
    fn from_f64(v: f64) -> Option<Self>;
    fn to_f64(self) -> f64;
    /// Writes a finite value, in the shortest form that reads back exactly.
    fn serialize_finite<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error>;
}

impl FloatValue for f64 {
    const NAME: &'static str = "a double";
    fn from_f64(v: f64) -> Option<f64> {
        Some(v)
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn serialize_finite<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self)
    }
}

impl FloatValue for f32 {
    const NAME: &'static str = "a float";
    fn from_f64(v: f64) -> Option<f32> {
        // Finite doubles beyond the float range are errors; rounding within
        // it is not.
        let narrowed = v as f32;
        (narrowed.is_finite() || !v.is_finite()).then_some(narrowed)
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn serialize_finite<S: Serializer>(self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f32(self)
    }
}

struct FloatVisitor<T>(PhantomData<T>);

impl<T: FloatValue> FloatVisitor<T> {
    fn narrow<E: de::Error>(v: f64) -> Result<T, E> {
        T::from_f64(v).ok_or_else(|| E::custom(format_args!("{v} is out of range of {}", T::NAME)))
    }
}

impl<'de, T: FloatValue> Visitor<'de> for FloatVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (a JSON number, or a string holding one or \"NaN\", \"Infinity\", \"-Infinity\")",
            T::NAME
        )
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Self::narrow(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Self::narrow(v as f64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Self::narrow(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Self::narrow(parse_f64(v).map_err(E::custom)?)
    }
}

/// Writes a float or double: special values as strings.
fn serialize_float<T: FloatValue, S: Serializer>(v: T, serializer: S) -> Result<S::Ok, S::Error> {
    let wide = v.to_f64();
    if wide.is_nan() {
        serializer.serialize_str("NaN")
    } else if wide == f64::INFINITY {
        serializer.serialize_str("Infinity")
    } else if wide == f64::NEG_INFINITY {
        serializer.serialize_str("-Infinity")
    } else {
        v.serialize_finite(serializer)
    }
}

macro_rules! float_kind {
    ($marker:ident: $t:ty) => {
        impl JsonKind for $marker {
            type Value = $t;

            #[inline]
            fn is_default(value: &$t) -> bool {
                <$marker as ScalarType>::is_default(value)
            }

            #[inline]
            fn serialize<S: Serializer>(
                value: &$t,
                serializer: S,
                _: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                serialize_float(*value, serializer)
            }

            #[inline]
            fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
                _: DeserializeCx<'_>,
            ) -> Result<Option<$t>, D::Error> {
                deserializer
                    .deserialize_any(FloatVisitor::<$t>(PhantomData))
                    .map(Some)
            }
        }
    };
}
float_kind!(Float: f32);
float_kind!(Double: f64);

// --- bool ---------------------------------------------------------------------

struct BoolVisitor;

impl<'de> Visitor<'de> for BoolVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a bool (true or false)")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
}

impl JsonKind for Bool {
    type Value = bool;

    #[inline]
    fn is_default(value: &bool) -> bool {
        !*value
    }

    #[inline]
    fn serialize<S: Serializer>(
        value: &bool,
        serializer: S,
        _: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(*value)
    }

    #[inline]
    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        _: DeserializeCx<'_>,
    ) -> Result<Option<bool>, D::Error> {
        deserializer.deserialize_bool(BoolVisitor).map(Some)
    }
}

impl JsonMapKey for Bool {
    fn serialize_key<S: Serializer>(value: &bool, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(if *value { "true" } else { "false" })
    }

    fn parse_key(key: &str) -> Result<bool, String> {
        match key {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("map key {key:?} is not a bool (true or false)")),
        }
    }
}

// --- strings and bytes ---------------------------------------------------------

/// Reads a JSON string into any type built from `&str`.
struct StrVisitor<T>(&'static str, fn(&str) -> T);

impl<'de, T> Visitor<'de> for StrVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok((self.1)(v))
    }
}

macro_rules! string_kind {
    ($marker:ident: $t:ty) => {
        impl JsonKind for $marker {
            type Value = $t;

            #[inline]
            fn is_default(value: &$t) -> bool {
                value.is_empty()
            }

            #[inline]
            fn serialize<S: Serializer>(
                value: &$t,
                serializer: S,
                _: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(value)
            }

            #[inline]
            fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
                cx: DeserializeCx<'_>,
            ) -> Result<Option<$t>, D::Error> {
                let value = deserializer
                    .deserialize_str(StrVisitor("a string", |s: &str| <$t>::from(s)))?;
                cx.charge(value.len())?;
                Ok(Some(value))
            }
        }

        impl JsonMapKey for $marker {
            fn serialize_key<S: Serializer>(value: &$t, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(value)
            }

            fn parse_key(key: &str) -> Result<$t, String> {
                Ok(<$t>::from(key))
            }
        }
    };
}
string_kind!(ProtoString: String);
string_kind!(SharedStr: BytesStr);

struct Base64Visitor;

impl<'de> Visitor<'de> for Base64Visitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes as a base64 string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        base64::decode(v).map_err(E::custom)
    }
}

macro_rules! bytes_kind {
    ($marker:ident: $t:ty) => {
        impl JsonKind for $marker {
            type Value = $t;

            #[inline]
            fn is_default(value: &$t) -> bool {
                value.is_empty()
            }

            #[inline]
            fn serialize<S: Serializer>(
                value: &$t,
                serializer: S,
                _: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                serializer.collect_str(&base64::Display(value))
            }

            #[inline]
            fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
                cx: DeserializeCx<'_>,
            ) -> Result<Option<$t>, D::Error> {
                let value = deserializer.deserialize_str(Base64Visitor)?;
                cx.charge(value.len())?;
                Ok(Some(<$t>::from(value)))
            }
        }
    };
}
bytes_kind!(ProtoBytes: Vec<u8>);
bytes_kind!(SharedBytes: Bytes);

// --- enums ----------------------------------------------------------------------

/// What a JSON enum value named: a declared variant, a number the schema
/// does not declare (open enums), or nothing to keep (an undeclared name
/// or closed-enum number, under `ignore_unknown_fields`).
enum EnumInput<E> {
    Known(E),
    Number(i32),
    Skip,
}

/// Reads an enum value by name or number. Undeclared names, and undeclared
/// numbers of a closed enum, are errors raised while the value is read (so
/// that they point at it), unless `ignore_unknown` makes them `Skip`.
struct EnumVisitor<E> {
    closed: bool,
    ignore_unknown: bool,
    kind: PhantomData<E>,
}

impl<E: Enumeration> EnumVisitor<E> {
    fn new(closed: bool, ignore_unknown: bool) -> EnumVisitor<E> {
        EnumVisitor {
            closed,
            ignore_unknown,
            kind: PhantomData,
        }
    }

    fn name() -> &'static str {
        core::any::type_name::<E>()
            .rsplit("::")
            .next()
            .unwrap_or("enum")
    }

    fn number<E2: de::Error>(self, n: i32) -> Result<EnumInput<E>, E2> {
        match E::from_i32(n) {
            Some(known) => Ok(EnumInput::Known(known)),
            None if !self.closed => Ok(EnumInput::Number(n)),
            None if self.ignore_unknown => Ok(EnumInput::Skip),
            None => Err(E2::custom(format_args!(
                "{n} is not a value of the closed enum {}",
                Self::name()
            ))),
        }
    }
}

impl<'de, E: Enumeration> Visitor<'de> for EnumVisitor<E> {
    type Value = EnumInput<E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an enum value (its name as a string, or its number)")
    }

    fn visit_i64<E2: de::Error>(self, v: i64) -> Result<EnumInput<E>, E2> {
        match i32::try_from(v) {
            Ok(n) => self.number(n),
            Err(_) => Err(E2::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_u64<E2: de::Error>(self, v: u64) -> Result<EnumInput<E>, E2> {
        match i32::try_from(v) {
            Ok(n) => self.number(n),
            Err(_) => Err(E2::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }

    fn visit_str<E2: de::Error>(self, v: &str) -> Result<EnumInput<E>, E2> {
        match E::from_proto_name(v) {
            Some(known) => Ok(EnumInput::Known(known)),
            None if self.ignore_unknown => Ok(EnumInput::Skip),
            None => Err(E2::custom(format_args!(
                "unknown enum value name {} for {}",
                super::read::Quoted(v),
                Self::name()
            ))),
        }
    }
}

/// Reads an enum value as an open enum's `Known`/`Unknown` (a closed one's
/// declared values only); `None` for what `ignore_unknown_fields` skips.
fn read_enum<'de, E: Enumeration, D: Deserializer<'de>>(
    deserializer: D,
    cx: DeserializeCx<'_>,
    closed: bool,
) -> Result<Option<EnumValue<E>>, D::Error> {
    let visitor = EnumVisitor::<E>::new(closed, cx.options().ignore_unknown_fields());
    Ok(match deserializer.deserialize_any(visitor)? {
        EnumInput::Known(known) => Some(EnumValue::Known(known)),
        EnumInput::Number(n) => Some(EnumValue::from_i32(n)),
        EnumInput::Skip => None,
    })
}

/// Writes an enum by name, or by number for undeclared numbers or under
/// `enums_as_ints`.
fn write_enum<E: Enumeration, S: Serializer>(
    value: EnumValue<E>,
    serializer: S,
    options: &SerializeOptions,
) -> Result<S::Ok, S::Error> {
    match value {
        EnumValue::Known(known) if !options.enums_as_ints() => {
            serializer.serialize_str(known.proto_name())
        }
        other => serializer.serialize_i32(other.to_i32()),
    }
}

impl<E: Enumeration> JsonKind for OpenEnum<E> {
    type Value = EnumValue<E>;

    #[inline]
    fn is_default(value: &EnumValue<E>) -> bool {
        value.to_i32() == 0
    }

    fn serialize<S: Serializer>(
        value: &EnumValue<E>,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        write_enum(*value, serializer, options)
    }

    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Option<EnumValue<E>>, D::Error> {
        read_enum(deserializer, cx, false)
    }
}

impl<E: Enumeration> JsonKind for ClosedEnum<E> {
    type Value = E;

    #[inline]
    fn is_default(value: &E) -> bool {
        *value == E::default()
    }

    fn serialize<S: Serializer>(
        value: &E,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        write_enum(EnumValue::Known(*value), serializer, options)
    }

    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Option<E>, D::Error> {
        Ok(read_enum::<E, D>(deserializer, cx, true)?.and_then(EnumValue::known))
    }
}

/// `google.protobuf.NullValue`: always written as JSON `null`, which is
/// also how it is read.
pub enum NullValueKind<E> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, PhantomData<E>),
}

impl<E: Enumeration> JsonKind for NullValueKind<E> {
    type Value = EnumValue<E>;

    #[inline]
    fn is_default(value: &EnumValue<E>) -> bool {
        value.to_i32() == 0
    }

    fn serialize<S: Serializer>(
        _: &EnumValue<E>,
        serializer: S,
        _: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }

    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Option<EnumValue<E>>, D::Error> {
        // The name "NULL_VALUE" and the number 0 are accepted too.
        read_enum(deserializer, cx, false)
    }

    fn null() -> Option<EnumValue<E>> {
        Some(EnumValue::from_i32(0))
    }
}

/// `Serialize::serialize` of a generated enum: its name, or its number if
/// it has none.
pub fn serialize_enum<E: Enumeration, S: Serializer>(
    value: E,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    write_enum(
        EnumValue::Known(value),
        serializer,
        &SerializeOptions::DEFAULT,
    )
}

/// `Deserialize::deserialize` of a generated enum: a declared name or
/// number.
pub fn deserialize_enum<'de, E: Enumeration, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<E, D::Error> {
    match deserializer.deserialize_any(EnumVisitor::<E>::new(true, false))? {
        EnumInput::Known(known) => Ok(known),
        // Neither is produced without `ignore_unknown` for a closed enum.
        EnumInput::Number(_) | EnumInput::Skip => Err(de::Error::custom("undeclared enum value")),
    }
}

impl<E: Enumeration> serde::Serialize for EnumValue<E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        write_enum(*self, serializer, &SerializeOptions::DEFAULT)
    }
}

impl<'de, E: Enumeration> serde::Deserialize<'de> for EnumValue<E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_any(EnumVisitor::<E>::new(false, false))? {
            EnumInput::Known(known) => Ok(EnumValue::Known(known)),
            EnumInput::Number(n) => Ok(EnumValue::from_i32(n)),
            // Not produced without `ignore_unknown`.
            EnumInput::Skip => Err(de::Error::custom("undeclared enum value")),
        }
    }
}

// --- messages -------------------------------------------------------------------

/// A message-typed value: singular, repeated, in a map or a oneof.
pub enum MessageKind<M> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, PhantomData<M>),
}

impl<M: JsonMessage> JsonKind for MessageKind<M> {
    type Value = M;

    const IS_MESSAGE: bool = true;

    #[inline]
    fn is_default(_: &M) -> bool {
        false
    }

    #[inline]
    fn serialize<S: Serializer>(
        value: &M,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        value.serialize_json(serializer, options)
    }

    #[inline]
    fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Option<M>, D::Error> {
        cx.message(deserializer).map(Some)
    }

    fn null() -> Option<M> {
        M::json_null()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_number_syntax() {
        for good in [
            "0",
            "-0",
            "1",
            "10",
            "1.5",
            "1e5",
            "1E+5",
            "-1.25e-3",
            "100000.000",
        ] {
            assert!(is_json_number(good), "{good}");
        }
        for bad in [
            "", "-", "01", "-01", "1.", ".5", "1e", "+1", " 1", "1 ", "0x10", "1e5.0",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn integers_from_doubles_are_exact() {
        assert_eq!(<i32 as Integer>::from_f64(1e5), Some(100000));
        assert_eq!(<i32 as Integer>::from_f64(2147483647.0), Some(i32::MAX));
        assert_eq!(<i32 as Integer>::from_f64(2147483648.0), None);
        assert_eq!(<i32 as Integer>::from_f64(0.5), None);
        assert_eq!(<u64 as Integer>::from_f64(18446744073709551616.0), None);
        // -2^63 - 1 rounds to -2^63 as a double: refused, like 2^63.
        assert_eq!(<i64 as Integer>::from_f64(-9223372036854775808.0), None);
        assert_eq!(<i64 as Integer>::from_f64(9223372036854775808.0), None);
        // From 2^53 on, a double may stand for a neighbouring integer.
        assert_eq!(<i64 as Integer>::from_f64(-1e18), None);
        assert_eq!(
            <i64 as Integer>::from_f64(9007199254740991.0),
            Some((1 << 53) - 1)
        );
        assert_eq!(<i64 as Integer>::from_f64(9007199254740992.0), None);
        assert_eq!(<u64 as Integer>::from_f64(9007199254740994.0), None);
        assert_eq!(<u32 as Integer>::from_f64(-1.0), None);
    }

    #[test]
    fn floats_narrow_within_range_only() {
        assert_eq!(
            <f32 as FloatValue>::from_f64(3.402823e38),
            Some(3.402823e38_f32)
        );
        assert_eq!(<f32 as FloatValue>::from_f64(3.502823e38), None);
        assert!(<f32 as FloatValue>::from_f64(f64::INFINITY).is_some());
        assert_eq!(parse_f64("1e400").ok(), None);
        assert_eq!(parse_f64("-Infinity"), Ok(f64::NEG_INFINITY));
        assert!(parse_f64("nan").is_err());
    }

    #[test]
    fn integer_map_keys_are_plain_decimals() {
        assert_eq!(<Int32 as JsonMapKey>::parse_key("-12"), Ok(-12));
        assert_eq!(
            <UInt64 as JsonMapKey>::parse_key("18446744073709551615"),
            Ok(u64::MAX)
        );
        for bad in ["", "-", "01", "1.0", "1e2", " 1", "+1", "4294967296"] {
            assert!(<UInt32 as JsonMapKey>::parse_key(bad).is_err(), "{bad}");
        }
    }
}
