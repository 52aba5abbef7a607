//! Reading JSON into a reflected message, as generated code reads the
//! same message: keys by .proto name or `json_name` (extensions as
//! `"[full.name]"`), a field given twice or an unknown key refused (or the
//! latter skipped under `ignore_unknown_fields`), `null` as "not set"
//! except where it is a value, a second member of a oneof refused, and
//! every error raised while serde reads the offending key or value, so
//! that it points there. Each message counts against the recursion limit,
//! and what is stored against the allocation budget.

use std::fmt;

use buffa::json::scalar::Quoted;
use buffa::json::{DeserializeCx, JsonObject, oneof_conflict, read_object};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::scalar;
use super::well_known::{self, WellKnown};
use super::write::written_name;
use crate::dynamic::DynamicMessage;
use crate::reflect::{ReflectError, ReflectListMut, ReflectMapMut, ReflectMessage, ValueMut};
use crate::value::{MapKey, Value};
use crate::{FieldDescriptor, Kind, MessageDescriptor};

/// Reads a message into `target` (of the message's type) one level deeper
/// than `cx`, failing beyond the recursion limit.
pub(super) fn deserialize_message<'de, D: Deserializer<'de>>(
    deserializer: D,
    cx: DeserializeCx<'_>,
    target: &mut dyn ReflectMessage,
) -> Result<(), D::Error> {
    let cx = cx.enter::<D::Error>()?;
    let descriptor = target.descriptor();
    match WellKnown::of(descriptor.full_name()) {
        Some(well_known) => well_known.deserialize(deserializer, cx, target),
        None => deserializer.deserialize_map(FieldsVisitor {
            descriptor,
            target,
            cx,
        }),
    }
}

/// A reflection error (the value does not fit the field) as a serde error.
fn reflect_error<E: de::Error>(error: ReflectError) -> E {
    E::custom(error)
}

/// The message in the singular message field `field` of `target`, set to
/// an empty message if it was not set.
fn message_mut<'t>(
    target: &'t mut dyn ReflectMessage,
    field: &FieldDescriptor,
) -> Result<&'t mut dyn ReflectMessage, ReflectError> {
    match target.field_mut(field)? {
        ValueMut::Message(message) => Ok(message),
        _ => Err(ReflectError::new(format!(
            "field {} does not hold a message",
            field.full_name()
        ))),
    }
}

/// The object of one message: its fields, read into `target` by the
/// runtime's object loop ([`buffa::json::read_object`]), which generated
/// messages share.
struct FieldsVisitor<'t, 'c> {
    descriptor: MessageDescriptor,
    target: &'t mut dyn ReflectMessage,
    cx: DeserializeCx<'c>,
}

impl<'de> Visitor<'de> for FieldsVisitor<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a JSON object for message {}",
            self.descriptor.full_name()
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let mut object = ReflectedObject {
            descriptor: self.descriptor,
            target: self.target,
            oneofs_set: Vec::new(),
        };
        read_object(map, &mut object, self.cx)
    }
}

/// A reflected message as a [`JsonObject`].
struct ReflectedObject<'t> {
    descriptor: MessageDescriptor,
    target: &'t mut dyn ReflectMessage,
    /// The oneofs (by index) a member of which this object has set.
    oneofs_set: Vec<usize>,
}

impl<'de> JsonObject<'de> for ReflectedObject<'_> {
    type Field = FieldDescriptor;

    fn message_name(&self) -> &str {
        self.descriptor.full_name()
    }

    /// Fields by index; extensions after them, by their position among
    /// the pool's extensions of the message, so that slots stay dense.
    fn find_field(&self, key: &str) -> Option<(FieldDescriptor, u32)> {
        let field = find_field(&self.descriptor, key)?;
        let slot = if field.is_extension() {
            let position = self
                .descriptor
                .pool()
                .extensions_of(&self.descriptor)
                .position(|extension| extension.number() == field.number())?;
            self.descriptor.fields().len() + position
        } else {
            field.index()
        };
        Some((field, slot as u32))
    }

    fn read_field<A: MapAccess<'de>>(
        &mut self,
        field: FieldDescriptor,
        key: &str,
        map: &mut A,
        cx: DeserializeCx<'_>,
    ) -> Result<(), A::Error> {
        let target = &mut *self.target;
        if field.is_map() {
            return map.next_value_seed(MapSeed {
                field: &field,
                target,
                cx,
            });
        }
        if field.is_list() {
            return map.next_value_seed(ListSeed {
                field: &field,
                target,
                cx,
            });
        }
        let oneof = field.real_oneof();
        let conflict = oneof
            .as_ref()
            .filter(|oneof| self.oneofs_set.contains(&oneof.index()))
            .map(|oneof| oneof_conflict(key, self.descriptor.full_name(), oneof.name()));
        let set = map.next_value_seed(SingularSeed {
            field: &field,
            target,
            cx,
            conflict: conflict.as_deref(),
        })?;
        if let (true, Some(oneof)) = (set, oneof) {
            self.oneofs_set.push(oneof.index());
        }
        Ok(())
    }
}

