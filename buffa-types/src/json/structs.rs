//! `Struct` as a JSON object, `ListValue` as an array, `Value` as any JSON
//! value, and `NullValue` as `null`. Each nested `Struct`, `ListValue` or
//! `Value` counts against the recursion limit.

use core::fmt;

use buffa::EnumValue;
use buffa::json::DeserializeCx;
use buffa::json::{JsonMessage, SerializeOptions, WithOptions};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::serde_through_json_message;
use crate::google::protobuf as wkt;
use crate::google::protobuf::value::Kind;

/// Reads one `Value`, one level deeper.
struct ValueSeed<'c>(DeserializeCx<'c>);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = wkt::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<wkt::Value, D::Error> {
        self.0.message(deserializer)
    }
}

fn value(kind: Kind) -> wkt::Value {
    wkt::Value {
        kind: Some(kind),
        ..Default::default()
    }
}

/// Reads any JSON value as a `Value`; `cx` has counted this level.
struct ValueVisitor<'c>(DeserializeCx<'c>);

impl<'de> Visitor<'de> for ValueVisitor<'_> {
    type Value = wkt::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<wkt::Value, E> {
        Ok(value(Kind::NullValue(EnumValue::Known(
            wkt::NullValue::NullValue,
        ))))
    }

    fn visit_none<E: de::Error>(self) -> Result<wkt::Value, E> {
        self.visit_unit()
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<wkt::Value, E> {
        Ok(value(Kind::BoolValue(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<wkt::Value, E> {
        Ok(value(Kind::NumberValue(v as f64)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<wkt::Value, E> {
        Ok(value(Kind::NumberValue(v as f64)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<wkt::Value, E> {
        Ok(value(Kind::NumberValue(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<wkt::Value, E> {
        self.0.charge(v.len())?;
        Ok(value(Kind::StringValue(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<wkt::Value, E> {
        self.0.charge(v.len())?;
        Ok(value(Kind::StringValue(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<wkt::Value, A::Error> {
        let list = ListVisitor(self.0.enter()?).visit_seq(seq)?;
        self.0.charge(size_of::<wkt::ListValue>())?;
        Ok(value(Kind::ListValue(Box::new(list))))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<wkt::Value, A::Error> {
        let fields = StructVisitor(self.0.enter()?).visit_map(map)?;
        self.0.charge(size_of::<wkt::Struct>())?;
        Ok(value(Kind::StructValue(Box::new(fields))))
    }
}

/// Reads a JSON array as a `ListValue`; `cx` has counted this level.
struct ListVisitor<'c>(DeserializeCx<'c>);

impl<'de> Visitor<'de> for ListVisitor<'_> {
    type Value = wkt::ListValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array for a ListValue")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<wkt::ListValue, A::Error> {
        let mut list = wkt::ListValue::default();
        while let Some(item) = seq.next_element_seed(ValueSeed(self.0))? {
            self.0.charge(size_of::<wkt::Value>())?;
            list.values.push(item);
        }
        Ok(list)
    }
}

/// Reads a JSON object as a `Struct`; `cx` has counted this level.
struct StructVisitor<'c>(DeserializeCx<'c>);

impl<'de> Visitor<'de> for StructVisitor<'_> {
    type Value = wkt::Struct;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object for a Struct")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<wkt::Struct, A::Error> {
        let mut fields = wkt::Struct::default();
        while let Some(key) = map.next_key_seed(NewKey(&fields.fields))? {
            let item = map.next_value_seed(ValueSeed(self.0))?;
            self.0
                .charge(key.len() + size_of::<(String, wkt::Value)>())?;
            fields.fields.insert(key, item);
        }
        Ok(fields)
    }
}

/// Reads a key of a `Struct`, refusing one it already has while serde
/// reads it, so that the error points at it.
struct NewKey<'m>(&'m std::collections::HashMap<String, wkt::Value>);

impl<'de> DeserializeSeed<'de> for NewKey<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NewKey<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Struct key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        if self.0.contains_key(v) {
            return Err(E::custom(format_args!(
                "Struct key {v:?} is given more than once"
            )));
        }
        Ok(v.to_owned())
    }
}

impl JsonMessage for wkt::Value {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        match &self.kind {
            None => Err(S::Error::custom(
                "a google.protobuf.Value with no kind set has no JSON form",
            )),
            Some(Kind::NullValue(_)) => serializer.serialize_unit(),
            Some(Kind::NumberValue(v)) if !v.is_finite() => Err(S::Error::custom(format_args!(
                "google.protobuf.Value number {v} has no JSON form (NaN and infinities do not)"
            ))),
            Some(Kind::NumberValue(v)) => serializer.serialize_f64(*v),
            Some(Kind::StringValue(v)) => serializer.serialize_str(v),
            Some(Kind::BoolValue(v)) => serializer.serialize_bool(*v),
            Some(Kind::StructValue(v)) => v.serialize_json(serializer, options),
            Some(Kind::ListValue(v)) => v.serialize_json(serializer, options),
        }
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor(cx))
    }

    fn json_null() -> Option<Self> {
        Some(value(Kind::NullValue(EnumValue::Known(
            wkt::NullValue::NullValue,
        ))))
    }
}

impl JsonMessage for wkt::Struct {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, item) in &self.fields {
            map.serialize_entry(key, &WithOptions::new(item, options))?;
        }
        map.end()
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_map(StructVisitor(cx))
    }
}

impl JsonMessage for wkt::ListValue {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.values.len()))?;
        for item in &self.values {
            seq.serialize_element(&WithOptions::new(item, options))?;
        }
        seq.end()
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(ListVisitor(cx))
    }
}

serde_through_json_message!(wkt::Value, wkt::Struct, wkt::ListValue);

impl Serialize for wkt::NullValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de> Deserialize<'de> for wkt::NullValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NullVisitor;

        impl<'de> Visitor<'de> for NullVisitor {
            type Value = wkt::NullValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null")
            }

            fn visit_unit<E: de::Error>(self) -> Result<wkt::NullValue, E> {
                Ok(wkt::NullValue::NullValue)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<wkt::NullValue, E> {
                match v {
                    "NULL_VALUE" => Ok(wkt::NullValue::NullValue),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }

        deserializer.deserialize_any(NullVisitor)
    }
}

#[cfg(test)]
mod tests {
    use buffa::json::{DeserializeOptions, from_str_with};

    use super::*;

    #[test]
    fn lists_are_charged_to_the_allocation_budget() {
        let json = format!("[{}0]", "0,".repeat(99));
        let per_value = size_of::<wkt::Value>();
        let enough = DeserializeOptions::new().with_allocation_limit(Some(100 * per_value));
        let list: wkt::ListValue = from_str_with(&json, &enough).unwrap();
        assert_eq!(list.values.len(), 100);
        let short = DeserializeOptions::new().with_allocation_limit(Some(99 * per_value));
        let err = from_str_with::<wkt::ListValue>(&json, &short).unwrap_err();
        assert!(err.to_string().contains("allocation limit"), "{err}");
    }

    #[test]
    fn nested_values_count_against_the_recursion_limit() {
        // A ListValue at depth 1 holding Values, each list one level more.
        let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let options = DeserializeOptions::new().with_recursion_limit(9);
        // Levels: the outer ListValue, then a Value and its ListValue per
        // nested array.
        assert!(from_str_with::<wkt::ListValue>(&nested(5), &options).is_ok());
        let err = from_str_with::<wkt::ListValue>(&nested(6), &options).unwrap_err();
        assert!(err.to_string().contains("recursion limit"), "{err}");
        assert!(err.column() > 0);
    }
}
