//! Analyses of the schema that code generation consults: the graph of
//! inline message fields and the boxing plan that breaks its cycles, the
//! messages that derive `Eq` and `Hash`, the declared extensions, and which
//! messages keep unknown fields.

pub mod boxing;
pub mod eq_hash;
pub mod extensions;
pub mod inline_rules;
pub mod message_graph;
pub mod unknown_fields;
