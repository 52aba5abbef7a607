//! The rules of the protobuf language that more than one part of buffa
//! applies, each implemented once: the pool checks and resolves
//! descriptors with them, code generation (`buffa-codegen`) checks names,
//! derives JSON names and reads defaults with them, and `buffa-reflect`'s
//! text format reads string literals with them.
//!
//! - names ([`is_identifier`], [`is_package_name`]) and the JSON name
//!   protoc derives from a field name ([`json_name`]);
//! - explicit field defaults ([`parse_default_value`]): the
//!   `default_value` text of a field as a [`DefaultValue`];
//! - C-style escapes ([`unescape`]), in the two dialects of `bytes`
//!   defaults and text-format literals ([`Escapes`]);
//! - floats as C++ prints them ([`format_double`], [`format_float`]), as
//!   protoc writes float defaults;
//! - extension declarations ([`extension_declarations`]): what a
//!   message's extension ranges declare, well formed;
//! - a file's syntax ([`file_syntax`]): proto2, proto3 or an edition,
//!   from its `syntax` and `edition` fields;
//! - editions features ([`ResolvedFeatures`]): an edition's defaults, the
//!   `features` each enclosing element declares (where it may declare
//!   them: [`declared_features`], with known values: [`known_features`]),
//!   and a field's proto2 or proto3 syntax
//!   ([`FieldSyntax`]) expressed as features.

mod declarations;
mod defaults;
mod escape;
mod features;
mod float_text;
mod names;
mod syntax;

pub use declarations::{DeclarationError, extension_declarations, is_scalar_type_name};
pub use defaults::{DefaultValue, DefaultValueError, parse_default_value};
pub use escape::{Escapes, UnescapeError, unescape, unescape_into};
pub use features::{FieldSyntax, ResolvedFeatures, declared_features, known_features};
pub use float_text::{format_double, format_float};
pub use names::{is_identifier, is_package_name, json_name};
pub use syntax::file_syntax;