/// The field a key of `message`'s object names: an extension of it as
/// `"[full.name]"`, else the field of that .proto name, else the field of
/// that `json_name` unless another field shares it (such a field is
/// written, and read, under its .proto name only, as generated code does).
fn find_field(message: &MessageDescriptor, key: &str) -> Option<FieldDescriptor> {
    if let Some(name) = key.strip_prefix('[').and_then(|k| k.strip_suffix(']')) {
        return message
            .pool()
            .get_extension_by_name(name)
            .filter(|extension| extension.containing_message() == *message);
    }
    if let Some(field) = message.get_field_by_name(key) {
        return Some(field);
    }
    let field = message.get_field_by_json_name(key)?;
    (written_name(&field, false) == key).then_some(field)
}

/// Reads the value of a singular field into `target`: whether it set the
/// field. `null` leaves it unset, except where `null` is a value of the
/// field's type. `conflict` is the error any value is, when another member
/// of the field's oneof was set.
struct SingularSeed<'f, 't, 'c, 'e> {
    field: &'f FieldDescriptor,
    target: &'t mut dyn ReflectMessage,
    cx: DeserializeCx<'c>,
    conflict: Option<&'e str>,
}

impl<'de> DeserializeSeed<'de> for SingularSeed<'_, '_, '_, '_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for SingularSeed<'_, '_, '_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        let kind = self.field.kind();
        if !scalar::null_is_value(&kind) {
            return Ok(false);
        }
        if let Some(conflict) = self.conflict {
            return Err(E::custom(conflict));
        }
        match kind {
            Kind::Message(_) => {
                let message = message_mut(self.target, self.field).map_err(reflect_error)?;
                well_known::merge_null_value(message).map_err(E::custom)?;
            }
            _ => self
                .target
                .set_field(self.field, Value::EnumNumber(0))
                .map_err(reflect_error)?,
        }
        Ok(true)
    }

    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        if let Some(conflict) = self.conflict {
            return Err(de::Error::custom(conflict));
        }
        let kind = self.field.kind();
        if let Kind::Message(_) = kind {
            let message = message_mut(self.target, self.field).map_err(reflect_error)?;
            deserialize_message(deserializer, self.cx, message)?;
            self.cx.charge(size_of::<DynamicMessage>())?;
            return Ok(true);
        }
        match scalar::deserialize(&kind, deserializer, self.cx)? {
            Some(value) => {
                self.target
                    .set_field(self.field, value)
                    .map_err(reflect_error)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// Reads one scalar or enum list element or map value: `None` to skip it.
/// `null` is the type's null value where it has one, and is otherwise left
/// to the type's reader, which refuses it.
struct Element<'k, 'c> {
    kind: &'k Kind,
    cx: DeserializeCx<'c>,
}

impl<'de> DeserializeSeed<'de> for Element<'_, '_> {
    type Value = Option<Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Value>, D::Error> {
        if scalar::null_is_value(self.kind) {
            deserializer.deserialize_option(self)
        } else {
            scalar::deserialize(self.kind, deserializer, self.cx)
        }
    }
}

impl<'de> Visitor<'de> for Element<'_, '_> {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<Value>, E> {
        Ok(Some(Value::EnumNumber(0)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<Value>, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Value>, D::Error> {
        scalar::deserialize(self.kind, deserializer, self.cx)
    }
}

/// Reads a repeated field into `target`: a JSON array, or `null` for none.
struct ListSeed<'f, 't, 'c> {
    field: &'f FieldDescriptor,
    target: &'t mut dyn ReflectMessage,
    cx: DeserializeCx<'c>,
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array for a repeated field")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        let kind = self.field.kind();
        let cx = self.cx;
        let ValueMut::List(mut list) = self.target.field_mut(self.field).map_err(reflect_error)?
        else {
            return Err(de::Error::custom(format_args!(
                "field {} does not hold a list",
                self.field.full_name()
            )));
        };
        if let Kind::Message(_) = kind {
            while seq
                .next_element_seed(ListMessage {
                    list: &mut *list,
                    cx,
                })?
                .is_some()
            {}
            return Ok(());
        }
        while let Some(read) = seq.next_element_seed(Element { kind: &kind, cx })? {
            if let Some(value) = read {
                cx.charge(size_of::<Value>())?;
                list.push(value).map_err(reflect_error)?;
            }
        }
        Ok(())
    }
}

/// Reads one message element of a list, appended to it.
struct ListMessage<'l, 'h, 'c> {
    list: &'l mut (dyn ReflectListMut + 'h),
    cx: DeserializeCx<'c>,
}

impl<'de> DeserializeSeed<'de> for ListMessage<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let message = self.list.push_message().map_err(reflect_error)?;
        deserialize_message(deserializer, self.cx, message)?;
        self.cx.charge(size_of::<DynamicMessage>())
    }
}

