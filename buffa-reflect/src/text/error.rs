//! [`TextError`]: what went wrong parsing the text format, and where.

use std::fmt;

/// Text that does not parse as the message: where (1-based line and
/// column, columns counted in characters), and why.
///
/// ```text
/// line 3, column 7: unknown field `foo` in pkg.Msg
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    line: u32,
    column: u32,
    message: String,
}

impl TextError {
    pub(crate) fn new(line: u32, column: u32, message: impl Into<String>) -> TextError {
        TextError {
            line,
            column,
            message: message.into(),
        }
    }

    /// The line of the error, from 1.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The column of the error, from 1, in characters (a tab is one).
    pub fn column(&self) -> u32 {
        self.column
    }

    /// What is wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for TextError {}
