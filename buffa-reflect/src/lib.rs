//! # buffa-reflect
//!
//! Protocol Buffers schemas at run time, for the `buffa` runtime:
//!
//! - [`DescriptorPool`]: files, messages, fields, oneofs, enums, services,
//!   methods and extensions, with their options and source comments, built
//!   from `FileDescriptorSet` bytes (what `protoc --descriptor_set_out`
//!   writes, or what generated code embeds). The descriptor model is the
//!   `buffa-descriptor` crate, re-exported here whole: its items are
//!   available under this crate's root, and [`DynamicOptions`] adds the
//!   options of each descriptor as a [`DynamicMessage`];
//! - [`ReflectMessage`]: reading, setting and clearing fields by their
//!   descriptor, on generated and dynamic messages alike;
//! - [`DynamicMessage`]: a message built from a descriptor at run time,
//!   with the binary encoding;
//! - [`text`]: the protobuf text format, printed and parsed over
//!   reflection;
//! - [`field_mask`]: `google.protobuf.FieldMask` checked against a message
//!   type, and applied to messages (trim, merge);
//! - `json` (the `json` feature): proto3 JSON over reflection, for
//!   dynamic and generated messages alike.

#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod dynamic;
pub mod field_mask;
#[cfg(feature = "json")]
pub mod json;
mod options;
mod reflect;
pub mod text;
mod typed;
mod value;
mod well_known;

pub use buffa_descriptor::*;
pub use dynamic::DynamicMessage;
pub use options::DynamicOptions;
pub use reflect::{
    ReflectError, ReflectList, ReflectListMut, ReflectMap, ReflectMapMut, ReflectMessage, ValueMut,
};
pub use value::{MapKey, MapKeyRef, Value, ValueRef};
