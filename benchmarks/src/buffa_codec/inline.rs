//! The conversions for [`BuffaInline`](super::BuffaInline): the dataset
//! modules with `pb` = [`crate::pb_buffa::buffa_inline`].
//!
//! The same files are modules of [`boxed`](super::boxed) too, on purpose (and of [`shared`](super::shared)).
// String and bytes fields convert with `.into()`, the identity in this
// layout (see `shared`).
#![allow(clippy::duplicate_mod, clippy::useless_conversion)]

use crate::pb_buffa::buffa_inline as pb;

#[path = "log.rs"]
mod log;
#[path = "mesh.rs"]
mod mesh;
#[path = "minecraft_savedata.rs"]
mod minecraft_savedata;
#[path = "mk48.rs"]
mod mk48;
