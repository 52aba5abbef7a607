//! [`ReflectMessage`] for generated messages.
//!
//! With reflection switched on (`buffa_build::Config::reflection`), code
//! generation implements the hidden [`GeneratedMessage`] for every message:
//! its descriptor, found by name in the descriptor pool embedded in the
//! generated code, and its struct fields by field number, each as a
//! `&dyn` [`ReflectField`]. Everything else is written once, here:
//! `ReflectMessage` for every `GeneratedMessage`, and `ReflectField` for
//! each shape a struct field can have, over [`ReflectElement`], the Rust
//! types a value can have. Generated code stays one line per field.
//!
//! A field descriptor names a field of the message when its containing
//! message has the message's full name, so descriptors of another pool of
//! the same schema work too. Extensions of generated messages are kept
//! encoded among their unknown fields, where reflection reads and writes
//! them through [`extensions`].

mod containers;
mod element;
pub(crate) mod extensions;
mod field;

use std::any::Any;
use std::fmt;

use buffa::{DecodeError, DecodeOptions, Message, UnknownFields};

pub use element::{ReflectElement, closed_enum_from_value, closed_enum_ref, from_value, value_ref};
pub use field::{OptionValue, ReflectField};

use crate::reflect::{ReflectError, ReflectMessage, ValueMut};
use crate::value::{Value, ValueRef};
use crate::{DescriptorPool, FieldDescriptor, MessageDescriptor};

/// A generated message, as its generated code describes it to reflection.
/// [`ReflectMessage`] comes with it.
pub trait GeneratedMessage: Message + Default + fmt::Debug + Send + Sync + 'static {
    /// The message's descriptor, in the pool of the code it was generated
    /// with.
    fn message_descriptor() -> MessageDescriptor;

    /// The struct field holding field `number` (the oneof, for a member of
    /// one), or `None` when the message has no such field.
    fn reflect_field(&self, number: u32) -> Option<&dyn ReflectField>;

    /// [`GeneratedMessage::reflect_field`], to change.
    fn reflect_field_mut(&mut self, number: u32) -> Option<&mut dyn ReflectField>;

    /// The unknown fields, to change; `None` (the default) for a message
    /// generated with `UnknownFieldsRepr::Discard`, which keeps none.
    fn unknown_fields_mut(&mut self) -> Option<&mut UnknownFields> {
        None
    }
}

/// The pool embedded in generated code, decoded.
///
/// # Panics
///
/// If the bytes are not a valid descriptor set: they are what protoc
/// produced for the generated code, so that is a bug.
pub fn decode_pool(file_descriptor_set: &[u8]) -> DescriptorPool {
    DescriptorPool::decode(file_descriptor_set).unwrap_or_else(|error| {
        panic!("the descriptor set embedded in generated code does not decode ({error}); this is a bug in buffa")
    })
}

/// The descriptor of message `full_name` in the pool of generated code.
///
/// # Panics
///
/// If the pool does not have it: generated code and its pool come from
/// the same descriptors, so that is a bug.
pub fn message_descriptor(pool: &DescriptorPool, full_name: &str) -> MessageDescriptor {
    pool.get_message_by_name(full_name).unwrap_or_else(|| {
        panic!("message {full_name} is not in the descriptor pool of its generated code; this is a bug in buffa")
    })
}

// The blanket impl below is instantiated for every generated message, so
// its methods stay thin: the work is in functions over `&dyn`, compiled
// once (for the benchmark schemas, 17% less LLVM IR in a dev build than
// with generic helpers).

/// Whether `field` is a field (or an extension) of the message `name`.
fn owns(name: &str, field: &FieldDescriptor) -> bool {
    field.containing_message().full_name() == name
}

/// The value `slot`, the struct field of message `name` numbered like
/// `field`, holds for `field`.
fn get<'m>(
    name: &str,
    field: &FieldDescriptor,
    slot: Option<&'m dyn ReflectField>,
) -> Option<ValueRef<'m>> {
    if !owns(name, field) {
        return None;
    }
    slot?.get(field)
}

/// `slot`, the struct field of message `name` numbered like `field`, when
/// it holds `field`; or why `field` cannot be changed.
fn slot_mut<'m>(
    name: &str,
    descriptor: fn() -> MessageDescriptor,
    field: &FieldDescriptor,
    slot: Option<&'m mut dyn ReflectField>,
) -> Result<&'m mut dyn ReflectField, ReflectError> {
    if !owns(name, field) {
        return Err(ReflectError::not_a_field(&descriptor(), field));
    }
    if field.is_extension() {
        return Err(ReflectError::new(format!(
            "extension {} of generated message {name} is kept encoded among its unknown \
             fields: read it with field_owned() and write it whole with set_field()",
            field.full_name(),
        )));
    }
    slot.ok_or_else(|| ReflectError::not_a_field(&descriptor(), field))
}

