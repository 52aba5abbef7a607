//! One scalar or enum value, and one map key, in JSON: buffa's JSON form
//! of each protobuf type (`JsonKind` and `JsonMapKey` on the scalar
//! markers, the ones generated code uses), chosen at run time by the
//! field's [`Kind`]. Enums are read and written by their descriptor.

use std::fmt;

use buffa::json::DeserializeCx;
use buffa::json::SerializeOptions;
use buffa::json::scalar::{Base64, JsonKind, JsonMapKey, Quoted};
use buffa::json::scalar::{
    Bool, Double, Fixed32, Fixed64, Float, Int32, Int64, ProtoBytes, ProtoString, SFixed32,
    SFixed64, SInt32, SInt64, UInt32, UInt64,
};
use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::{Error as _, Serializer};

use crate::value::{MapKey, MapKeyRef, Value, ValueRef};
use crate::{EnumDescriptor, Kind};

/// `google.protobuf.NullValue`: written as `null`, and `null` reads as it.
pub(super) const NULL_VALUE: &str = "google.protobuf.NullValue";

/// Whether JSON `null` is a value of `kind` (rather than "not set"):
/// `google.protobuf.NullValue`, and `google.protobuf.Value`, whose null is
/// its `null_value`.
pub(super) fn null_is_value(kind: &Kind) -> bool {
    match kind {
        Kind::Enum(e) => e.full_name() == NULL_VALUE,
        Kind::Message(m) => m.full_name() == super::well_known::VALUE,
        _ => false,
    }
}

/// Writes a scalar or enum value of a field of `kind`.
pub(super) fn serialize<S: Serializer>(
    kind: &Kind,
    value: ValueRef<'_>,
    serializer: S,
    options: &SerializeOptions,
) -> Result<S::Ok, S::Error> {
    match value {
        ValueRef::Bool(v) => Bool::serialize(&v, serializer, options),
        ValueRef::I32(v) => Int32::serialize(&v, serializer, options),
        ValueRef::I64(v) => Int64::serialize(&v, serializer, options),
        ValueRef::U32(v) => UInt32::serialize(&v, serializer, options),
        ValueRef::U64(v) => UInt64::serialize(&v, serializer, options),
        ValueRef::F32(v) => Float::serialize(&v, serializer, options),
        ValueRef::F64(v) => Double::serialize(&v, serializer, options),
        // `ProtoString` and `ProtoBytes` write these, from owned values.
        ValueRef::String(v) => serializer.serialize_str(v),
        ValueRef::Bytes(v) => serializer.collect_str(&Base64(v)),
        ValueRef::EnumNumber(number) => match kind {
            Kind::Enum(e) => serialize_enum(e, number, serializer, options),
            _ => Err(S::Error::custom(
                "an enum number in a field that is not an enum",
            )),
        },
        ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_) => Err(S::Error::custom(
            "a message, list or map where a scalar belongs",
        )),
    }
}

/// Writes an enum value: by name, or by number when the enum does not
/// declare it or under `enums_as_ints`; `NullValue` as `null`.
fn serialize_enum<S: Serializer>(
    descriptor: &EnumDescriptor,
    number: i32,
    serializer: S,
    options: &SerializeOptions,
) -> Result<S::Ok, S::Error> {
    if descriptor.full_name() == NULL_VALUE {
        return serializer.serialize_unit();
    }
    match descriptor.get_value(number) {
        Some(value) if !options.enums_as_ints() => serializer.serialize_str(value.name()),
        _ => serializer.serialize_i32(number),
    }
}

/// Writes a map key as a JSON object key.
pub(super) fn serialize_key<S: Serializer>(
    key: MapKeyRef<'_>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match key {
        MapKeyRef::Bool(v) => Bool::serialize_key(&v, serializer),
        MapKeyRef::I32(v) => Int32::serialize_key(&v, serializer),
        MapKeyRef::I64(v) => Int64::serialize_key(&v, serializer),
        MapKeyRef::U32(v) => UInt32::serialize_key(&v, serializer),
        MapKeyRef::U64(v) => UInt64::serialize_key(&v, serializer),
        MapKeyRef::String(v) => serializer.serialize_str(v),
    }
}

/// Reads a value of kind `K` as a [`Value`].
fn read<'de, K: JsonKind, D: Deserializer<'de>>(
    deserializer: D,
    cx: DeserializeCx<'_>,
    wrap: fn(K::Value) -> Value,
) -> Result<Option<Value>, D::Error> {
    Ok(K::deserialize(deserializer, cx)?.map(wrap))
}

