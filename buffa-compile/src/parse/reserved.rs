//! `reserved` statements of messages and enums: numbers and ranges, or
//! names (string literals before editions, identifiers in editions).

use super::locations::Loc;
use super::tokenizer::Kind;
use super::{Parser, Step, Stop};

/// Whose `reserved` statement is parsed: the two differ in field numbers,
/// wording and how ranges end.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReservedKind {
    /// A message's: field numbers, end exclusive.
    Message,
    /// An enum's: values (signed), end inclusive.
    Enum,
}

/// What one `reserved` statement adds.
#[derive(Default)]
pub(crate) struct Reserved {
    /// Reserved names.
    pub(crate) names: Vec<String>,
    /// Reserved ranges as the descriptor holds them (end exclusive for
    /// messages, inclusive for enums).
    pub(crate) ranges: Vec<(i32, i32)>,
}

impl ReservedKind {
    /// The `reserved_range` and `reserved_name` field numbers.
    fn fields(self) -> (i32, i32) {
        match self {
            ReservedKind::Message => (9, 10),
            ReservedKind::Enum => (4, 5),
        }
    }
}

impl Parser<'_> {
    /// `reserved ...;` inside the element recorded at `parent_loc`, which
    /// already has `existing` (ranges, names).
    pub(crate) fn parse_reserved(
        &mut self,
        kind: ReservedKind,
        existing: (usize, usize),
        out: &mut Reserved,
        parent_loc: Loc,
    ) -> Step {
        let (range_field, name_field) = kind.fields();
        let (line, column) = (self.input.current().line, self.input.current().column);
        self.consume("reserved")?;
        let editions = self.syntax == "editions";
        let (field, names) = if self.looking_at_kind(Kind::String) {
            if editions {
                self.error("Reserved names must be identifiers in editions, not string literals.");
                return Err(Stop);
            }
            (name_field, true)
        } else if self.looking_at_kind(Kind::Identifier) {
            if !editions {
                self.error(
                    "Reserved names must be string literals. (Only editions supports identifiers.)",
                );
                return Err(Stop);
            }
            (name_field, true)
        } else {
            (range_field, false)
        };
        let loc = self.start(parent_loc, &[field]);
        self.locations.start_at(loc, line, column);
        let result = if names {
            self.parse_reserved_names(kind, existing.1, out, loc)
        } else {
            self.parse_reserved_numbers(kind, existing.0, out, loc)
        };
        self.finish(loc);
        result
    }

    /// Comma-separated names, then `;`.
    fn parse_reserved_names(
        &mut self,
        kind: ReservedKind,
        existing: usize,
        out: &mut Reserved,
        loc: Loc,
    ) -> Step {
        let identifiers = self.syntax == "editions";
        let error = match (kind, identifiers) {
            (ReservedKind::Message, false) => "Expected field name string literal.",
            (ReservedKind::Message, true) => "Expected field name identifier.",
            (ReservedKind::Enum, false) => "Expected enum value string literal.",
            (ReservedKind::Enum, true) => "Expected enum value identifier.",
        };
        loop {
            let name_loc = self.start(loc, &[(existing + out.names.len()) as i32]);
            let name = if identifiers {
                self.consume_identifier(error)?
            } else {
                self.consume_text(error)?
            };
            out.names.push(name);
            self.finish(name_loc);
            if !self.try_consume(",") {
                break;
            }
        }
        self.consume_end_of_declaration(";", Some(loc))
    }

    /// Comma-separated numbers and ranges, then `;`.
    fn parse_reserved_numbers(
        &mut self,
        kind: ReservedKind,
        existing: usize,
        out: &mut Reserved,
        loc: Loc,
    ) -> Step {
        let mut first = true;
        loop {
            let range_loc = self.start(loc, &[(existing + out.ranges.len()) as i32]);
            let range = match kind {
                ReservedKind::Message => self.parse_range(
                    range_loc,
                    if first {
                        "Expected field name or number range."
                    } else {
                        "Expected field number range."
                    },
                )?,
                ReservedKind::Enum => self.parse_enum_range(range_loc, first)?,
            };
            out.ranges.push(range);
            self.finish(range_loc);
            first = false;
            if !self.try_consume(",") {
                break;
            }
        }
        self.consume_end_of_declaration(";", Some(loc))
    }

    /// An enum's reserved `start`, `start to end` or `start to max`
    /// (signed, end inclusive).
    fn parse_enum_range(&mut self, loc: Loc, first: bool) -> Result<(i32, i32), Stop> {
        // EnumReservedRange's start and end are fields 1 and 2.
        let start_loc = self.start(loc, &[1]);
        let start_token = self.input.current().clone();
        let start = self.consume_signed_integer(if first {
            "Expected enum value or number range."
        } else {
            "Expected enum number range."
        })?;
        self.finish(start_loc);
        let has_to = self.try_consume("to");
        let end_loc = self.start(loc, &[2]);
        let end = if has_to {
            if self.try_consume("max") {
                i32::MAX
            } else {
                self.consume_signed_integer("Expected integer.")?
            }
        } else {
            self.locations
                .start_at(end_loc, start_token.line, start_token.column);
            self.locations.end_at(end_loc, &start_token);
            start
        };
        self.finish(end_loc);
        Ok((start, end))
    }
}
