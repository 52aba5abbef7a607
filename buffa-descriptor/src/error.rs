//! [`DescriptorError`]: why a descriptor was refused, and where.

use std::fmt;

/// A descriptor the pool refused: undecodable bytes, or a file that is not
/// a valid protobuf schema (a missing dependency, a type name that does not
/// resolve, a duplicate name or field number, ...).
///
/// The message says what is wrong and where, as
/// `file name: element kind and full name: problem`, e.g.
/// `shop.proto: field shop.Order.item: type .shop.Item is not defined`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescriptorError {
    inner: Box<Inner>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    file: Option<String>,
    element: Option<(&'static str, String)>,
    message: String,
    decode: Option<buffa::DecodeError>,
}

impl DescriptorError {
    /// An error about a whole file, or about the pool when `file` is `None`.
    pub(crate) fn new(file: Option<&str>, message: impl Into<String>) -> DescriptorError {
        DescriptorError {
            inner: Box::new(Inner {
                file: file.map(str::to_owned),
                element: None,
                message: message.into(),
                decode: None,
            }),
        }
    }

    /// An error about one element (`kind` is "message", "field", ...) of
    /// `file`.
    pub(crate) fn element(
        file: &str,
        kind: &'static str,
        full_name: &str,
        message: impl Into<String>,
    ) -> DescriptorError {
        DescriptorError {
            inner: Box::new(Inner {
                file: Some(file.to_owned()),
                element: Some((kind, full_name.to_owned())),
                message: message.into(),
                decode: None,
            }),
        }
    }

    /// The bytes given to [`DescriptorPool::decode`](crate::DescriptorPool::decode)
    /// are not a `FileDescriptorSet`.
    pub(crate) fn decode(error: buffa::DecodeError) -> DescriptorError {
        DescriptorError {
            inner: Box::new(Inner {
                file: None,
                element: None,
                message: format!("invalid FileDescriptorSet: {error}"),
                decode: Some(error),
            }),
        }
    }

    /// The name of the file at fault, if the error is about one.
    pub fn file_name(&self) -> Option<&str> {
        self.inner.file.as_deref()
    }

    /// The full name of the element at fault (a message, field, enum, ...),
    /// if the error is about one.
    pub fn element_name(&self) -> Option<&str> {
        self.inner.element.as_ref().map(|(_, name)| name.as_str())
    }

    /// What is wrong, without the file and element the [`Display`]
    /// output starts with.
    ///
    /// [`Display`]: fmt::Display
    pub fn message(&self) -> &str {
        &self.inner.message
    }
}

impl fmt::Display for DescriptorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.inner.file {
            write!(f, "{file}: ")?;
        }
        if let Some((kind, name)) = &self.inner.element {
            write!(f, "{kind} {name}: ")?;
        }
        f.write_str(&self.inner.message)
    }
}

impl std::error::Error for DescriptorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner
            .decode
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
