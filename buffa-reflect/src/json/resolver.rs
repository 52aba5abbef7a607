//! `google.protobuf.Any` holding a type of a [`DescriptorPool`]: the pool
//! (as a [`PoolResolver`]) is the fallback [`AnyResolver`] of a
//! [`TypeRegistry`], through which
//! `buffa-types`' `Any` form writes and reads the packed message as a
//! [`DynamicMessage`].

use std::borrow::Cow;
use std::sync::Arc;

use buffa::json::DeserializeCx;
use buffa::json::{AnyResolver, DeserializeOptions, SerializeOptions, TypeRegistry};

use super::read::deserialize_message;
use super::write::MessageJson;
use crate::dynamic::DynamicMessage;
use crate::{DescriptorPool, MessageDescriptor};

/// A pool's message types, for `Any`: a `PoolResolver` given to
/// [`TypeRegistry::set_resolver`] makes every message type its pool holds
/// readable and writable inside an `Any`. Names are matched exactly, as a
/// registry matches them: `.pkg.Msg`, which
/// [`DescriptorPool::get_message_by_name`] reads as `pkg.Msg`, names no
/// type here (an `Any`'s type URL gives the full name, which has no
/// leading dot).
///
/// (The pool is wrapped because [`DescriptorPool`] lives in
/// `buffa-descriptor`, which knows no dynamic messages.)
///
/// ```
/// use std::sync::Arc;
/// use buffa::json::TypeRegistry;
/// use buffa_reflect::{DescriptorPool, json::PoolResolver};
///
/// let pool = DescriptorPool::new();
/// let mut registry = TypeRegistry::new();
/// registry.set_resolver(Arc::new(PoolResolver::new(pool)));
/// ```
#[derive(Clone, Debug)]
pub struct PoolResolver {
    pool: DescriptorPool,
}

impl PoolResolver {
    /// A resolver of the message types of `pool`.
    pub fn new(pool: DescriptorPool) -> PoolResolver {
        PoolResolver { pool }
    }

    /// The pool whose types this resolves.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }
}

impl From<DescriptorPool> for PoolResolver {
    fn from(pool: DescriptorPool) -> PoolResolver {
        PoolResolver::new(pool)
    }
}

impl AnyResolver for PoolResolver {
    fn message_to_json(
        &self,
        full_name: &str,
        bytes: &[u8],
        options: &SerializeOptions,
    ) -> Option<Result<serde_json::Value, String>> {
        let descriptor = message_type(&self.pool, full_name)?;
        let json = || {
            let message = DynamicMessage::decode(descriptor, bytes).map_err(|e| e.to_string())?;
            // Through text, as registered types are: a float's short form
            // reads back as the double that prints the same.
            let text = buffa::json::serialize_to_vec(&MessageJson {
                message: &message,
                options,
            })
            .map_err(|e| e.to_string())?;
            serde_json::from_slice(&text).map_err(|e| e.to_string())
        };
        Some(json())
    }

    fn message_from_json(
        &self,
        full_name: &str,
        value: serde_json::Value,
        cx: DeserializeCx<'_>,
    ) -> Option<Result<Vec<u8>, String>> {
        let descriptor = message_type(&self.pool, full_name)?;
        let mut message = DynamicMessage::new(descriptor);
        let bytes = deserialize_message(value, cx, &mut message)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                message
                    .encode_to_vec_with_options(&buffa::EncodeOptions::new())
                    .map_err(|e| e.to_string())
            });
        Some(bytes)
    }
}

/// The message type of `pool` whose full name is exactly `full_name`.
fn message_type(pool: &DescriptorPool, full_name: &str) -> Option<MessageDescriptor> {
    if full_name.starts_with('.') {
        return None;
    }
    pool.get_message_by_name(full_name)
}

/// `registry` with `pool` as its resolver, unless it has one already.
fn with_pool(registry: Option<&TypeRegistry>, pool: &DescriptorPool) -> Option<Arc<TypeRegistry>> {
    if registry.is_some_and(TypeRegistry::has_resolver) {
        return None;
    }
    let mut registry = registry.cloned().unwrap_or_default();
    registry.set_resolver(Arc::new(PoolResolver::new(pool.clone())));
    Some(Arc::new(registry))
}

/// `options`, whose type registry falls back to `pool` (the pool of the
/// message written) unless it has a resolver of its own.
pub(super) fn serialize_options<'o>(
    options: &'o SerializeOptions,
    pool: &DescriptorPool,
) -> Cow<'o, SerializeOptions> {
    match with_pool(options.type_registry(), pool) {
        Some(registry) => Cow::Owned(options.clone().with_type_registry(registry)),
        None => Cow::Borrowed(options),
    }
}

/// `options`, whose type registry falls back to `pool` (the pool of the
/// message read) unless it has a resolver of its own.
pub(super) fn deserialize_options<'o>(
    options: &'o DeserializeOptions,
    pool: &DescriptorPool,
) -> Cow<'o, DeserializeOptions> {
    match with_pool(options.type_registry(), pool) {
        Some(registry) => Cow::Owned(options.clone().with_type_registry(registry)),
        None => Cow::Borrowed(options),
    }
}
