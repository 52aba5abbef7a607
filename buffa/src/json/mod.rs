//! Proto3 JSON ("ProtoJSON") through serde. Needs the `json` feature.
//!
//! Code generated with `buffa_build::Config::json()` implements
//! [`serde::Serialize`] and [`serde::Deserialize`] for every message and
//! enum, following the protobuf JSON mapping with the default options, so
//! `serde_json::to_string(&message)` and any serde data format work. The
//! functions here take [`SerializeOptions`] and [`DeserializeOptions`] too:
//!
//! ```ignore
//! let json = buffa::json::to_string(&order)?;
//! let order: Order = buffa::json::from_str(&json)?;
//!
//! let options = buffa::json::SerializeOptions::new().with_proto_field_names(true);
//! let json = buffa::json::to_string_with(&order, &options)?;
//! ```
//!
//! Parsing is bounded: messages nest at most
//! [`DeserializeOptions::recursion_limit`] levels (100, as in the binary
//! format), and everything allocated is proportional to the input (or
//! within [`DeserializeOptions::allocation_limit`]). The `from_*`
//! functions also refuse input longer than
//! [`DeserializeOptions::max_len`] and, through serde_json, input nested
//! more than 128 arrays and objects deep; with another deserializer
//! ([`MessageSeed`], or serde's `Deserialize`), those two bounds are the
//! deserializer's own. Errors say what is wrong and where (line and
//! column).
//!
//! `google.protobuf.Any` needs to know the message types it may hold: a
//! [`TypeRegistry`] filled by the generated `register_types` functions,
//! given in the options, whose fallback [`AnyResolver`] may know more
//! types at run time (`buffa-reflect`'s `DescriptorPool` is one). The
//! well-known types of `buffa-types` are always known.

mod base64;
mod error;
mod extension;
mod kind;
mod options;
mod read;
mod registry;
pub mod scalar;
mod write;
mod writer;

use alloc::{string::String, vec::Vec};
use std::io;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::Message;

pub use error::JsonError;
pub use options::{DEFAULT_MAX_JSON_LEN, DeserializeOptions, SerializeOptions};
pub use registry::{AnyResolver, TypeRegistry};

/// The support API of generated JSON code. **Not public API.**
#[doc(hidden)]
pub mod __private {
    pub use super::kind::{MessageKind, NullValueKind, deserialize_enum, serialize_enum};
    pub use super::read::{DeserializeCx, FieldReader, JsonFields, deserialize_fields};
    pub use super::write::MessageWriter;
    pub use serde;

    use super::JsonMessage;

    /// `Serialize::serialize` of a generated message: its JSON form under
    /// the default options.
    #[inline]
    pub fn serialize<M: JsonMessage, S: serde::Serializer>(
        message: &M,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        message.serialize_json(serializer, &super::SerializeOptions::DEFAULT)
    }

    /// `Deserialize::deserialize` of a generated message, under the default
    /// options.
    #[inline]
    pub fn deserialize<'de, M: JsonMessage, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<M, D::Error> {
        let budget = DeserializeCx::budget(&super::DeserializeOptions::DEFAULT);
        DeserializeCx::new(&super::DeserializeOptions::DEFAULT, &budget).message(deserializer)
    }
}

pub use read::{DeserializeCx, JsonObject, oneof_conflict, read_object};

/// A message with a proto3 JSON form. Generated with
/// `buffa_build::Config::json()`; the well-known types of `buffa-types`
/// implement their special forms by hand.
pub trait JsonMessage: Message {
    /// Writes the message's JSON form under `options`. Generated code
    /// writes an object of the set fields; a well-known type writes its
    /// special form (a `Timestamp` is an RFC 3339 string).
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        options: &SerializeOptions,
    ) -> Result<S::Ok, S::Error>;

    /// Reads the message from its JSON form. `cx` carries the options and
    /// has already counted this message against the recursion limit; a
    /// form that holds messages reads them through
    /// [`DeserializeCx::message`], which counts the next level.
    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        cx: DeserializeCx<'_>,
    ) -> Result<Self, D::Error>;

    /// The message a JSON `null` stands for, where it stands for one:
    /// `google.protobuf.Value` reads `null` as its null value. For every
    /// other message, `null` means "not set".
    fn json_null() -> Option<Self> {
        None
    }
}

/// A message together with the options to serialize it with: a
/// [`Serialize`] value for any serde serializer.
#[derive(Clone, Copy, Debug)]
pub struct WithOptions<'a, M> {
    message: &'a M,
    options: &'a SerializeOptions,
}

impl<'a, M: JsonMessage> WithOptions<'a, M> {
    /// Pairs `message` with `options`.
    pub fn new(message: &'a M, options: &'a SerializeOptions) -> WithOptions<'a, M> {
        WithOptions { message, options }
    }
}

