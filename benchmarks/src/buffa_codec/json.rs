//! The [`JsonCodec`] impls of [`BuffaInline`]: proto3 JSON through
//! `buffa::json` and the serde impls `buffa_build::Config::json()`
//! generates.

use crate::pb_buffa::buffa_inline;
use crate::{JsonCodec, Logs, Mesh, Players, Updates};

use super::BuffaInline;

/// Implements [`JsonCodec`] for [`BuffaInline`], given the native and
/// message types.
macro_rules! buffa_json_codec {
    ($native:ty, $msg:ty) => {
        impl JsonCodec<$native> for BuffaInline {
            fn to_json(msg: &$msg) -> Vec<u8> {
                buffa::json::to_vec(msg).unwrap()
            }

            fn from_json(json: &[u8]) -> $msg {
                buffa::json::from_slice::<$msg>(json).unwrap()
            }
        }
    };
}

buffa_json_codec!(Logs, buffa_inline::log::Logs);
buffa_json_codec!(Mesh, buffa_inline::mesh::Mesh);
buffa_json_codec!(Players, buffa_inline::minecraft_savedata::Players);
buffa_json_codec!(Updates, buffa_inline::mk48::Updates);
