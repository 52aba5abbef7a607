//! Borrowed views: reading a message without copying it.
//!
//! With views switched on (`buffa_build::Config::views`), every message
//! `Foo` gets a `FooView<'a>` beside it with the same field names, which
//! [`MessageView::decode_view`] fills from a byte slice: strings are
//! `&'a str` and bytes `&'a [u8]` pointing into the input, sub-messages
//! are views stored in place (boxed only where the schema recurses),
//! repeated and map fields are sequences over the input
//! ([`RepeatedView`], [`MapView`]) that read their elements when
//! iterated, and unknown fields are spans of the input
//! ([`UnknownFieldsView`]). Decoding a view allocates nothing but boxes
//! for recursive sub-messages, unknown fields and (rarely) the runs of a
//! field whose occurrences are split.
//!
//! Fields covered by the lazy rules (`Config::lazy_views_in`) are
//! [`LazyField`]s and [`LazyRepeated`]s: decoding skips their payloads by
//! the length prefix and decodes them only when read.

mod convert;
mod lazy;
pub(crate) mod map;
mod occurrences;
pub(crate) mod repeated;
mod unknown;

use alloc::vec::Vec;
use bytes::BufMut;

use crate::error::{DecodeError, EncodeError};
use crate::message::{Encodable, Mergeable, Message, check_room, checked_size, write_to_buf};
use crate::message_field::DefaultRef;
use crate::options::{DecodeOptions, EncodeOptions};
use crate::wire::Decoder;
use crate::wire::SizeCache;

pub use convert::ToOwnedValue;
pub use lazy::{LazyField, LazyRepeated};
pub use map::{MapIter, MapView, RawEntries};
pub use repeated::{Delimited, Iter, RepeatedView, ViewElement};
pub use unknown::UnknownFieldsView;

/// A borrowed view of a message, decoded from bytes that live for `'a`.
///
/// Generated code implements this trait for each `FooView<'a>`; the
/// hidden supertraits are the support API it is built on. Decoding
/// follows the owned decode's rules exactly: the last scalar wins,
/// repeated fields append (packed and expanded alike), a sub-message seen
/// twice merges, and every limit of [`DecodeOptions`] applies. The one
/// difference is lazy fields, whose errors surface when they are read.
pub trait MessageView<'a>:
    Mergeable<'a> + DefaultRef + ToOwnedValue<Self::Owned> + Clone + core::fmt::Debug
{
    /// The owned message this is a view of.
    type Owned: Message;

    /// Decodes a view of `buf` under the default [`DecodeOptions`].
    fn decode_view(buf: &'a [u8]) -> Result<Self, DecodeError> {
        Self::decode_view_with_options(buf, &DecodeOptions::new())
    }

    /// Decodes a view of `buf` under `options`.
    fn decode_view_with_options(
        buf: &'a [u8],
        options: &DecodeOptions,
    ) -> Result<Self, DecodeError> {
        let mut view = Self::default();
        view.merge_from(&mut Decoder::new(buf, options)?)?;
        Ok(view)
    }

    /// Merges an encoded message into this view, as decoding the
    /// concatenation would, under the default [`DecodeOptions`].
    fn merge_view(&mut self, buf: &'a [u8]) -> Result<(), DecodeError> {
        self.merge_view_with_options(buf, &DecodeOptions::new())
    }

    /// [`MessageView::merge_view`] under `options`. Lazy fields then keep
    /// the tighter of the limits they were read under.
    fn merge_view_with_options(
        &mut self,
        buf: &'a [u8],
        options: &DecodeOptions,
    ) -> Result<(), DecodeError> {
        self.merge_from(&mut Decoder::new(buf, options)?)
    }

    /// Copies the view into the owned message. Fails only if a lazy field
    /// fails to decode.
    fn to_owned_message(&self) -> Result<Self::Owned, DecodeError> {
        self.to_owned_value()
    }

    /// The encoded length in bytes; see [`Message::encoded_len`].
    fn encoded_len(&self) -> usize {
        self.compute_size(&mut SizeCache::new())
    }

    /// Encodes the view into `buf`: the same bytes the owned message
    /// encodes to. Fails as [`Message::encode`] does.
    ///
    /// A lazy field whose payload does not decode is written back as the
    /// bytes it was read from, so encoding loses nothing and never fails
    /// on it.
    fn encode(&self, buf: &mut impl BufMut) -> Result<(), EncodeError> {
        self.encode_with_options(buf, &EncodeOptions::new())
    }

    /// [`MessageView::encode`] under `options`.
    fn encode_with_options(
        &self,
        buf: &mut impl BufMut,
        options: &EncodeOptions,
    ) -> Result<(), EncodeError> {
        let mut cache = SizeCache::with_options(options);
        let len = checked_size(self, &mut cache)?;
        check_room(<Self as Encodable>::NAME, len, buf)?;
        write_to_buf(self, &mut cache, len, buf);
        Ok(())
    }

    /// Encodes the view into the end of `buf`; see
    /// [`Message::encode_to_slice`]. Nothing is allocated except for lazy
    /// fields (sized through a size cache) and map fields whose entries
    /// were not read in strictly ascending key order (sorted through an
    /// index, as [`MapView::iter`] does).
    fn encode_to_slice<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8], EncodeError> {
        crate::message::encode_backward(self, buf, &EncodeOptions::new())
    }

    /// [`MessageView::encode_to_slice`] under `options`.
    fn encode_to_slice_with_options<'b>(
        &self,
        buf: &'b mut [u8],
        options: &EncodeOptions,
    ) -> Result<&'b [u8], EncodeError> {
        crate::message::encode_backward(self, buf, options)
    }

    /// Encodes the view into a new `Vec`.
    ///
    /// # Panics
    ///
    /// As [`Message::encode_to_vec`], if the view is beyond the default
    /// [`EncodeOptions`] limits.
    fn encode_to_vec(&self) -> Vec<u8> {
        self.encode_to_vec_with_options(&EncodeOptions::new())
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// Encodes the view into a new `Vec` under `options`.
    fn encode_to_vec_with_options(&self, options: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
        let mut cache = SizeCache::with_options(options);
        let len = checked_size(self, &mut cache)?;
        let mut vec = Vec::with_capacity(len);
        crate::message::write_to_vec(self, &mut cache, len, &mut vec);
        Ok(vec)
    }
}