/// Reads a scalar or enum value of `kind` that is not JSON `null`.
/// `Ok(None)` means the value is to be skipped: an enum value the enum
/// does not declare, read with `ignore_unknown_fields`.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(
    kind: &Kind,
    deserializer: D,
    cx: DeserializeCx<'_>,
) -> Result<Option<Value>, D::Error> {
    match kind {
        Kind::Double => read::<Double, D>(deserializer, cx, Value::F64),
        Kind::Float => read::<Float, D>(deserializer, cx, Value::F32),
        Kind::Int64 => read::<Int64, D>(deserializer, cx, Value::I64),
        Kind::Sint64 => read::<SInt64, D>(deserializer, cx, Value::I64),
        Kind::Sfixed64 => read::<SFixed64, D>(deserializer, cx, Value::I64),
        Kind::Uint64 => read::<UInt64, D>(deserializer, cx, Value::U64),
        Kind::Fixed64 => read::<Fixed64, D>(deserializer, cx, Value::U64),
        Kind::Int32 => read::<Int32, D>(deserializer, cx, Value::I32),
        Kind::Sint32 => read::<SInt32, D>(deserializer, cx, Value::I32),
        Kind::Sfixed32 => read::<SFixed32, D>(deserializer, cx, Value::I32),
        Kind::Uint32 => read::<UInt32, D>(deserializer, cx, Value::U32),
        Kind::Fixed32 => read::<Fixed32, D>(deserializer, cx, Value::U32),
        Kind::Bool => read::<Bool, D>(deserializer, cx, Value::Bool),
        Kind::String => read::<ProtoString, D>(deserializer, cx, Value::String),
        Kind::Bytes => read::<ProtoBytes, D>(deserializer, cx, Value::Bytes),
        Kind::Enum(descriptor) => {
            let visitor = EnumVisitor {
                descriptor,
                ignore_unknown: cx.options().ignore_unknown_fields(),
            };
            Ok(deserializer
                .deserialize_any(visitor)?
                .map(Value::EnumNumber))
        }
        Kind::Message(m) => Err(de::Error::custom(format_args!(
            "message {} read as a scalar",
            m.full_name()
        ))),
    }
}

/// Parses a JSON object key as a map key of `kind`.
pub(super) fn parse_key(kind: &Kind, key: &str) -> Result<MapKey, String> {
    Ok(match kind {
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => MapKey::I64(Int64::parse_key(key)?),
        Kind::Uint64 | Kind::Fixed64 => MapKey::U64(UInt64::parse_key(key)?),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => MapKey::I32(Int32::parse_key(key)?),
        Kind::Uint32 | Kind::Fixed32 => MapKey::U32(UInt32::parse_key(key)?),
        Kind::Bool => MapKey::Bool(Bool::parse_key(key)?),
        Kind::String => MapKey::String(key.to_owned()),
        other => return Err(format!("{other:?} cannot be a map key")),
    })
}

/// Reads an enum value by name or number, as generated code reads an enum
/// field: undeclared names, and undeclared numbers of a closed enum, are
/// errors raised while the value is read (so that they point at it), or
/// `None` (skip it) under `ignore_unknown_fields`.
struct EnumVisitor<'e> {
    descriptor: &'e EnumDescriptor,
    ignore_unknown: bool,
}

impl EnumVisitor<'_> {
    fn number<E: de::Error>(self, n: i32) -> Result<Option<i32>, E> {
        if !self.descriptor.is_closed() || self.descriptor.get_value(n).is_some() {
            Ok(Some(n))
        } else if self.ignore_unknown {
            Ok(None)
        } else {
            Err(E::custom(format_args!(
                "{n} is not a value of the closed enum {}",
                self.descriptor.name()
            )))
        }
    }
}

impl<'de> Visitor<'de> for EnumVisitor<'_> {
    type Value = Option<i32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an enum value (its name as a string, or its number)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<i32>, E> {
        match i32::try_from(v) {
            Ok(n) => self.number(n),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<i32>, E> {
        match i32::try_from(v) {
            Ok(n) => self.number(n),
            Err(_) => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<i32>, E> {
        match self.descriptor.get_value_by_name(v) {
            Some(value) => Ok(Some(value.number())),
            None if self.ignore_unknown => Ok(None),
            None => Err(E::custom(format_args!(
                "unknown enum value name {} for {}",
                Quoted(v),
                self.descriptor.name()
            ))),
        }
    }
}
