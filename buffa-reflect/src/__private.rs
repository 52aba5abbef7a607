//! The support API of generated code: not part of the public API, and may
//! change in any release. Only `buffa-build` should generate code against
//! it.

pub use crate::typed::{
    GeneratedMessage, OptionValue, ReflectElement, ReflectField, closed_enum_from_value,
    closed_enum_ref, decode_pool, from_value, message_descriptor, value_ref,
};
