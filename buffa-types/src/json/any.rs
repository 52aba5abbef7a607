//! `Any` as the JSON form of the message it holds plus its type URL:
//! `{"@type": "type.googleapis.com/pkg.Msg", <fields of pkg.Msg>}`, or
//! `{"@type": ..., "value": <JSON>}` when the packed type is a well-known
//! type with a special (non-object) form. The packed type is looked up in
//! the options' [`TypeRegistry`], then among the well-known types.
//!
//! **The type name** is everything after the last `/` of the type URL,
//! taken literally as the packed message's full name, as protobuf-go
//! (`protoregistry.Types.FindMessageByURL`) and C++ (its descriptor pool's
//! type resolver, `DescriptorPool::FindMessageTypeByName`) take it.
//! `type.googleapis.com/.google.protobuf.Duration` therefore names
//! `.google.protobuf.Duration`, which is no message's full name (full
//! names have no leading dot; only a descriptor's `type_name` references
//! are written with one): the `Any` holds an unknown type, and reading or
//! writing it fails as for any type no registry knows. `lookup` applies
//! the rule before any registry or resolver is asked, so a resolver whose
//! own lookup forgives the dot (a `DescriptorPool`'s does) cannot make
//! generated and reflected messages disagree.

use std::sync::OnceLock;

use buffa::json::DeserializeCx;
use core::fmt;

use buffa::json::{JsonMessage, SerializeOptions, TypeRegistry, WithOptions};
use serde::de::{self, DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeMap};
use serde::{Deserializer, Serializer};
use serde_json::{Map, Value};

use super::serde_through_json_message;
use crate::google::protobuf as wkt;

/// The well-known types whose JSON form is not an object: inside an `Any`
/// they sit under `"value"`. (`Empty` is an ordinary, empty object.)
const VALUE_WRAPPED: &[&str] = &[
    "google.protobuf.Any",
    "google.protobuf.Timestamp",
    "google.protobuf.Duration",
    "google.protobuf.FieldMask",
    "google.protobuf.Struct",
    "google.protobuf.Value",
    "google.protobuf.ListValue",
    "google.protobuf.DoubleValue",
    "google.protobuf.FloatValue",
    "google.protobuf.Int64Value",
    "google.protobuf.UInt64Value",
    "google.protobuf.Int32Value",
    "google.protobuf.UInt32Value",
    "google.protobuf.BoolValue",
    "google.protobuf.StringValue",
    "google.protobuf.BytesValue",
];

const ANY: &str = "google.protobuf.Any";

/// How many `Any`s deep the JSON being written on this thread is. An `Any`
/// decoded from binary may hold an `Any` to any depth (its payload is
/// opaque bytes, which the binary recursion limit does not see), and each
/// level is written by a nested call: past the recursion limit, writing
/// fails instead of exhausting the stack.
struct AnyLevel;

thread_local! {
    static ANY_LEVELS: core::cell::Cell<u32> = const { core::cell::Cell::new(0) };
}

impl AnyLevel {
    fn enter() -> Result<AnyLevel, String> {
        let level = ANY_LEVELS.get() + 1;
        if level > buffa::DEFAULT_RECURSION_LIMIT {
            return Err(format!(
                "Anys nested more than {} levels deep (the recursion limit)",
                buffa::DEFAULT_RECURSION_LIMIT
            ));
        }
        ANY_LEVELS.set(level);
        Ok(AnyLevel)
    }
}

impl Drop for AnyLevel {
    fn drop(&mut self) {
        ANY_LEVELS.set(ANY_LEVELS.get() - 1);
    }
}

/// The well-known types, which every `Any` can hold.
fn well_known() -> &'static TypeRegistry {
    static REGISTRY: OnceLock<TypeRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = TypeRegistry::new();
        super::register_types(&mut registry);
        registry
    })
}

/// The registry to ask about the type `name`: none if `name` cannot be a
/// full name (it starts with a dot: see the module's docs), else the
/// caller's if `name` is registered there, else the well-known types' if
/// it is one, else the caller's again, whose fallback resolver (if any)
/// may know it.
fn lookup<'a>(caller: Option<&'a TypeRegistry>, name: &str) -> Option<&'a TypeRegistry> {
    if name.starts_with('.') {
        return None;
    }
    Some(match caller {
        Some(registry) if registry.contains(name) => registry,
        _ if well_known().contains(name) => well_known(),
        Some(registry) => registry,
        None => well_known(),
    })
}

/// The message type name of a type URL: what follows its last `/`, as it
/// is (see the module's docs).
fn type_name(type_url: &str) -> Result<&str, String> {
    match type_url.rsplit_once('/') {
        Some((_, name)) if !name.is_empty() => Ok(name),
        _ => Err(format!(
            "invalid Any type URL {type_url:?}: expected \".../<message name>\""
        )),
    }
}

fn unknown_type(name: &str) -> String {
    format!(
        "Any holds {name}, which is not a well-known type nor in the type registry \
         (see buffa::json::TypeRegistry)"
    )
}

