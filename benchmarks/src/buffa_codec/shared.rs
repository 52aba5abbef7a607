//! The conversions for [`BuffaShared`](super::BuffaShared): the dataset
//! modules with `pb` = [`crate::pb_buffa::buffa_shared`].
//!
//! The same files are modules of [`boxed`](super::boxed) and
//! [`inline`](super::inline) too, on purpose: string and bytes fields
//! convert with `.into()`, the identity there and `String` <-> `BytesStr`,
//! `Vec<u8>` <-> `Bytes` here.
#![allow(clippy::duplicate_mod)]

use crate::pb_buffa::buffa_shared as pb;

#[path = "log.rs"]
mod log;
#[path = "mesh.rs"]
mod mesh;
#[path = "minecraft_savedata.rs"]
mod minecraft_savedata;
#[path = "mk48.rs"]
mod mk48;
