//! The reflection traits: a message, a repeated field and a map field read
//! and changed through descriptors, whatever their Rust type.

use std::any::Any;
use std::fmt;

use buffa::{DecodeError, DecodeOptions, UnknownFields};

use crate::value::{MapKey, MapKeyRef, Value, ValueRef};
use crate::{FieldDescriptor, MessageDescriptor};

/// A message read and changed through its descriptor.
///
/// [`DynamicMessage`](crate::DynamicMessage) implements it, and so can
/// generated messages: the text format, and every other tool written over
/// reflection, serves both alike. The trait is object safe; tools take
/// `&dyn ReflectMessage`.
///
/// A field is *set* when [`ReflectMessage::has_field`] says so: a field
/// with presence that was assigned, a field without presence holding a
/// value other than its default, a repeated or map field with at least one
/// element. Fields of another message (a descriptor from elsewhere) are
/// never set, and changing them fails with [`ReflectError`].
///
/// # Extensions
///
/// Extensions of the message are fields too, with one difference between
/// the two kinds of messages. A [`DynamicMessage`](crate::DynamicMessage)
/// stores the extensions its pool declares as fields, and reads them like
/// any other. A generated message keeps its extensions where the binary
/// format put them, encoded among its unknown fields (as its typed
/// `buffa::ExtendableMessage` API does), and so has no decoded value to
/// lend: for an extension, [`ReflectMessage::field`] returns `None` and
/// [`ReflectMessage::set_fields`] leaves it out, while
/// [`ReflectMessage::field_owned`] decodes its value, owned;
/// [`ReflectMessage::has_field`] looks for its occurrences,
/// [`ReflectMessage::set_field`] replaces them with the new value encoded,
/// [`ReflectMessage::clear_field`] removes them, and
/// [`ReflectMessage::field_mut`] fails (there is no value to change in
/// place: read it with `field_owned`, change it, and set it back). The text
/// format reads and writes extensions of both kinds alike.
///
/// A cache of decoded extensions inside generated messages would let
/// `field` lend them, at the cost of a field (and a synchronised lazy
/// initialisation, to stay `Sync`) in every generated message, and of two
/// copies of each extension to keep in step; reading them decoded on
/// demand costs nothing to messages without extensions.
pub trait ReflectMessage: Any + fmt::Debug + Send + Sync {
    /// The message's descriptor.
    fn descriptor(&self) -> MessageDescriptor;

