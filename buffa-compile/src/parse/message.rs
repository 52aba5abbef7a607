//! Messages and what they hold: fields (with groups and maps), oneofs,
//! `extend` blocks, extension ranges and reserved numbers and names.

use buffa_types::google::protobuf::descriptor_proto::{ExtensionRange, ReservedRange};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, FieldDescriptorProto, MessageOptions, OneofDescriptorProto,
    SymbolVisibility,
};

use std::collections::{HashMap, HashSet};

use super::locations::Loc;
use super::option::Style;
use super::reserved::{Reserved, ReservedKind};
use super::{Parser, Step, Stop};

/// `DescriptorProto.name`.
const NAME: i32 = 1;
/// `DescriptorProto.field`.
const FIELD: i32 = 2;
/// `DescriptorProto.nested_type`.
const NESTED_TYPE: i32 = 3;
/// `DescriptorProto.enum_type`.
const ENUM_TYPE: i32 = 4;
/// `DescriptorProto.extension_range`.
const EXTENSION_RANGE: i32 = 5;
/// `DescriptorProto.extension`.
const EXTENSION: i32 = 6;
/// `DescriptorProto.options`.
const OPTIONS: i32 = 7;
/// `DescriptorProto.oneof_decl`.
const ONEOF_DECL: i32 = 8;
/// `FieldDescriptorProto.name`.
const FIELD_NAME: i32 = 1;
/// `FieldDescriptorProto.extendee`.
const FIELD_EXTENDEE: i32 = 2;
/// `FieldDescriptorProto.number`.
const FIELD_NUMBER: i32 = 3;
/// `FieldDescriptorProto.label`.
const FIELD_LABEL: i32 = 4;
/// `FieldDescriptorProto.type`.
const FIELD_TYPE: i32 = 5;
/// `FieldDescriptorProto.type_name`.
const FIELD_TYPE_NAME: i32 = 6;

/// The most `X`s a synthetic oneof's name is given.
const MAX_ONEOF_PREFIX: usize = 1000;

/// The most copies of extension range options (and of their locations)
/// one `extensions` statement may make: one per range it lists.
const MAX_RANGE_OPTION_COPIES: usize = 1 << 20;

/// The largest field number plus one: the end of `to max`.
const MAX_FIELD_END: i32 = 536_870_912;

/// A map field's key and value types, as parsed.
#[derive(Default)]
struct MapTypes {
    /// The key's scalar type, or its type name as written.
    key: (Option<Type>, String),
    /// The value's scalar type, or its type name as written.
    value: (Option<Type>, String),
}

