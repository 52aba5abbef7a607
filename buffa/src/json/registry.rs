//! The message types `google.protobuf.Any` can be read and written as.

use alloc::{string::String, string::ToString, vec::Vec};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

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
///
/// Types known only at run time (from a descriptor pool) come from a
/// fallback [`AnyResolver`], consulted for names not registered here:
/// `buffa-reflect` implements it for its `DescriptorPool`.
#[derive(Clone, Default)]
pub struct TypeRegistry {
    types: HashMap<&'static str, RegisteredType>,
    resolver: Option<Arc<dyn AnyResolver>>,
}

/// Converts the messages of types a [`TypeRegistry`] has not registered
/// between their binary and JSON forms, for `google.protobuf.Any`: the
/// fallback of a registry (see [`TypeRegistry::set_resolver`]), for types
/// known only at run time. Both methods return `None` for a type the
/// resolver does not know either, which makes the `Any` an error.
///
/// `full_name` is what follows the last `/` of the `Any`'s type URL, a
/// full name without a leading dot (`pkg.Msg`): a type URL naming
/// `.pkg.Msg` holds an unknown type, and `Any`'s JSON form fails on it
/// without asking the resolver, as a registry would. Match names exactly.
pub trait AnyResolver: Send + Sync {
    /// The JSON form (under `options`) of the binary message `bytes` of
    /// type `full_name`, or `None` if the type is unknown.
    fn message_to_json(
        &self,
        full_name: &str,
        bytes: &[u8],
        options: &SerializeOptions,
    ) -> Option<Result<serde_json::Value, String>>;

    /// The binary form of the message of type `full_name` read from
    /// `value` in the read `cx` (which has not counted the message against
    /// the recursion limit yet), or `None` if the type is unknown.
    fn message_from_json(
        &self,
        full_name: &str,
        value: serde_json::Value,
        cx: DeserializeCx<'_>,
    ) -> Option<Result<Vec<u8>, String>>;
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

    /// Sets the resolver consulted for the types not registered here,
    /// replacing any set before.
    pub fn set_resolver(&mut self, resolver: Arc<dyn AnyResolver>) -> &mut TypeRegistry {
        self.resolver = Some(resolver);
        self
    }

    /// Whether a fallback resolver is set.
    pub fn has_resolver(&self) -> bool {
        self.resolver.is_some()
    }

    /// Whether the message type `full_name` (e.g. `"shop.v1.Order"`) is
    /// registered (the resolver is not asked).
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
    /// `None` if the type is neither registered nor known to the resolver.
    pub fn message_to_json(
        &self,
        full_name: &str,
        bytes: &[u8],
        options: &SerializeOptions,
    ) -> Option<Result<serde_json::Value, String>> {
        match self.types.get(full_name) {
            Some(registered) => Some((registered.to_json)(bytes, options)),
            None => self
                .resolver
                .as_ref()?
                .message_to_json(full_name, bytes, options),
        }
    }

    #[doc(hidden)]
    /// The binary form of the message of type `full_name` read from
    /// `value`, or `None` if the type is neither registered nor known to
    /// the resolver.
    pub fn message_from_json(
        &self,
        full_name: &str,
        value: serde_json::Value,
        cx: DeserializeCx<'_>,
    ) -> Option<Result<Vec<u8>, String>> {
        match self.types.get(full_name) {
            Some(registered) => Some((registered.from_json)(value, cx)),
            None => self
                .resolver
                .as_ref()?
                .message_from_json(full_name, value, cx),
        }
    }
}

impl fmt::Debug for TypeRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<_> = self.types.keys().collect();
        names.sort();
        f.debug_struct("TypeRegistry")
            .field("types", &names)
            .field("resolver", &self.resolver.is_some())
            .finish()
    }
}
