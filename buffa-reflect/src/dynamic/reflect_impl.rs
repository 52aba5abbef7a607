//! [`ReflectMessage`] for [`DynamicMessage`], and the list and map handles
//! over its stored values.

use std::any::Any;
use std::collections::BTreeMap;

use buffa::{DecodeError, DecodeOptions, UnknownFields};

use super::DynamicMessage;
use super::decode::clear_oneof_siblings;
use crate::reflect::{
    ReflectError, ReflectList, ReflectListMut, ReflectMap, ReflectMapMut, ReflectMessage, ValueMut,
};
use crate::value::{MapKey, MapKeyRef, Value, ValueRef};
use crate::{FieldDescriptor, Kind, MessageDescriptor};

impl ReflectMessage for DynamicMessage {
    fn descriptor(&self) -> MessageDescriptor {
        self.descriptor.clone()
    }

    fn field(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        if !self.owns(field) {
            return None;
        }
        self.visible(field)
    }

    fn field_owned(&self, field: &FieldDescriptor) -> Option<Value> {
        self.field(field)?;
        self.fields.get(&field.number()).cloned()
    }

    fn set_field(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        self.check_writable(field)?;
        if !value.is_valid_for_field(field) {
            return Err(ReflectError::wrong_type(field, &value));
        }
        clear_oneof_siblings(self, field);
        self.store(field, value);
        Ok(())
    }

    fn field_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        self.check_writable(field)?;
        let kind = field.kind();
        if field.is_map() {
            let Kind::Message(entry) = kind else {
                return Err(ReflectError::new("a map field's kind is not a message"));
            };
            let stored = self
                .fields
                .entry(field.number())
                .or_insert_with(|| Value::Map(BTreeMap::new()));
            let Value::Map(map) = stored else {
                unreachable!("a map field holds a map");
            };
            return Ok(ValueMut::Map(Box::new(MapHandle {
                key_kind: entry.map_entry_key_field().kind(),
                value_kind: entry.map_entry_value_field().kind(),
                map,
            })));
        }
        if field.is_list() {
            let stored = self
                .fields
                .entry(field.number())
                .or_insert_with(|| Value::List(Vec::new()));
            let Value::List(list) = stored else {
                unreachable!("a repeated field holds a list");
            };
            return Ok(ValueMut::List(Box::new(ListHandle { kind, list })));
        }
        if !matches!(kind, Kind::Message(_)) {
            return Err(ReflectError::new(format!(
                "field {} is a scalar: set it with set_field",
                field.full_name()
            )));
        }
        clear_oneof_siblings(self, field);
        let stored = self
            .fields
            .entry(field.number())
            .or_insert_with(|| Value::default_of(&kind));
        let Value::Message(message) = stored else {
            unreachable!("a message field holds a message");
        };
        Ok(ValueMut::Message(message))
    }

    fn clear_field(&mut self, field: &FieldDescriptor) {
        if self.owns(field) {
            self.fields.remove(&field.number());
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown
    }

    fn unknown_fields_mut(&mut self) -> Option<&mut UnknownFields> {
        Some(&mut self.unknown)
    }

    fn clear(&mut self) {
        self.fields.clear();
        self.unknown.clear();
    }

    fn merge_binary(&mut self, bytes: &[u8], options: &DecodeOptions) -> Result<(), DecodeError> {
        self.merge_with_options(bytes, options)
    }

    fn encode_binary(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.encode_to_vec());
    }

    fn new_instance(&self) -> Box<dyn ReflectMessage> {
        Box::new(DynamicMessage::new(self.descriptor.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn set_fields(&self) -> Vec<(FieldDescriptor, ValueRef<'_>)> {
        // The stored numbers are already in order, extensions among them.
        self.set_entries()
            .map(|(field, value)| (field, value.as_ref()))
            .collect()
    }
}

impl DynamicMessage {
    /// Fails unless `field` is one of this message's fields or extensions
    /// with a number the binary format can write (message-set extensions
    /// may have larger ones, and that wire format is not supported).
    fn check_writable(&self, field: &FieldDescriptor) -> Result<(), ReflectError> {
        if !self.owns(field) {
            return Err(ReflectError::not_a_field(&self.descriptor, field));
        }
        if field.number() > MAX_FIELD_NUMBER {
            return Err(ReflectError::new(format!(
                "field {} has number {}, beyond the {MAX_FIELD_NUMBER} the binary format can write",
                field.full_name(),
                field.number()
            )));
        }
        Ok(())
    }
}

/// The largest field number a field key can hold, 2^29 - 1.
const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

impl ReflectList for Vec<Value> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn get(&self, index: usize) -> Option<ValueRef<'_>> {
        self.as_slice().get(index).map(Value::as_ref)
    }
}

