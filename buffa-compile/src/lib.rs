//! # buffa-compile
//!
//! A compiler from `.proto` source to descriptors, in Rust: what protoc
//! does before it hands a code generator its `FileDescriptorProto`s, with
//! no protoc binary and no C++ toolchain. Its output is the
//! `FileDescriptorSet` that `protoc --include_imports --descriptor_set_out`
//! writes, byte for byte (protoc 36.2, the release `buffa-build` bundles),
//! with or without source info.
//!
//! The compiler runs in three stages, one module each:
//!
//! - `parse`: the tokenizer and parser, from text to a
//!   `FileDescriptorProto` with names as written, options not yet
//!   interpreted, and the `SourceCodeInfo` (locations, spans, comments)
//!   protoc records;
//! - `link`: name resolution with C++'s scoping rules, option
//!   interpretation (custom options serialized as protoc serializes them),
//!   and the checks protoc makes on a file against its imports;
//! - [`Compiler`]: finding files and their imports (include directories,
//!   files in memory, the bundled well-known types), loading them depth
//!   first, and writing the set in protoc's order.
//!
//! Problems are [`Diagnostic`]s located by file, line and column, worded
//! as protoc words them, and rendered as rustc renders its own
//! ([`CompileError::render`]).

mod compiler;
#[cfg(test)]
mod corpus_cache;
mod diagnostic;
mod link;
mod parse;
mod source;

pub use compiler::Compiler;
pub use diagnostic::{CompileError, Diagnostic};
