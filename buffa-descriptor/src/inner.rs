//! The pool's tables: one flat `Vec` per element kind, addressed by `u32`
//! indices that the handles carry.
//!
//! Siblings are stored next to each other (a message's fields, its nested
//! messages, a file's top-level enums, ...), so that every "children" list
//! is a `Range` and iterating it allocates nothing. The `.proto` text of
//! each file stays in its `FileDescriptorProto`; an element's proto and
//! source path are found again by walking from the file through the
//! element's parents.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
};

use crate::comments::LocationIndex;
use crate::rules::DefaultValue;
use crate::rules::ResolvedFeatures;
use crate::{Cardinality, Syntax};

/// Everything a [`DescriptorPool`](crate::DescriptorPool) holds.
#[derive(Clone, Default)]
pub(crate) struct PoolInner {
    pub files: Vec<FileInner>,
    pub messages: Vec<MessageInner>,
    pub fields: Vec<FieldInner>,
    pub oneofs: Vec<OneofInner>,
    pub enums: Vec<EnumInner>,
    pub enum_values: Vec<EnumValueInner>,
    pub services: Vec<ServiceInner>,
    pub methods: Vec<MethodInner>,
    /// The indices (into `fields`) of every extension, in the order added.
    pub extensions: Vec<u32>,
    /// Every full name (without a leading dot) and what it names.
    pub symbols: HashMap<Box<str>, Symbol>,
    pub file_names: HashMap<Box<str>, u32>,
    /// Extensions by (extendee message, field number).
    pub extensions_by_number: BTreeMap<(u32, u32), u32>,
}

/// What a full name names. Packages carry the file that first declared
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    Package(u32),
    Message(u32),
    Enum(u32),
    EnumValue(u32),
    Field(u32),
    Oneof(u32),
    Service(u32),
    Method(u32),
}

#[derive(Clone)]
pub(crate) struct FileInner {
    pub proto: Arc<FileDescriptorProto>,
    pub syntax: Syntax,
    pub dependencies: Box<[u32]>,
    pub public_dependencies: Box<[u32]>,
    pub messages: Range<u32>,
    pub enums: Range<u32>,
    pub services: Range<u32>,
    /// Top-level extensions, in `PoolInner::fields`.
    pub extensions: Range<u32>,
    pub locations: LocationIndex,
}

#[derive(Clone)]
pub(crate) struct MessageInner {
    pub full_name: Box<str>,
    pub file: u32,
    pub parent: Option<u32>,
    /// Position in the parent's `nested_type` (or the file's
    /// `message_type`).
    pub index: u32,
    pub features: ResolvedFeatures,
    pub fields: Range<u32>,
    /// `fields` sorted by number, by name and by JSON name.
    pub fields_by_number: Box<[u32]>,
    pub fields_by_name: Box<[u32]>,
    pub fields_by_json_name: Box<[u32]>,
    pub oneofs: Range<u32>,
    pub messages: Range<u32>,
    pub enums: Range<u32>,
    /// Extensions declared inside this message, in `PoolInner::fields`.
    pub extensions: Range<u32>,
    /// Sorted, end exclusive.
    pub extension_ranges: Box<[Range<u32>]>,
    pub is_map_entry: bool,
}

/// A field's type, with message and enum types as pool indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KindIndex {
    Double,
    Float,
    Int64,
    Uint64,
    Int32,
    Fixed64,
    Fixed32,
    Bool,
    String,
    Bytes,
    Uint32,
    Sfixed32,
    Sfixed64,
    Sint32,
    Sint64,
    Message(u32),
    Enum(u32),
}

#[derive(Clone)]
pub(crate) struct FieldInner {
    pub full_name: Box<str>,
    pub json_name: Box<str>,
    /// Whether another field of the message has `json_name` as its JSON or
    /// .proto name (set by the message's indexing; never for extensions).
    pub json_name_shared: bool,
    pub number: u32,
    pub file: u32,
    /// The message the field belongs to; for an extension, the extendee.
    pub message: u32,
    /// Where an extension is declared: `None` at the top level of its file.
    /// For a field, its message.
    pub scope: Option<u32>,
    pub is_extension: bool,
    /// Position in the declaring proto's `field` (or `extension`) list.
    pub index: u32,
    pub cardinality: Cardinality,
    pub kind: KindIndex,
    pub oneof: Option<u32>,
    pub features: ResolvedFeatures,
    pub default: DefaultValue,
}

#[derive(Clone)]
pub(crate) struct OneofInner {
    pub full_name: Box<str>,
    pub message: u32,
    pub index: u32,
    pub fields: Box<[u32]>,
    pub is_synthetic: bool,
}

#[derive(Clone)]
pub(crate) struct EnumInner {
    pub full_name: Box<str>,
    pub file: u32,
    pub parent: Option<u32>,
    pub index: u32,
    pub values: Range<u32>,
    /// `values` sorted by number, declaration order among aliases.
    pub values_by_number: Box<[u32]>,
    /// `values` sorted by name.
    pub values_by_name: Box<[u32]>,
    pub is_closed: bool,
}