    /// The value of `field`, or `None` when it is not set. Extensions of
    /// a dynamic message are fields too; those of a generated message are
    /// read with [`ReflectMessage::field_owned`] (see
    /// [Extensions](ReflectMessage#extensions)).
    fn field(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>>;

    /// Whether `field` is set. For an extension a generated message keeps
    /// encoded: whether it holds an occurrence of a scalar extension that
    /// decodes to a value, or of a message extension with the wire type of
    /// a message (not decoded to answer).
    fn has_field(&self, field: &FieldDescriptor) -> bool {
        self.field(field).is_some()
    }

    /// The value of `field` owned, or `None` when it is not set: what
    /// [`ReflectMessage::field`] returns, copied (messages as
    /// [`DynamicMessage`](crate::DynamicMessage)s), or for an extension a
    /// generated message keeps encoded, its occurrences decoded as the
    /// binary format reads a field seen several times (the last value of
    /// a singular scalar, every occurrence of a message merged, every
    /// element of a repeated extension). Such an extension reads as not
    /// set here if an occurrence does not decode (a string that is not
    /// UTF-8, a malformed message); the text format prints it among the
    /// unknown fields.
    fn field_owned(&self, field: &FieldDescriptor) -> Option<Value> {
        Some(self.field(field)?.to_value(field))
    }

    /// Sets `field` to `value`: a [`Value::List`] for a repeated field, a
    /// [`Value::Map`] for a map field. Setting a member of a oneof clears
    /// the others. An extension of a generated message replaces every
    /// occurrence of its number among the unknown fields (an empty list
    /// removes them).
    fn set_field(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError>;

    /// The message, list or map held by `field`, to change in place; a
    /// message field that was not set is set to an empty message first.
    /// Scalar fields have no place to change: use
    /// [`ReflectMessage::set_field`].
    fn field_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError>;

    /// Clears `field`: it is no longer set.
    fn clear_field(&mut self, field: &FieldDescriptor);

    /// The fields the message read but whose numbers its descriptor (and,
    /// for a dynamic message, the pool's extensions) does not know.
    fn unknown_fields(&self) -> &UnknownFields;

    /// The unknown fields, to change; `None` for a generated message that
    /// keeps none (generated with `UnknownFieldsRepr::Discard`: decoding
    /// skips them, and [`ReflectMessage::unknown_fields`] is always empty).
    fn unknown_fields_mut(&mut self) -> Option<&mut UnknownFields>;

    /// Resets every field, unknown fields included.
    fn clear(&mut self);

    /// Merges the binary encoding of a message of this type.
    fn merge_binary(&mut self, bytes: &[u8], options: &DecodeOptions) -> Result<(), DecodeError>;

    /// Appends the message's binary encoding to `out`.
    fn encode_binary(&self, out: &mut Vec<u8>);

    /// A new, empty message of the same type.
    fn new_instance(&self) -> Box<dyn ReflectMessage>;

    /// The message as [`Any`], to downcast to its concrete type.
    fn as_any(&self) -> &dyn Any;

    /// The fields that are set, in field number order, extensions
    /// included (except those a generated message keeps encoded).
    fn set_fields(&self) -> Vec<(FieldDescriptor, ValueRef<'_>)> {
        let descriptor = self.descriptor();
        let mut fields: Vec<FieldDescriptor> = descriptor.fields().collect();
        fields.extend(descriptor.pool().extensions_of(&descriptor));
        fields.sort_by_key(FieldDescriptor::number);
        fields
            .into_iter()
            .filter_map(|field| {
                let value = self.field(&field)?;
                Some((field, value))
            })
            .collect()
    }
}

/// A message, list or map held by a field, to change in place. Lists and
/// maps come boxed: the handle pairs the container with what its elements
/// must be.
pub enum ValueMut<'a> {
    /// A message (or group) field.
    Message(&'a mut dyn ReflectMessage),
    /// A repeated field.
    List(Box<dyn ReflectListMut + 'a>),
    /// A map field.
    Map(Box<dyn ReflectMapMut + 'a>),
}

/// The elements of a repeated field, read.
pub trait ReflectList: Send + Sync {
    /// The number of elements.
    fn len(&self) -> usize;

    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, or `None` past the end.
    fn get(&self, index: usize) -> Option<ValueRef<'_>>;
}

/// The elements of a repeated field, to change.
pub trait ReflectListMut: ReflectList {
    /// Appends `value`, which must be of the field's kind.
    fn push(&mut self, value: Value) -> Result<(), ReflectError>;

    /// Appends an empty message to a list of messages and returns it.
    fn push_message(&mut self) -> Result<&mut dyn ReflectMessage, ReflectError>;

    /// Removes every element.
    fn clear(&mut self);
}

/// The entries of a map field, read.
pub trait ReflectMap: Send + Sync {
    /// The number of entries.
    fn len(&self) -> usize;

    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value under `key`.
    fn get(&self, key: MapKeyRef<'_>) -> Option<ValueRef<'_>>;

    /// Every entry, in an unspecified order (key order for a dynamic
    /// message).
    fn entries(&self) -> Box<dyn Iterator<Item = (MapKeyRef<'_>, ValueRef<'_>)> + '_>;
}

/// The entries of a map field, to change.
pub trait ReflectMapMut: ReflectMap {
    /// Inserts `value` under `key`, replacing the entry there.
    fn insert(&mut self, key: MapKey, value: Value) -> Result<(), ReflectError>;

    /// The message under `key` in a map of messages, inserted empty if
    /// absent.
    fn entry_message(&mut self, key: MapKey) -> Result<&mut dyn ReflectMessage, ReflectError>;

    /// Removes every entry.
    fn clear(&mut self);
}

/// Changing a message through reflection failed: the field is not one of
/// the message's, or the value does not fit it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectError {
    message: String,
}

impl ReflectError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> ReflectError {
        ReflectError {
            message: message.into(),
        }
    }

    /// `field` is not a field (or extension) of `message`.
    pub(crate) fn not_a_field(message: &MessageDescriptor, field: &FieldDescriptor) -> Self {
        ReflectError::new(format!(
            "{} is not a field of {}",
            field.full_name(),
            message.full_name()
        ))
    }

    /// `value` cannot be stored in `field`.
    pub(crate) fn wrong_type(field: &FieldDescriptor, value: &Value) -> Self {
        let shape = if field.is_map() {
            "a map".to_owned()
        } else if field.is_list() {
            format!("a list of {:?}", field.kind())
        } else {
            format!("{:?}", field.kind())
        };
        ReflectError::new(format!(
            "field {} holds {shape}, not {}",
            field.full_name(),
            value_shape(value)
        ))
    }
}

/// A short name of a value's type, for errors.
fn value_shape(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "a bool",
        Value::I32(_) => "an i32",
        Value::I64(_) => "an i64",
        Value::U32(_) => "a u32",
        Value::U64(_) => "a u64",
        Value::F32(_) => "an f32",
        Value::F64(_) => "an f64",
        Value::String(_) => "a string",
        Value::Bytes(_) => "bytes",
        Value::EnumNumber(_) => "an enum number",
        Value::Message(_) => "a message",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
    }
}

impl fmt::Display for ReflectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReflectError {}
