//! # buffa-codegen
//!
//! Turns protobuf descriptors into Rust source for the `buffa` runtime: an
//! encoded `FileDescriptorSet` and [`Options`] in, formatted Rust files
//! out, with no I/O, so it can be tested on its own. `buffa-build` wraps
//! it for build scripts and `protoc-gen-buffa` for protoc.
//!
//! A run goes through [`Input`], which decodes the descriptor set once and
//! checks the options; [`Input::files_with_code`] says which of its files
//! get code, and [`Input::select`] builds and checks the schema of the
//! chosen files once. The [`Selection`] it returns generates the files
//! ([`Selection::generate`]) and the layout report
//! ([`Selection::layout_report`]) from that one schema:
//!
//! ```ignore
//! let options = buffa_codegen::Options::default();
//! let input = buffa_codegen::Input::parse(&descriptor_set, &options)?;
//! let files: Vec<&str> = input
//!     .files_with_code(&["shop/v1/shop.proto"])
//!     .into_iter()
//!     .map(|(name, _package)| name)
//!     .collect();
//! let generated = input.select(&files)?.generate()?;
//! let include = buffa_codegen::include_file(&generated);
//! ```
//!
//! One file is produced per protobuf package (`shop.v1.rs`, or `_.rs` for
//! files without a package). Messages become structs implementing
//! `buffa::Message`, nested types live in a snake_case module named after
//! their message, enums become `#[repr(i32)]` Rust enums, and oneofs become
//! Rust enums held in an `Option`. References between packages are relative
//! (`super::...`), so the generated files must be mounted in modules that
//! mirror the package hierarchy; [`include_file`] writes such a tree.

#![warn(missing_docs)]

// The shared vocabulary (errors, Rust names, proto paths, the well-known
// types, the options), then the stages in the order a run passes through
// them, then `run`, the public entry point that drives them: each uses
// what comes before it, and `context` the plain data types of `layout`
// (`field`, `size`) for its memo tables. `tests/module_graph.rs`
// checks that no two files import each other in a circle.
mod error;
mod ident;
mod options;
mod path;
mod well_known;

mod input;

mod analysis;

mod context;

mod layout;

mod emit;

mod pipeline;

mod run;

pub use emit::include_file::include_file;
pub use emit::package::GeneratedFile;
pub use error::Error;
pub use options::{BytesRepr, Options, PointerRepr, StringRepr, TonicOptions, UnknownFieldsRepr};
pub use path::{PathRules, covers, normalize};
pub use run::{Input, Selection};

#[cfg(test)]
use run::generate;
