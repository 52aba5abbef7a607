//! Field values seen through reflection: owned ([`Value`], what is set and
//! what a [`DynamicMessage`] stores) and borrowed ([`ValueRef`], what is
//! read, without allocating).

use std::collections::BTreeMap;
use std::fmt;

use crate::dynamic::DynamicMessage;
use crate::reflect::{ReflectList, ReflectMap, ReflectMessage};
use crate::{DefaultValue, FieldDescriptor, Kind, MessageDescriptor};

/// An owned field value.
///
/// Integers keep the width and signedness of their protobuf type, not its
/// encoding: `int32`, `sint32` and `sfixed32` are all [`Value::I32`].
/// Enum values are their numbers, open or not.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32`.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64`.
    I64(i64),
    /// `uint32`, `fixed32`.
    U32(u32),
    /// `uint64`, `fixed64`.
    U64(u64),
    /// `float`.
    F32(f32),
    /// `double`.
    F64(f64),
    /// `string`.
    String(String),
    /// `bytes`.
    Bytes(Vec<u8>),
    /// An enum value's number.
    EnumNumber(i32),
    /// A message (or group).
    Message(DynamicMessage),
    /// The elements of a repeated field.
    List(Vec<Value>),
    /// The entries of a map field, in key order.
    Map(BTreeMap<MapKey, Value>),
}

/// The key of a map entry: the integer, `bool` and `string` types a map
/// key may have.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MapKey {
    /// `bool`.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32`.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64`.
    I64(i64),
    /// `uint32`, `fixed32`.
    U32(u32),
    /// `uint64`, `fixed64`.
    U64(u64),
    /// `string`.
    String(String),
}

/// A field value borrowed from a message: scalars by value, strings and
/// bytes as slices, messages, lists and maps through their reflection
/// traits. Reading one allocates nothing.
#[derive(Clone, Copy)]
pub enum ValueRef<'a> {
    /// `bool`.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32`.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64`.
    I64(i64),
    /// `uint32`, `fixed32`.
    U32(u32),
    /// `uint64`, `fixed64`.
    U64(u64),
    /// `float`.
    F32(f32),
    /// `double`.
    F64(f64),
    /// `string`.
    String(&'a str),
    /// `bytes`.
    Bytes(&'a [u8]),
    /// An enum value's number.
    EnumNumber(i32),
    /// A message (or group).
    Message(&'a dyn ReflectMessage),
    /// A repeated field.
    List(&'a dyn ReflectList),
    /// A map field.
    Map(&'a dyn ReflectMap),
}

/// A map key borrowed from a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MapKeyRef<'a> {
    /// `bool`.
    Bool(bool),
    /// `int32`, `sint32`, `sfixed32`.
    I32(i32),
    /// `int64`, `sint64`, `sfixed64`.
    I64(i64),
    /// `uint32`, `fixed32`.
    U32(u32),
    /// `uint64`, `fixed64`.
    U64(u64),
    /// `string`.
    String(&'a str),
}

impl fmt::Debug for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueRef::Bool(v) => write!(f, "Bool({v})"),
            ValueRef::I32(v) => write!(f, "I32({v})"),
            ValueRef::I64(v) => write!(f, "I64({v})"),
            ValueRef::U32(v) => write!(f, "U32({v})"),
            ValueRef::U64(v) => write!(f, "U64({v})"),
            ValueRef::F32(v) => write!(f, "F32({v:?})"),
            ValueRef::F64(v) => write!(f, "F64({v:?})"),
            ValueRef::String(v) => write!(f, "String({v:?})"),
            ValueRef::Bytes(v) => write!(f, "Bytes({v:?})"),
            ValueRef::EnumNumber(v) => write!(f, "EnumNumber({v})"),
            ValueRef::Message(m) => write!(f, "Message({})", m.descriptor().full_name()),
            ValueRef::List(l) => write!(f, "List(len {})", l.len()),
            ValueRef::Map(m) => write!(f, "Map(len {})", m.len()),
        }
    }
}

impl ValueRef<'_> {
    /// The value of `field` owned: a message as a [`DynamicMessage`] of
    /// the field's type (which may be of another pool than the message
    /// read) holding a copy of its fields and unknown fields.
    pub(crate) fn to_value(self, field: &FieldDescriptor) -> Value {
        let kind = field.kind();
        match self {
            ValueRef::List(list) => Value::List(
                (0..list.len())
                    .filter_map(|i| list.get(i))
                    .map(|element| element.to_value_of(&kind))
                    .collect(),
            ),
            ValueRef::Map(map) => {
                let Kind::Message(entry) = kind else {
                    return Value::Map(BTreeMap::new());
                };
                let value_kind = entry.map_entry_value_field().kind();
                Value::Map(
                    map.entries()
                        .map(|(key, value)| (key.to_owned_key(), value.to_value_of(&value_kind)))
                        .collect(),
                )
            }
            value => value.to_value_of(&kind),
        }
    }

    /// A singular value of `kind` owned.
    fn to_value_of(self, kind: &Kind) -> Value {
        match self {
            ValueRef::Bool(v) => Value::Bool(v),
            ValueRef::I32(v) => Value::I32(v),
            ValueRef::I64(v) => Value::I64(v),
            ValueRef::U32(v) => Value::U32(v),
            ValueRef::U64(v) => Value::U64(v),
            ValueRef::F32(v) => Value::F32(v),
            ValueRef::F64(v) => Value::F64(v),
            ValueRef::String(v) => Value::String(v.to_owned()),
            ValueRef::Bytes(v) => Value::Bytes(v.to_vec()),
            ValueRef::EnumNumber(v) => Value::EnumNumber(v),
            ValueRef::Message(message) => match kind {
                Kind::Message(descriptor) => Value::Message(to_dynamic(message, descriptor)),
                _ => Value::default_of(kind),
            },
            // Not singular values; `to_value` takes them apart.
            ValueRef::List(_) | ValueRef::Map(_) => Value::default_of(kind),
        }
    }
}

