//! The buffa configurations: [`BuffaBox`] with the types of
//! [`crate::pb_buffa::buffa_box`] (sub-messages boxed, buffa-build's
//! default), [`BuffaInline`] with those of
//! [`crate::pb_buffa::buffa_inline`] (`unbox_message_fields`) and
//! [`BuffaShared`] with those of [`crate::pb_buffa::buffa_shared`]
//! (`unbox_message_fields` with `BytesStr` strings and `Bytes` bytes,
//! decoded from `Bytes`).
//!
//! The conversions between native data and messages (`From` impls, as for
//! prost) are written once per dataset (`log.rs`, ...) against a module
//! alias `pb`; `boxed`, `inline` and `shared` each declare them with their
//! own `pb`. This module holds the [`Codec`] impls, and the [`ViewCodec`] impls
//! of [`BuffaInline`], whose types are generated with views.

mod boxed;
mod inline;
mod json;
mod shared;

use buffa::{Message, MessageView};
use bytes::Bytes;

use crate::pb_buffa::{buffa_box, buffa_inline, buffa_shared};
use crate::{Codec, Library, Logs, Mesh, Players, Updates, ViewCodec};
use buffa_inline::log::LogsView;
use buffa_inline::mesh::MeshView;
use buffa_inline::minecraft_savedata::PlayersView;
use buffa_inline::mk48::UpdatesView;

/// Marker type of the buffa configuration with boxed sub-messages.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuffaBox;

impl Library for BuffaBox {
    const NAME: &'static str = "buffa_box";
}

/// Marker type of the buffa configuration with inline sub-messages.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuffaInline;

impl Library for BuffaInline {
    const NAME: &'static str = "buffa_inline";
}

/// Marker type of the buffa configuration with inline sub-messages whose
/// strings are [`buffa::BytesStr`] and bytes [`Bytes`]: decoded from
/// `Bytes`, they are slices of the input instead of one allocation each.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuffaShared;

impl Library for BuffaShared {
    const NAME: &'static str = "buffa_shared";
}

/// Implements [`Codec`] for a buffa marker type, given the native and
/// message types.
macro_rules! buffa_codec {
    ($library:ty, $native:ty, $msg:ty) => {
        impl Codec<$native> for $library {
            type Msg = $msg;

            fn populate(native: &$native) -> $msg {
                native.into()
            }

            fn encode(msg: &$msg, buf: &mut Vec<u8>) {
                msg.encode(buf).unwrap();
            }

            fn decode(bytes: &Bytes) -> $msg {
                if <$msg>::SHARES_INPUT {
                    <$msg>::decode_bytes(bytes, &buffa::DecodeOptions::new()).unwrap()
                } else {
                    <$msg>::decode_from_slice(bytes).unwrap()
                }
            }

            fn convert(msg: $msg) -> $native {
                msg.into()
            }
        }
    };
}

buffa_codec!(BuffaBox, Logs, buffa_box::log::Logs);
buffa_codec!(BuffaBox, Mesh, buffa_box::mesh::Mesh);
buffa_codec!(BuffaBox, Players, buffa_box::minecraft_savedata::Players);
buffa_codec!(BuffaBox, Updates, buffa_box::mk48::Updates);

buffa_codec!(BuffaInline, Logs, buffa_inline::log::Logs);
buffa_codec!(BuffaInline, Mesh, buffa_inline::mesh::Mesh);
buffa_codec!(
    BuffaInline,
    Players,
    buffa_inline::minecraft_savedata::Players
);
buffa_codec!(BuffaInline, Updates, buffa_inline::mk48::Updates);

buffa_codec!(BuffaShared, Logs, buffa_shared::log::Logs);
buffa_codec!(BuffaShared, Mesh, buffa_shared::mesh::Mesh);
buffa_codec!(
    BuffaShared,
    Players,
    buffa_shared::minecraft_savedata::Players
);
buffa_codec!(BuffaShared, Updates, buffa_shared::mk48::Updates);

/// Implements [`ViewCodec`] for [`BuffaInline`], given the native type and
/// the view type (generated beside the message type).
macro_rules! buffa_view_codec {
    ($native:ty, $view:ident) => {
        impl ViewCodec<$native> for BuffaInline {
            type View<'a> = $view<'a>;

            fn decode_view(bytes: &[u8]) -> $view<'_> {
                $view::decode_view(bytes).unwrap()
            }

            fn view_to_owned(view: &$view<'_>) -> Self::Msg {
                view.to_owned_message().unwrap()
            }
        }
    };
}

buffa_view_codec!(Logs, LogsView);
buffa_view_codec!(Mesh, MeshView);
buffa_view_codec!(Players, PlayersView);
buffa_view_codec!(Updates, UpdatesView);
