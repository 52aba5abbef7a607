//! Writing a reflected message as JSON, as generated code writes the same
//! message: the set fields in declaration order (fields without presence
//! at their default too, under `emit_default_values`), then the set
//! extensions by number as `"[full.name]"`.

use buffa::json::SerializeOptions;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::scalar;
use super::well_known::WellKnown;
use crate::reflect::ReflectMessage;
use crate::value::{MapKeyRef, Value, ValueRef};
use crate::{FieldDescriptor, Kind};

/// A message as a [`Serialize`] value: its JSON form under `options`.
pub(super) struct MessageJson<'a> {
    pub(super) message: &'a dyn ReflectMessage,
    pub(super) options: &'a SerializeOptions,
}

impl Serialize for MessageJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let descriptor = self.message.descriptor();
        if let Some(well_known) = WellKnown::of(descriptor.full_name()) {
            return well_known.serialize(self.message, serializer, self.options);
        }
        let options = self.options;
        let mut map = serializer.serialize_map(None)?;
        for field in descriptor.fields() {
            let value = self.message.field(&field);
            if value.is_none() && (field.has_presence() || !options.emit_default_values()) {
                continue;
            }
            let name = written_name(&field, options.proto_field_names());
            let kind = value_kind(&field);
            match value {
                Some(value) => map.serialize_entry(
                    name,
                    &ValueJson {
                        kind: &kind,
                        value,
                        options,
                    },
                )?,
                None => map.serialize_entry(
                    name,
                    &DefaultJson {
                        field: &field,
                        kind: &kind,
                        options,
                    },
                )?,
            }
        }
        for extension in descriptor.pool().extensions_of(&descriptor) {
            if let Some(value) = self.message.field(&extension) {
                let kind = value_kind(&extension);
                let name = format!("[{}]", extension.full_name());
                map.serialize_entry(
                    &name,
                    &ValueJson {
                        kind: &kind,
                        value,
                        options,
                    },
                )?;
            }
        }
        map.end()
    }
}

/// The name `field` is written under: its .proto name with
/// `proto_field_names`; else its `json_name`, unless another field of its
/// message has that name as its `json_name` or .proto name (which proto2
/// allows), when its .proto name is written instead, as generated code
/// does, so that what is written reads back.
pub(super) fn written_name(field: &FieldDescriptor, proto_field_names: bool) -> &str {
    if proto_field_names || field.json_name_is_shared() {
        field.name()
    } else {
        field.json_name()
    }
}

/// The kind of one value of `field`: its map entry's value kind for a map.
pub(super) fn value_kind(field: &FieldDescriptor) -> Kind {
    match field.kind() {
        Kind::Message(entry) if field.is_map() => entry.map_entry_value_field().kind(),
        kind => kind,
    }
}

/// A field's value (scalar, message, list or map) of `kind` (the
/// elements' kind for a list, the values' for a map).
struct ValueJson<'a> {
    kind: &'a Kind,
    value: ValueRef<'a>,
    options: &'a SerializeOptions,
}

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (kind, options) = (self.kind, self.options);
        match self.value {
            ValueRef::Message(message) => MessageJson { message, options }.serialize(serializer),
            ValueRef::List(list) => {
                let mut seq = serializer.serialize_seq(Some(list.len()))?;
                for value in (0..list.len()).filter_map(|i| list.get(i)) {
                    seq.serialize_element(&ValueJson {
                        kind,
                        value,
                        options,
                    })?;
                }
                seq.end()
            }
            ValueRef::Map(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (key, value) in map.entries() {
                    out.serialize_entry(
                        &KeyJson(key),
                        &ValueJson {
                            kind,
                            value,
                            options,
                        },
                    )?;
                }
                out.end()
            }
            scalar => scalar::serialize(kind, scalar, serializer, options),
        }
    }
}

/// A map key as an object key.
struct KeyJson<'a>(MapKeyRef<'a>);

impl Serialize for KeyJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        scalar::serialize_key(self.0, serializer)
    }
}

/// The default value of a field without presence that is not set, written
/// under `emit_default_values`: `[]`, `{}`, or the scalar's default.
struct DefaultJson<'a> {
    field: &'a FieldDescriptor,
    kind: &'a Kind,
    options: &'a SerializeOptions,
}

impl Serialize for DefaultJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.field.is_map() {
            serializer.serialize_map(Some(0))?.end()
        } else if self.field.is_list() {
            serializer.serialize_seq(Some(0))?.end()
        } else {
            let default = Value::default_of(self.kind);
            scalar::serialize(self.kind, default.as_ref(), serializer, self.options)
        }
    }
}
