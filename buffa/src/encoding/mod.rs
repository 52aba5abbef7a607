//! Encoding and decoding helpers that generated code calls, one function per
//! field shape.
//!
//! Generated `compute_size`, `write_to` and `merge_field` bodies are lists of
//! calls into this module, one per field, parameterised by a scalar type
//! marker from [`types`] (several protobuf types share a Rust type but not
//! an encoding). Keeping the logic here keeps generated code small and
//! readable. These functions are public for generated code and hand-written
//! [`Message`](crate::Message) implementations alike.

pub mod backward;
pub mod closed_enum;
pub mod fixed_record;
pub mod lazy;
pub mod map;
pub mod message;
pub mod repeated;
pub mod scalar;
pub mod types;