impl JsonMessage for wkt::Any {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        if self.type_url.is_empty() && self.value.is_empty() {
            return serializer.serialize_map(Some(0))?.end();
        }
        let name = type_name(&self.type_url).map_err(S::Error::custom)?;
        let _level = AnyLevel::enter().map_err(S::Error::custom)?;
        if name == ANY {
            // An Any in an Any: written straight from its own decode,
            // without a round trip through `serde_json::Value`.
            let inner = <wkt::Any as buffa::Message>::decode_from_slice(&self.value)
                .map_err(|e| S::Error::custom(format_args!("Any holding {name}: {e}")))?;
            let mut map = serializer.serialize_map(Some(2))?;
            map.serialize_entry("@type", &self.type_url)?;
            map.serialize_entry("value", &WithOptions::new(&inner, options))?;
            return map.end();
        }
        let json = lookup(options.type_registry(), name)
            .and_then(|registry| registry.message_to_json(name, &self.value, options))
            .ok_or_else(|| S::Error::custom(unknown_type(name)))?
            .map_err(|e| S::Error::custom(format_args!("Any holding {name}: {e}")))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("@type", &self.type_url)?;
        if VALUE_WRAPPED.contains(&name) {
            map.serialize_entry("value", &json)?;
        } else if let Value::Object(fields) = json {
            for (key, value) in &fields {
                map.serialize_entry(key, value)?;
            }
        } else {
            return Err(S::Error::custom(format_args!(
                "Any holding {name}: its JSON form is not an object"
            )));
        }
        map.end()
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        // "@type" may come after the fields, so the object is read whole
        // first (bounded by the input, like everything else).
        let mut fields = deserializer.deserialize_map(StrictValue(cx))?.into_object();
        if fields.is_empty() {
            return Ok(wkt::Any::default());
        }
        let type_url = match fields.remove("@type") {
            Some(Value::String(url)) => url,
            Some(_) => return Err(D::Error::custom("Any \"@type\" must be a string")),
            None => return Err(D::Error::custom("Any with fields but no \"@type\"")),
        };
        let name = type_name(&type_url).map_err(D::Error::custom)?;
        let packed = if VALUE_WRAPPED.contains(&name) {
            let value = fields.remove("value").ok_or_else(|| {
                D::Error::custom(format_args!("Any holding {name} needs a \"value\""))
            })?;
            if let Some(extra) = fields.keys().next() {
                return Err(D::Error::custom(format_args!(
                    "unknown field {extra:?} in Any holding {name}"
                )));
            }
            value
        } else {
            Value::Object(fields)
        };
        cx.charge(type_url.len())?;
        let value = lookup(cx.options().type_registry(), name)
            .and_then(|registry| registry.message_from_json(name, packed, cx))
            .ok_or_else(|| D::Error::custom(unknown_type(name)))?
            .map_err(|e| D::Error::custom(format_args!("Any holding {name}: {e}")))?;
        cx.charge(value.len())?;
        Ok(wkt::Any {
            type_url,
            value,
            ..Default::default()
        })
    }
}

serde_through_json_message!(wkt::Any);

/// Reads any JSON value into a `serde_json::Value`, refusing an object
/// key given twice at any depth (`serde_json::Map` would keep the last),
/// as the fields of a message outside an `Any` are. Each array and object
/// counts against the recursion limit, and each value against the
/// allocation budget, as they would once read into messages.
#[derive(Clone, Copy)]
struct StrictValue<'c>(DeserializeCx<'c>);

/// What [`StrictValue`] read.
enum Strict {
    Object(Map<String, Value>),
    Other(Value),
}

impl Strict {
    fn into_value(self) -> Value {
        match self {
            Strict::Object(map) => Value::Object(map),
            Strict::Other(value) => value,
        }
    }

    /// The object read; only called on what `deserialize_map` read.
    fn into_object(self) -> Map<String, Value> {
        match self {
            Strict::Object(map) => map,
            Strict::Other(_) => Map::new(),
        }
    }
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.0.charge(size_of::<Value>())?;
        deserializer.deserialize_any(self).map(Strict::into_value)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Strict;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object for an Any")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Strict, E> {
        Ok(Strict::Other(Value::Null))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Strict, E> {
        Ok(Strict::Other(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Strict, E> {
        Ok(Strict::Other(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Strict, E> {
        Ok(Strict::Other(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Strict, E> {
        Ok(Strict::Other(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Strict, E> {
        self.0.charge(v.len())?;
        Ok(Strict::Other(Value::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Strict, E> {
        self.0.charge(v.len())?;
        Ok(Strict::Other(Value::String(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let inner = StrictValue(self.0.enter()?);
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Strict::Other(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let inner = StrictValue(self.0.enter()?);
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            inner.0.charge(key.len())?;
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "key {key:?} is given more than once"
                )));
            }
            let value = map.next_value_seed(inner)?;
            object.insert(key, value);
        }
        Ok(Strict::Object(object))
    }
}
