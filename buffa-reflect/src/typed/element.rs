//! The values generated messages hold, seen through reflection: each Rust
//! type a field, list element or map value can have converts to a
//! [`ValueRef`] without allocating and from a [`Value`]; each map key type
//! to and from [`MapKeyRef`] and [`MapKey`].

use std::hash::Hash;

use buffa::bytes::Bytes;
use buffa::{BytesStr, DecodeOptions, EnumValue, Enumeration};

use super::GeneratedMessage;
use crate::reflect::ReflectMessage;
use crate::value::{MapKey, MapKeyRef, Value, ValueRef};

/// A value of a generated message's field, list element or map value:
/// `i32`, `u64`, `f32`, `bool`, ..., `String`, [`BytesStr`], `Vec<u8>`,
/// [`Bytes`], [`EnumValue<E>`] (open enums), closed enums (generated code
/// implements this trait for each, with [`closed_enum_ref`] and
/// [`closed_enum_from_value`]) and generated messages.
pub trait ReflectElement: Default + Send + Sync + 'static {
    /// The value borrowed; never allocates.
    fn value_ref(&self) -> ValueRef<'_>;

    /// The element `value` makes, or `value` back when it is of another
    /// kind (or an enum number a closed enum does not declare, or a
    /// message of another type).
    fn from_value(value: Value) -> Result<Self, Value>;

    /// The element as a message, when it is one.
    fn as_message_mut(&mut self) -> Option<&mut dyn ReflectMessage> {
        None
    }

    /// Whether the value is the default of a field without presence (zero,
    /// `+0.0`, `false`, empty, enum number 0), which such a field does not
    /// write and reflection does not count as set. Messages never are.
    fn is_default(&self) -> bool {
        match self.value_ref() {
            ValueRef::Bool(v) => !v,
            ValueRef::I32(v) | ValueRef::EnumNumber(v) => v == 0,
            ValueRef::I64(v) => v == 0,
            ValueRef::U32(v) => v == 0,
            ValueRef::U64(v) => v == 0,
            // -0.0 is written: only +0.0 is the default.
            ValueRef::F32(v) => v.to_bits() == 0,
            ValueRef::F64(v) => v.to_bits() == 0,
            ValueRef::String(v) => v.is_empty(),
            ValueRef::Bytes(v) => v.is_empty(),
            ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_) => false,
        }
    }
}

/// [`ReflectElement::value_ref`] as a function, for generated code.
pub fn value_ref<T: ReflectElement>(value: &T) -> ValueRef<'_> {
    value.value_ref()
}

/// [`ReflectElement::from_value`] as a function, for generated code.
pub fn from_value<T: ReflectElement>(value: Value) -> Result<T, Value> {
    T::from_value(value)
}

/// [`ReflectElement::value_ref`] of a closed enum: its number.
pub fn closed_enum_ref<E: Enumeration>(value: &E) -> ValueRef<'static> {
    ValueRef::EnumNumber(value.to_i32())
}

/// [`ReflectElement::from_value`] of a closed enum: a number it declares.
pub fn closed_enum_from_value<E: Enumeration>(value: Value) -> Result<E, Value> {
    match value {
        Value::EnumNumber(number) => E::from_i32(number).ok_or(value),
        other => Err(other),
    }
}

/// Implements [`ReflectElement`] for a scalar type stored as `$variant`.
macro_rules! scalar_element {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl ReflectElement for $ty {
            fn value_ref(&self) -> ValueRef<'_> {
                ValueRef::$variant(*self)
            }

            fn from_value(value: Value) -> Result<Self, Value> {
                match value {
                    Value::$variant(v) => Ok(v),
                    other => Err(other),
                }
            }
        }
    )*};
}

scalar_element!(
    bool => Bool,
    i32 => I32,
    i64 => I64,
    u32 => U32,
    u64 => U64,
    f32 => F32,
    f64 => F64,
);

impl ReflectElement for String {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::String(self)
    }

    fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::String(v) => Ok(v),
            other => Err(other),
        }
    }
}

impl ReflectElement for BytesStr {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::String(self.as_str())
    }

    fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::String(v) => Ok(BytesStr::from(v)),
            other => Err(other),
        }
    }
}

impl ReflectElement for Vec<u8> {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::Bytes(self)
    }

    fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::Bytes(v) => Ok(v),
            other => Err(other),
        }
    }
}

