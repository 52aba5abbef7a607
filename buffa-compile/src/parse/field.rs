//! Fields as protoc's parser reads them: label, type (scalar, named,
//! `map<K, V>` or `group`), name, number, options; a group's message and
//! a map's entry message generated beside the field.

use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{DescriptorProto, Edition, FieldDescriptorProto};

use super::locations::Loc;
use super::{Parser, Step, Stop};

/// `DescriptorProto.name`.
const NAME: i32 = 1;
/// `FieldDescriptorProto.name`.
const FIELD_NAME: i32 = 1;
/// `FieldDescriptorProto.number`.
const FIELD_NUMBER: i32 = 3;
/// `FieldDescriptorProto.label`.
const FIELD_LABEL: i32 = 4;
/// `FieldDescriptorProto.type`.
const FIELD_TYPE: i32 = 5;
/// `FieldDescriptorProto.type_name`.
const FIELD_TYPE_NAME: i32 = 6;

/// A map field's key and value types, as parsed.
#[derive(Default)]
struct MapTypes {
    /// The key's scalar type, or its type name as written.
    key: (Option<Type>, String),
    /// The value's scalar type, or its type name as written.
    value: (Option<Type>, String),
}

impl Parser<'_> {
    /// A field with its label: `repeated int32 x = 1;`.
    pub(super) fn parse_message_field(
        &mut self,
        field: &mut FieldDescriptorProto,
        messages: &mut Vec<DescriptorProto>,
        parent_loc: Loc,
        nested_type_number: i32,
        field_loc: Loc,
    ) -> Step {
        if let Some(label) = self.parse_label(field_loc) {
            field.label = Some(label);
            if label == Label::Optional && self.syntax == "proto3" {
                field.proto3_optional = Some(true);
            }
        }
        self.parse_message_field_no_label(
            field,
            messages,
            parent_loc,
            nested_type_number,
            field_loc,
        )
    }

    /// `optional`, `repeated` or `required`, if one is next.
    fn parse_label(&mut self, field_loc: Loc) -> Option<Label> {
        if !self.looking_at("optional")
            && !self.looking_at("repeated")
            && !self.looking_at("required")
        {
            return None;
        }
        if self.looking_at("optional") && self.syntax == "editions" {
            self.error(
                "Label \"optional\" is not supported in editions. By default, all singular fields have presence unless features.field_presence is set.",
            );
        }
        if self.looking_at("required") && self.syntax == "editions" {
            self.error(
                "Label \"required\" is not supported in editions, use features.field_presence = LEGACY_REQUIRED.",
            );
        }
        let loc = self.start(field_loc, &[FIELD_LABEL]);
        let label = if self.try_consume("optional") {
            Label::Optional
        } else if self.try_consume("repeated") {
            Label::Repeated
        } else {
            self.try_consume("required");
            Label::Required
        };
        self.finish(loc);
        Some(label)
    }

    /// A field after its label: type, name, number, options and `;` (or a
    /// group's body).
    pub(super) fn parse_message_field_no_label(
        &mut self,
        field: &mut FieldDescriptorProto,
        messages: &mut Vec<DescriptorProto>,
        parent_loc: Loc,
        nested_type_number: i32,
        field_loc: Loc,
    ) -> Step {
        let mut map = None;
        let type_loc = self.start(field_loc, &[]);
        let mut type_parsed = false;
        let mut ty = Type::Int32;
        let mut type_name = String::new();
        if self.try_consume("map") {
            if self.looking_at("<") {
                map = Some(self.parse_map_type(field, type_loc)?);
            } else {
                type_parsed = true;
                type_name = "map".into();
            }
        }
        if map.is_none() {
            if field.label.is_none() && (self.syntax == "proto3" || self.syntax == "editions") {
                field.label = Some(Label::Optional);
            }
            if field.label.is_none() {
                self.error("Expected \"required\", \"optional\", or \"repeated\".");
                field.label = Some(Label::Optional);
            }
            if !type_parsed {
                let (parsed, name) = self.parse_type()?;
                if let Some(parsed) = parsed {
                    ty = parsed;
                }
                type_name = name;
            }
            if type_name.is_empty() {
                self.locations.add_path(type_loc, FIELD_TYPE);
                field.r#type = Some(ty);
            } else {
                self.locations.add_path(type_loc, FIELD_TYPE_NAME);
                field.type_name = Some(type_name);
            }
        }
        self.finish(type_loc);

        let name_token = self.input.current().clone();
        let name_loc = self.start(field_loc, &[FIELD_NAME]);
        field.name = Some(self.consume_identifier("Expected field name.")?);
        self.finish(name_loc);
        self.consume_or("=", "Missing field number.")?;
        let number_loc = self.start(field_loc, &[FIELD_NUMBER]);
        field.number = Some(self.consume_integer("Expected field number.")?);
        self.finish(number_loc);

        self.parse_field_options(field, field_loc)?;

        if field.r#type == Some(Type::Group) {
            let group_loc = self.start(parent_loc, &[]);
            self.locations.start_at_loc(group_loc, field_loc);
            self.locations.add_path(group_loc, nested_type_number);
            self.locations.add_path(group_loc, messages.len() as i32);
            let name = field.name.clone().unwrap_or_default();
            let mut group = DescriptorProto {
                name: Some(name.clone()),
                ..Default::default()
            };
            let group_name_loc = self.start(group_loc, &[NAME]);
            self.locations
                .start_at(group_name_loc, name_token.line, name_token.column);
            self.locations.end_at(group_name_loc, &name_token);
            let type_name_loc = self.start(field_loc, &[FIELD_TYPE_NAME]);
            self.locations
                .start_at(type_name_loc, name_token.line, name_token.column);
            self.locations.end_at(type_name_loc, &name_token);
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                self.error_at(
                    name_token.line,
                    name_token.column,
                    "Group names must start with a capital letter.",
                );
            }
            field.name = Some(name.to_ascii_lowercase());
            field.type_name = Some(name);
            if !self.looking_at("{") {
                messages.push(group);
                self.error("Missing group body.");
                return Err(Stop);
            }
            let result = self.parse_nested_block(&mut group, group_loc);
            messages.push(group);
            result?;
            self.finish(group_loc);
        } else {
            self.consume_end_of_declaration(";", Some(field_loc))?;
        }
        if let Some(map) = map {
            generate_map_entry(&map, field, messages);
        }
        Ok(())
    }

    /// `map<K, V>` after `map`.
    fn parse_map_type(
        &mut self,
        field: &mut FieldDescriptorProto,
        type_loc: Loc,
    ) -> Result<MapTypes, Stop> {
        if field.oneof_index.is_some() {
            self.error("Map fields are not allowed in oneofs.");
            return Err(Stop);
        }
        if field.label.is_some() {
            self.error("Field labels (required/optional/repeated) are not allowed on map fields.");
            return Err(Stop);
        }
        if field.extendee.is_some() {
            self.error("Map fields are not allowed to be extensions.");
            return Err(Stop);
        }
        field.label = Some(Label::Repeated);
        self.consume("<")?;
        let key = self.parse_type()?;
        self.consume(",")?;
        let value = self.parse_type()?;
        self.consume(">")?;
        self.locations.add_path(type_loc, FIELD_TYPE_NAME);
        Ok(MapTypes { key, value })
    }

    /// A field's type: a scalar's `Type`, or a type name as written.
    fn parse_type(&mut self) -> Result<(Option<Type>, String), Stop> {
        let fixed_wire = self.syntax == "editions" && self.edition == Edition::Unstable;
        let text = self.current_text();
        let ty = if fixed_wire {
            unstable_scalar(&text)
        } else {
            scalar(&text)
        };
        if let Some(ty) = ty {
            if self.syntax == "editions" && ty == Type::Group {
                self.error(
                    "Group syntax is no longer supported in editions. To get group behavior you can specify features.message_encoding = DELIMITED on a message field.",
                );
            }
            self.input.next();
            return Ok((Some(ty), String::new()));
        }
        if fixed_wire {
            let replacement = match text.as_str() {
                "fixed32" => Some("uint32"),
                "fixed64" => Some("uint64"),
                "sfixed32" => Some("int32"),
                "sfixed64" => Some("int64"),
                "sint32" => Some("zigzag32"),
                "sint64" => Some("zigzag64"),
                _ => None,
            };
            if let Some(replacement) = replacement {
                self.error(format!(
                    "Type '{text}' is obsolete in unstable editions, use '{replacement}' instead."
                ));
                self.input.next();
                return Ok((Some(Type::Int32), String::new()));
            }
        }
        Ok((None, self.parse_user_defined_type()?))
    }

    /// A message or enum type's name as written: `a.B`, `.a.B`.
    pub(super) fn parse_user_defined_type(&mut self) -> Result<String, Stop> {
        let text = self.current_text();
        if scalar(&text).is_some() {
            self.error("Expected message type.");
            self.input.next();
            return Ok(text);
        }
        let mut name = String::new();
        if self.try_consume(".") {
            name.push('.');
        }
        name.push_str(&self.consume_identifier("Expected type name.")?);
        while self.try_consume(".") {
            name.push('.');
            name.push_str(&self.consume_identifier("Expected identifier.")?);
        }
        Ok(name)
    }
}

