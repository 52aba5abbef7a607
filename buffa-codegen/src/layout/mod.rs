//! The layout of generated structs: each field's model, where each
//! message-typed field keeps its value (the pointer choice), the size
//! estimates the choice depends on, and the layout report.

pub mod field;
pub mod field_model;
pub mod owned;
pub mod pointer;
pub mod report;
pub mod size;
pub mod view_layout;
