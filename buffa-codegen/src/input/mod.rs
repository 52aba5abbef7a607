//! Reading the input: the descriptor set decoded, its features resolved,
//! its names and references checked, and every type indexed with its Rust
//! name in the [`schema::Schema`].

pub mod derived_names;
pub mod features;
pub mod imports;
pub mod load;
pub mod names;
pub mod references;
pub mod rule_paths;
pub mod schema;