impl Parser<'_> {
    /// `message Name { ... }`, recorded at `loc`.
    pub(crate) fn parse_message_definition(
        &mut self,
        message: &mut DescriptorProto,
        visibility: Option<SymbolVisibility>,
        loc: Loc,
    ) -> Step {
        self.recursion_depth -= 1;
        let result = self.parse_message_definition_inner(message, visibility, loc);
        self.recursion_depth += 1;
        result
    }

    /// [`Parser::parse_message_definition`] within the depth limit.
    fn parse_message_definition_inner(
        &mut self,
        message: &mut DescriptorProto,
        visibility: Option<SymbolVisibility>,
        loc: Loc,
    ) -> Step {
        if self.recursion_depth <= 0 {
            self.error("Reached maximum recursion limit for nested messages.");
            return Err(Stop);
        }
        self.consume("message")?;
        let name_loc = self.start(loc, &[NAME]);
        message.name = Some(self.consume_identifier("Expected message name.")?);
        self.finish(name_loc);
        self.parse_message_block(message, loc)?;
        if self.syntax == "proto3" {
            generate_synthetic_oneofs(message);
        }
        message.visibility = visibility;
        Ok(())
    }

    /// A message's `{ ... }`.
    fn parse_message_block(&mut self, message: &mut DescriptorProto, loc: Loc) -> Step {
        self.consume_end_of_declaration("{", Some(loc))?;
        while !self.try_consume_end_of_declaration("}", None) {
            if self.at_end() {
                self.error("Reached end of input in message definition (missing '}').");
                return Err(Stop);
            }
            if self.parse_message_statement(message, loc).is_err() {
                self.skip_statement();
            }
        }
        let max_end = if is_message_set(message.options.as_option()) {
            i32::MAX
        } else {
            MAX_FIELD_END
        };
        for range in &mut message.extension_range {
            if range.end == Some(-1) {
                range.end = Some(max_end);
            }
        }
        for range in &mut message.reserved_range {
            if range.end == Some(-1) {
                range.end = Some(max_end);
            }
        }
        self.validate_message(message, loc)
    }

    /// Rejects an explicit `map_entry` option.
    fn validate_message(&mut self, message: &DescriptorProto, loc: Loc) -> Step {
        let Some(options) = message.options.as_option() else {
            return Ok(());
        };
        for (i, option) in options.uninterpreted_option.iter().enumerate() {
            if option.name.first().is_some_and(|part| {
                part.is_extension != Some(true) && part.name_part() == "map_entry"
            }) {
                let mut path = self.locations.list[loc].path.clone();
                // MessageOptions.uninterpreted_option (999), the option's name (2).
                path.extend([OPTIONS, 999, i as i32, 2]);
                let (line, column) = self
                    .locations
                    .list
                    .iter()
                    .rev()
                    .find(|l| l.path == path)
                    .map_or((-1, 0), |l| (l.span[0], l.span[1]));
                self.error_at(
                    line,
                    column,
                    "map_entry should not be set explicitly. Use map<KeyType, ValueType> instead.",
                );
                return Err(Stop);
            }
        }
        Ok(())
    }

    /// One statement inside a message's braces.
    fn parse_message_statement(&mut self, message: &mut DescriptorProto, loc: Loc) -> Step {
        if self.try_consume_end_of_declaration(";", None) {
            return Ok(());
        }
        let mut visibility = None;
        if self.looking_at("export") || self.looking_at("local") {
            visibility = self.parse_visibility()?;
        }
        if self.looking_at("message") {
            let nested_loc = self.start(loc, &[NESTED_TYPE, message.nested_type.len() as i32]);
            let mut nested = DescriptorProto::default();
            let result = self.parse_message_definition(&mut nested, visibility, nested_loc);
            message.nested_type.push(nested);
            self.finish(nested_loc);
            result
        } else if self.looking_at("enum") {
            let enum_loc = self.start(loc, &[ENUM_TYPE, message.enum_type.len() as i32]);
            let mut enum_type = Default::default();
            let result = self.parse_enum_definition(&mut enum_type, visibility, enum_loc);
            message.enum_type.push(enum_type);
            self.finish(enum_loc);
            result
        } else if self.looking_at("extensions") {
            let ranges_loc = self.start(loc, &[EXTENSION_RANGE]);
            let result = self.parse_extensions(message, ranges_loc);
            self.finish(ranges_loc);
            result
        } else if self.looking_at("reserved") {
            let mut reserved = Reserved::default();
            let existing = (message.reserved_range.len(), message.reserved_name.len());
            let result = self.parse_reserved(ReservedKind::Message, existing, &mut reserved, loc);
            message.reserved_name.extend(reserved.names);
            message
                .reserved_range
                .extend(
                    reserved
                        .ranges
                        .into_iter()
                        .map(|(start, end)| ReservedRange {
                            start: Some(start),
                            end: Some(end),
                            ..Default::default()
                        }),
                );
            result
        } else if self.looking_at("extend") {
            let extend_loc = self.start(loc, &[EXTENSION]);
            let result = self.parse_extend(
                &mut message.extension,
                &mut message.nested_type,
                loc,
                NESTED_TYPE,
                extend_loc,
            );
            self.finish(extend_loc);
            result
        } else if self.looking_at("option") {
            let options_loc = self.start(loc, &[OPTIONS]);
            let options = &mut message.options.get_or_insert_default().uninterpreted_option;
            let result = self.parse_option(options, options_loc, Style::Statement);
            self.finish(options_loc);
            result
        } else if self.looking_at("oneof") {
            let index = message.oneof_decl.len();
            let oneof_loc = self.start(loc, &[ONEOF_DECL, index as i32]);
            message.oneof_decl.push(OneofDescriptorProto::default());
            let result = self.parse_oneof(message, index, oneof_loc, loc);
            self.finish(oneof_loc);
            result
        } else {
            let field_loc = self.start(loc, &[FIELD, message.field.len() as i32]);
            let mut field = FieldDescriptorProto::default();
            let result = self.parse_message_field(
                &mut field,
                &mut message.nested_type,
                loc,
                NESTED_TYPE,
                field_loc,
            );
            message.field.push(field);
            self.finish(field_loc);
            result
        }
    }

    /// A field with its label: `repeated int32 x = 1;`.
    fn parse_message_field(
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
    fn parse_message_field_no_label(
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
            self.recursion_depth -= 1;
            let result = if self.recursion_depth <= 0 {
                self.error("Reached maximum recursion limit for nested messages.");
                Err(Stop)
            } else {
                self.parse_message_block(&mut group, group_loc)
            };
            self.recursion_depth += 1;
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
    pub(crate) fn parse_user_defined_type(&mut self) -> Result<String, Stop> {
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

    /// `extend Foo { ... }`: its fields go to `extensions`, its groups to
    /// `messages`.
    pub(crate) fn parse_extend(
        &mut self,
        extensions: &mut Vec<FieldDescriptorProto>,
        messages: &mut Vec<DescriptorProto>,
        parent_loc: Loc,
        nested_type_number: i32,
        extend_loc: Loc,
    ) -> Step {
        self.consume("extend")?;
        let extendee_start = self.input.current().clone();
        let extendee = self.parse_user_defined_type()?;
        let extendee_end = self.input.previous().clone();
        self.consume_end_of_declaration("{", Some(extend_loc))?;
        loop {
            if self.at_end() {
                self.error("Reached end of input in extend definition (missing '}').");
                return Err(Stop);
            }
            let loc = self.start(extend_loc, &[extensions.len() as i32]);
            let extendee_loc = self.start(loc, &[FIELD_EXTENDEE]);
            self.locations
                .start_at(extendee_loc, extendee_start.line, extendee_start.column);
            self.locations.end_at(extendee_loc, &extendee_end);
            let mut field = FieldDescriptorProto {
                extendee: Some(extendee.clone()),
                ..Default::default()
            };
            let result =
                self.parse_message_field(&mut field, messages, parent_loc, nested_type_number, loc);
            extensions.push(field);
            if result.is_err() {
                self.skip_statement();
            }
            self.finish(loc);
            if self.try_consume_end_of_declaration("}", None) {
                return Ok(());
            }
        }
    }

    /// `oneof name { ... }`, the oneof at `index` of `message`.
    fn parse_oneof(
        &mut self,
        message: &mut DescriptorProto,
        index: usize,
        oneof_loc: Loc,
        message_loc: Loc,
    ) -> Step {
        self.consume("oneof")?;
        let name_loc = self.start(oneof_loc, &[NAME]);
        message.oneof_decl[index].name = Some(self.consume_identifier("Expected oneof name.")?);
        self.finish(name_loc);
        self.consume_end_of_declaration("{", Some(oneof_loc))?;
        loop {
            if self.at_end() {
                self.error("Reached end of input in oneof definition (missing '}').");
                return Err(Stop);
            }
            if self.looking_at("option") {
                // OneofDescriptorProto.options is field 2.
                let options_loc = self.start(oneof_loc, &[2]);
                let options = &mut message.oneof_decl[index]
                    .options
                    .get_or_insert_default()
                    .uninterpreted_option;
                self.parse_option(options, options_loc, Style::Statement)?;
                self.finish(options_loc);
            } else {
                if self.looking_at("required")
                    || self.looking_at("optional")
                    || self.looking_at("repeated")
                {
                    self.error(
                        "Fields in oneofs must not have labels (required / optional / repeated).",
                    );
                    self.input.next();
                }
                let field_loc = self.start(message_loc, &[FIELD, message.field.len() as i32]);
                let mut field = FieldDescriptorProto {
                    label: Some(Label::Optional),
                    oneof_index: Some(index as i32),
                    ..Default::default()
                };
                let result = self.parse_message_field_no_label(
                    &mut field,
                    &mut message.nested_type,
                    message_loc,
                    NESTED_TYPE,
                    field_loc,
                );
                message.field.push(field);
                if result.is_err() {
                    self.skip_statement();
                }
                self.finish(field_loc);
            }
            if self.try_consume_end_of_declaration("}", None) {
                return Ok(());
            }
        }
    }

    /// `extensions 100 to 199 [options];`.
    fn parse_extensions(&mut self, message: &mut DescriptorProto, ranges_loc: Loc) -> Step {
        self.consume("extensions")?;
        let old_len = message.extension_range.len();
        loop {
            let loc = self.start(ranges_loc, &[message.extension_range.len() as i32]);
            message.extension_range.push(ExtensionRange::default());
            let (start, end) = self.parse_range(loc, "Expected field number range.")?;
            let range = message.extension_range.last_mut().expect("just pushed");
            range.start = Some(start);
            range.end = Some(end);
            self.finish(loc);
            if !self.try_consume(",") {
                break;
            }
        }
        if self.looking_at("[") {
            let index_in_path = self.locations.path_len(ranges_loc);
            let mark = self.locations.list.len();
            let index_loc = self.start(ranges_loc, &[0]);
            // ExtensionRange.options is field 3.
            let options_loc = self.start(index_loc, &[3]);
            self.consume("[")?;
            let options = &mut message.extension_range[old_len]
                .options
                .get_or_insert_default()
                .uninterpreted_option;
            loop {
                self.parse_option(options, options_loc, Style::Assignment)?;
                if !self.try_consume(",") {
                    break;
                }
            }
            self.consume("]")?;
            self.finish(options_loc);
            self.finish(index_loc);
            let option_count = options.len();
            let info = self.locations.list.split_off(mark);
            let ranges = message.extension_range.len() - old_len;
            let per_range = info.len() + option_count;
            if ranges.saturating_mul(per_range) > MAX_RANGE_OPTION_COPIES {
                self.error("Too many extension ranges share these options.");
                return Err(Stop);
            }
            let options = message.extension_range[old_len].options.clone();
            for range in &mut message.extension_range[old_len + 1..] {
                range.options = options.clone();
            }
            for i in old_len..message.extension_range.len() {
                for location in &info {
                    if location.path.len() == index_in_path + 1 {
                        continue;
                    }
                    let mut copy = location.clone();
                    copy.path[index_in_path] = i as i32;
                    self.locations.list.push(copy);
                }
            }
        }
        self.consume_end_of_declaration(";", Some(ranges_loc))
    }

    /// `start`, `start to end` or `start to max` of extension ranges and
    /// reserved numbers of messages: the range, end exclusive (`-1` for
    /// `max`, fixed when the message is complete).
    pub(crate) fn parse_range(&mut self, loc: Loc, start_error: &str) -> Result<(i32, i32), Stop> {
        // The ranges' start and end are fields 1 and 2.
        let start_loc = self.start(loc, &[1]);
        let start_token = self.input.current().clone();
        let start = self.consume_integer(start_error)?;
        if start == i32::MAX {
            self.error("Field number out of bounds.");
            return Err(Stop);
        }
        self.finish(start_loc);
        let has_to = self.try_consume("to");
        let end_loc = self.start(loc, &[2]);
        let end = if has_to {
            if self.try_consume("max") {
                -2
            } else {
                let end = self.consume_integer("Expected integer.")?;
                if end == i32::MAX {
                    self.error("Field number out of bounds.");
                    return Err(Stop);
                }
                end
            }
        } else {
            self.locations
                .start_at(end_loc, start_token.line, start_token.column);
            self.locations.end_at(end_loc, &start_token);
            start
        };
        self.finish(end_loc);
        Ok((start, end + 1))
    }
}

/// Whether a message's options set `message_set_wire_format = true`.
fn is_message_set(options: Option<&MessageOptions>) -> bool {
    options.is_some_and(|options| {
        options.uninterpreted_option.iter().any(|o| {
            o.name.len() == 1
                && o.name[0].is_extension != Some(true)
                && o.name[0].name_part() == "message_set_wire_format"
                && o.identifier_value.as_deref() == Some("true")
        })
    })
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

/// proto3 `optional` fields' synthetic oneofs: `_name`, prefixed with `X`
/// until no field or oneof has the name.
///
/// Two bounds keep hostile input linear: the number of `X`s tried for a
/// name resumes where the last field of that name stopped (names are only
/// added, so fewer cannot be free), and stops at [`MAX_ONEOF_PREFIX`]
/// (only reached with that many colliding names in one message, which
/// means duplicate field names, an error when linking).
fn generate_synthetic_oneofs(message: &mut DescriptorProto) {
    let mut names: HashSet<String> = message
        .field
        .iter()
        .map(|f| f.name().to_owned())
        .chain(message.oneof_decl.iter().map(|o| o.name().to_owned()))
        .collect();
    let mut prefixes: HashMap<String, usize> = HashMap::new();
    for field in &mut message.field {
        if field.proto3_optional != Some(true) {
            continue;
        }
        let mut base = field.name().to_owned();
        if !base.starts_with('_') {
            base.insert(0, '_');
        }
        let tried = prefixes.entry(base.clone()).or_insert(0);
        let mut name = format!("{}{base}", "X".repeat(*tried));
        while *tried < MAX_ONEOF_PREFIX && names.contains(&name) {
            name.insert(0, 'X');
            *tried += 1;
        }
        names.insert(name.clone());
        field.oneof_index = Some(message.oneof_decl.len() as i32);
        message.oneof_decl.push(OneofDescriptorProto {
            name: Some(name),
            ..Default::default()
        });
    }
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