/// Reads a map field into `target`: a JSON object with stringified keys,
/// or `null` for none.
struct MapSeed<'f, 't, 'c> {
    field: &'f FieldDescriptor,
    target: &'t mut dyn ReflectMessage,
    cx: DeserializeCx<'c>,
}

impl<'de> DeserializeSeed<'de> for MapSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for MapSeed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object for a map field")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Kind::Message(entry) = self.field.kind() else {
            return Err(de::Error::custom(format_args!(
                "map field {} has no entry message",
                self.field.full_name()
            )));
        };
        let key_kind = entry.map_entry_key_field().kind();
        let value_kind = entry.map_entry_value_field().kind();
        let cx = self.cx;
        let ValueMut::Map(mut entries) =
            self.target.field_mut(self.field).map_err(reflect_error)?
        else {
            return Err(de::Error::custom(format_args!(
                "field {} does not hold a map",
                self.field.full_name()
            )));
        };
        loop {
            let seed = MapKeySeed {
                kind: &key_kind,
                cx,
                map: &*entries,
            };
            let Some(key) = map.next_key_seed(seed)? else {
                return Ok(());
            };
            if let Kind::Message(_) = value_kind {
                map.next_value_seed(MapMessage {
                    map: &mut *entries,
                    key,
                    cx,
                })?;
            } else if let Some(value) = map.next_value_seed(Element {
                kind: &value_kind,
                cx,
            })? {
                cx.charge(size_of::<(MapKey, Value)>())?;
                entries.insert(key, value).map_err(reflect_error)?;
            }
        }
    }
}

/// Reads a map key: its string form parsed, refused if the map has it
/// already, while serde reads it so that errors point at it.
struct MapKeySeed<'k, 'c, 'm, 'h> {
    kind: &'k Kind,
    cx: DeserializeCx<'c>,
    map: &'m (dyn ReflectMapMut + 'h),
}

impl<'de> DeserializeSeed<'de> for MapKeySeed<'_, '_, '_, '_> {
    type Value = MapKey;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<MapKey, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for MapKeySeed<'_, '_, '_, '_> {
    type Value = MapKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<MapKey, E> {
        let key = scalar::parse_key(self.kind, v).map_err(E::custom)?;
        // String keys allocate their text (charged for every key type).
        self.cx.charge(v.len())?;
        if self.map.get(key.as_ref()).is_some() {
            return Err(E::custom(format_args!(
                "map key {} is given more than once",
                Quoted(v)
            )));
        }
        Ok(key)
    }
}

/// Reads the message value of one map entry, inserted under `key`.
struct MapMessage<'m, 'h, 'c> {
    map: &'m mut (dyn ReflectMapMut + 'h),
    key: MapKey,
    cx: DeserializeCx<'c>,
}

impl<'de> DeserializeSeed<'de> for MapMessage<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let message = self.map.entry_message(self.key).map_err(reflect_error)?;
        deserialize_message(deserializer, self.cx, message)?;
        self.cx.charge(size_of::<(MapKey, DynamicMessage)>())
    }
}
