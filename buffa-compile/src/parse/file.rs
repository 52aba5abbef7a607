//! The file's own statements: `syntax` or `edition`, `package`,
//! imports, file options, and the top-level definitions they dispatch to.

use buffa::Enumeration;
use buffa_types::google::protobuf::{Edition, FileDescriptorProto, SymbolVisibility};

use super::comments::Comments;
use super::locations::Loc;
use super::{MAX_NESTING, Parser, Step, Stop, option};

impl Parser<'_> {
    /// Parses the whole file into `file`.
    pub(super) fn parse(&mut self, file: &mut FileDescriptorProto) {
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
    pub(super) fn parse_visibility(&mut self) -> Result<Option<SymbolVisibility>, Stop> {
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
