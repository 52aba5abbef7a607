//! Messages and what they hold: fields (with groups and maps), oneofs,
//! `extend` blocks, extension ranges and reserved numbers and names.

use buffa_types::google::protobuf::descriptor_proto::{ExtensionRange, ReservedRange};
use buffa_types::google::protobuf::field_descriptor_proto::Label;
use buffa_types::google::protobuf::{
    DescriptorProto, FieldDescriptorProto, MessageOptions, OneofDescriptorProto, SymbolVisibility,
};

use std::collections::{HashMap, HashSet};

use super::locations::Loc;
use super::option::Style;
use super::reserved::{Reserved, ReservedKind};
use super::{MAX_NESTING, Parser, Step, Stop, TOO_DEEP};

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
/// `FieldDescriptorProto.extendee`.
const FIELD_EXTENDEE: i32 = 2;

/// The most `X`s a synthetic oneof's name is given.
const MAX_ONEOF_PREFIX: usize = 1000;

/// The most copies of extension range options (and of their locations)
/// one `extensions` statement may make: one per range it lists.
const MAX_RANGE_OPTION_COPIES: usize = 1 << 20;

/// The largest field number plus one: the end of `to max`.
const MAX_FIELD_END: i32 = 536_870_912;

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
            self.error(TOO_DEEP);
            return Err(Stop);
        }
        self.consume("message")?;
        let name_loc = self.start(loc, &[NAME]);
        message.name = Some(self.consume_identifier("Expected message name.")?);
        self.finish(name_loc);
        self.parse_nested_block(message, loc)?;
        if self.syntax == "proto3" {
            generate_synthetic_oneofs(message);
        }
        message.visibility = visibility;
        Ok(())
    }

    /// A message's or group's `{ ... }`, one level deeper than the
    /// enclosing one. Past protoc's limit the body is skipped and the
    /// error left for the end of the file (protoc's parser recurses on
    /// where groups are involved and its `DescriptorBuilder` reports it).
    pub(super) fn parse_nested_block(&mut self, message: &mut DescriptorProto, loc: Loc) -> Step {
        self.nesting += 1;
        let result = if self.nesting >= MAX_NESTING {
            self.too_deep = true;
            if self.try_consume("{") {
                self.skip_body();
                Ok(())
            } else {
                self.consume_end_of_declaration("{", Some(loc))
            }
        } else {
            self.parse_message_block(message, loc)
        };
        self.nesting -= 1;
        result
    }

    /// Skips to the `}` matching a `{` just consumed, and past it.
    fn skip_body(&mut self) {
        let mut depth = 1usize;
        while !self.at_end() {
            if self.looking_at("{") {
                depth += 1;
            } else if self.looking_at("}") {
                depth -= 1;
                if depth == 0 {
                    self.try_consume_end_of_declaration("}", None);
                    return;
                }
            }
            self.input.next();
        }
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
