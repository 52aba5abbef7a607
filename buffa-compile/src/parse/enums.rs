//! Enums: values with their numbers and options, enum options and
//! reserved values, and the two checks protoc's parser makes on
//! `allow_alias`.

use std::collections::HashSet;

use buffa_types::google::protobuf::enum_descriptor_proto::EnumReservedRange;
use buffa_types::google::protobuf::{
    EnumDescriptorProto, EnumValueDescriptorProto, SymbolVisibility,
};

use super::locations::Loc;
use super::option::Style;
use super::reserved::{Reserved, ReservedKind};
use super::{Parser, Step, Stop};

/// `EnumDescriptorProto.name` and `EnumValueDescriptorProto.name`.
const NAME: i32 = 1;
/// `EnumDescriptorProto.value`.
const VALUE: i32 = 2;
/// `EnumDescriptorProto.options`.
const OPTIONS: i32 = 3;
/// `EnumValueDescriptorProto.number`.
const VALUE_NUMBER: i32 = 2;
/// `EnumValueDescriptorProto.options`.
const VALUE_OPTIONS: i32 = 3;

impl Parser<'_> {
    /// `enum Name { ... }`, recorded at `loc`.
    pub(crate) fn parse_enum_definition(
        &mut self,
        enum_type: &mut EnumDescriptorProto,
        visibility: Option<SymbolVisibility>,
        loc: Loc,
    ) -> Step {
        self.consume("enum")?;
        let name_loc = self.start(loc, &[NAME]);
        enum_type.name = Some(self.consume_identifier("Expected enum name.")?);
        self.finish(name_loc);
        self.consume_end_of_declaration("{", Some(loc))?;
        while !self.try_consume_end_of_declaration("}", None) {
            if self.at_end() {
                self.error("Reached end of input in enum definition (missing '}').");
                return Err(Stop);
            }
            if self.parse_enum_statement(enum_type, loc).is_err() {
                self.skip_statement();
            }
        }
        self.validate_enum(enum_type)?;
        enum_type.visibility = visibility;
        Ok(())
    }

    /// One statement inside an enum's braces.
    fn parse_enum_statement(&mut self, enum_type: &mut EnumDescriptorProto, loc: Loc) -> Step {
        if self.try_consume_end_of_declaration(";", None) {
            Ok(())
        } else if self.looking_at("option") {
            let options_loc = self.start(loc, &[OPTIONS]);
            let options = &mut enum_type
                .options
                .get_or_insert_default()
                .uninterpreted_option;
            let result = self.parse_option(options, options_loc, Style::Statement);
            self.finish(options_loc);
            result
        } else if self.looking_at("reserved") {
            let mut reserved = Reserved::default();
            let existing = (
                enum_type.reserved_range.len(),
                enum_type.reserved_name.len(),
            );
            let result = self.parse_reserved(ReservedKind::Enum, existing, &mut reserved, loc);
            enum_type.reserved_name.extend(reserved.names);
            enum_type
                .reserved_range
                .extend(
                    reserved
                        .ranges
                        .into_iter()
                        .map(|(start, end)| EnumReservedRange {
                            start: Some(start),
                            end: Some(end),
                            ..Default::default()
                        }),
                );
            result
        } else {
            let value_loc = self.start(loc, &[VALUE, enum_type.value.len() as i32]);
            let mut value = EnumValueDescriptorProto::default();
            let result = self.parse_enum_constant(&mut value, value_loc);
            enum_type.value.push(value);
            self.finish(value_loc);
            result
        }
    }

    /// `NAME = 1 [options];`.
    fn parse_enum_constant(&mut self, value: &mut EnumValueDescriptorProto, loc: Loc) -> Step {
        let name_loc = self.start(loc, &[NAME]);
        value.name = Some(self.consume_identifier("Expected enum constant name.")?);
        self.finish(name_loc);
        self.consume_or("=", "Missing numeric value for enum constant.")?;
        let number_loc = self.start(loc, &[VALUE_NUMBER]);
        value.number = Some(self.consume_signed_integer("Expected integer.")?);
        self.finish(number_loc);
        if self.looking_at("[") {
            let options_loc = self.start(loc, &[VALUE_OPTIONS]);
            self.consume("[")?;
            let options = &mut value.options.get_or_insert_default().uninterpreted_option;
            loop {
                self.parse_option(options, options_loc, Style::Assignment)?;
                if !self.try_consume(",") {
                    break;
                }
            }
            self.consume("]")?;
            self.finish(options_loc);
        }
        self.consume_end_of_declaration(";", Some(loc))
    }

    /// protoc's parser rejects `allow_alias = false` and `allow_alias =
    /// true` without aliases.
    fn validate_enum(&mut self, enum_type: &EnumDescriptorProto) -> Step {
        let mut has_allow_alias = false;
        let mut allow_alias = false;
        if let Some(options) = enum_type.options.as_option() {
            for option in &options.uninterpreted_option {
                if option.name.len() > 1 {
                    continue;
                }
                let Some(part) = option.name.first() else {
                    continue;
                };
                if part.is_extension != Some(true) && part.name_part() == "allow_alias" {
                    has_allow_alias = true;
                    allow_alias = option.identifier_value.as_deref() == Some("true");
                    break;
                }
            }
        }
        let name = enum_type.name();
        if has_allow_alias && !allow_alias {
            self.error(format!(
                "\"{name}\" declares 'option allow_alias = false;' which has no effect. Please remove the declaration."
            ));
            return Err(Stop);
        }
        let mut seen = HashSet::new();
        let has_duplicates = !enum_type.value.iter().all(|v| seen.insert(v.number()));
        if allow_alias && !has_duplicates {
            self.error(format!(
                "\"{name}\" declares support for enum aliases but no enum values share field numbers. Please remove the unnecessary 'option allow_alias = true;' declaration."
            ));
            return Err(Stop);
        }
        Ok(())
    }
}