impl ReflectElement for Bytes {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::Bytes(self)
    }

    fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::Bytes(v) => Ok(Bytes::from(v)),
            other => Err(other),
        }
    }
}

impl<E: Enumeration> ReflectElement for EnumValue<E> {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::EnumNumber(self.to_i32())
    }

    /// Any number: an open enum keeps numbers its schema does not declare.
    fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::EnumNumber(number) => Ok(EnumValue::from_i32(number)),
            other => Err(other),
        }
    }
}

impl<M: GeneratedMessage> ReflectElement for M {
    fn value_ref(&self) -> ValueRef<'_> {
        ValueRef::Message(self)
    }

    /// A [`DynamicMessage`](crate::DynamicMessage) of the same type (by
    /// full name), converted by a binary round trip: encoded, then decoded
    /// as `M`.
    fn from_value(value: Value) -> Result<Self, Value> {
        let Value::Message(message) = value else {
            return Err(value);
        };
        if message.descriptor().full_name() != M::NAME {
            return Err(Value::Message(message));
        }
        // Through `merge_binary`, which `ReflectMessage` compiles anyway.
        let mut out = M::default();
        match out.merge_binary(&message.encode_to_vec(), &DecodeOptions::new()) {
            Ok(()) => Ok(out),
            Err(_) => Err(Value::Message(message)),
        }
    }

    fn as_message_mut(&mut self) -> Option<&mut dyn ReflectMessage> {
        Some(self)
    }
}

/// A map key type of generated messages: the integer types, `bool`,
/// `String` and [`BytesStr`].
pub trait ReflectKey: Sized + Eq + Hash + Ord + Send + Sync + 'static {
    /// The type the map is searched by (`str` for strings).
    type Borrowed: ?Sized + Eq + Hash + Ord;

    /// The key borrowed.
    fn key_ref(&self) -> MapKeyRef<'_>;

    /// The key `key` makes, or `key` back when it is of another type.
    fn from_key(key: MapKey) -> Result<Self, MapKey>;

    /// Calls `f` with `key` as this type's borrowed form, or returns `None`
    /// when `key` is of another type.
    fn with_borrowed<R>(key: MapKeyRef<'_>, f: impl FnOnce(&Self::Borrowed) -> R) -> Option<R>;
}

/// Implements [`ReflectKey`] for an integer or `bool` key stored as
/// `$variant`.
macro_rules! scalar_key {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl ReflectKey for $ty {
            type Borrowed = $ty;

            fn key_ref(&self) -> MapKeyRef<'_> {
                MapKeyRef::$variant(*self)
            }

            fn from_key(key: MapKey) -> Result<Self, MapKey> {
                match key {
                    MapKey::$variant(v) => Ok(v),
                    other => Err(other),
                }
            }

            fn with_borrowed<R>(key: MapKeyRef<'_>, f: impl FnOnce(&$ty) -> R) -> Option<R> {
                match key {
                    MapKeyRef::$variant(v) => Some(f(&v)),
                    _ => None,
                }
            }
        }
    )*};
}

scalar_key!(bool => Bool, i32 => I32, i64 => I64, u32 => U32, u64 => U64);

impl ReflectKey for String {
    type Borrowed = str;

    fn key_ref(&self) -> MapKeyRef<'_> {
        MapKeyRef::String(self)
    }

    fn from_key(key: MapKey) -> Result<Self, MapKey> {
        match key {
            MapKey::String(v) => Ok(v),
            other => Err(other),
        }
    }

    fn with_borrowed<R>(key: MapKeyRef<'_>, f: impl FnOnce(&str) -> R) -> Option<R> {
        match key {
            MapKeyRef::String(v) => Some(f(v)),
            _ => None,
        }
    }
}

impl ReflectKey for BytesStr {
    type Borrowed = str;

    fn key_ref(&self) -> MapKeyRef<'_> {
        MapKeyRef::String(self.as_str())
    }

    fn from_key(key: MapKey) -> Result<Self, MapKey> {
        match key {
            MapKey::String(v) => Ok(BytesStr::from(v)),
            other => Err(other),
        }
    }

    fn with_borrowed<R>(key: MapKeyRef<'_>, f: impl FnOnce(&str) -> R) -> Option<R> {
        match key {
            MapKeyRef::String(v) => Some(f(v)),
            _ => None,
        }
    }
}
