//! [`MessageDescriptor`]: a message type.

use std::ops::Range;

use buffa_types::google::protobuf::{DescriptorProto, MessageOptions};

use crate::inner::{MessageInner, short_name};
use crate::rules::ResolvedFeatures;
use crate::{
    Comments, DescriptorPool, EnumDescriptor, FieldDescriptor, FileDescriptor, OneofDescriptor,
    handle_traits,
};

/// A message type in a [`DescriptorPool`] (map entries and groups'
/// message types included).
#[derive(Clone)]
pub struct MessageDescriptor {
    pub(crate) pool: DescriptorPool,
    pub(crate) index: u32,
}

handle_traits!(MessageDescriptor, full_name);

impl MessageDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> MessageDescriptor {
        MessageDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &MessageInner {
        self.pool.inner.message(self.index)
    }

    /// The pool this message is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The message's name, e.g. `"Inner"`.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name, e.g. `"pkg.Outer.Inner"` (no leading dot).
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The package of the file declaring the message.
    pub fn package_name(&self) -> &str {
        self.pool.inner.file(self.inner().file).proto.package()
    }

    /// The file declaring the message.
    pub fn parent_file(&self) -> FileDescriptor {
        FileDescriptor::new(&self.pool, self.inner().file)
    }

    /// The message this one is nested in, if any.
    pub fn parent_message(&self) -> Option<MessageDescriptor> {
        self.inner()
            .parent
            .map(|i| MessageDescriptor::new(&self.pool, i))
    }

    /// The fields in declaration order (extensions are not fields of the
    /// message they extend: see [`DescriptorPool::extensions_of`]).
    pub fn fields(&self) -> impl ExactSizeIterator<Item = FieldDescriptor> + '_ {
        self.inner()
            .fields
            .clone()
            .map(|i| FieldDescriptor::new(&self.pool, i))
    }

    /// The field numbered `number`.
    pub fn get_field(&self, number: u32) -> Option<FieldDescriptor> {
        let fields = &self.pool.inner.fields;
        let by_number = &self.inner().fields_by_number;
        let i = by_number
            .binary_search_by_key(&number, |&f| fields[f as usize].number)
            .ok()?;
        Some(FieldDescriptor::new(&self.pool, by_number[i]))
    }

    /// The field named `name` (its name in the `.proto` file).
    pub fn get_field_by_name(&self, name: &str) -> Option<FieldDescriptor> {
        let fields = &self.pool.inner.fields;
        let by_name = &self.inner().fields_by_name;
        let i = by_name
            .binary_search_by(|&f| short_name(&fields[f as usize].full_name).cmp(name))
            .ok()?;
        Some(FieldDescriptor::new(&self.pool, by_name[i]))
    }

    /// The field whose JSON name is `json_name`.
    pub fn get_field_by_json_name(&self, json_name: &str) -> Option<FieldDescriptor> {
        let fields = &self.pool.inner.fields;
        let by_json_name = &self.inner().fields_by_json_name;
        let i = by_json_name
            .binary_search_by(|&f| (*fields[f as usize].json_name).cmp(json_name))
            .ok()?;
        Some(FieldDescriptor::new(&self.pool, by_json_name[i]))
    }

    /// The oneofs in declaration order, synthetic ones (of proto3
    /// `optional` fields) included.
    pub fn oneofs(&self) -> impl ExactSizeIterator<Item = OneofDescriptor> + '_ {
        self.inner()
            .oneofs
            .clone()
            .map(|i| OneofDescriptor::new(&self.pool, i))
    }

    /// The messages nested in this one, in declaration order (map entries
    /// included).
    pub fn child_messages(&self) -> impl ExactSizeIterator<Item = MessageDescriptor> + '_ {
        self.inner()
            .messages
            .clone()
            .map(|i| MessageDescriptor::new(&self.pool, i))
    }

    /// The enums nested in this message, in declaration order.
    pub fn child_enums(&self) -> impl ExactSizeIterator<Item = EnumDescriptor> + '_ {
        self.inner()
            .enums
            .clone()
            .map(|i| EnumDescriptor::new(&self.pool, i))
    }

    /// The extensions declared inside this message (`extend` blocks in its
    /// body), whichever message they extend.
    pub fn child_extensions(&self) -> impl ExactSizeIterator<Item = FieldDescriptor> + '_ {
        self.inner()
            .extensions
            .clone()
            .map(|i| FieldDescriptor::new(&self.pool, i))
    }

    /// The field numbers reserved for extensions, sorted, each range's end
    /// exclusive.
    pub fn extension_ranges(&self) -> impl ExactSizeIterator<Item = Range<u32>> + '_ {
        self.inner().extension_ranges.iter().cloned()
    }

    /// Whether `number` is in one of the extension ranges.
    pub fn is_extension_number(&self, number: u32) -> bool {
        crate::validate::in_sorted_ranges(&self.inner().extension_ranges, number)
    }

    /// The field numbers the message reserves, sorted, each range's end
    /// exclusive.
    pub fn reserved_ranges(&self) -> impl Iterator<Item = Range<u32>> + '_ {
        self.descriptor_proto()
            .reserved_range
            .iter()
            .map(|r| r.start() as u32..r.end() as u32)
    }

    /// The field names the message reserves.
    pub fn reserved_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.descriptor_proto()
            .reserved_name
            .iter()
            .map(String::as_str)
    }

    /// Whether this is the entry type of a map field (`map_entry` option):
    /// a key field numbered 1 and a value field numbered 2.
    pub fn is_map_entry(&self) -> bool {
        self.inner().is_map_entry
    }

    /// The key field (number 1) of a map entry.
    ///
    /// # Panics
    ///
    /// If the message is not a map entry and has no field 1. The pool
    /// checked that map entries have both fields, so this never panics
    /// when [`MessageDescriptor::is_map_entry`] holds.
    pub fn map_entry_key_field(&self) -> FieldDescriptor {
        self.get_field(1)
            .unwrap_or_else(|| panic!("{} is not a map entry", self.full_name()))
    }

    /// The value field (number 2) of a map entry.
    ///
    /// # Panics
    ///
    /// As [`MessageDescriptor::map_entry_key_field`], for field 2.
    pub fn map_entry_value_field(&self) -> FieldDescriptor {
        self.get_field(2)
            .unwrap_or_else(|| panic!("{} is not a map entry", self.full_name()))
    }

    /// The edition features in force for the message's fields, before a
    /// field's own `features` and its proto2/proto3 syntax apply: its
    /// file's edition defaults merged with the `features` its file and
    /// enclosing messages declare, then its own.
    pub fn features(&self) -> ResolvedFeatures {
        self.inner().features
    }

    /// The message's options.
    pub fn options(&self) -> &MessageOptions {
        &self.descriptor_proto().options
    }

    /// The message as declared in its file's `FileDescriptorProto`.
    pub fn descriptor_proto(&self) -> &DescriptorProto {
        self.pool.inner.message_proto(self.index)
    }

    /// The comments around the message's declaration.
    pub fn comments(&self) -> Comments {
        let path = self.pool.inner.message_path(self.index);
        self.pool.inner.comments(self.inner().file, &path)
    }
}
