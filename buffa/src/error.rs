//! Errors returned by decoding and encoding.

use alloc::borrow::Cow;
use alloc::{boxed::Box, vec::Vec};
use core::fmt;

use crate::wire::WireType;

/// What went wrong while decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended in the middle of a value.
    Truncated,
    /// A varint had more than ten bytes.
    VarintTooLong,
    /// A ten-byte varint carried bits beyond the 64 a varint may hold. Such
    /// a varint is refused, as protobuf-go and prost refuse it, so that
    /// nothing kept from the input (unknown fields keep their bytes as
    /// read) can make buffa's own output unreadable to a strict parser.
    VarintOverflow,
    /// A field key used wire type 6 or 7.
    InvalidWireType(u8),
    /// A field key had field number 0 or one above `2^29 - 1`, or a value
    /// above `u32::MAX`.
    InvalidTag(u64),
    /// A known field arrived with a wire type its declaration does not allow.
    WireTypeMismatch {
        /// The field's number.
        field_number: u32,
        /// The wire type the schema implies.
        expected: WireType,
        /// The wire type found on the wire.
        actual: WireType,
    },
    /// A `string` field held bytes that are not UTF-8.
    InvalidUtf8,
    /// A length prefix claimed more bytes than the input has left.
    LengthOutOfBounds {
        /// The length the prefix claimed.
        length: u64,
        /// The bytes that remained.
        remaining: usize,
    },
    /// Messages were nested deeper than the configured recursion limit.
    RecursionLimitExceeded {
        /// The limit in force.
        limit: u32,
    },
    /// The input is larger than the 2 GiB a protobuf message may occupy.
    MessageTooLarge {
        /// The input's length in bytes.
        length: u64,
    },
    /// Decoding would allocate more than the budget set with
    /// [`DecodeOptions::with_allocation_limit`](crate::DecodeOptions::with_allocation_limit).
    AllocationLimitExceeded {
        /// The budget in force, in bytes.
        limit: usize,
    },
    /// An end-group key appeared with no open group, or closed a group with
    /// another field number.
    UnmatchedEndGroup {
        /// The field number of the stray end-group key.
        field_number: u32,
    },
    /// The input ended inside a group.
    MissingEndGroup {
        /// The field number of the unclosed group.
        field_number: u32,
    },
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Truncated => f.write_str("input ended in the middle of a value"),
            DecodeErrorKind::VarintTooLong => f.write_str("varint longer than 10 bytes"),
            DecodeErrorKind::VarintOverflow => f.write_str("varint value exceeds 64 bits"),
            DecodeErrorKind::InvalidWireType(bits) => write!(f, "invalid wire type {bits}"),
            DecodeErrorKind::InvalidTag(raw) => write!(f, "invalid field key {raw}"),
            DecodeErrorKind::WireTypeMismatch {
                field_number,
                expected,
                actual,
            } => write!(
                f,
                "field {field_number} has wire type {actual}, expected {expected}"
            ),
            DecodeErrorKind::InvalidUtf8 => f.write_str("string field is not valid UTF-8"),
            DecodeErrorKind::LengthOutOfBounds { length, remaining } => write!(
                f,
                "length prefix {length} exceeds the {remaining} bytes remaining"
            ),
            DecodeErrorKind::RecursionLimitExceeded { limit } => {
                write!(f, "messages nested deeper than the recursion limit {limit}")
            }
            DecodeErrorKind::MessageTooLarge { length } => {
                write!(f, "input of {length} bytes exceeds the 2 GiB message limit")
            }
            DecodeErrorKind::AllocationLimitExceeded { limit } => {
                write!(
                    f,
                    "decoding needs more than the allocation limit of {limit} bytes"
                )
            }
            DecodeErrorKind::UnmatchedEndGroup { field_number } => {
                write!(
                    f,
                    "end-group key for field {field_number} matches no open group"
                )
            }
            DecodeErrorKind::MissingEndGroup { field_number } => {
                write!(f, "input ended inside group field {field_number}")
            }
        }
    }
}