impl ReflectMap for BTreeMap<MapKey, Value> {
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }

    fn get(&self, key: MapKeyRef<'_>) -> Option<ValueRef<'_>> {
        BTreeMap::get(self, &key.to_owned_key()).map(Value::as_ref)
    }

    fn entries(&self) -> Box<dyn Iterator<Item = (MapKeyRef<'_>, ValueRef<'_>)> + '_> {
        Box::new(
            self.iter()
                .map(|(key, value)| (key.as_ref(), value.as_ref())),
        )
    }
}

/// A stored list with the kind its elements must have.
struct ListHandle<'a> {
    kind: Kind,
    list: &'a mut Vec<Value>,
}

impl ReflectList for ListHandle<'_> {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn get(&self, index: usize) -> Option<ValueRef<'_>> {
        ReflectList::get(&*self.list, index)
    }
}

impl ReflectListMut for ListHandle<'_> {
    fn push(&mut self, value: Value) -> Result<(), ReflectError> {
        if !value.is_valid_for_kind(&self.kind) {
            return Err(ReflectError::new(format!(
                "a list of {:?} cannot hold {value:?}",
                self.kind
            )));
        }
        self.list.push(value);
        Ok(())
    }

    fn push_message(&mut self) -> Result<&mut dyn ReflectMessage, ReflectError> {
        let Kind::Message(descriptor) = &self.kind else {
            return Err(ReflectError::new(format!(
                "a list of {:?} holds no messages",
                self.kind
            )));
        };
        self.list
            .push(Value::Message(DynamicMessage::new(descriptor.clone())));
        match self.list.last_mut() {
            Some(Value::Message(message)) => Ok(message),
            _ => unreachable!("a message was just pushed"),
        }
    }

    fn clear(&mut self) {
        self.list.clear();
    }
}

/// A stored map with the kinds of its keys and values.
struct MapHandle<'a> {
    key_kind: Kind,
    value_kind: Kind,
    map: &'a mut BTreeMap<MapKey, Value>,
}

impl ReflectMap for MapHandle<'_> {
    fn len(&self) -> usize {
        self.map.len()
    }

    fn get(&self, key: MapKeyRef<'_>) -> Option<ValueRef<'_>> {
        ReflectMap::get(&*self.map, key)
    }

    fn entries(&self) -> Box<dyn Iterator<Item = (MapKeyRef<'_>, ValueRef<'_>)> + '_> {
        self.map.entries()
    }
}

impl MapHandle<'_> {
    fn check_key(&self, key: &MapKey) -> Result<(), ReflectError> {
        if key.is_valid_for_kind(&self.key_kind) {
            Ok(())
        } else {
            Err(ReflectError::new(format!(
                "a map keyed by {:?} cannot take the key {key:?}",
                self.key_kind
            )))
        }
    }
}

impl ReflectMapMut for MapHandle<'_> {
    fn insert(&mut self, key: MapKey, value: Value) -> Result<(), ReflectError> {
        self.check_key(&key)?;
        if !value.is_valid_for_kind(&self.value_kind) {
            return Err(ReflectError::new(format!(
                "a map of {:?} cannot hold {value:?}",
                self.value_kind
            )));
        }
        self.map.insert(key, value);
        Ok(())
    }

    fn entry_message(&mut self, key: MapKey) -> Result<&mut dyn ReflectMessage, ReflectError> {
        self.check_key(&key)?;
        let Kind::Message(descriptor) = &self.value_kind else {
            return Err(ReflectError::new(format!(
                "a map of {:?} holds no messages",
                self.value_kind
            )));
        };
        let stored = self
            .map
            .entry(key)
            .or_insert_with(|| Value::Message(DynamicMessage::new(descriptor.clone())));
        match stored {
            Value::Message(message) => Ok(message),
            _ => unreachable!("a map of messages holds messages"),
        }
    }

    fn clear(&mut self) {
        self.map.clear();
    }
}
