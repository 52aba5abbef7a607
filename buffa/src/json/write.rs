//! Writing messages as JSON: one writer per field shape, which generated
//! `serialize_json` calls in field order.

use core::marker::PhantomData;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::JsonMessage;
use super::SerializeOptions;
use super::kind::{JsonKind, JsonMapKey, MessageKind};
use crate::encoding::map::MapContainer;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;

/// The JSON object of one message being written. Every writer takes the
/// field's `json_name` and its .proto name, and writes the one the options
/// ask for.
pub struct MessageWriter<'o, M> {
    map: M,
    options: &'o SerializeOptions,
}

impl<'o, M: SerializeMap> MessageWriter<'o, M> {
    /// Starts the object of a message.
    #[inline]
    pub fn new<S: Serializer<SerializeMap = M>>(
        serializer: S,
        options: &'o SerializeOptions,
    ) -> Result<MessageWriter<'o, M>, S::Error> {
        Ok(MessageWriter {
            map: serializer.serialize_map(None)?,
            options,
        })
    }

    /// The options of the write.
    pub fn options(&self) -> &'o SerializeOptions {
        self.options
    }

    #[inline(always)]
    fn entry<K: JsonKind>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        value: &K::Value,
    ) -> Result<(), M::Error> {
        let name = if self.options.proto_field_names() {
            proto_name
        } else {
            json_name
        };
        self.map
            .serialize_entry(&FieldName(name), &Value::<K>(value, self.options))
    }

    /// A field without presence: written unless it holds the default (or
    /// the options ask for defaults).
    #[inline(always)]
    pub fn implicit<K: JsonKind>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        value: &K::Value,
    ) -> Result<(), M::Error> {
        if self.options.emit_default_values() || !K::is_default(value) {
            self.entry::<K>(json_name, proto_name, value)?;
        }
        Ok(())
    }

    /// A field with explicit presence: written when set.
    #[inline(always)]
    pub fn optional<K: JsonKind>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        value: &Option<K::Value>,
    ) -> Result<(), M::Error> {
        match value {
            Some(value) => self.entry::<K>(json_name, proto_name, value),
            None => Ok(()),
        }
    }

    /// A oneof member that is set, or any value that is written whatever it
    /// holds.
    #[inline(always)]
    pub fn member<K: JsonKind>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        value: &K::Value,
    ) -> Result<(), M::Error> {
        self.entry::<K>(json_name, proto_name, value)
    }

    /// A singular message field: written when set.
    #[inline(always)]
    pub fn message<T: JsonMessage, P: ProtoBox<T>>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        field: &MessageField<T, P>,
    ) -> Result<(), M::Error> {
        match field.as_option() {
            Some(value) => self.entry::<MessageKind<T>>(json_name, proto_name, value),
            None => Ok(()),
        }
    }

    /// A repeated field: a JSON array, left out when empty.
    #[inline]
    pub fn repeated<K: JsonKind>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        values: &[K::Value],
    ) -> Result<(), M::Error> {
        if values.is_empty() && !self.options.emit_default_values() {
            return Ok(());
        }
        let name = if self.options.proto_field_names() {
            proto_name
        } else {
            json_name
        };
        self.map
            .serialize_entry(&FieldName(name), &List::<K>(values, self.options))
    }

    /// A map field: a JSON object with stringified keys, left out when
    /// empty.
    #[inline]
    pub fn map<KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>>(
        &mut self,
        json_name: &str,
        proto_name: &str,
        map: &C,
    ) -> Result<(), M::Error> {
        if map.is_empty() && !self.options.emit_default_values() {
            return Ok(());
        }
        let name = if self.options.proto_field_names() {
            proto_name
        } else {
            json_name
        };
        self.map.serialize_entry(
            &FieldName(name),
            &Map::<KK, VK, C> {
                map,
                options: self.options,
                types: PhantomData,
            },
        )
    }

    /// Writes an entry the message's JSON form has beside its fields
    /// (`"@type"` of `google.protobuf.Any`).
    pub fn raw_entry<V: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &V,
    ) -> Result<(), M::Error> {
        self.map.serialize_entry(name, value)
    }

    /// Ends the object.
    #[inline]
    pub fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

/// A field name, as a [`Serialize`] key: `str`'s own impl, but always
/// inlined, so that serializers' fast paths for keys are.
struct FieldName<'a>(&'a str);

impl Serialize for FieldName<'_> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

/// One value of kind `K`, as a [`Serialize`] value.
struct Value<'a, K: JsonKind>(&'a K::Value, &'a SerializeOptions);

impl<K: JsonKind> Serialize for Value<'_, K> {
    #[inline(always)]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        K::serialize(self.0, serializer, self.1)
    }
}

struct List<'a, K: JsonKind>(&'a [K::Value], &'a SerializeOptions);

impl<K: JsonKind> Serialize for List<'_, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for value in self.0 {
            seq.serialize_element(&Value::<K>(value, self.1))?;
        }
        seq.end()
    }
}

struct Map<'a, KK, VK, C> {
    map: &'a C,
    options: &'a SerializeOptions,
    types: PhantomData<(KK, VK)>,
}

struct MapKey<'a, K: JsonMapKey>(&'a K::Value);

impl<K: JsonMapKey> Serialize for MapKey<'_, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        K::serialize_key(self.0, serializer)
    }
}

impl<KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>> Serialize
    for Map<'_, KK, VK, C>
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in self.map.entries() {
            map.serialize_entry(&MapKey::<KK>(key), &Value::<VK>(value, self.options))?;
        }
        map.end()
    }
}
