//! The struct fields of generated messages through reflection: one
//! [`ReflectField`] impl per shape of field (a value without presence,
//! `Option<T>`, `MessageField<T, P>`, `Vec<T>`, `HashMap<K, V>`,
//! `BTreeMap<K, V>`), a oneof being an `Option` of its enum.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;

use buffa::{MessageField, ProtoBox};

use super::GeneratedMessage;
use super::containers::{ListMut, MapMut, MapStorage};
use super::element::{ReflectElement, ReflectKey};
use crate::FieldDescriptor;
use crate::reflect::{ReflectError, ReflectMessage, ValueMut};
use crate::value::{MapKey, Value, ValueRef};

/// A struct field of a generated message, read and changed through the
/// descriptor of the protobuf field it holds (one of the members, for a
/// oneof). Generated messages hand out their fields as `&dyn ReflectField`
/// by number ([`GeneratedMessage::reflect_field`]); the methods are those
/// of [`ReflectMessage`] for one field.
pub trait ReflectField {
    /// The value, or `None` when the field is not set.
    fn get(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>>;

    /// Sets the value; on an error the field is unchanged.
    fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError>;

    /// The message, list or map, to change in place.
    fn get_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError>;

    /// Clears the field.
    fn clear(&mut self, field: &FieldDescriptor);
}

/// What an `Option` field holds: the value of a field with explicit
/// presence (every [`ReflectElement`]), or the enum of a oneof, whose
/// generated impl picks the member by field number.
pub trait OptionValue: Sized {
    /// The value of member `number`, or `None` when another member is set.
    fn get(&self, number: u32) -> Option<ValueRef<'_>>;

    /// Member `number` holding `value`, or `value` back when it does not
    /// fit.
    fn from_value(number: u32, value: Value) -> Result<Self, Value>;

    /// Member `number` holding an empty message, when it is a message.
    fn new_message(number: u32) -> Option<Self> {
        let _ = number;
        None
    }

    /// The message member `number` holds, when it is set and a message.
    fn message_mut(&mut self, number: u32) -> Option<&mut dyn ReflectMessage> {
        let _ = number;
        None
    }
}

impl<T: ReflectElement> OptionValue for T {
    fn get(&self, _number: u32) -> Option<ValueRef<'_>> {
        Some(self.value_ref())
    }

    fn from_value(_number: u32, value: Value) -> Result<Self, Value> {
        T::from_value(value)
    }

    fn new_message(_number: u32) -> Option<Self> {
        let mut value = T::default();
        value.as_message_mut().is_some().then_some(value)
    }

    fn message_mut(&mut self, _number: u32) -> Option<&mut dyn ReflectMessage> {
        self.as_message_mut()
    }
}

/// `field` holds no message, list or map to change in place.
fn scalar(field: &FieldDescriptor) -> ReflectError {
    ReflectError::new(format!(
        "field {} is a scalar: set it with set_field",
        field.full_name()
    ))
}

/// A field without presence: set when not its default.
impl<T: ReflectElement> ReflectField for T {
    fn get(&self, _field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        (!self.is_default()).then(|| self.value_ref())
    }

    fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        *self = T::from_value(value).map_err(|value| ReflectError::wrong_type(field, &value))?;
        Ok(())
    }

    fn get_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        Err(scalar(field))
    }

    fn clear(&mut self, _field: &FieldDescriptor) {
        *self = T::default();
    }
}

/// A field with explicit presence, or a oneof.
impl<T: OptionValue> ReflectField for Option<T> {
    fn get(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        self.as_ref()?.get(field.number())
    }

    fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        let value = T::from_value(field.number(), value)
            .map_err(|value| ReflectError::wrong_type(field, &value))?;
        *self = Some(value);
        Ok(())
    }

    fn get_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        let number = field.number();
        if self.as_mut().and_then(|v| v.message_mut(number)).is_none() {
            *self = Some(T::new_message(number).ok_or_else(|| scalar(field))?);
        }
        let message = self
            .as_mut()
            .and_then(|v| v.message_mut(number))
            .expect("the member was just set to a message");
        Ok(ValueMut::Message(message))
    }

    fn clear(&mut self, field: &FieldDescriptor) {
        // A oneof is cleared only by a member that is set.
        if self
            .as_ref()
            .is_some_and(|v| v.get(field.number()).is_some())
        {
            *self = None;
        }
    }
}

/// A singular message field, through any pointer.
impl<M: GeneratedMessage, P: ProtoBox<M>> ReflectField for MessageField<M, P> {
    fn get(&self, _field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        self.as_option().map(|m| ValueRef::Message(m))
    }

    fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        let message = <M as ReflectElement>::from_value(value)
            .map_err(|value| ReflectError::wrong_type(field, &value))?;
        MessageField::set(self, message);
        Ok(())
    }

    fn get_mut(&mut self, _field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        Ok(ValueMut::Message(self.get_or_insert_default()))
    }

    fn clear(&mut self, _field: &FieldDescriptor) {
        MessageField::clear(self);
    }
}

/// A repeated field: set when not empty.
impl<T: ReflectElement> ReflectField for Vec<T> {
    fn get(&self, _field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        (!self.is_empty()).then_some(ValueRef::List(self))
    }

    fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        let Value::List(values) = value else {
            return Err(ReflectError::wrong_type(field, &value));
        };
        *self = values
            .into_iter()
            .map(|value| {
                T::from_value(value).map_err(|value| ReflectError::wrong_type(field, &value))
            })
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    fn get_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        Ok(ValueMut::List(Box::new(ListMut {
            list: self,
            field: field.clone(),
        })))
    }

    fn clear(&mut self, _field: &FieldDescriptor) {
        Vec::clear(self);
    }
}

/// [`ReflectField`] for both map types, written once over [`MapStorage`]:
/// set when not empty.
macro_rules! map_field {
    ($($map:ident),*) => {$(
        impl<K, V> ReflectField for $map<K, V>
        where
            K: ReflectKey + Borrow<K::Borrowed>,
            V: ReflectElement,
        {
            fn get(&self, _field: &FieldDescriptor) -> Option<ValueRef<'_>> {
                (!self.is_empty()).then_some(ValueRef::Map(self))
            }

            fn set(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
                *self = map_from_value(field, value)?;
                Ok(())
            }

            fn get_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
                Ok(ValueMut::Map(Box::new(MapMut {
                    map: self,
                    field: field.clone(),
                    types: PhantomData,
                })))
            }

            fn clear(&mut self, _field: &FieldDescriptor) {
                $map::clear(self);
            }
        }
    )*};
}

map_field!(HashMap, BTreeMap);

/// The map a [`Value::Map`] makes for `field`.
fn map_from_value<K, V, M>(field: &FieldDescriptor, value: Value) -> Result<M, ReflectError>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    let Value::Map(entries) = value else {
        return Err(ReflectError::wrong_type(field, &value));
    };
    let mut map = M::default();
    for (key, value) in entries {
        let key = K::from_key(key)
            .map_err(|key: MapKey| ReflectError::wrong_type(field, &key.into_value()))?;
        let value =
            V::from_value(value).map_err(|value| ReflectError::wrong_type(field, &value))?;
        map.insert(key, value);
    }
    Ok(map)
}