/// The scalar type a type keyword names (`group` included).
fn scalar(name: &str) -> Option<Type> {
    Some(match name {
        "double" => Type::Double,
        "float" => Type::Float,
        "int64" => Type::Int64,
        "uint64" => Type::Uint64,
        "int32" => Type::Int32,
        "fixed64" => Type::Fixed64,
        "fixed32" => Type::Fixed32,
        "bool" => Type::Bool,
        "string" => Type::String,
        "group" => Type::Group,
        "bytes" => Type::Bytes,
        "uint32" => Type::Uint32,
        "sfixed32" => Type::Sfixed32,
        "sfixed64" => Type::Sfixed64,
        "sint32" => Type::Sint32,
        "sint64" => Type::Sint64,
        _ => return None,
    })
}

/// The scalar type a type keyword names in the unstable edition, where
/// integer keywords name fixed-width encodings.
fn unstable_scalar(name: &str) -> Option<Type> {
    Some(match name {
        "double" => Type::Double,
        "float" => Type::Float,
        "uint64" => Type::Fixed64,
        "bool" => Type::Bool,
        "string" => Type::String,
        "group" => Type::Group,
        "bytes" => Type::Bytes,
        "uint32" => Type::Fixed32,
        "int32" => Type::Sfixed32,
        "int64" => Type::Sfixed64,
        "varint32" => Type::Int32,
        "varint64" => Type::Int64,
        "uvarint32" => Type::Uint32,
        "uvarint64" => Type::Uint64,
        "zigzag32" => Type::Sint32,
        "zigzag64" => Type::Sint64,
        _ => return None,
    })
}

