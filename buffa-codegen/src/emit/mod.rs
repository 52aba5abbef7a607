//! Emitting Rust: free functions from the [`Context`](crate::context::Context)
//! and the layout to tokens, one module per kind of generated item.

pub mod accessors;
pub mod backward;
pub mod codec;
pub mod comments;
pub mod defaults;
pub mod descriptor;
pub mod enumeration;
pub mod extension;
pub mod field;
pub mod include_file;
pub mod json;
pub mod message;
pub mod oneof;
pub mod package;
pub mod reflect;
pub mod retention;
pub mod runtime;
pub mod service;
pub mod view;
pub mod wire;