impl<M: JsonMessage> Serialize for WithOptions<'_, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.message.serialize_json(serializer, self.options)
    }
}

/// Reads a message of type `M` under the given options from any serde
/// deserializer: a [`DeserializeSeed`].
#[derive(Clone, Copy, Debug)]
pub struct MessageSeed<'a, M> {
    options: &'a DeserializeOptions,
    message: PhantomData<fn() -> M>,
}

impl<'a, M: JsonMessage> MessageSeed<'a, M> {
    /// A seed reading `M` under `options`.
    pub fn new(options: &'a DeserializeOptions) -> MessageSeed<'a, M> {
        MessageSeed {
            options,
            message: PhantomData,
        }
    }
}

impl<'de, M: JsonMessage> DeserializeSeed<'de> for MessageSeed<'_, M> {
    type Value = M;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<M, D::Error> {
        let budget = DeserializeCx::budget(self.options);
        DeserializeCx::new(self.options, &budget).message(deserializer)
    }
}

/// The JSON form of `message`, under the default options.
pub fn to_string<M: JsonMessage>(message: &M) -> Result<String, JsonError> {
    to_string_with(message, &SerializeOptions::DEFAULT)
}

/// The JSON form of `message`, under `options`.
pub fn to_string_with<M: JsonMessage>(
    message: &M,
    options: &SerializeOptions,
) -> Result<String, JsonError> {
    let json = to_vec_with(message, options)?;
    // The writer writes UTF-8 only.
    Ok(String::from_utf8(json).expect("the JSON writer wrote invalid UTF-8"))
}

/// The JSON form of `message` as UTF-8 bytes, under the default options.
pub fn to_vec<M: JsonMessage>(message: &M) -> Result<Vec<u8>, JsonError> {
    to_vec_with(message, &SerializeOptions::DEFAULT)
}

/// The JSON form of `message` as UTF-8 bytes, under `options`.
pub fn to_vec_with<M: JsonMessage>(
    message: &M,
    options: &SerializeOptions,
) -> Result<Vec<u8>, JsonError> {
    serialize_to_vec(&WithOptions::new(message, options))
}

/// Writes the JSON form of `message` to `writer`, under `options`.
pub fn to_writer_with<M: JsonMessage, W: io::Write>(
    writer: W,
    message: &M,
    options: &SerializeOptions,
) -> Result<(), JsonError> {
    Ok(serde_json::to_writer(
        writer,
        &WithOptions::new(message, options),
    )?)
}

/// Parses a message from its JSON form, under the default options.
pub fn from_str<M: JsonMessage>(json: &str) -> Result<M, JsonError> {
    from_slice_with(json.as_bytes(), &DeserializeOptions::DEFAULT)
}

/// Parses a message from its JSON form, under `options`.
pub fn from_str_with<M: JsonMessage>(
    json: &str,
    options: &DeserializeOptions,
) -> Result<M, JsonError> {
    from_slice_with(json.as_bytes(), options)
}

/// Parses a message from its JSON form in UTF-8 bytes, under the default
/// options.
pub fn from_slice<M: JsonMessage>(json: &[u8]) -> Result<M, JsonError> {
    from_slice_with(json, &DeserializeOptions::DEFAULT)
}

/// Parses a message from its JSON form in UTF-8 bytes, under `options`:
/// the whole input must be one JSON object (whitespace around it aside).
pub fn from_slice_with<M: JsonMessage>(
    json: &[u8],
    options: &DeserializeOptions,
) -> Result<M, JsonError> {
    deserialize_from_slice(json, options, MessageSeed::new(options))
}

/// Writes `value` with the JSON writer of [`to_vec_with`]
/// (compact, byte for byte what `serde_json::to_vec` writes): for JSON
/// forms written outside generated code (`buffa-reflect`'s dynamic
/// messages), so that they print exactly as generated messages do.
pub fn serialize_to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, JsonError> {
    let mut writer = writer::Writer::new();
    value.serialize(&mut writer)?;
    Ok(writer.into_inner())
}

/// Reads `json` through `seed` as [`from_slice_with`]
/// reads a message: input longer than `options.max_len()` is refused
/// first, and the whole input must be the one JSON value (whitespace
/// around it aside).
pub fn deserialize_from_slice<'de, T: DeserializeSeed<'de>>(
    json: &'de [u8],
    options: &DeserializeOptions,
    seed: T,
) -> Result<T::Value, JsonError> {
    if json.len() > options.max_len() {
        return Err(JsonError::too_long(json.len(), options.max_len()));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let value = seed.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}