/// An owned message type with a generated view: names the view from the
/// owned type, so generic code over owned types can decode views.
///
/// `Foo::decode_view(&bytes)` decodes a `FooView` (the view's own
/// [`MessageView::decode_view`], reached from the owned type), and so does
/// `M::decode_view(&bytes)` for any `M: HasView`:
///
/// ```
/// use buffa::{DecodeError, HasView, MessageView};
///
/// /// The encoded length of the message in `bytes`, read without copying.
/// fn view_len<M: HasView>(bytes: &[u8]) -> Result<usize, DecodeError> {
///     let view = M::decode_view(bytes)?;
///     Ok(view.encoded_len())
/// }
/// ```
pub trait HasView: Message {
    /// The view type, `FooView<'a>` for `Foo`.
    type View<'a>: MessageView<'a, Owned = Self>;

    /// Decodes a view of `buf` under the default [`DecodeOptions`]:
    /// `Foo::decode_view(buf)` is `FooView::decode_view(buf)`.
    fn decode_view(buf: &[u8]) -> Result<Self::View<'_>, DecodeError> {
        <Self::View<'_> as MessageView<'_>>::decode_view(buf)
    }

    /// Decodes a view of `buf` under `options`: `FooView`'s
    /// [`MessageView::decode_view_with_options`].
    fn decode_view_with_options<'a>(
        buf: &'a [u8],
        options: &DecodeOptions,
    ) -> Result<Self::View<'a>, DecodeError> {
        <Self::View<'a> as MessageView<'a>>::decode_view_with_options(buf, options)
    }
}

/// Decodes a view of `M` from `buf`: `view_of::<Foo>(bytes)` is
/// `Foo::decode_view(bytes)` ([`HasView::decode_view`]) and
/// `FooView::decode_view(bytes)`.
pub fn view_of<'a, M: HasView>(buf: &'a [u8]) -> Result<M::View<'a>, DecodeError> {
    M::decode_view(buf)
}
