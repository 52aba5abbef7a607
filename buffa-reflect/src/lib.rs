//! # buffa-reflect
//!
//! Protocol Buffers schemas at run time, for the `buffa` runtime:
//!
//! - [`DescriptorPool`]: files, messages, fields, oneofs, enums, services,
//!   methods and extensions, with their options and source comments, built
//!   from `FileDescriptorSet` bytes (what `protoc --descriptor_set_out`
//!   writes, or what generated code embeds);
//! - [`ReflectMessage`]: reading, setting and clearing fields by their
//!   descriptor, on generated and dynamic messages alike;
//! - [`DynamicMessage`]: a message built from a descriptor at run time,
//!   with the binary encoding;
//! - [`text`]: the protobuf text format, printed and parsed over
//!   reflection;
//! - `json` (the `json` feature): proto3 JSON over reflection, for
//!   dynamic and generated messages alike.

#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod descriptor;
mod dynamic;
#[cfg(feature = "json")]
pub mod json;
mod reflect;
pub mod text;
mod typed;
mod value;
mod well_known;

pub use descriptor::*;
pub use dynamic::DynamicMessage;
pub use reflect::{
    ReflectError, ReflectList, ReflectListMut, ReflectMap, ReflectMapMut, ReflectMessage, ValueMut,
};
pub use value::{MapKey, MapKeyRef, Value, ValueRef};
