//! Options as protoc's parser leaves them: `uninterpreted_option`s (name
//! parts and a value of one of six kinds), except a field's `default` and
//! `json_name`, which become `default_value` and `json_name`.

use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::uninterpreted_option::NamePart;
use buffa_types::google::protobuf::{FieldDescriptorProto, UninterpretedOption};

use super::literal;
use super::locations::Loc;
use super::number::{c_escape, simple_dtoa};
use super::tokenizer::Kind;
use super::{Parser, Step, Stop};

/// Whether an option is a statement (`option x = 1;`) or an assignment in
/// brackets (`[x = 1]`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// `option name = value;`.
    Statement,
    /// `name = value` in a field's or value's brackets.
    Assignment,
}

/// `UninterpretedOption.name`.
const NAME: i32 = 2;
/// `UninterpretedOption.identifier_value`.
const IDENTIFIER_VALUE: i32 = 3;
/// `UninterpretedOption.positive_int_value`.
const POSITIVE_INT_VALUE: i32 = 4;
/// `UninterpretedOption.negative_int_value`.
const NEGATIVE_INT_VALUE: i32 = 5;
/// `UninterpretedOption.double_value`.
const DOUBLE_VALUE: i32 = 6;
/// `UninterpretedOption.string_value`.
const STRING_VALUE: i32 = 7;
/// `UninterpretedOption.aggregate_value`.
const AGGREGATE_VALUE: i32 = 8;
/// `UninterpretedOption.NamePart.name_part`.
const NAME_PART: i32 = 1;
/// Every `*Options` message's `uninterpreted_option` field.
const UNINTERPRETED_OPTION: i32 = 999;

