//! `Any` as the JSON form of the message it holds plus its type URL:
//! `{"@type": "type.googleapis.com/pkg.Msg", <fields of pkg.Msg>}`, or
//! `{"@type": ..., "value": <JSON>}` when the packed type is a well-known
//! type with a special (non-object) form. The packed type is looked up in
//! the options' [`TypeRegistry`], then among the well-known types.

use std::sync::OnceLock;

use buffa::__private::json::DeserializeCx;
use buffa::__private::json::serde::de::Error as _;
use buffa::__private::json::serde::ser::{Error as _, SerializeMap};
use buffa::__private::json::serde::{Deserialize, Deserializer, Serializer};
use buffa::__private::json::serde_json::{Map, Value};
use buffa::json::{JsonMessage, SerializeOptions, TypeRegistry};

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

/// The well-known types, which every `Any` can hold.
fn well_known() -> &'static TypeRegistry {
    static REGISTRY: OnceLock<TypeRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = TypeRegistry::new();
        super::register_types(&mut registry);
        registry
    })
}

/// The registry that knows `name`: the caller's if it does, else the
/// well-known types.
fn registry_for<'a>(caller: Option<&'a TypeRegistry>, name: &str) -> &'a TypeRegistry {
    caller
        .filter(|r| r.contains(name))
        .unwrap_or_else(|| well_known())
}

/// The message type name of a type URL: what follows its last `/`.
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
        let json = registry_for(options.type_registry(), name)
            .message_to_json(name, &self.value, options)
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
        let mut fields = Map::<String, Value>::deserialize(deserializer)?;
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
        let value = registry_for(cx.options().type_registry(), name)
            .message_from_json(name, packed, cx)
            .ok_or_else(|| D::Error::custom(unknown_type(name)))?
            .map_err(|e| D::Error::custom(format_args!("Any holding {name}: {e}")))?;
        Ok(wkt::Any {
            type_url,
            value,
            ..Default::default()
        })
    }
}

serde_through_json_message!(wkt::Any);
