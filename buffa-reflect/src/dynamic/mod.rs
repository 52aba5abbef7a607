//! [`DynamicMessage`]: a message whose type is a descriptor known only at
//! run time.

mod decode;
mod encode;
mod reflect_impl;

use std::collections::BTreeMap;
use std::fmt;

use buffa::{DecodeError, DecodeOptions, EncodeError, EncodeOptions, UnknownFields};

use crate::reflect::ReflectError;
use crate::value::{Value, ValueRef};
use crate::{FieldDescriptor, MessageDescriptor};

/// A message of a type known only at run time, from its
/// [`MessageDescriptor`].
///
/// It holds the fields that are set, by number, as [`Value`]s, extensions
/// of its type that the descriptor's pool declares among them, and the
/// fields it read but does not know as [`UnknownFields`], kept byte for
/// byte. It decodes and encodes the binary format as a message generated
/// from the same schema does: the same fields kept, the same errors, and
/// the same bytes written for the same data, fields in number order, then
/// extensions in number order, then unknown fields. (Two orders can
/// differ: generated code writes extensions where it read them among the
/// unknown fields, and map entries in `HashMap` order unless asked for
/// deterministic output; a dynamic message writes map entries in key
/// order.)
///
/// It implements [`ReflectMessage`](crate::ReflectMessage), through which
/// the text format, and any tool written over reflection, reads and builds
/// it.
///
/// ```
/// # fn pool() -> buffa_reflect::DescriptorPool { unimplemented!() }
/// # fn example() -> Result<(), Box<dyn std::error::Error>> {
/// use buffa_reflect::{DynamicMessage, ReflectMessage, Value};
///
/// let pool = pool(); // e.g. DescriptorPool::decode(include_bytes!(...))
/// let descriptor = pool.get_message_by_name("shop.Order").unwrap();
/// let mut order = DynamicMessage::new(descriptor.clone());
/// let id = descriptor.get_field_by_name("id").unwrap();
/// order.set_field(&id, Value::I64(7))?;
/// let bytes = order.encode_to_vec();
/// assert_eq!(DynamicMessage::decode(descriptor, &bytes)?, order);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct DynamicMessage {
    descriptor: MessageDescriptor,
    /// The set fields and extensions, by number. Only valid values are
    /// stored: a list for a repeated field, a map for a map field, a value
    /// of the field's kind otherwise.
    fields: BTreeMap<u32, Value>,
    unknown: UnknownFields,
}

impl DynamicMessage {
    /// An empty message of type `descriptor`: no field set.
    pub fn new(descriptor: MessageDescriptor) -> DynamicMessage {
        DynamicMessage {
            descriptor,
            fields: BTreeMap::new(),
            unknown: UnknownFields::default(),
        }
    }

    /// Decodes a message of type `descriptor` from its binary encoding,
    /// under the default [`DecodeOptions`].
    pub fn decode(descriptor: MessageDescriptor, bytes: &[u8]) -> Result<Self, DecodeError> {
        Self::decode_with_options(descriptor, bytes, &DecodeOptions::new())
    }

    /// Decodes a message of type `descriptor` under `options` (recursion
    /// and allocation limits).
    pub fn decode_with_options(
        descriptor: MessageDescriptor,
        bytes: &[u8],
        options: &DecodeOptions,
    ) -> Result<Self, DecodeError> {
        let mut message = DynamicMessage::new(descriptor);
        message.merge_with_options(bytes, options)?;
        Ok(message)
    }

    /// Merges the binary encoding of a message of this type into this one,
    /// as protobuf merges: singular fields are replaced (messages merged),
    /// repeated fields appended, map entries inserted.
    pub fn merge(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        self.merge_with_options(bytes, &DecodeOptions::new())
    }

    /// [`DynamicMessage::merge`] under `options`.
    pub fn merge_with_options(
        &mut self,
        bytes: &[u8],
        options: &DecodeOptions,
    ) -> Result<(), DecodeError> {
        decode::merge(self, bytes, options)
    }