impl Parser<'_> {
    /// One option into `options` (an `*Options`' `uninterpreted_option`),
    /// recorded under `options_loc`.
    pub(crate) fn parse_option(
        &mut self,
        options: &mut Vec<UninterpretedOption>,
        options_loc: Loc,
        style: Style,
    ) -> Step {
        let loc = self.start(options_loc, &[UNINTERPRETED_OPTION, options.len() as i32]);
        if style == Style::Statement {
            self.consume("option")?;
        }
        options.push(UninterpretedOption::default());
        let option = options.last_mut().expect("just pushed");
        let result = self.parse_option_body(option, loc, style);
        self.finish(loc);
        result
    }

    /// The name, `=` and value of an option (and a statement's `;`).
    fn parse_option_body(
        &mut self,
        option: &mut UninterpretedOption,
        loc: Loc,
        style: Style,
    ) -> Step {
        let name_loc = self.start(loc, &[NAME]);
        let part_loc = self.start(name_loc, &[option.name.len() as i32]);
        self.parse_option_name_part(option, part_loc)?;
        self.finish(part_loc);
        while self.looking_at(".") {
            self.consume(".")?;
            let part_loc = self.start(name_loc, &[option.name.len() as i32]);
            self.parse_option_name_part(option, part_loc)?;
            self.finish(part_loc);
        }
        self.finish(name_loc);
        self.consume("=")?;

        let value_loc = self.start(loc, &[]);
        let negative = self.try_consume("-");
        match self.input.current().kind {
            Kind::End => {
                self.error("Unexpected end of stream while parsing option value.");
                return Err(Stop);
            }
            Kind::Identifier => {
                self.locations.add_path(value_loc, IDENTIFIER_VALUE);
                let value = self.consume_identifier("Expected identifier.")?;
                if negative {
                    if value == "inf" {
                        option.double_value = Some(f64::NEG_INFINITY);
                    } else if value == "nan" {
                        option.double_value = Some(f64::NAN);
                    } else {
                        self.error("Identifier after '-' symbol must be inf or nan.");
                        return Err(Stop);
                    }
                } else {
                    option.identifier_value = Some(value);
                }
            }
            Kind::Integer | Kind::Float => {
                let max = if negative {
                    i64::MAX as u64 + 1
                } else {
                    u64::MAX
                };
                let integer = (self.input.current().kind == Kind::Integer)
                    .then(|| literal::parse_integer(&self.input.current().text, max))
                    .flatten();
                if let Some(value) = integer {
                    self.input.next();
                    if negative {
                        self.locations.add_path(value_loc, NEGATIVE_INT_VALUE);
                        option.negative_int_value = Some(0i64.wrapping_sub(value as i64));
                    } else {
                        self.locations.add_path(value_loc, POSITIVE_INT_VALUE);
                        option.positive_int_value = Some(value);
                    }
                } else {
                    self.locations.add_path(value_loc, DOUBLE_VALUE);
                    let value = self.consume_number("Expected number.")?;
                    option.double_value = Some(if negative { -value } else { value });
                }
            }
            Kind::String => {
                self.locations.add_path(value_loc, STRING_VALUE);
                if negative {
                    self.error("Invalid '-' symbol before string.");
                    return Err(Stop);
                }
                option.string_value = Some(self.consume_string("Expected string.")?);
            }
            _ => {
                if self.looking_at("{") {
                    self.locations.add_path(value_loc, AGGREGATE_VALUE);
                    option.aggregate_value = Some(self.parse_uninterpreted_block()?);
                } else {
                    self.error("Expected option value.");
                    return Err(Stop);
                }
            }
        }
        self.finish(value_loc);
        if style == Style::Statement {
            self.consume_end_of_declaration(";", Some(loc))?;
        }
        Ok(())
    }

    /// One part of an option's name: `foo` or `(foo.bar)`.
    fn parse_option_name_part(&mut self, option: &mut UninterpretedOption, part_loc: Loc) -> Step {
        let mut part = String::new();
        let is_extension = self.looking_at("(");
        if is_extension {
            self.consume("(")?;
            let loc = self.start(part_loc, &[NAME_PART]);
            let result = (|| {
                if self.looking_at_kind(Kind::Identifier) {
                    part.push_str(&self.consume_identifier("Expected identifier.")?);
                }
                while self.looking_at(".") {
                    self.consume(".")?;
                    part.push('.');
                    part.push_str(&self.consume_identifier("Expected identifier.")?);
                }
                Ok(())
            })();
            option.name.push(NamePart {
                name_part: Some(part),
                ..Default::default()
            });
            result?;
            self.finish(loc);
            self.consume(")")?;
        } else {
            let loc = self.start(part_loc, &[NAME_PART]);
            let identifier = self.consume_identifier("Expected identifier.");
            option.name.push(NamePart {
                name_part: Some(identifier?),
                ..Default::default()
            });
            self.finish(loc);
        }
        if let Some(last) = option.name.last_mut() {
            last.is_extension = Some(is_extension);
        }
        Ok(())
    }

    /// An aggregate value, `{ ... }`: the text between the braces, rebuilt
    /// from its tokens with their line breaks and spacing.
    fn parse_uninterpreted_block(&mut self) -> Result<String, Stop> {
        if !self.looking_at("{") {
            self.error("Expected \"{\".");
            return Err(Stop);
        }
        let mut value = Vec::new();
        let mut depth = 1;
        self.input.report_whitespace = true;
        self.input.report_newlines = true;
        self.input.next();
        while !self.at_end() {
            if self.looking_at("{") {
                depth += 1;
            } else if self.looking_at("}") {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            let current = self.input.current();
            let previous = self.input.previous();
            let previous_end_line = if previous.kind == Kind::Newline {
                previous.line + 1
            } else {
                previous.line
            };
            if current.line > previous_end_line {
                let lines = (current.line - previous_end_line) as usize;
                value.extend(std::iter::repeat_n(b'\n', lines));
                value.extend(std::iter::repeat_n(b' ', current.column.max(0) as usize));
            } else if current.line == previous_end_line && current.column > previous.end_column {
                let spaces = (current.column - previous.end_column) as usize;
                value.extend(std::iter::repeat_n(b' ', spaces));
            }
            value.extend_from_slice(&current.text);
            self.input.next();
        }
        self.input.report_whitespace = false;
        self.input.report_newlines = false;
        if depth == 0 {
            self.input.next();
            Ok(String::from_utf8(value)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
        } else {
            self.error("Unexpected end of stream while parsing aggregate value.");
            Err(Stop)
        }
    }

    /// A field's options in brackets, `[default = 1, json_name = "x", ...]`.
    pub(crate) fn parse_field_options(
        &mut self,
        field: &mut FieldDescriptorProto,
        field_loc: Loc,
    ) -> Step {
        if !self.looking_at("[") {
            return Ok(());
        }
        // FieldDescriptorProto.options is field 8.
        let loc = self.start(field_loc, &[8]);
        self.consume("[")?;
        loop {
            if self.looking_at("default") {
                self.parse_default_assignment(field, field_loc)?;
            } else if self.looking_at("json_name") {
                self.parse_json_name(field, field_loc)?;
            } else {
                let options = &mut field.options.get_or_insert_default().uninterpreted_option;
                self.parse_option(options, loc, Style::Assignment)?;
            }
            if !self.try_consume(",") {
                break;
            }
        }
        self.consume("]")?;
        self.finish(loc);
        Ok(())
    }

    /// `default = ...`: the value as protoc's parser writes it.
    fn parse_default_assignment(
        &mut self,
        field: &mut FieldDescriptorProto,
        field_loc: Loc,
    ) -> Step {
        if field.default_value.is_some() {
            self.error("Already set option \"default\".");
            field.default_value = None;
        }
        self.consume("default")?;
        self.consume("=")?;
        // FieldDescriptorProto.default_value is field 7.
        let loc = self.start(field_loc, &[7]);
        let result = self.parse_default_value(field);
        self.finish(loc);
        result
    }

    /// The value of `default = ...` for `field`'s type.
    fn parse_default_value(&mut self, field: &mut FieldDescriptorProto) -> Step {
        let Some(ty) = field.r#type else {
            field.default_value = Some(self.current_text());
            self.input.next();
            return Ok(());
        };
        let mut value = String::new();
        match ty {
            Type::Int32
            | Type::Int64
            | Type::Sint32
            | Type::Sint64
            | Type::Sfixed32
            | Type::Sfixed64 => {
                let mut max = if matches!(ty, Type::Int32 | Type::Sint32 | Type::Sfixed32) {
                    i32::MAX as u64
                } else {
                    i64::MAX as u64
                };
                if self.try_consume("-") {
                    value.push('-');
                    max += 1;
                }
                let number =
                    self.consume_integer64(max, "Expected integer for field default value.");
                field.default_value = Some(value.clone());
                value.push_str(&number?.to_string());
            }
            Type::Uint32 | Type::Uint64 | Type::Fixed32 | Type::Fixed64 => {
                let max = if matches!(ty, Type::Uint32 | Type::Fixed32) {
                    u32::MAX as u64
                } else {
                    u64::MAX
                };
                if self.try_consume("-") {
                    self.error("Unsigned field can't have negative default value.");
                }
                let number =
                    self.consume_integer64(max, "Expected integer for field default value.");
                field.default_value = Some(String::new());
                value.push_str(&number?.to_string());
            }
            Type::Float | Type::Double => {
                if self.try_consume("-") {
                    value.push('-');
                }
                field.default_value = Some(value.clone());
                let number = self.consume_number("Expected number.")?;
                value.push_str(&simple_dtoa(number));
            }
            Type::Bool => {
                if self.try_consume("true") {
                    value.push_str("true");
                } else if self.try_consume("false") {
                    value.push_str("false");
                } else {
                    field.default_value = Some(String::new());
                    self.error("Expected \"true\" or \"false\".");
                    return Err(Stop);
                }
            }
            Type::String => {
                field.default_value = Some(String::new());
                value = self.consume_text("Expected string for field default value.")?;
            }
            Type::Bytes => {
                field.default_value = Some(String::new());
                value = c_escape(&self.consume_string("Expected string.")?);
            }
            Type::Enum => {
                field.default_value = Some(String::new());
                value =
                    self.consume_identifier("Expected enum identifier for field default value.")?;
            }
            Type::Message | Type::Group => {
                field.default_value = Some(String::new());
                self.error("Messages can't have default values.");
                return Err(Stop);
            }
        }
        field.default_value = Some(value);
        Ok(())
    }

    /// `json_name = "..."`.
    fn parse_json_name(&mut self, field: &mut FieldDescriptorProto, field_loc: Loc) -> Step {
        if field.json_name.is_some() {
            self.error("Already set option \"json_name\".");
            field.json_name = None;
        }
        // FieldDescriptorProto.json_name is field 10.
        let loc = self.start(field_loc, &[10]);
        self.consume("json_name")?;
        self.consume("=")?;
        let value_loc = self.start(loc, &[]);
        field.json_name = Some(self.consume_text("Expected string for JSON name.")?);
        self.finish(value_loc);
        self.finish(loc);
        Ok(())
    }
}
