//! Stage one: `.proto` text to an unlinked `FileDescriptorProto`, as
//! protoc's `Parser` produces it.
//!
//! The modules follow protoc's parser: the tokenizer ([`tokenizer`], with
//! [`comments`] sorting comments and [`literal`] reading literal values),
//! the source info it records ([`locations`]), and the statements by
//! element kind ([`file`](mod@file), [`message`], [`field`], [`option`],
//! [`reserved`], [`enums`], [`service`]; [`number`] prints defaults).
//! This module holds the parser's state and the steps they share.

mod comments;
mod enums;
mod field;
mod file;
mod literal;
mod locations;
mod message;
mod number;
mod option;
mod reserved;
mod service;
mod tokenizer;

#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod mutant_tests;
#[cfg(test)]
mod robustness_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod value_tests;

use buffa_types::google::protobuf::{Edition, FileDescriptorProto, SourceCodeInfo};

use crate::diagnostic::Diagnostic;
use comments::Comments;
use locations::{Loc, Locations};
use tokenizer::{Kind, Tokenizer};

/// Parses the file imported as `name`.
///
/// The result is what protoc's parser produces: names (and type names) as
/// written, options as `uninterpreted_option`, map entries and proto3
/// `optional`'s synthetic oneofs generated, and `source_code_info` always
/// present (the linker locates its errors with it; the compiler drops it
/// when the caller does not ask for it).
pub(crate) fn parse_file(
    name: &str,
    text: &(impl AsRef<[u8]> + ?Sized),
) -> Result<FileDescriptorProto, Vec<Diagnostic>> {
    let mut file = FileDescriptorProto {
        name: Some(name.to_owned()),
        ..Default::default()
    };
    let mut parser = Parser::new(text.as_ref());
    parser.parse(&mut file);
    let mut errors = parser.input.errors;
    if errors.is_empty() && parser.too_deep {
        // protoc's parser accepts it; its DescriptorBuilder reports this,
        // without a position, before any other error of the file.
        errors.push((-1, 0, TOO_DEEP.to_owned()));
    }
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|(line, column, message)| {
                // protoc reports errors it cannot place at line -1.
                if line < 0 {
                    Diagnostic::file(name, message)
                } else {
                    Diagnostic::at(name, line as u32, column.max(0) as u32, message)
                }
            })
            .collect());
    }
    file.source_code_info = buffa::MessageField::some(SourceCodeInfo {
        location: parser.locations.list,
        ..Default::default()
    });
    Ok(file)
}

/// A statement failed; its error is recorded and the parser skips ahead.
#[derive(Debug)]
pub(crate) struct Stop;

/// What a parsing step returns: `Err` after recording an error.
pub(crate) type Step = Result<(), Stop>;

/// Messages (groups included) may nest to one level less than this, as
/// protoc allows.
const MAX_NESTING: i32 = 32;

/// protoc's error for messages nested too deep.
const TOO_DEEP: &str = "Reached maximum recursion limit for nested messages.";

