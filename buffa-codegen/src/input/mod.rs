//! Reading the input: every type of the descriptor set (decoded once and
//! checked and resolved by buffa-descriptor's pool, see `run.rs`) indexed
//! with its Rust name in the [`schema::Schema`], the files that need code
//! chosen, and the paths that options name matched.

pub mod derived_names;
pub mod imports;
pub mod load;
pub mod names;
pub mod rule_paths;
pub mod schema;
