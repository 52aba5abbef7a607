//! The message types `google.protobuf.Any` can be read and written as.

use std::collections::HashMap;
use std::fmt;

use super::read::DeserializeCx;
use super::{JsonMessage, SerializeOptions, WithOptions};

/// Message types by full name, for the JSON form of `google.protobuf.Any`,
/// which writes the packed message's fields beside its `"@type"`.
///
/// Code generated with `Config::json()` has a `register_types` function in
/// every package module that adds the package's messages:
///
/// ```ignore
/// let mut registry = buffa::json::TypeRegistry::new();
/// shop::v1::register_types(&mut registry);
/// let options = buffa::json::SerializeOptions::new().with_type_registry(registry.into());
/// ```
#[derive(Clone, Default)]
pub struct TypeRegistry {
    types: HashMap<&'static str, RegisteredType>,
}

#[derive(Clone, Copy)]
struct RegisteredType {
    to_json: fn(&[u8], &SerializeOptions) -> Result<serde_json::Value, String>,
    from_json: fn(serde_json::Value, DeserializeCx<'_>) -> Result<Vec<u8>, String>,
}

impl TypeRegistry {
    /// An empty registry.
    pub fn new() -> TypeRegistry {
        TypeRegistry::default()
    }

    /// Adds message type `M` under its full name ([`crate::Message::NAME`]).
    pub fn register<M: JsonMessage>(&mut self) -> &mut TypeRegistry {
        self.types.insert(
            M::NAME,
            RegisteredType {
                to_json: |bytes, options| {
                    let message = M::decode_from_slice(bytes).map_err(|e| e.to_string())?;
                    // Through text rather than `serde_json::to_value`, which
                    // would widen a float to the double nearest it and print
                    // all its digits; the text of a float reads back as the
                    // double that prints the same.
                    let text = serde_json::to_string(&WithOptions::new(&message, options))
                        .map_err(|e| e.to_string())?;
                    serde_json::from_str(&text).map_err(|e| e.to_string())
                },
                from_json: |value, cx| {
                    let message: M = cx.message(value).map_err(|e| e.to_string())?;
                    Ok(message.encode_to_vec())
                },
            },
        );
        self
    }

    /// Whether the message type `full_name` (e.g. `"shop.v1.Order"`) is
    /// registered.
    pub fn contains(&self, full_name: &str) -> bool {
        self.types.contains_key(full_name)
    }

    /// The number of registered types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether no type is registered.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    #[doc(hidden)]
    /// The JSON form of the binary message `bytes` of type `full_name`, or
    /// `None` if the type is not registered.
    pub fn message_to_json(
        &self,
        full_name: &str,
        bytes: &[u8],
        options: &SerializeOptions,
    ) -> Option<Result<serde_json::Value, String>> {
        let registered = self.types.get(full_name)?;
        Some((registered.to_json)(bytes, options))
    }

    #[doc(hidden)]
    /// The binary form of the message of type `full_name` read from
    /// `value`, or `None` if the type is not registered.
    pub fn message_from_json(
        &self,
        full_name: &str,
        value: serde_json::Value,
        cx: DeserializeCx<'_>,
    ) -> Option<Result<Vec<u8>, String>> {
        let registered = self.types.get(full_name)?;
        Some((registered.from_json)(value, cx))
    }
}

impl fmt::Debug for TypeRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<_> = self.types.keys().collect();
        names.sort();
        f.debug_struct("TypeRegistry")
            .field("types", &names)
            .finish()
    }
}