/// A copy of `message` as a [`DynamicMessage`] of type `descriptor` (its
/// own type, perhaps from another pool), field by field.
fn to_dynamic(message: &dyn ReflectMessage, descriptor: &MessageDescriptor) -> DynamicMessage {
    if let Some(dynamic) = message.as_any().downcast_ref::<DynamicMessage>()
        && dynamic.descriptor() == *descriptor
    {
        return dynamic.clone();
    }
    let mut copy = DynamicMessage::new(descriptor.clone());
    for (field, value) in message.set_fields() {
        let own = if field.is_extension() {
            descriptor
                .pool()
                .get_extension_by_number(descriptor, field.number())
        } else {
            descriptor.get_field(field.number())
        };
        if let Some(own) = own {
            // Of the same schema, so of the same kind: the value fits.
            let _ = copy.set_field(&own, value.to_value(&own));
        }
    }
    if let Some(unknown) = copy.unknown_fields_mut() {
        *unknown = message.unknown_fields().clone();
    }
    copy
}

impl Value {
    /// The value borrowed.
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Bool(v) => ValueRef::Bool(*v),
            Value::I32(v) => ValueRef::I32(*v),
            Value::I64(v) => ValueRef::I64(*v),
            Value::U32(v) => ValueRef::U32(*v),
            Value::U64(v) => ValueRef::U64(*v),
            Value::F32(v) => ValueRef::F32(*v),
            Value::F64(v) => ValueRef::F64(*v),
            Value::String(v) => ValueRef::String(v),
            Value::Bytes(v) => ValueRef::Bytes(v),
            Value::EnumNumber(v) => ValueRef::EnumNumber(*v),
            Value::Message(m) => ValueRef::Message(m),
            Value::List(l) => ValueRef::List(l),
            Value::Map(m) => ValueRef::Map(m),
        }
    }

    /// The default value of a singular field of `kind`: zero, empty, the
    /// enum's first value, or an empty message.
    pub fn default_of(kind: &Kind) -> Value {
        match kind {
            Kind::Double => Value::F64(0.0),
            Kind::Float => Value::F32(0.0),
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(0),
            Kind::Uint64 | Kind::Fixed64 => Value::U64(0),
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(0),
            Kind::Uint32 | Kind::Fixed32 => Value::U32(0),
            Kind::Bool => Value::Bool(false),
            Kind::String => Value::String(String::new()),
            Kind::Bytes => Value::Bytes(Vec::new()),
            Kind::Enum(e) => Value::EnumNumber(e.default_value().number()),
            Kind::Message(m) => Value::Message(DynamicMessage::new(m.clone())),
        }
    }

    /// The value a singular `field` reads as when it is not set: its
    /// declared default (proto2 `[default = ...]`) or the zero of its kind;
    /// an empty message for a message field.
    pub(crate) fn unset_value_of(field: &FieldDescriptor) -> Value {
        match field.default_value() {
            DefaultValue::Bool(v) => Value::Bool(v),
            DefaultValue::I32(v) => Value::I32(v),
            DefaultValue::I64(v) => Value::I64(v),
            DefaultValue::U32(v) => Value::U32(v),
            DefaultValue::U64(v) => Value::U64(v),
            DefaultValue::F32(v) => Value::F32(v),
            DefaultValue::F64(v) => Value::F64(v),
            DefaultValue::String(v) => Value::String(v),
            DefaultValue::Bytes(v) => Value::Bytes(v),
            DefaultValue::EnumNumber(v) => Value::EnumNumber(v),
            DefaultValue::Message => Value::default_of(&field.kind()),
        }
    }

    /// Whether this value can be stored in a singular field (or list
    /// element, or map value) of `kind`.
    pub fn is_valid_for_kind(&self, kind: &Kind) -> bool {
        matches!(
            (self, kind),
            (Value::F64(_), Kind::Double)
                | (Value::F32(_), Kind::Float)
                | (Value::I64(_), Kind::Int64 | Kind::Sint64 | Kind::Sfixed64)
                | (Value::U64(_), Kind::Uint64 | Kind::Fixed64)
                | (Value::I32(_), Kind::Int32 | Kind::Sint32 | Kind::Sfixed32)
                | (Value::U32(_), Kind::Uint32 | Kind::Fixed32)
                | (Value::Bool(_), Kind::Bool)
                | (Value::String(_), Kind::String)
                | (Value::Bytes(_), Kind::Bytes)
        ) || matches!((self, kind), (Value::EnumNumber(number), Kind::Enum(e))
            // A closed enum holds declared numbers only; decoding sets
            // the others aside as unknown fields.
            if !e.is_closed() || e.get_value(*number).is_some())
            || matches!((self, kind), (Value::Message(m), Kind::Message(d)) if m.descriptor() == *d)
    }

    /// Whether this value can be stored in `field`: a list for a repeated
    /// field, a map for a map field, one of the field's kind otherwise.
    pub fn is_valid_for_field(&self, field: &FieldDescriptor) -> bool {
        if field.is_map() {
            let Kind::Message(entry) = field.kind() else {
                return false;
            };
            let key_kind = entry.map_entry_key_field().kind();
            let value_kind = entry.map_entry_value_field().kind();
            match self {
                Value::Map(map) => map.iter().all(|(key, value)| {
                    key.is_valid_for_kind(&key_kind) && value.is_valid_for_kind(&value_kind)
                }),
                _ => false,
            }
        } else if field.is_list() {
            let kind = field.kind();
            match self {
                Value::List(list) => list.iter().all(|value| value.is_valid_for_kind(&kind)),
                _ => false,
            }
        } else {
            self.is_valid_for_kind(&field.kind())
        }
    }
}