/// The name of a map field's entry message: `foo_bar` -> `FooBarEntry`.
fn map_entry_name(field_name: &str) -> String {
    let mut name = String::with_capacity(field_name.len() + 5);
    let mut cap_next = true;
    for c in field_name.chars() {
        if c == '_' {
            cap_next = true;
        } else if cap_next {
            name.push(c.to_ascii_uppercase());
            cap_next = false;
        } else {
            name.push(c);
        }
    }
    name.push_str("Entry");
    name
}

/// A map field's entry message, with `map_entry` set, appended to
/// `messages`; the field's type becomes its name.
fn generate_map_entry(
    map: &MapTypes,
    field: &mut FieldDescriptorProto,
    messages: &mut Vec<DescriptorProto>,
) {
    let entry_name = map_entry_name(field.name());
    field.type_name = Some(entry_name.clone());
    let entry_field = |name: &str, number: i32, (ty, type_name): &(Option<Type>, String)| {
        let mut f = FieldDescriptorProto {
            name: Some(name.into()),
            label: Some(Label::Optional),
            number: Some(number),
            ..Default::default()
        };
        if type_name.is_empty() {
            f.r#type = Some(ty.unwrap_or(Type::Int32));
        } else {
            f.type_name = Some(type_name.clone());
        }
        f
    };
    let mut key = entry_field("key", 1, &map.key);
    let mut value = entry_field("value", 2, &map.value);
    if let Some(options) = field.options.as_option() {
        for option in &options.uninterpreted_option {
            let Some(first) = option.name.first() else {
                continue;
            };
            let plain = first.is_extension != Some(true);
            if option.name.len() == 1 && plain && first.name_part() == "enforce_utf8" {
                for f in [&mut key, &mut value] {
                    if f.r#type == Some(Type::String) {
                        f.options
                            .get_or_insert_default()
                            .uninterpreted_option
                            .push(option.clone());
                    }
                }
            }
            if plain && first.name_part() == "features" {
                for f in [&mut key, &mut value] {
                    f.options
                        .get_or_insert_default()
                        .uninterpreted_option
                        .push(option.clone());
                }
            }
        }
    }
    let mut entry = DescriptorProto {
        name: Some(entry_name),
        field: vec![key, value],
        ..Default::default()
    };
    entry.options.get_or_insert_default().map_entry = Some(true);
    messages.push(entry);
}