    /// The binary encoding.
    ///
    /// # Panics
    ///
    /// Panics if the message is beyond the default [`EncodeOptions`]
    /// limits, as generated messages' `encode_to_vec` does; use
    /// [`DynamicMessage::encode_to_vec_with_options`] to get the error.
    pub fn encode_to_vec(&self) -> Vec<u8> {
        self.encode_to_vec_with_options(&EncodeOptions::new())
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// The binary encoding, or an [`EncodeError`] if the message is nested
    /// deeper than `options` allow or longer than a message may be.
    pub fn encode_to_vec_with_options(
        &self,
        options: &EncodeOptions,
    ) -> Result<Vec<u8>, EncodeError> {
        encode::encode(self, options)
    }

    /// The length of the binary encoding, in bytes.
    pub fn encoded_len(&self) -> usize {
        encode::encoded_len(self)
    }

    /// The message's type.
    pub fn descriptor(&self) -> MessageDescriptor {
        self.descriptor.clone()
    }

    /// The value of the field or extension `number`, if set.
    pub fn field_by_number(&self, number: u32) -> Option<&Value> {
        let field = self.field_descriptor(number)?;
        self.visible(&field)?;
        self.fields.get(&number)
    }

    /// The value of the field `name`, if the message has such a field and
    /// it is set.
    pub fn field_by_name(&self, name: &str) -> Option<&Value> {
        let field = self.descriptor.get_field_by_name(name)?;
        self.field_by_number(field.number())
    }

    /// Sets the field `name` to `value`; see
    /// [`ReflectMessage::set_field`](crate::ReflectMessage::set_field).
    pub fn set_field_by_name(&mut self, name: &str, value: Value) -> Result<(), ReflectError> {
        let field = self.descriptor.get_field_by_name(name).ok_or_else(|| {
            ReflectError::new(format!(
                "{} has no field named {name}",
                self.descriptor.full_name()
            ))
        })?;
        crate::ReflectMessage::set_field(self, &field, value)
    }

    /// The unknown fields.
    pub fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown
    }

    /// The descriptor of field or extension `number` of this message.
    fn field_descriptor(&self, number: u32) -> Option<FieldDescriptor> {
        self.descriptor.get_field(number).or_else(|| {
            self.descriptor
                .pool()
                .get_extension_by_number(&self.descriptor, number)
        })
    }

    /// Stores `value` in `field`, or removes the field when the value does
    /// not count as set (a field without presence at its default, an
    /// empty list or map), so that only set fields are stored.
    fn store(&mut self, field: &FieldDescriptor, value: Value) {
        if !field.has_presence() && is_empty_or_default(&value) {
            self.fields.remove(&field.number());
        } else {
            self.fields.insert(field.number(), value);
        }
    }

    /// The set fields and extensions with their values, in number order.
    fn set_entries(&self) -> impl Iterator<Item = (FieldDescriptor, &Value)> {
        self.fields.iter().filter_map(|(&number, value)| {
            let field = self.field_descriptor(number)?;
            self.visible(&field)?;
            Some((field, value))
        })
    }

    /// Whether `field` is a field or an extension of this message's type.
    fn owns(&self, field: &FieldDescriptor) -> bool {
        field.containing_message() == self.descriptor
    }

    /// The stored value of `field` as seen by a reader: `None` for a value
    /// that does not count as set (an implicit-presence scalar at its
    /// default, an empty list or map).
    fn visible(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        let value = self.fields.get(&field.number())?;
        if !field.has_presence() && is_empty_or_default(value) {
            return None;
        }
        Some(value.as_ref())
    }
}

/// Whether a value of a field without presence is its default: such a
/// field is not written, and not set.
fn is_empty_or_default(value: &Value) -> bool {
    match value {
        Value::Bool(v) => !v,
        Value::I32(v) | Value::EnumNumber(v) => *v == 0,
        Value::I64(v) => *v == 0,
        Value::U32(v) => *v == 0,
        Value::U64(v) => *v == 0,
        // -0.0 is written: only +0.0 is the default.
        Value::F32(v) => v.to_bits() == 0,
        Value::F64(v) => v.to_bits() == 0,
        Value::String(v) => v.is_empty(),
        Value::Bytes(v) => v.is_empty(),
        Value::List(v) => v.is_empty(),
        Value::Map(v) => v.is_empty(),
        Value::Message(_) => false,
    }
}

/// Messages are equal when they have the same type, the same set fields
/// with equal values, and the same unknown fields. (A list or map left
/// empty by [`ReflectMessage::field_mut`](crate::ReflectMessage::field_mut)
/// is not set.)
impl PartialEq for DynamicMessage {
    fn eq(&self, other: &DynamicMessage) -> bool {
        self.descriptor == other.descriptor
            && self.unknown == other.unknown
            && self
                .set_entries()
                .map(|(field, value)| (field.number(), value))
                .eq(other
                    .set_entries()
                    .map(|(field, value)| (field.number(), value)))
    }
}

impl fmt::Debug for DynamicMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct(self.descriptor.full_name());
        for (field, value) in self.set_entries() {
            out.field(field.name(), value);
        }
        if !self.unknown.is_empty() {
            out.field("unknown_fields", &self.unknown);
        }
        out.finish()
    }
}
