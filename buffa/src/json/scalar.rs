//! The JSON forms of protobuf's scalar types, for JSON written by hand:
//! the well-known types of `buffa-types` and the dynamic messages of
//! `buffa-reflect` use them so that every value prints and parses exactly
//! as it does in a generated message.
//!
//! Each protobuf type has an uninhabited marker type (the same markers
//! the binary encoding is keyed by) implementing [`JsonKind`], and
//! [`JsonMapKey`] where the type may be a map key:
//!
//! ```
//! use buffa::json::SerializeOptions;
//! use buffa::json::scalar::{Int64, JsonKind};
//!
//! // int64 is a JSON string, so that JavaScript reads it exactly.
//! let mut out = Vec::new();
//! let mut serializer = serde_json::Serializer::new(&mut out);
//! Int64::serialize(&-7, &mut serializer, &SerializeOptions::new())?;
//! assert_eq!(out, b"\"-7\"");
//! # Ok::<(), serde_json::Error>(())
//! ```

pub use super::base64::Display as Base64;
pub use super::kind::{JsonKind, JsonMapKey};
pub use super::read::Quoted;
pub use crate::encoding::types::{
    Bool, Double, Fixed32, Fixed64, Float, Int32, Int64, ProtoBytes, ProtoString, SFixed32,
    SFixed64, SInt32, SInt64, UInt32, UInt64,
};