/// Whether `field` is an extension of the message `name`, which keeps it
/// among its unknown fields. Such a message has extension ranges, so it
/// keeps unknown fields under every codegen rule.
fn kept_extension(name: &str, field: &FieldDescriptor) -> bool {
    field.is_extension() && owns(name, field)
}

/// [`ReflectMessage::set_fields`] of a generated message: its fields in
/// number order (extensions stay among the unknown fields).
fn set_fields(message: &dyn ReflectMessage) -> Vec<(FieldDescriptor, ValueRef<'_>)> {
    let mut fields: Vec<FieldDescriptor> = message.descriptor().fields().collect();
    fields.sort_by_key(FieldDescriptor::number);
    fields
        .into_iter()
        .filter_map(|field| {
            let value = message.field(&field)?;
            Some((field, value))
        })
        .collect()
}

impl<M: GeneratedMessage> ReflectMessage for M {
    fn descriptor(&self) -> MessageDescriptor {
        M::message_descriptor()
    }

    /// `None` for an extension, which the message keeps encoded.
    fn field(&self, field: &FieldDescriptor) -> Option<ValueRef<'_>> {
        get(M::NAME, field, self.reflect_field(field.number()))
    }

    fn has_field(&self, field: &FieldDescriptor) -> bool {
        if kept_extension(M::NAME, field) {
            return extensions::has(Message::unknown_fields(self), field);
        }
        self.field(field).is_some()
    }

    fn field_owned(&self, field: &FieldDescriptor) -> Option<Value> {
        if kept_extension(M::NAME, field) {
            return extensions::get(Message::unknown_fields(self), field);
        }
        Some(self.field(field)?.to_value(field))
    }

    /// A [`Value::Message`] for a field of a generated message type is
    /// converted by a binary round trip: the dynamic message is encoded and
    /// decoded as that type.
    fn set_field(&mut self, field: &FieldDescriptor, value: Value) -> Result<(), ReflectError> {
        if kept_extension(M::NAME, field) {
            let Some(unknown) = GeneratedMessage::unknown_fields_mut(self) else {
                return Err(ReflectError::new(format!(
                    "{} keeps no unknown fields, where its extension {} would be kept",
                    M::NAME,
                    field.full_name()
                )));
            };
            return extensions::set(unknown, field, value);
        }
        let slot = self.reflect_field_mut(field.number());
        slot_mut(M::NAME, M::message_descriptor, field, slot)?.set(field, value)
    }

    /// A message field holds the generated sub-message itself.
    fn field_mut(&mut self, field: &FieldDescriptor) -> Result<ValueMut<'_>, ReflectError> {
        let slot = self.reflect_field_mut(field.number());
        slot_mut(M::NAME, M::message_descriptor, field, slot)?.get_mut(field)
    }

    fn clear_field(&mut self, field: &FieldDescriptor) {
        if kept_extension(M::NAME, field) {
            if let Some(unknown) = GeneratedMessage::unknown_fields_mut(self) {
                extensions::clear(unknown, field);
            }
            return;
        }
        let slot = self.reflect_field_mut(field.number());
        if let Ok(slot) = slot_mut(M::NAME, M::message_descriptor, field, slot) {
            slot.clear(field);
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        Message::unknown_fields(self)
    }

    fn unknown_fields_mut(&mut self) -> Option<&mut UnknownFields> {
        GeneratedMessage::unknown_fields_mut(self)
    }

    fn clear(&mut self) {
        Message::clear(self);
    }

    fn merge_binary(&mut self, bytes: &[u8], options: &DecodeOptions) -> Result<(), DecodeError> {
        self.merge_with_options(bytes, options)
    }

    /// # Panics
    ///
    /// As `Message::encode_to_vec`, if the message is beyond the default
    /// encode limits.
    fn encode_binary(&self, out: &mut Vec<u8>) {
        self.encode(out).unwrap_or_else(|error| panic!("{error}"));
    }

    fn new_instance(&self) -> Box<dyn ReflectMessage> {
        Box::new(M::default())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn set_fields(&self) -> Vec<(FieldDescriptor, ValueRef<'_>)> {
        set_fields(self)
    }
}
