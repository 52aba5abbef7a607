//! Stage one: `.proto` text to an unlinked `FileDescriptorProto`, as
//! protoc's `Parser` produces it.
//!
//! The modules follow protoc's parser: the tokenizer, the locations it
//! records, and the statements by element kind (this module holds the
//! file's statements and the parser's shared steps).

mod enums;
mod locations;
mod message;
mod number;
mod option;
mod reserved;
mod service;
mod tokenizer;

#[cfg(test)]
mod robustness_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod value_tests;

use buffa::Enumeration;
use buffa_types::google::protobuf::{
    Edition, FileDescriptorProto, SourceCodeInfo, SymbolVisibility,
};

use crate::diagnostic::Diagnostic;
use locations::{Loc, Locations};
use tokenizer::{Comments, Kind, Tokenizer};

/// Parses the file imported as `name`.
///
/// The result is what protoc's parser produces: names (and type names) as
/// written, options as `uninterpreted_option`, map entries and proto3
/// `optional`'s synthetic oneofs generated, and `source_code_info` always
/// present (the linker locates its errors with it; the compiler drops it
/// when the caller does not ask for it).
pub(crate) fn parse_file(name: &str, text: &str) -> Result<FileDescriptorProto, Vec<Diagnostic>> {
    let mut file = FileDescriptorProto {
        name: Some(name.to_owned()),
        ..Default::default()
    };
    let mut parser = Parser::new(text.as_bytes());
    parser.parse(&mut file);
    let errors = parser.input.errors;
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|(line, column, message)| {
                // protoc reports errors it cannot place at line -1.
                Diagnostic::at(name, line.max(0) as u32, column.max(0) as u32, message)
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

/// How many messages (and groups) may nest, as protoc allows.
const MAX_NESTING: i32 = 32;

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
    /// How many more messages may nest.
    recursion_depth: i32,
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
        }
    }

    // ----- shared steps -----

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
            let value = tokenizer::parse_integer(&self.input.current().text, i32::MAX as u64);
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
            let value = tokenizer::parse_integer(&self.input.current().text, max);
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
                let value = tokenizer::parse_float(&token.text).unwrap_or(0.0);
                self.input.next();
                Ok(value)
            }
            Kind::Integer => {
                let text = token.text.clone();
                let value = match tokenizer::parse_integer(&text, u64::MAX) {
                    Some(value) => value as f64,
                    None if text.first() == Some(&b'0') => {
                        self.error("Integer out of range.");
                        0.0
                    }
                    None => tokenizer::parse_float(&text).unwrap_or_else(|| {
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
            tokenizer::parse_string_append(&self.input.current().text, &mut out);
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

    // ----- the file -----

    /// Parses the whole file into `file`.
    fn parse(&mut self, file: &mut FileDescriptorProto) {
        let mut comments = Comments::default();
        if !self.input.next_with_comments(&mut comments, false) && !self.input.errors.is_empty() {
            return;
        }
        self.upcoming_detached_comments = comments.detached;
        self.upcoming_doc_comments = comments.leading;

        let root = self.locations.start(None, &[], self.input.current());
        if self.looking_at("syntax") || self.looking_at("edition") {
            if self.parse_syntax_identifier(root).is_err() {
                return;
            }
            file.syntax = Some(self.syntax.clone());
            if self.syntax == "editions" {
                file.edition = Some(self.edition);
            }
        } else {
            self.syntax = "proto2".into();
        }
        while !self.at_end() {
            if self.parse_top_level_statement(file, root).is_err() {
                self.skip_statement();
                if self.looking_at("}") {
                    self.error("Unmatched \"}\".");
                    let mut comments = Comments::default();
                    self.input.next_with_comments(&mut comments, false);
                    self.upcoming_detached_comments = comments.detached;
                    self.upcoming_doc_comments = comments.leading;
                }
            }
        }
        self.finish(root);
    }

    /// `syntax = "proto3";` or `edition = "2023";`.
    fn parse_syntax_identifier(&mut self, root: Loc) -> Step {
        // FileDescriptorProto.syntax is field 12.
        let loc = self.start(root, &[12]);
        let has_edition = self.try_consume("edition");
        if !has_edition {
            self.consume_or(
                "syntax",
                "File must begin with an edition or syntax statement, e.g. 'edition = \"2023\";'.",
            )?;
        }
        self.consume("=")?;
        let (line, column) = (self.input.current().line, self.input.current().column);
        let syntax = self.consume_text("Expected syntax identifier.")?;
        self.consume_end_of_declaration(";", Some(loc))?;
        self.finish(loc);
        if has_edition {
            let edition = Edition::from_proto_name(&format!("EDITION_{syntax}"))
                .filter(|e| !matches!(e, Edition::Proto2 | Edition::Proto3 | Edition::Unknown));
            let Some(edition) = edition else {
                self.error_at(line, column, format!("Unknown edition \"{syntax}\"."));
                return Err(Stop);
            };
            self.edition = edition;
            self.syntax = "editions".into();
            return Ok(());
        }
        self.syntax = syntax.clone();
        if syntax != "proto2" && syntax != "proto3" {
            self.error_at(
                line,
                column,
                format!(
                    "Unrecognized syntax identifier \"{syntax}\".  This parser only recognizes \"proto2\" and \"proto3\"."
                ),
            );
            return Err(Stop);
        }
        Ok(())
    }

    /// One statement at the top of the file.
    fn parse_top_level_statement(&mut self, file: &mut FileDescriptorProto, root: Loc) -> Step {
        if self.try_consume_end_of_declaration(";", None) {
            return Ok(());
        }
        let mut visibility = None;
        if self.looking_at("export") || self.looking_at("local") {
            visibility = self.parse_visibility()?;
        }
        if self.looking_at("message") {
            self.recursion_depth = MAX_NESTING;
            // FileDescriptorProto.message_type is field 4.
            let loc = self.start(root, &[4, file.message_type.len() as i32]);
            let mut message = Default::default();
            let result = self.parse_message_definition(&mut message, visibility, loc);
            file.message_type.push(message);
            self.finish(loc);
            result
        } else if self.looking_at("enum") {
            // FileDescriptorProto.enum_type is field 5.
            let loc = self.start(root, &[5, file.enum_type.len() as i32]);
            let mut enum_type = Default::default();
            let result = self.parse_enum_definition(&mut enum_type, visibility, loc);
            file.enum_type.push(enum_type);
            self.finish(loc);
            result
        } else if self.looking_at("service") {
            // FileDescriptorProto.service is field 6.
            let loc = self.start(root, &[6, file.service.len() as i32]);
            let mut service = Default::default();
            let result = self.parse_service_definition(&mut service, loc);
            file.service.push(service);
            self.finish(loc);
            result
        } else if self.looking_at("extend") {
            // FileDescriptorProto.extension is field 7, message_type 4.
            let loc = self.start(root, &[7]);
            let result =
                self.parse_extend(&mut file.extension, &mut file.message_type, root, 4, loc);
            self.finish(loc);
            result
        } else if self.looking_at("import") {
            self.parse_import(file, root)
        } else if self.looking_at("package") {
            self.parse_package(file, root)
        } else if self.looking_at("option") {
            // FileDescriptorProto.options is field 8.
            let loc = self.start(root, &[8]);
            let options = &mut file.options.get_or_insert_default().uninterpreted_option;
            let result = self.parse_option(options, loc, option::Style::Statement);
            self.finish(loc);
            result
        } else {
            self.error("Expected top-level statement (e.g. \"message\").");
            Err(Stop)
        }
    }

    /// `export` or `local` before a message or enum (edition 2024 on);
    /// before that edition the keyword is left for the statement to
    /// reject.
    fn parse_visibility(&mut self) -> Result<Option<SymbolVisibility>, Stop> {
        if self.syntax != "editions" || (self.edition as i32) <= Edition::Edition2023 as i32 {
            return Ok(None);
        }
        let visibility = if self.try_consume("export") {
            SymbolVisibility::VisibilityExport
        } else {
            self.try_consume("local");
            SymbolVisibility::VisibilityLocal
        };
        if !self.looking_at("message") && !self.looking_at("enum") {
            self.error(
                "'local' and 'export' visibility modifiers are valid only on 'message' and 'enum'",
            );
            return Err(Stop);
        }
        Ok(Some(visibility))
    }

    /// `package a.b.c;`.
    fn parse_package(&mut self, file: &mut FileDescriptorProto, root: Loc) -> Step {
        if file.package.is_some() {
            self.error("Multiple package definitions.");
            file.package = None;
        }
        // FileDescriptorProto.package is field 2.
        let loc = self.start(root, &[2]);
        self.consume("package")?;
        let mut package = String::new();
        loop {
            let identifier = match self.consume_identifier("Expected identifier.") {
                Ok(identifier) => identifier,
                Err(stop) => {
                    // protoc's parser has set the package once a part was read.
                    if !package.is_empty() {
                        file.package = Some(package);
                    }
                    return Err(stop);
                }
            };
            package.push_str(&identifier);
            if !self.try_consume(".") {
                break;
            }
            package.push('.');
        }
        file.package = Some(package);
        self.consume_end_of_declaration(";", Some(loc))?;
        self.finish(loc);
        Ok(())
    }

    /// `import "x.proto";`, `import public`/`weak "x.proto";` and edition
    /// 2024's `import option "x.proto";`.
    fn parse_import(&mut self, file: &mut FileDescriptorProto, root: Loc) -> Step {
        let (start_line, start_column) = (self.input.current().line, self.input.current().column);
        self.consume("import")?;
        let edition = if self.syntax == "editions" {
            self.edition as i32
        } else {
            Edition::Unknown as i32
        };
        if self.looking_at("option") {
            if edition < Edition::Edition2024 as i32 {
                self.error("option import is not supported before edition 2024.");
            }
            // FileDescriptorProto.option_dependency is field 15.
            let loc = self.start(root, &[15, file.option_dependency.len() as i32]);
            self.locations.start_at(loc, start_line, start_column);
            self.consume("option")?;
            let name = self.consume_text("Expected a string naming the file to import.")?;
            file.option_dependency.push(name);
            self.consume_end_of_declaration(";", Some(loc))?;
            self.finish(loc);
            return Ok(());
        }
        // FileDescriptorProto.dependency is field 3.
        let loc = self.start(root, &[3, file.dependency.len() as i32]);
        self.locations.start_at(loc, start_line, start_column);
        if !file.option_dependency.is_empty() {
            self.error(
                "imports should precede any option imports to ensure proto files can roundtrip.",
            );
        }
        if self.looking_at("public") {
            // FileDescriptorProto.public_dependency is field 10.
            let public = self.start(root, &[10, file.public_dependency.len() as i32]);
            self.consume("public")?;
            self.finish(public);
            file.public_dependency.push(file.dependency.len() as i32);
        } else if self.looking_at("weak") {
            if edition >= Edition::Edition2024 as i32 {
                self.error(
                    "weak import is not supported in edition 2024 and above. Consider using option import instead.",
                );
            }
            // FileDescriptorProto.weak_dependency is field 11.
            let weak = self.start(root, &[11, file.weak_dependency.len() as i32]);
            self.consume("weak")?;
            self.finish(weak);
            file.weak_dependency.push(file.dependency.len() as i32);
        }
        let name = self.consume_text("Expected a string naming the file to import.")?;
        file.dependency.push(name);
        self.consume_end_of_declaration(";", Some(loc))?;
        self.finish(loc);
        Ok(())
    }
}
