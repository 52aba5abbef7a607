//! Indexing a file's messages, fields, oneofs and enums: their full names,
//! resolved features and lookup tables, and every check that needs no
//! other type (names, numbers, ranges, map entry shape, enum values).
//! Type names are resolved afterwards, in [`resolve`](crate::resolve).

use std::ops::Range;

use buffa_types::google::protobuf::feature_set::{EnumType, FieldPresence, JsonFormat};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::field_options::OptionTargetType;
use buffa_types::google::protobuf::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto};

use crate::build::Builder;
use crate::inner::{
    EnumInner, EnumValueInner, FieldInner, KindIndex, MessageInner, OneofInner, Symbol, short_name,
};
use crate::rules::{
    DefaultValue, FieldSyntax, ResolvedFeatures, declared_features, extension_declarations,
};
use crate::{Cardinality, DescriptorError, names, validate};

/// Where a list of fields is declared.
#[derive(Clone, Copy)]
pub(crate) enum FieldOwner {
    /// The fields of message `message`, whose oneofs start at `first_oneof`.
    Message { message: u32, first_oneof: u32 },
    /// Extensions declared in a message, or at the top level (`None`).
    Extensions(Option<u32>),
}

impl Builder<'_> {
    /// Indexes sibling messages (the top-level ones of the file, or those
    /// nested in `parent`), then each one's contents.
    pub fn index_messages(
        &mut self,
        protos: &[DescriptorProto],
        parent: Option<u32>,
        scope: &str,
        features: ResolvedFeatures,
    ) -> Result<Range<u32>, DescriptorError> {
        let start = self.pool.messages.len() as u32;
        for (i, proto) in protos.iter().enumerate() {
            let full_name = self.full_name("message", scope, proto.name())?;
            let index = self.pool.messages.len() as u32;
            self.pool.messages.push(MessageInner {
                full_name: full_name.clone(),
                file: self.file,
                parent,
                index: i as u32,
                features: features.merge(
                    declared_features(
                        self.syntax,
                        OptionTargetType::TargetTypeMessage,
                        proto.options.features.as_option(),
                    )
                    .map_err(|message| self.error("message", &full_name, message))?,
                ),
                fields: 0..0,
                fields_by_number: Box::default(),
                fields_by_name: Box::default(),
                fields_by_json_name: Box::default(),
                oneofs: 0..0,
                messages: 0..0,
                enums: 0..0,
                extensions: 0..0,
                extension_ranges: Box::default(),
                is_map_entry: proto.options.map_entry(),
            });
            self.define("message", &full_name, Symbol::Message(index))?;
        }
        for (i, proto) in protos.iter().enumerate() {
            self.index_message_body(start + i as u32, proto)?;
        }
        Ok(start..start + protos.len() as u32)
    }

    fn index_message_body(
        &mut self,
        index: u32,
        proto: &DescriptorProto,
    ) -> Result<(), DescriptorError> {
        let message = self.pool.message(index);
        let full_name = message.full_name.clone();
        let features = message.features;
        self.budget
            .charge(full_name.len())
            .map_err(|e| self.budget_error(e))?;
        let error = |builder: &Self, message: String| builder.error("message", &full_name, message);

        let max_number = if proto.options.message_set_wire_format() {
            validate::MAX_MESSAGE_SET_NUMBER
        } else {
            validate::MAX_FIELD_NUMBER
        };
        let extension_ranges = validate::extension_ranges(proto, max_number)
            .map_err(|message| error(self, message))?;
        for range in &proto.extension_range {
            declared_features(
                self.syntax,
                OptionTargetType::TargetTypeExtensionRange,
                range.options.features.as_option(),
            )
            .map_err(|e| {
                // As the .proto wrote it: the end inclusive.
                let (start, last) = (range.start(), range.end().saturating_sub(1));
                error(self, format!("extension range {start} to {last}: {e}"))
            })?;
        }
        if let Some(e) = extension_declarations(proto).into_iter().next() {
            let range = &proto.extension_range[e.range];
            let (start, last) = (range.start(), range.end().saturating_sub(1));
            return Err(error(
                self,
                format!("extension range {start} to {last}: {}", e.message),
            ));
        }

        let first_oneof = self.pool.oneofs.len() as u32;
        let mut oneof_features = Vec::with_capacity(proto.oneof_decl.len());
        for (i, oneof) in proto.oneof_decl.iter().enumerate() {
            let oneof_name = self.full_name("oneof", &full_name, oneof.name())?;
            let oneof_index = self.pool.oneofs.len() as u32;
            self.pool.oneofs.push(OneofInner {
                full_name: oneof_name.clone(),
                message: index,
                index: i as u32,
                fields: Box::default(),
                is_synthetic: false,
            });
            self.define("oneof", &oneof_name, Symbol::Oneof(oneof_index))?;
            let declared = declared_features(
                self.syntax,
                OptionTargetType::TargetTypeOneof,
                oneof.options.features.as_option(),
            )
            .map_err(|message| self.error("oneof", &oneof_name, message))?;
            oneof_features.push(features.merge(declared));
        }
        let oneofs = first_oneof..self.pool.oneofs.len() as u32;
        let owner = FieldOwner::Message {
            message: index,
            first_oneof,
        };
        let fields =
            self.index_fields(&proto.field, owner, &full_name, features, &oneof_features)?;
        self.index_oneof_members(proto, &full_name, fields.clone(), first_oneof)?;

        // Field numbers: unique, and outside the extension and reserved
        // ranges; names not reserved.
        let fields_by_number = self.sorted_fields(fields.clone(), |f| f.number);
        for pair in fields_by_number.windows(2) {
            let (a, b) = (self.pool.field(pair[0]), self.pool.field(pair[1]));
            if a.number == b.number {
                let message = format!(
                    "fields {} and {} both have number {}",
                    short_name(&a.full_name),
                    short_name(&b.full_name),
                    a.number
                );
                return Err(error(self, message));
            }
        }
        let reserved = validate::Reserved::of_message(proto);
        for field in fields.clone() {
            let field = self.pool.field(field);
            validate::field_number_allowed(
                &extension_ranges,
                &reserved,
                field.number,
                short_name(&field.full_name),
            )
            .map_err(|message| self.error("field", &field.full_name, message))?;
        }
        let fields_by_name =
            self.sorted_fields(fields.clone(), |f| short_name(&f.full_name).to_owned());
        let fields_by_json_name = self.sorted_fields(fields.clone(), |f| f.json_name.clone());
        if features.json_format == JsonFormat::Allow
            && !proto.options.deprecated_legacy_json_field_conflicts()
        {
            for pair in fields_by_json_name.windows(2) {
                let (a, b) = (self.pool.field(pair[0]), self.pool.field(pair[1]));
                if a.json_name == b.json_name {
                    let message = format!(
                        "fields {} and {} have the same JSON name {:?}",
                        short_name(&a.full_name),
                        short_name(&b.full_name),
                        a.json_name
                    );
                    return Err(error(self, message));
                }
            }
        }
        self.mark_shared_json_names(&fields_by_name, &fields_by_json_name);
        if proto.options.map_entry() {
            validate::map_entry(proto).map_err(|message| error(self, message))?;
        }

        let extensions = self.index_fields(
            &proto.extension,
            FieldOwner::Extensions(Some(index)),
            &full_name,
            features,
            &[],
        )?;
        let enums = self.index_enums(&proto.enum_type, Some(index), &full_name, features)?;
        let messages =
            self.index_messages(&proto.nested_type, Some(index), &full_name, features)?;

        let message = &mut self.pool.messages[index as usize];
        message.fields = fields;
        message.fields_by_number = fields_by_number;
        message.fields_by_name = fields_by_name;
        message.fields_by_json_name = fields_by_json_name;
        message.oneofs = oneofs;
        message.messages = messages;
        message.enums = enums;
        message.extensions = extensions;
        message.extension_ranges = extension_ranges;
        Ok(())
    }

    /// `fields` sorted by `key`.
    /// Marks the fields of one message whose `json_name` another of its
    /// fields also has, as its `json_name` or its .proto name (proto2 and
    /// `deprecated_legacy_json_field_conflicts` allow that): JSON writes
    /// them under their .proto name. Takes the message's fields sorted by
    /// name and by JSON name.
    fn mark_shared_json_names(&mut self, by_name: &[u32], by_json_name: &[u32]) {
        let fields = &self.pool.fields;
        let json_name = |f: u32| &*fields[f as usize].json_name;
        let shared: Vec<u32> = by_json_name
            .iter()
            .enumerate()
            .filter(|&(i, &f)| {
                let name = json_name(f);
                let twin = |j: Option<usize>| {
                    j.and_then(|j| by_json_name.get(j))
                        .is_some_and(|&g| json_name(g) == name)
                };
                twin(i.checked_sub(1))
                    || twin(Some(i + 1))
                    || by_name
                        .binary_search_by(|&g| short_name(&fields[g as usize].full_name).cmp(name))
                        .is_ok_and(|j| by_name[j] != f)
            })
            .map(|(_, &f)| f)
            .collect();
        for f in shared {
            self.pool.fields[f as usize].json_name_shared = true;
        }
    }

    fn sorted_fields<K: Ord>(
        &self,
        fields: Range<u32>,
        key: impl Fn(&FieldInner) -> K,
    ) -> Box<[u32]> {
        let mut sorted: Vec<u32> = fields.collect();
        sorted.sort_by_cached_key(|&f| key(self.pool.field(f)));
        sorted.into()
    }

    /// Fills in the member lists of a message's oneofs.
    fn index_oneof_members(
        &mut self,
        proto: &DescriptorProto,
        message_name: &str,
        fields: Range<u32>,
        first_oneof: u32,
    ) -> Result<(), DescriptorError> {
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); proto.oneof_decl.len()];
        for field in fields {
            if let Some(oneof) = self.pool.field(field).oneof {
                members[(oneof - first_oneof) as usize].push(field);
            }
        }
        for (i, members) in members.into_iter().enumerate() {
            let oneof = first_oneof + i as u32;
            let name = &self.pool.oneof(oneof).full_name;
            if members.is_empty() {
                return Err(self.error("oneof", name, "has no fields"));
            }
            let is_synthetic = members.len() == 1
                && proto.field[self.pool.field(members[0]).index as usize].proto3_optional();
            let oneof = &mut self.pool.oneofs[oneof as usize];
            oneof.fields = members.into();
            oneof.is_synthetic = is_synthetic;
        }
        for field in &proto.field {
            if field.proto3_optional() && field.oneof_index.is_none() {
                let full_name = names::join(message_name, field.name());
                return Err(self.error(
                    "field",
                    &full_name,
                    "proto3 optional field is not in a oneof",
                ));
            }
        }
        Ok(())
    }

    /// Indexes a list of fields or extensions. Types, extendees and
    /// defaults are left for [`Builder::resolve_field`].
    pub fn index_fields(
        &mut self,
        protos: &[FieldDescriptorProto],
        owner: FieldOwner,
        scope: &str,
        features: ResolvedFeatures,
        oneof_features: &[ResolvedFeatures],
    ) -> Result<Range<u32>, DescriptorError> {
        let start = self.pool.fields.len() as u32;
        for (i, proto) in protos.iter().enumerate() {
            let full_name = self.full_name("field", scope, proto.name())?;
            let index = self.pool.fields.len() as u32;
            let field =
                self.index_field(proto, owner, features, oneof_features, full_name, i as u32)?;
            let is_extension = field.is_extension;
            let full_name = field.full_name.clone();
            self.pool.fields.push(field);
            if is_extension {
                self.pool.extensions.push(index);
            }
            self.define("field", &full_name, Symbol::Field(index))?;
        }
        Ok(start..self.pool.fields.len() as u32)
    }

    fn index_field(
        &mut self,
        proto: &FieldDescriptorProto,
        owner: FieldOwner,
        features: ResolvedFeatures,
        oneof_features: &[ResolvedFeatures],
        full_name: Box<str>,
        index: u32,
    ) -> Result<FieldInner, DescriptorError> {
        let error = |builder: &Self, message: &str| builder.error("field", &full_name, message);
        let (message, scope, is_extension, oneof) = match owner {
            FieldOwner::Message {
                message,
                first_oneof,
            } => {
                let oneof = match proto.oneof_index {
                    None => None,
                    Some(i) => match usize::try_from(i)
                        .ok()
                        .filter(|&i| i < oneof_features.len())
                    {
                        Some(i) => Some(i),
                        None => {
                            return Err(error(self, &format!("oneof index {i} is out of range")));
                        }
                    },
                };
                (
                    message,
                    Some(message),
                    false,
                    oneof.map(|i| (first_oneof + i as u32, i)),
                )
            }
            // The extendee is set by `resolve_field`.
            FieldOwner::Extensions(scope) => {
                if proto.oneof_index.is_some() {
                    return Err(error(self, "an extension cannot be in a oneof"));
                }
                (u32::MAX, scope, true, None)
            }
        };
        let Some(number) = proto.number else {
            return Err(error(self, "has no number"));
        };
        // Extension numbers are checked against the extendee once it is
        // resolved.
        let number = if is_extension {
            u32::try_from(number).ok().filter(|&n| n > 0)
        } else {
            Some(number as u32).filter(|_| validate::is_field_number(number))
        };
        let Some(number) = number else {
            let number = proto.number();
            return Err(error(self, &format!("number {number} is out of range")));
        };
        let features = match oneof {
            Some((_, i)) => oneof_features[i],
            None => features,
        }
        .for_field(
            declared_features(
                self.syntax,
                OptionTargetType::TargetTypeField,
                proto.options.features.as_option(),
            )
            .map_err(|message| error(self, &message))?,
            FieldSyntax::of(proto),
        );
        let cardinality = match proto.label {
            Some(Label::Repeated) => Cardinality::Repeated,
            _ if features.field_presence == FieldPresence::LegacyRequired => Cardinality::Required,
            _ => Cardinality::Optional,
        };
        if oneof.is_some() && cardinality != Cardinality::Optional {
            return Err(error(self, "oneof members cannot be repeated or required"));
        }
        if is_extension && cardinality == Cardinality::Required {
            return Err(error(self, "extensions cannot be required"));
        }
        let json_name: Box<str> = match &proto.json_name {
            Some(json_name) => json_name.as_str().into(),
            None => {
                self.budget
                    .charge(proto.name().len())
                    .map_err(|e| self.budget_error(e))?;
                crate::rules::json_name(proto.name()).into()
            }
        };
        Ok(FieldInner {
            full_name,
            json_name,
            json_name_shared: false,
            number,
            file: self.file,
            message,
            scope,
            is_extension,
            index,
            cardinality,
            // Message and enum types are set by `resolve_field`.
            kind: scalar_kind(proto.r#type).unwrap_or(KindIndex::Message(u32::MAX)),
            oneof: oneof.map(|(o, _)| o),
            features,
            default: DefaultValue::Message,
        })
    }

    /// Indexes sibling enums, nested in `parent` or at the top level.
    pub fn index_enums(
        &mut self,
        protos: &[EnumDescriptorProto],
        parent: Option<u32>,
        scope: &str,
        features: ResolvedFeatures,
    ) -> Result<Range<u32>, DescriptorError> {
        let start = self.pool.enums.len() as u32;
        for (i, proto) in protos.iter().enumerate() {
            let full_name = self.full_name("enum", scope, proto.name())?;
            let index = self.pool.enums.len() as u32;
            let declared = declared_features(
                self.syntax,
                OptionTargetType::TargetTypeEnum,
                proto.options.features.as_option(),
            )
            .map_err(|message| self.error("enum", &full_name, message))?;
            let features = features.merge(declared);
            let is_closed = features.enum_type == EnumType::Closed;
            let first_value = self.pool.enum_values.len() as u32;
            self.pool.enums.push(EnumInner {
                full_name: full_name.clone(),
                file: self.file,
                parent,
                index: i as u32,
                values: first_value..first_value,
                values_by_number: Box::default(),
                values_by_name: Box::default(),
                is_closed,
            });
            self.define("enum", &full_name, Symbol::Enum(index))?;
            // Values are siblings of their enum, as C++ enumerators are.
            for (j, value) in proto.value.iter().enumerate() {
                let value_name = self.full_name("enum value", scope, value.name())?;
                let value_index = self.pool.enum_values.len() as u32;
                let Some(number) = value.number else {
                    return Err(self.error("enum value", &value_name, "has no number"));
                };
                declared_features(
                    self.syntax,
                    OptionTargetType::TargetTypeEnumEntry,
                    value.options.features.as_option(),
                )
                .map_err(|message| self.error("enum value", &value_name, message))?;
                self.pool.enum_values.push(EnumValueInner {
                    full_name: value_name.clone(),
                    number,
                    parent: index,
                    index: j as u32,
                });
                self.define("enum value", &value_name, Symbol::EnumValue(value_index))?;
            }
            let values = first_value..self.pool.enum_values.len() as u32;
            let values_by_number = {
                let mut sorted: Vec<u32> = values.clone().collect();
                // Stable: aliases stay in declaration order.
                sorted.sort_by_key(|&v| self.pool.enum_value(v).number);
                sorted
            };
            let values_by_name = {
                let mut sorted: Vec<u32> = values.clone().collect();
                sorted.sort_by(|&a, &b| {
                    self.pool
                        .enum_value(a)
                        .full_name
                        .cmp(&self.pool.enum_value(b).full_name)
                });
                sorted
            };
            validate::enum_values(proto, is_closed)
                .map_err(|message| self.error("enum", &full_name, message))?;
            let enum_ = &mut self.pool.enums[index as usize];
            enum_.values = values;
            enum_.values_by_number = values_by_number.into();
            enum_.values_by_name = values_by_name.into();
        }
        Ok(start..start + protos.len() as u32)
    }
}

/// The kind of a scalar field type; `None` for messages, groups, enums and
/// an unset type.
fn scalar_kind(ty: Option<Type>) -> Option<KindIndex> {
    Some(match ty? {
        Type::Double => KindIndex::Double,
        Type::Float => KindIndex::Float,
        Type::Int64 => KindIndex::Int64,
        Type::Uint64 => KindIndex::Uint64,
        Type::Int32 => KindIndex::Int32,
        Type::Fixed64 => KindIndex::Fixed64,
        Type::Fixed32 => KindIndex::Fixed32,
        Type::Bool => KindIndex::Bool,
        Type::String => KindIndex::String,
        Type::Bytes => KindIndex::Bytes,
        Type::Uint32 => KindIndex::Uint32,
        Type::Sfixed32 => KindIndex::Sfixed32,
        Type::Sfixed64 => KindIndex::Sfixed64,
        Type::Sint32 => KindIndex::Sint32,
        Type::Sint64 => KindIndex::Sint64,
        Type::Group | Type::Message | Type::Enum => return None,
    })
}