/// A decoding failure: what went wrong, where in the input, and inside
/// which fields.
///
/// The error is one pointer wide so that `Result<(), DecodeError>` stays
/// cheap on the hot decoding path.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError {
    inner: Box<ErrorInner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ErrorInner {
    kind: DecodeErrorKind,
    offset: Option<usize>,
    /// Innermost first: (message full name, field number).
    path: Vec<(Cow<'static, str>, u32)>,
}

impl DecodeError {
    /// Creates an error of `kind` with no position attached.
    #[doc(hidden)]
    #[cold]
    pub fn new(kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            inner: Box::new(ErrorInner {
                kind,
                offset: None,
                path: Vec::new(),
            }),
        }
    }

    /// Creates an error of `kind` at byte `offset` of the input.
    #[doc(hidden)]
    #[cold]
    pub fn at(kind: DecodeErrorKind, offset: usize) -> DecodeError {
        let mut error = DecodeError::new(kind);
        error.inner.offset = Some(offset);
        error
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.inner.kind
    }

    /// Byte offset in the input where the problem was found, when known.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The fields being decoded when the error happened, outermost first,
    /// as (message full name, field number) pairs.
    pub fn field_path(&self) -> impl Iterator<Item = (&str, u32)> + '_ {
        self.inner
            .path
            .iter()
            .rev()
            .map(|(name, number)| (&**name, *number))
    }

    /// Records that the error happened inside field `field_number` of
    /// message `message`. Called as the error travels outwards.
    #[doc(hidden)]
    #[cold]
    pub fn in_field(
        mut self,
        message: impl Into<Cow<'static, str>>,
        field_number: u32,
    ) -> DecodeError {
        self.inner.path.push((message.into(), field_number));
        self
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("kind", &self.inner.kind)
            .field("offset", &self.inner.offset)
            .field("path", &self.inner.path)
            .finish()
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "failed to decode protobuf message: {}", self.inner.kind)?;
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        let mut path = self.field_path().peekable();
        if path.peek().is_some() {
            f.write_str(" in ")?;
            for (i, (message, field)) in path.enumerate() {
                if i > 0 {
                    f.write_str(" > ")?;
                }
                write!(f, "{message} field {field}")?;
            }
        }
        Ok(())
    }
}

impl core::error::Error for DecodeError {}

/// What went wrong while encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The destination buffer cannot hold the message.
    BufferTooSmall {
        /// Bytes the message needs.
        required: usize,
        /// Bytes the buffer had room for.
        remaining: usize,
    },
    /// The message is longer than the 2 GiB - 1 bytes
    /// ([`MAX_MESSAGE_LEN`](crate::MAX_MESSAGE_LEN)) a protobuf message may
    /// occupy, which no decoder would accept.
    MessageTooLarge {
        /// The message's encoded length in bytes.
        length: usize,
    },
    /// Messages are nested deeper than the recursion limit of the
    /// [`EncodeOptions`](crate::EncodeOptions), so a decoder under the same
    /// limit would refuse the output.
    RecursionLimitExceeded {
        /// The limit in force.
        limit: u32,
    },
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeErrorKind::BufferTooSmall {
                required,
                remaining,
            } => write!(f, "needs {required} bytes, buffer has room for {remaining}"),
            EncodeErrorKind::MessageTooLarge { length } => {
                write!(f, "{length} bytes exceed the 2 GiB message limit")
            }
            EncodeErrorKind::RecursionLimitExceeded { limit } => {
                write!(f, "messages nested deeper than the recursion limit {limit}")
            }
        }
    }
}

/// An encoding failure: what went wrong and in which message. Encoding
/// writes nothing when it fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    kind: EncodeErrorKind,
    message: Cow<'static, str>,
}

impl EncodeError {
    /// Creates an error of `kind` for encoding the message type named
    /// `message` (its full protobuf name).
    #[doc(hidden)]
    #[cold]
    pub fn new(kind: EncodeErrorKind, message: impl Into<Cow<'static, str>>) -> EncodeError {
        EncodeError {
            kind,
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.kind
    }

    /// The full protobuf name of the message being encoded.
    pub fn message_name(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "failed to encode protobuf message {}: {}",
            self.message, self.kind
        )
    }
}

impl core::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;

    use super::*;

    #[test]
    fn display_names_kind_offset_and_path() {
        let error = DecodeError::at(DecodeErrorKind::InvalidUtf8, 17)
            .in_field("pkg.Inner", 3)
            .in_field("pkg.Outer", 1);
        assert_eq!(
            error.to_string(),
            "failed to decode protobuf message: string field is not valid UTF-8 at byte 17 \
             in pkg.Outer field 1 > pkg.Inner field 3"
        );
        assert_eq!(
            error.field_path().collect::<Vec<_>>(),
            [("pkg.Outer", 1), ("pkg.Inner", 3)]
        );
    }

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(
            core::mem::size_of::<Result<(), DecodeError>>(),
            core::mem::size_of::<usize>()
        );
    }
}