#[derive(Clone)]
pub(crate) struct EnumValueInner {
    pub full_name: Box<str>,
    pub number: i32,
    pub parent: u32,
    pub index: u32,
}

#[derive(Clone)]
pub(crate) struct ServiceInner {
    pub full_name: Box<str>,
    pub file: u32,
    pub index: u32,
    pub methods: Range<u32>,
}

#[derive(Clone)]
pub(crate) struct MethodInner {
    pub full_name: Box<str>,
    pub service: u32,
    pub index: u32,
    pub input: u32,
    pub output: u32,
}

/// The last component of a full name.
pub(crate) fn short_name(full_name: &str) -> &str {
    full_name.rsplit('.').next().unwrap_or(full_name)
}

/// The lengths of every table, to undo a failed addition.
#[derive(Clone, Copy)]
pub(crate) struct Checkpoint {
    files: usize,
    messages: usize,
    fields: usize,
    oneofs: usize,
    enums: usize,
    enum_values: usize,
    services: usize,
    methods: usize,
    extensions: usize,
    symbols: usize,
    file_names: usize,
    extensions_by_number: usize,
}

impl PoolInner {
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            files: self.files.len(),
            messages: self.messages.len(),
            fields: self.fields.len(),
            oneofs: self.oneofs.len(),
            enums: self.enums.len(),
            enum_values: self.enum_values.len(),
            services: self.services.len(),
            methods: self.methods.len(),
            extensions: self.extensions.len(),
            symbols: self.symbols.len(),
            file_names: self.file_names.len(),
            extensions_by_number: self.extensions_by_number.len(),
        }
    }

    /// Forgets everything added since `checkpoint`.
    ///
    /// The names and numbers added are removed one by one, so that undoing
    /// a file costs what adding it did; a full scan of the tables follows
    /// only if that left any behind.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        let c = checkpoint;
        let older = |index: u32, len: usize| (index as usize) < len;
        let is_older = |symbol: &Symbol| match *symbol {
            Symbol::Package(file) => older(file, c.files),
            Symbol::Message(i) => older(i, c.messages),
            Symbol::Enum(i) => older(i, c.enums),
            Symbol::EnumValue(i) => older(i, c.enum_values),
            Symbol::Field(i) => older(i, c.fields),
            Symbol::Oneof(i) => older(i, c.oneofs),
            Symbol::Service(i) => older(i, c.services),
            Symbol::Method(i) => older(i, c.methods),
        };
        let mut names: Vec<&str> = Vec::new();
        names.extend(
            self.messages[c.messages.min(self.messages.len())..]
                .iter()
                .map(|m| &*m.full_name),
        );
        names.extend(
            self.fields[c.fields.min(self.fields.len())..]
                .iter()
                .map(|f| &*f.full_name),
        );
        names.extend(
            self.oneofs[c.oneofs.min(self.oneofs.len())..]
                .iter()
                .map(|o| &*o.full_name),
        );
        names.extend(
            self.enums[c.enums.min(self.enums.len())..]
                .iter()
                .map(|e| &*e.full_name),
        );
        names.extend(
            self.enum_values[c.enum_values.min(self.enum_values.len())..]
                .iter()
                .map(|v| &*v.full_name),
        );
        names.extend(
            self.services[c.services.min(self.services.len())..]
                .iter()
                .map(|s| &*s.full_name),
        );
        names.extend(
            self.methods[c.methods.min(self.methods.len())..]
                .iter()
                .map(|m| &*m.full_name),
        );
        let new_files = &self.files[c.files.min(self.files.len())..];
        for file in new_files {
            let package = file.proto.package();
            let mut end = package.len();
            while end > 0 {
                names.push(&package[..end]);
                end = package[..end].rfind('.').unwrap_or(0);
            }
        }
        for name in names {
            if self.symbols.get(name).is_some_and(|s| !is_older(s)) {
                self.symbols.remove(name);
            }
        }
        if self.symbols.len() != c.symbols {
            self.symbols.retain(|_, symbol| is_older(symbol));
        }
        for file in new_files {
            let name = file.proto.name();
            if self
                .file_names
                .get(name)
                .is_some_and(|&f| !older(f, c.files))
            {
                self.file_names.remove(name);
            }
        }
        if self.file_names.len() != c.file_names {
            self.file_names.retain(|_, file| older(*file, c.files));
        }
        for (offset, field) in self.fields[c.fields.min(self.fields.len())..]
            .iter()
            .enumerate()
        {
            let index = (c.fields + offset) as u32;
            let key = (field.message, field.number);
            if field.is_extension && self.extensions_by_number.get(&key) == Some(&index) {
                self.extensions_by_number.remove(&key);
            }
        }
        if self.extensions_by_number.len() != c.extensions_by_number {
            self.extensions_by_number
                .retain(|_, field| older(*field, c.fields));
        }
        self.files.truncate(c.files);
        self.messages.truncate(c.messages);
        self.fields.truncate(c.fields);
        self.oneofs.truncate(c.oneofs);
        self.enums.truncate(c.enums);
        self.enum_values.truncate(c.enum_values);
        self.services.truncate(c.services);
        self.methods.truncate(c.methods);
        self.extensions.truncate(c.extensions);
    }

    pub fn file(&self, index: u32) -> &FileInner {
        &self.files[index as usize]
    }

    pub fn message(&self, index: u32) -> &MessageInner {
        &self.messages[index as usize]
    }

    pub fn field(&self, index: u32) -> &FieldInner {
        &self.fields[index as usize]
    }

    pub fn oneof(&self, index: u32) -> &OneofInner {
        &self.oneofs[index as usize]
    }

    pub fn enum_(&self, index: u32) -> &EnumInner {
        &self.enums[index as usize]
    }

    pub fn enum_value(&self, index: u32) -> &EnumValueInner {
        &self.enum_values[index as usize]
    }

    pub fn service(&self, index: u32) -> &ServiceInner {
        &self.services[index as usize]
    }

    pub fn method(&self, index: u32) -> &MethodInner {
        &self.methods[index as usize]
    }

    /// The value of enum `enum_` named `name`.
    pub fn enum_value_by_name(&self, enum_: u32, name: &str) -> Option<u32> {
        let by_name = &self.enum_(enum_).values_by_name;
        let i = by_name
            .binary_search_by(|&v| short_name(&self.enum_value(v).full_name).cmp(name))
            .ok()?;
        Some(by_name[i])
    }

    /// The `DescriptorProto` of message `index`.
    pub fn message_proto(&self, index: u32) -> &DescriptorProto {
        self.message_proto_in(&self.file(self.message(index).file).proto, index)
    }

    /// The `DescriptorProto` of message `index`, declared in `file`.
    pub fn message_proto_in<'p>(
        &self,
        file: &'p FileDescriptorProto,
        index: u32,
    ) -> &'p DescriptorProto {
        let message = self.message(index);
        match message.parent {
            None => &file.message_type[message.index as usize],
            Some(parent) => {
                &self.message_proto_in(file, parent).nested_type[message.index as usize]
            }
        }
    }

    /// The `EnumDescriptorProto` of enum `index`.
    pub fn enum_proto(&self, index: u32) -> &EnumDescriptorProto {
        let enum_ = self.enum_(index);
        match enum_.parent {
            None => &self.file(enum_.file).proto.enum_type[enum_.index as usize],
            Some(parent) => &self.message_proto(parent).enum_type[enum_.index as usize],
        }
    }

    /// The `FieldDescriptorProto` of field or extension `index`.
    pub fn field_proto(&self, index: u32) -> &FieldDescriptorProto {
        self.field_proto_in(&self.file(self.field(index).file).proto, index)
    }

    /// The `FieldDescriptorProto` of field or extension `index`, declared
    /// in `file`.
    pub fn field_proto_in<'p>(
        &self,
        file: &'p FileDescriptorProto,
        index: u32,
    ) -> &'p FieldDescriptorProto {
        let field = self.field(index);
        let i = field.index as usize;
        match (field.is_extension, field.scope) {
            (false, _) => &self.message_proto_in(file, field.message).field[i],
            (true, Some(scope)) => &self.message_proto_in(file, scope).extension[i],
            (true, None) => &file.extension[i],
        }
    }

    /// The source path (as in `SourceCodeInfo`) of message `index`.
    pub fn message_path(&self, index: u32) -> Vec<i32> {
        let message = self.message(index);
        let mut path = match message.parent {
            None => vec![4],
            Some(parent) => {
                let mut path = self.message_path(parent);
                path.push(3);
                path
            }
        };
        path.push(message.index as i32);
        path
    }

    /// The source path of enum `index`.
    pub fn enum_path(&self, index: u32) -> Vec<i32> {
        let enum_ = self.enum_(index);
        let mut path = match enum_.parent {
            None => vec![5],
            Some(parent) => {
                let mut path = self.message_path(parent);
                path.push(4);
                path
            }
        };
        path.push(enum_.index as i32);
        path
    }

    /// The source path of field or extension `index`.
    pub fn field_path(&self, index: u32) -> Vec<i32> {
        let field = self.field(index);
        let mut path = match (field.is_extension, field.scope) {
            (false, _) => {
                let mut path = self.message_path(field.message);
                path.push(2);
                path
            }
            (true, Some(scope)) => {
                let mut path = self.message_path(scope);
                path.push(6);
                path
            }
            (true, None) => vec![7],
        };
        path.push(field.index as i32);
        path
    }
}
