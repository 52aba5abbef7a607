//! Errors of a compilation, located as protoc locates them (file, line and
//! column) and rendered as rustc renders its own, with the offending line
//! and a caret under it.

use std::fmt;

use buffa_types::google::protobuf::FileDescriptorProto;

/// One problem found in a `.proto` file.
///
/// `line` and `column` are 1-based, as protoc prints them (`file.proto:3:9:
/// ...`); `column` counts a tab as advancing to the next multiple of 8, as
/// protoc's tokenizer does. Problems that belong to no position (a file
/// that cannot be read) have `line` and `column` 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file's name as imported (relative to its include directory).
    pub file: String,
    /// 1-based line, 0 when the problem has no position.
    pub line: u32,
    /// 1-based column, 0 when the problem has no position.
    pub column: u32,
    /// What is wrong, worded as protoc words it where protoc reports it.
    pub message: String,
}

impl Diagnostic {
    /// A problem at a 0-based `line` and `column`, as the tokenizer and
    /// `SourceCodeInfo` spans count them.
    pub fn at(file: &str, line: u32, column: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_owned(),
            line: line + 1,
            column: column + 1,
            message: message.into(),
        }
    }

    /// A problem at the start of the element `path` names in `file`'s
    /// `SourceCodeInfo` (as descriptor.proto numbers paths: `[4, 0, 2, 1]`
    /// is the second field of the first message), or at the start of the
    /// file when no location has that path.
    pub fn at_path(
        file: &FileDescriptorProto,
        path: &[i32],
        message: impl Into<String>,
    ) -> Diagnostic {
        let name = file.name.as_deref().unwrap_or_default();
        let span = file
            .source_code_info
            .as_option()
            .and_then(|info| info.location.iter().find(|l| l.path == path))
            .map(|l| l.span.as_slice());
        match span {
            Some([line, column, ..]) => Diagnostic::at(name, *line as u32, *column as u32, message),
            _ => Diagnostic::at(name, 0, 0, message),
        }
    }

    /// A problem of a whole file (it cannot be found or read).
    pub fn file(file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_owned(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }

    /// The diagnostic as rustc renders its own: the message, the position,
    /// the source line and a caret under the column.
    ///
    /// `source` is the text of [`Diagnostic::file`]; without it (or for a
    /// problem without position) only the first two lines are written.
    pub fn render(&self, source: Option<&str>) -> String {
        let mut out = format!("error: {}\n", self.message);
        if self.line == 0 {
            out.push_str(&format!("  --> {}\n", self.file));
            return out;
        }
        out.push_str(&format!(
            "  --> {}:{}:{}\n",
            self.file, self.line, self.column
        ));
        let Some(text) = source.and_then(|s| s.lines().nth(self.line as usize - 1)) else {
            return out;
        };
        let number = self.line.to_string();
        let gutter = " ".repeat(number.len());
        let expanded = expand_tabs(text);
        let caret_at = (self.column as usize - 1).min(expanded.len());
        out.push_str(&format!("{gutter} |\n{number} | {expanded}\n"));
        out.push_str(&format!("{gutter} | {}^\n", " ".repeat(caret_at)));
        out
    }
}

/// `text` with each tab replaced by the spaces to the next multiple of 8,
/// so that a column counted as protoc counts it lines up with the text.
fn expand_tabs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\t' {
            let pad = 8 - out.chars().count() % 8;
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for Diagnostic {
    /// protoc's one-line form: `file.proto:3:9: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

/// A failed compilation: every problem found, in the order protoc reports
/// them, with the sources they point into for rendering.
#[derive(Debug, Clone)]
pub struct CompileError {
    diagnostics: Vec<Diagnostic>,
    sources: Vec<(String, String)>,
}

impl CompileError {
    pub(crate) fn new(
        diagnostics: Vec<Diagnostic>,
        sources: Vec<(String, String)>,
    ) -> CompileError {
        CompileError {
            diagnostics,
            sources,
        }
    }

    /// The problems, first found first. Never empty.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Every diagnostic rendered with its source line and a caret
    /// ([`Diagnostic::render`]).
    pub fn render(&self) -> String {
        self.diagnostics
            .iter()
            .map(|d| {
                let source = self
                    .sources
                    .iter()
                    .find(|(name, _)| *name == d.file)
                    .map(|(_, text)| text.as_str());
                d.render(source)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl fmt::Display for CompileError {
    /// One line per diagnostic, in protoc's form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_caret_under_the_column() {
        let d = Diagnostic::at("a.proto", 1, 8, "Expected \";\".");
        assert_eq!(d.to_string(), "a.proto:2:9: Expected \";\".");
        let source = "syntax = \"proto3\";\nmessage A {}\n";
        assert_eq!(
            d.render(Some(source)),
            "error: Expected \";\".\n  --> a.proto:2:9\n  |\n2 | message A {}\n  |         ^\n"
        );
    }

    #[test]
    fn tabs_advance_to_the_next_multiple_of_eight() {
        let d = Diagnostic::at("a.proto", 0, 8, "here");
        let rendered = d.render(Some("\tint32 x = 1;"));
        assert!(
            rendered.ends_with("1 |         int32 x = 1;\n  |         ^\n"),
            "{rendered}"
        );
    }

    #[test]
    fn a_file_problem_has_no_position() {
        let d = Diagnostic::file("missing.proto", "File not found.");
        assert_eq!(d.to_string(), "missing.proto: File not found.");
        assert_eq!(
            d.render(None),
            "error: File not found.\n  --> missing.proto\n"
        );
    }
}