impl MapKey {
    /// The key borrowed.
    pub fn as_ref(&self) -> MapKeyRef<'_> {
        match self {
            MapKey::Bool(v) => MapKeyRef::Bool(*v),
            MapKey::I32(v) => MapKeyRef::I32(*v),
            MapKey::I64(v) => MapKeyRef::I64(*v),
            MapKey::U32(v) => MapKeyRef::U32(*v),
            MapKey::U64(v) => MapKeyRef::U64(*v),
            MapKey::String(v) => MapKeyRef::String(v),
        }
    }

    /// The default key of `kind` (a map entry without a key has it), or
    /// `None` when `kind` cannot be a map key.
    pub fn default_of(kind: &Kind) -> Option<MapKey> {
        Some(match kind {
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => MapKey::I64(0),
            Kind::Uint64 | Kind::Fixed64 => MapKey::U64(0),
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => MapKey::I32(0),
            Kind::Uint32 | Kind::Fixed32 => MapKey::U32(0),
            Kind::Bool => MapKey::Bool(false),
            Kind::String => MapKey::String(String::new()),
            _ => return None,
        })
    }

    /// Whether this key can be the key of a map whose key field has
    /// `kind`.
    pub fn is_valid_for_kind(&self, kind: &Kind) -> bool {
        matches!(
            (self, kind),
            (MapKey::I64(_), Kind::Int64 | Kind::Sint64 | Kind::Sfixed64)
                | (MapKey::U64(_), Kind::Uint64 | Kind::Fixed64)
                | (MapKey::I32(_), Kind::Int32 | Kind::Sint32 | Kind::Sfixed32)
                | (MapKey::U32(_), Kind::Uint32 | Kind::Fixed32)
                | (MapKey::Bool(_), Kind::Bool)
                | (MapKey::String(_), Kind::String)
        )
    }

    /// The key as a field value.
    pub fn into_value(self) -> Value {
        match self {
            MapKey::Bool(v) => Value::Bool(v),
            MapKey::I32(v) => Value::I32(v),
            MapKey::I64(v) => Value::I64(v),
            MapKey::U32(v) => Value::U32(v),
            MapKey::U64(v) => Value::U64(v),
            MapKey::String(v) => Value::String(v),
        }
    }

    /// The key a field value makes, if it is of a key type.
    pub fn from_value(value: Value) -> Option<MapKey> {
        Some(match value {
            Value::Bool(v) => MapKey::Bool(v),
            Value::I32(v) => MapKey::I32(v),
            Value::I64(v) => MapKey::I64(v),
            Value::U32(v) => MapKey::U32(v),
            Value::U64(v) => MapKey::U64(v),
            Value::String(v) => MapKey::String(v),
            _ => return None,
        })
    }
}

impl<'a> From<MapKeyRef<'a>> for ValueRef<'a> {
    /// The key as a field value.
    fn from(key: MapKeyRef<'a>) -> ValueRef<'a> {
        match key {
            MapKeyRef::Bool(v) => ValueRef::Bool(v),
            MapKeyRef::I32(v) => ValueRef::I32(v),
            MapKeyRef::I64(v) => ValueRef::I64(v),
            MapKeyRef::U32(v) => ValueRef::U32(v),
            MapKeyRef::U64(v) => ValueRef::U64(v),
            MapKeyRef::String(v) => ValueRef::String(v),
        }
    }
}

impl MapKeyRef<'_> {
    /// The key owned.
    pub fn to_owned_key(self) -> MapKey {
        match self {
            MapKeyRef::Bool(v) => MapKey::Bool(v),
            MapKeyRef::I32(v) => MapKey::I32(v),
            MapKeyRef::I64(v) => MapKey::I64(v),
            MapKeyRef::U32(v) => MapKey::U32(v),
            MapKeyRef::U64(v) => MapKey::U64(v),
            MapKeyRef::String(v) => MapKey::String(v.to_owned()),
        }
    }
}
