//! The `prost` configuration: prost 0.14 with the types of [`crate::pb_prost`].
//!
//! The submodules hold the conversions between native data and prost
//! messages (`From` impls, as in the original benchmark); this module holds
//! the [`Codec`] impls, and the [`JsonCodec`] impls: proto3 JSON through
//! serde_json and the serde impls pbjson-build generates for the types.

mod log;
mod mesh;
mod minecraft_savedata;
mod mk48;

use bytes::Bytes;
use prost::Message;

use crate::pb_prost;
use crate::{Codec, JsonCodec, Library, Logs, Mesh, Players, Updates};

/// Marker type of the prost configuration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prost;

impl Library for Prost {
    const NAME: &'static str = "prost";
}

/// Implements [`Codec`] and [`JsonCodec`] for [`Prost`], given the native
/// and prost types.
macro_rules! prost_codec {
    ($native:ty, $msg:ty) => {
        impl Codec<$native> for Prost {
            type Msg = $msg;

            fn populate(native: &$native) -> $msg {
                native.into()
            }

            fn encode(msg: &$msg, buf: &mut Vec<u8>) {
                msg.encode(buf).unwrap();
            }

            fn decode(bytes: &Bytes) -> $msg {
                <$msg>::decode(&bytes[..]).unwrap()
            }

            fn convert(msg: $msg) -> $native {
                msg.into()
            }
        }

        impl JsonCodec<$native> for Prost {
            fn to_json(msg: &$msg) -> Vec<u8> {
                serde_json::to_vec(msg).unwrap()
            }

            fn from_json(json: &[u8]) -> $msg {
                serde_json::from_slice(json).unwrap()
            }
        }
    };
}

prost_codec!(Logs, pb_prost::log::Logs);
prost_codec!(Mesh, pb_prost::mesh::Mesh);
prost_codec!(Players, pb_prost::minecraft_savedata::Players);
prost_codec!(Updates, pb_prost::mk48::Updates);
