//! The error of JSON conversions.

use core::fmt;

use serde::de::Error as _;

/// Why a message could not be read from or written as JSON. Errors in the
/// input say where: [`JsonError::line`] and [`JsonError::column`].
#[derive(Debug)]
pub struct JsonError(serde_json::Error);

impl JsonError {
    pub(super) fn too_long(len: usize, max_len: usize) -> JsonError {
        JsonError(serde_json::Error::custom(format_args!(
            "JSON input of {len} bytes is longer than the limit of {max_len} bytes"
        )))
    }

    /// The 1-based line of the input where the error was found, or 0 when
    /// it is not about a place in the input.
    pub fn line(&self) -> usize {
        self.0.line()
    }

    /// The 1-based column of the input where the error was found, or 0 when
    /// it is not about a place in the input.
    pub fn column(&self) -> usize {
        self.0.column()
    }

    /// Whether the input ended before the JSON value did.
    pub fn is_eof(&self) -> bool {
        self.0.is_eof()
    }

    /// Whether the input is not JSON at all (as opposed to JSON that does
    /// not fit the message).
    pub fn is_syntax(&self) -> bool {
        self.0.is_syntax()
    }
}

impl From<serde_json::Error> for JsonError {
    fn from(error: serde_json::Error) -> JsonError {
        JsonError(error)
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}