/// protoc's parser state.
pub(crate) struct Parser<'a> {
    /// The tokens, and the errors found so far (the tokenizer's and the
    /// parser's, in the order found).
    input: Tokenizer<'a>,
    /// The source info recorded so far.
    locations: Locations,
    /// `proto2`, `proto3` or `editions`, as the syntax statement says.
    syntax: String,
    /// The edition an `edition` statement names.
    edition: Edition,
    /// The leading comment of the next declaration.
    upcoming_doc_comments: Vec<u8>,
    /// The detached comments before the next declaration.
    upcoming_detached_comments: Vec<Vec<u8>>,
    /// How many more messages may nest within the top-level message, as
    /// protoc's parser counts (groups do not count).
    recursion_depth: i32,
    /// How deep the current message or group is (a top-level one is 1),
    /// as protoc's `DescriptorBuilder` counts.
    nesting: i32,
    /// Whether a message or group was nested deeper than protoc's
    /// `DescriptorBuilder` allows (its body was skipped).
    too_deep: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`.
    fn new(text: &'a [u8]) -> Parser<'a> {
        Parser {
            input: Tokenizer::new(text),
            locations: Locations::default(),
            syntax: String::new(),
            edition: Edition::Unknown,
            upcoming_doc_comments: Vec::new(),
            upcoming_detached_comments: Vec::new(),
            recursion_depth: MAX_NESTING,
            nesting: 0,
            too_deep: false,
        }
    }

    /// Whether the current token's text is `text`.
    fn looking_at(&self, text: &str) -> bool {
        self.input.current().text == text.as_bytes()
    }

    /// Whether the current token is of `kind`.
    fn looking_at_kind(&self, kind: Kind) -> bool {
        self.input.current().kind == kind
    }

    /// Whether the input is exhausted.
    fn at_end(&self) -> bool {
        self.looking_at_kind(Kind::End)
    }

    /// The current token's text as a string.
    fn current_text(&self) -> String {
        String::from_utf8_lossy(&self.input.current().text).into_owned()
    }

    /// Records an error at the current token.
    fn error(&mut self, message: impl Into<String>) {
        let (line, column) = (self.input.current().line, self.input.current().column);
        self.error_at(line, column, message);
    }

    /// Records an error at `line`, `column`.
    fn error_at(&mut self, line: i32, column: i32, message: impl Into<String>) {
        self.input.errors.push((line, column, message.into()));
    }

    /// Consumes `text` if it is the current token.
    fn try_consume(&mut self, text: &str) -> bool {
        if self.looking_at(text) {
            self.input.next();
            true
        } else {
            false
        }
    }

    /// Consumes `text`, or records `Expected "text".`.
    fn consume(&mut self, text: &str) -> Step {
        self.consume_or(text, &format!("Expected \"{text}\"."))
    }

    /// Consumes `text`, or records `error`.
    fn consume_or(&mut self, text: &str, error: &str) -> Step {
        if self.try_consume(text) {
            Ok(())
        } else {
            self.error(error);
            Err(Stop)
        }
    }

    /// Consumes an identifier, or records `error`.
    fn consume_identifier(&mut self, error: &str) -> Result<String, Stop> {
        if self.looking_at_kind(Kind::Identifier) {
            let text = self.current_text();
            self.input.next();
            Ok(text)
        } else {
            self.error(error);
            Err(Stop)
        }
    }

    /// Consumes a non-negative integer no greater than `i32::MAX` (an error,
    /// but not a stop, when it is greater), or records `error`.
    fn consume_integer(&mut self, error: &str) -> Result<i32, Stop> {
        if self.looking_at_kind(Kind::Integer) {
            let value = literal::parse_integer(&self.input.current().text, i32::MAX as u64);
            if value.is_none() {
                self.error("Integer out of range.");
            }
            self.input.next();
            Ok(value.unwrap_or(0) as i32)
        } else {
            self.error(error);
            Err(Stop)
        }
    }

    /// Consumes an integer no greater than `max` (0 after an error when it
    /// is greater), or records `error`.
    fn consume_integer64(&mut self, max: u64, error: &str) -> Result<u64, Stop> {
        if self.looking_at_kind(Kind::Integer) {
            let value = literal::parse_integer(&self.input.current().text, max);
            if value.is_none() {
                self.error("Integer out of range.");
            }
            self.input.next();
            Ok(value.unwrap_or(0))
        } else {
            self.error(error);
            Err(Stop)
        }
    }

    /// Consumes an optionally negative 32-bit integer.
    fn consume_signed_integer(&mut self, error: &str) -> Result<i32, Stop> {
        let mut max = i32::MAX as u64;
        let negative = self.try_consume("-");
        if negative {
            max += 1;
        }
        let value = self.consume_integer64(max, error)?;
        Ok(if negative {
            (value as i64).wrapping_neg() as i32
        } else {
            value as i32
        })
    }

    /// Consumes a number (float, integer, `inf` or `nan`) as a double.
    fn consume_number(&mut self, error: &str) -> Result<f64, Stop> {
        let token = self.input.current();
        match token.kind {
            Kind::Float => {
                let value = literal::parse_float(&token.text).unwrap_or(0.0);
                self.input.next();
                Ok(value)
            }
            Kind::Integer => {
                let text = token.text.clone();
                let value = match literal::parse_integer(&text, u64::MAX) {
                    Some(value) => value as f64,
                    None if text.first() == Some(&b'0') => {
                        self.error("Integer out of range.");
                        0.0
                    }
                    None => literal::parse_float(&text).unwrap_or_else(|| {
                        self.error("Integer out of range.");
                        0.0
                    }),
                };
                self.input.next();
                Ok(value)
            }
            _ if self.looking_at("inf") => {
                self.input.next();
                Ok(f64::INFINITY)
            }
            _ if self.looking_at("nan") => {
                self.input.next();
                Ok(f64::NAN)
            }
            _ => {
                self.error(error);
                Err(Stop)
            }
        }
    }

    /// Consumes a string literal and the literals right after it, joined.
    fn consume_string(&mut self, error: &str) -> Result<Vec<u8>, Stop> {
        if !self.looking_at_kind(Kind::String) {
            self.error(error);
            return Err(Stop);
        }
        let mut out = Vec::new();
        while self.looking_at_kind(Kind::String) {
            literal::parse_string_append(&self.input.current().text, &mut out);
            self.input.next();
        }
        Ok(out)
    }

    /// [`Parser::consume_string`] as a `String` (bytes that are not UTF-8
    /// are replaced).
    fn consume_text(&mut self, error: &str) -> Result<String, Stop> {
        let bytes = self.consume_string(error)?;
        Ok(String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// Consumes the `;`, `{` or `}` that ends a declaration, reading the
    /// comments after it; the comments of the declaration `loc` records
    /// attach to it.
    fn try_consume_end_of_declaration(&mut self, text: &str, loc: Option<Loc>) -> bool {
        if !self.looking_at(text) {
            return false;
        }
        let mut comments = Comments::default();
        self.input.next_with_comments(&mut comments, true);
        let leading = std::mem::replace(&mut self.upcoming_doc_comments, comments.leading);
        if let Some(loc) = loc {
            let detached =
                std::mem::replace(&mut self.upcoming_detached_comments, comments.detached);
            self.locations
                .attach_comments(loc, leading, comments.trailing, detached);
        } else if text == "}" {
            self.upcoming_detached_comments = comments.detached;
        } else {
            self.upcoming_detached_comments.extend(comments.detached);
        }
        true
    }

    /// [`Parser::try_consume_end_of_declaration`], or records `Expected
    /// "text".`.
    fn consume_end_of_declaration(&mut self, text: &str, loc: Option<Loc>) -> Step {
        if self.try_consume_end_of_declaration(text, loc) {
            Ok(())
        } else {
            self.error(format!("Expected \"{text}\"."));
            Err(Stop)
        }
    }

    /// Starts a location under `parent` with `path` appended, at the
    /// current token.
    fn start(&mut self, parent: Loc, path: &[i32]) -> Loc {
        self.locations
            .start(Some(parent), path, self.input.current())
    }

    /// Ends `loc` after the last token consumed, unless it was ended.
    fn finish(&mut self, loc: Loc) {
        self.locations.finish(loc, self.input.previous());
    }

    /// Skips to the end of the current statement (after its `;` or its
    /// block) after an error.
    fn skip_statement(&mut self) {
        loop {
            if self.at_end() {
                return;
            }
            if self.looking_at_kind(Kind::Symbol) {
                if self.try_consume_end_of_declaration(";", None) {
                    return;
                } else if self.try_consume("{") {
                    self.skip_rest_of_block();
                    return;
                } else if self.looking_at("}") {
                    return;
                }
            }
            self.input.next();
        }
    }

    /// Skips to the end of the block whose `{` was consumed.
    fn skip_rest_of_block(&mut self) {
        let mut depth = 1usize;
        loop {
            if self.at_end() {
                return;
            }
            if self.looking_at_kind(Kind::Symbol) {
                if self.try_consume_end_of_declaration("}", None) {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else if self.try_consume("{") {
                    depth += 1;
                }
            }
            self.input.next();
        }
    }
}
