//! The [`Message`] trait: owned encoding and decoding.

use alloc::vec::Vec;
use core::fmt;
use core::mem::MaybeUninit;

use bytes::{Buf, BufMut, Bytes};

use crate::encoding::fixed_record::FixedRecord;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::measured::Measured;
use crate::options::{DecodeOptions, EncodeOptions, MAX_MESSAGE_LEN};
use crate::unknown_fields::UnknownFields;
use crate::wire::BackwardEncoder;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::SizeCache;
use crate::wire::{Tag, WireType};

/// A protobuf message type with an owned Rust representation.
///
/// Generated code implements this trait; everything a user calls
/// (`encode_to_vec`, `decode_from_slice`, `merge_from_slice`, ...) is
/// provided on top of a few hidden methods. Those, and the types in their
/// signatures, are the support API of generated code: they are not part of
/// buffa's stable API and may change in any release, so implement this
/// trait only through `buffa-build`.
///
/// Encoding runs in two passes over the message: one computes the exact
/// length and records nested lengths, the other writes into a buffer
/// reserved once at that length. Both passes check the limits of
/// [`EncodeOptions`]; decoding checks those of [`DecodeOptions`].
pub trait Message: Default + fmt::Debug + Send + Sync + 'static {
    /// The message's fully qualified protobuf name, e.g. `"shop.v1.Order"`.
    const NAME: &'static str;

    #[doc(hidden)]
    /// Whether [`Message::compute_size`] records nested lengths in the
    /// [`SizeCache`]. Generated code says `false` for messages without
    /// message-typed, map or packed fields (leaves): the length of such a
    /// message, when nested, is recomputed in the write pass instead of
    /// being cached, which is cheaper than a cache round trip. Must be
    /// `true` whenever `compute_size` touches the cache.
    const CACHES_SIZES: bool = true;

    #[doc(hidden)]
    /// Whether decoding may keep references into its input: `true` when
    /// this message, or one it contains, has `bytes` fields typed as
    /// [`Bytes`] or `string` fields typed as [`BytesStr`](crate::BytesStr). When `false`, [`Message::decode`] reads a contiguous
    /// buffer in place instead of first turning it into `Bytes` (a copy for
    /// anything but `Bytes` itself). Generated code computes it; the
    /// conservative default suits hand-written impls.
    const SHARES_INPUT: bool = true;

    /// A shared, immutable default instance, which unset sub-message fields
    /// read as.
    fn default_instance() -> &'static Self;

    #[doc(hidden)]
    /// Computes the encoded length in bytes, recording the length of every
    /// nested length-delimited value in `cache` in the order that
    /// [`Message::write_to`] will need them.
    fn compute_size(&self, cache: &mut SizeCache) -> usize;

    #[doc(hidden)]
    /// Writes the message. `cache` must have been filled by
    /// [`Message::compute_size`] on the same, unchanged message, and
    /// `encoder` must have room for the length that returned.
    fn write_to(&self, cache: &mut SizeCache, encoder: &mut Encoder<'_>);

    #[doc(hidden)]
    /// Writes the message back to front into `encoder`, in one pass with
    /// no size cache: the fields in reverse order, each nested message
    /// before its length. Generated code overrides it for messages that
    /// hold nested messages, maps or packed fields; the provided body
    /// sizes and writes front to back, which allocates nothing for the
    /// others (leaves).
    fn write_backward(&self, encoder: &mut BackwardEncoder<'_>) {
        crate::encoding::backward::whole(self, encoder);
    }

    #[doc(hidden)]
    /// Merges one field, whose key `tag` has just been read, from `decoder`.
    /// Unknown fields are kept in the message's [`UnknownFields`]. Only
    /// called for keys [`Message::merge_keyed`] left: generated code
    /// reads fields 1 to 15 there, and answers their keys here only with
    /// the wire-type error.
    fn merge_field(&mut self, tag: Tag, decoder: &mut Decoder<'_>) -> Result<(), DecodeError>;

    #[doc(hidden)]
    /// Merges the field whose one-byte key `key` (not validated) was just
    /// taken from `decoder`, if the message reads that key itself:
    /// `Ok(true)`. `Ok(false)` leaves the key to [`Message::merge_field`].
    /// Generated code matches the keys of fields 1 to 15 here, so that a
    /// known key needs no validation and no field-number dispatch, and
    /// each helper's wire-type test has a known answer; the provided body
    /// takes none.
    #[inline(always)]
    fn merge_keyed(&mut self, key: u8, decoder: &mut Decoder<'_>) -> Result<bool, DecodeError> {
        let _ = (key, decoder);
        Ok(false)
    }

    /// The fields this message read but does not know.
    ///
    /// Provided for messages generated without unknown fields
    /// (`UnknownFieldsRepr::Discard` in buffa-build), which skip them when
    /// decoding: those return a shared empty set. Messages that keep them
    /// (every generated one by default, and any hand-written one whose
    /// `merge_field` collects them) override it to return their own.
    fn unknown_fields(&self) -> &UnknownFields {
        &crate::unknown_fields::EMPTY
    }

    /// Resets every field to its default (unset, empty, zero), unknown
    /// fields included.
    ///
    /// Provided rather than generated: it is compiled only where it is
    /// called, not once per message of every generated crate.
    fn clear(&mut self) {
        *self = Self::default();
    }

    /// The encoded length in bytes.
    ///
    /// Exact for every message that encodes under the default
    /// [`EncodeOptions`]. For one nested deeper than their recursion limit,
    /// sizing stops at the limit and the value is meaningless; the encode
    /// methods report such a message as an [`EncodeError`], and
    /// [`Message::encoded_len_with_options`] checks the limits too.
    fn encoded_len(&self) -> usize {
        self.compute_size(&mut SizeCache::new())
    }

    /// The encoded length in bytes under `options`, or the error an encode
    /// under them would return (the buffer aside).
    fn encoded_len_with_options(&self, options: &EncodeOptions) -> Result<usize, EncodeError>
    where
        Self: Sized,
    {
        checked_size(self, &mut SizeCache::with_options(options))
    }

    /// Encodes the message into `buf`.
    ///
    /// Fails, writing nothing, if `buf` cannot take the whole message or the
    /// message is beyond the default [`EncodeOptions`] limits (longer than
    /// [`MAX_MESSAGE_LEN`], nested deeper than the recursion limit).
    ///
    /// The message is written straight into `buf` when its current chunk
    /// has room for all of it, and through a temporary buffer otherwise: a
    /// full `Vec` or `BytesMut` only offers 64 more bytes, so reserve
    /// [`Message::encoded_len`] bytes first (or use
    /// [`Message::encode_to_vec`]) to avoid the copy for larger messages.
    fn encode(&self, buf: &mut impl BufMut) -> Result<(), EncodeError>
    where
        Self: Sized,
    {
        self.encode_with_options(buf, &EncodeOptions::new())
    }

    /// Encodes the message into `buf` under `options`; see
    /// [`Message::encode`].
    fn encode_with_options(
        &self,
        buf: &mut impl BufMut,
        options: &EncodeOptions,
    ) -> Result<(), EncodeError>
    where
        Self: Sized,
    {
        self.measure(options)?.encode(buf)
    }

    /// Runs the sizing pass of an encode under `options`, failing as an
    /// encode would if the message is beyond their limits, and returns the
    /// message ready for the write pass with its encoded length: reserve
    /// that much in a growable buffer, then [`Measured::encode`] writes
    /// the message there directly, sized once and written once.
    fn measure(&self, options: &EncodeOptions) -> Result<Measured<'_, Self>, EncodeError>
    where
        Self: Sized,
    {
        let mut cache = SizeCache::with_options(options);
        let len = checked_size(self, &mut cache)?;
        Ok(Measured::new(self, cache, len))
    }

    /// Encodes the message into the end of `buf` without allocating, and
    /// returns the bytes written (the last bytes of `buf`).
    ///
    /// The message is written back to front in one pass: each nested
    /// message before its length, so no sizes are computed beforehand and
    /// nothing is allocated. The one exception is a deterministic encode
    /// (see [`EncodeOptions::with_deterministic`]) of a `HashMap` field,
    /// whose entries are sorted through a `Vec` as in
    /// [`Message::encode_to_vec`]. The bytes are those
    /// [`Message::encode_to_vec`] writes.
    ///
    /// Fails if `buf` is too short, with
    /// [`EncodeErrorKind::BufferTooSmall`] giving the exact length the
    /// message needs (`required`) and `buf`'s length (`remaining`), or if
    /// the message is beyond the default [`EncodeOptions`] limits. On
    /// failure the contents of `buf` are unspecified: the tail of the
    /// message may have been written.
    ///
    /// ```
    /// # use buffa::Message;
    /// # fn demo<M: Message>(message: &M) -> Result<(), buffa::EncodeError> {
    /// let mut buf = [0u8; 256];
    /// let bytes: &[u8] = message.encode_to_slice(&mut buf)?;
    /// assert_eq!(bytes, &message.encode_to_vec()[..]);
    /// # Ok(())
    /// # }
    /// ```
    fn encode_to_slice<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8], EncodeError>
    where
        Self: Sized,
    {
        encode_backward(self, buf, &EncodeOptions::new())
    }

    /// [`Message::encode_to_slice`] under `options`.
    fn encode_to_slice_with_options<'b>(
        &self,
        buf: &'b mut [u8],
        options: &EncodeOptions,
    ) -> Result<&'b [u8], EncodeError>
    where
        Self: Sized,
    {
        encode_backward(self, buf, options)
    }

    /// Encodes the message into a new `Vec` of exactly the right capacity.
    ///
    /// # Panics
    ///
    /// Panics if the message is beyond the default [`EncodeOptions`]
    /// limits: longer than [`MAX_MESSAGE_LEN`] or nested deeper than the
    /// recursion limit, so that no decoder would accept the output. Use
    /// [`Message::encode_to_vec_with_options`] to get an [`EncodeError`]
    /// instead.
    fn encode_to_vec(&self) -> Vec<u8>
    where
        Self: Sized,
    {
        self.encode_to_vec_with_options(&EncodeOptions::new())
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// Encodes the message into a new `Vec` under `options`, failing with an
    /// [`EncodeError`] if the message is beyond their limits.
    fn encode_to_vec_with_options(&self, options: &EncodeOptions) -> Result<Vec<u8>, EncodeError>
    where
        Self: Sized,
    {
        let mut cache = SizeCache::with_options(options);
        let len = checked_size(self, &mut cache)?;
        let mut vec = Vec::with_capacity(len);
        write_to_vec(self, &mut cache, len, &mut vec);
        Ok(vec)
    }

    /// Encodes the message behind a varint length prefix, the framing used
    /// to put several messages in one stream. Fails as [`Message::encode`]
    /// does.
    fn encode_length_delimited(&self, buf: &mut impl BufMut) -> Result<(), EncodeError>
    where
        Self: Sized,
    {
        self.encode_length_delimited_with_options(buf, &EncodeOptions::new())
    }

    /// [`Message::encode_length_delimited`] under `options`.
    fn encode_length_delimited_with_options(
        &self,
        buf: &mut impl BufMut,
        options: &EncodeOptions,
    ) -> Result<(), EncodeError>
    where
        Self: Sized,
    {
        let mut cache = SizeCache::with_options(options);
        let len = checked_size(self, &mut cache)?;
        let (prefix, prefix_len) = length_prefix(len);
        check_room(Self::NAME, prefix_len + len, buf)?;
        buf.put_slice(&prefix[..prefix_len]);
        write_to_buf(self, &mut cache, len, buf);
        Ok(())
    }

    /// Encodes the message behind a varint length prefix into a new `Vec`.
    ///
    /// # Panics
    ///
    /// As [`Message::encode_to_vec`], if the message is beyond the default
    /// [`EncodeOptions`] limits.
    fn encode_length_delimited_to_vec(&self) -> Vec<u8>
    where
        Self: Sized,
    {
        let mut cache = SizeCache::new();
        let len = checked_size(self, &mut cache).unwrap_or_else(|error| panic!("{error}"));
        let (prefix, prefix_len) = length_prefix(len);
        let mut vec = Vec::with_capacity(prefix_len + len);
        vec.extend_from_slice(&prefix[..prefix_len]);
        write_to_vec(self, &mut cache, len, &mut vec);
        vec
    }

    /// Decodes a message from a byte slice.
    fn decode_from_slice(buf: &[u8]) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        Self::decode_with_options(buf, &DecodeOptions::default())
    }

    /// Decodes a message from a byte slice with explicit limits.
    fn decode_with_options(buf: &[u8], options: &DecodeOptions) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        let mut message = Self::default();
        message.merge_from(&mut Decoder::new(buf, options)?)?;
        Ok(message)
    }

    /// Decodes a message from a buffer, consuming all of it (also when
    /// decoding fails). When `buf` is [`Bytes`], `bytes` fields typed as
    /// `Bytes` and `string` fields typed as [`BytesStr`](crate::BytesStr)
    /// share its memory instead of copying.
    fn decode(buf: impl Buf) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        let mut message = Self::default();
        message.merge_with_options(buf, &DecodeOptions::new())?;
        Ok(message)
    }

    /// Decodes a message preceded by its varint length, as written by
    /// [`Message::encode_length_delimited`]. Consumes exactly the prefix and
    /// the message from `buf` (also when the message fails to decode; a
    /// prefix that is malformed or claims more bytes than `buf` holds
    /// consumes only the prefix bytes read).
    fn decode_length_delimited(buf: impl Buf) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        Self::decode_length_delimited_with_options(buf, &DecodeOptions::new())
    }

    /// [`Message::decode_length_delimited`] under `options`.
    fn decode_length_delimited_with_options(
        mut buf: impl Buf,
        options: &DecodeOptions,
    ) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        let len = read_length_prefix(&mut buf)?;
        if len > MAX_MESSAGE_LEN {
            buf.advance(len);
            return Err(too_large(len));
        }
        if !Self::SHARES_INPUT && buf.chunk().len() >= len {
            let result = Self::decode_with_options(&buf.chunk()[..len], options);
            buf.advance(len);
            return result;
        }
        let bytes = buf.copy_to_bytes(len);
        Self::decode_bytes(&bytes, options)
    }

    /// Merges an encoded message into this one: scalars read later win,
    /// repeated fields append, and sub-messages merge recursively. Consumes
    /// all of `buf`, also when decoding fails (the fields read before the
    /// failure are then merged).
    fn merge(&mut self, buf: impl Buf) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        self.merge_with_options(buf, &DecodeOptions::new())
    }

    /// [`Message::merge`] under `options`. A buffer over
    /// [`MAX_MESSAGE_LEN`] is refused before anything is copied.
    fn merge_with_options(
        &mut self,
        mut buf: impl Buf,
        options: &DecodeOptions,
    ) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        let len = buf.remaining();
        if len > MAX_MESSAGE_LEN {
            buf.advance(len);
            return Err(too_large(len));
        }
        if !Self::SHARES_INPUT && buf.chunk().len() == len {
            let result =
                Decoder::new(buf.chunk(), options).and_then(|mut d| self.merge_from(&mut d));
            buf.advance(len);
            return result;
        }
        let bytes = buf.copy_to_bytes(len);
        self.merge_from(&mut Decoder::new_shared(&bytes, options)?)
    }

    /// Merges an encoded message from a byte slice into this one.
    fn merge_from_slice(&mut self, buf: &[u8]) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        self.merge_from(&mut Decoder::new(buf, &DecodeOptions::default())?)
    }

    #[doc(hidden)]
    /// The message's [fixed record](crate::encoding::fixed_record), if its
    /// fields make one: generated code declares it for messages of
    /// fixed-width scalars, and [`Message::merge_from`] then reads a payload
    /// laid out as the record with [`Message::merge_fixed_record`].
    const FIXED_RECORD: Option<FixedRecord> = None;

    #[doc(hidden)]
    /// Sets every field from `record`, bytes that
    /// [`Message::FIXED_RECORD`] matched. Only called for messages that
    /// declare a record; the provided body does nothing.
    #[inline]
    fn merge_fixed_record(&mut self, record: &[u8]) {
        let _ = record;
    }

    #[doc(hidden)]
    /// Merges fields from `decoder` until the end of its current message.
    fn merge_from(&mut self, decoder: &mut Decoder<'_>) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        merge_record_or_fields(
            Self::NAME,
            Self::FIXED_RECORD,
            self,
            decoder,
            Self::merge_fixed_record,
            Self::merge_keyed,
            Self::merge_field,
        )
    }

    #[doc(hidden)]
    /// Merges fields from `decoder` up to the end-group key of group
    /// `field_number`, for messages encoded as groups.
    fn merge_group(
        &mut self,
        field_number: u32,
        decoder: &mut Decoder<'_>,
    ) -> Result<(), DecodeError>
    where
        Self: Sized,
    {
        merge_group_fields(
            Self::NAME,
            field_number,
            self,
            decoder,
            Self::merge_keyed,
            Self::merge_field,
        )
    }

    /// Decodes a message from shared bytes under `options`: `bytes` fields
    /// typed as [`Bytes`] and `string` fields typed as
    /// [`BytesStr`](crate::BytesStr) are slices of `bytes` instead of copies
    /// (each keeps the whole buffer alive).
    ///
    /// It takes the options, unlike [`Message::decode_from_slice`]: shared
    /// buffers come from transports, whose callers set limits, and this is
    /// the form the public rust_serialization_benchmark's harness calls.
    /// Pass `&DecodeOptions::new()` for the defaults.
    fn decode_bytes(bytes: &Bytes, options: &DecodeOptions) -> Result<Self, DecodeError>
    where
        Self: Sized,
    {
        let mut message = Self::default();
        message.merge_from(&mut Decoder::new_shared(bytes, options)?)?;
        Ok(message)
    }
}

/// The encoding half that owned messages and views share, so that one set
/// of field helpers and encode entry points serves both. **Support API**:
/// every [`Message`] has it through a blanket impl; generated views
/// implement it directly.
#[doc(hidden)]
pub trait Encodable {
    /// The message's fully qualified protobuf name, for errors.
    const NAME: &'static str;

    /// See [`Message::CACHES_SIZES`].
    const CACHES_SIZES: bool = true;

    /// See [`Message::compute_size`].
    fn compute_size(&self, cache: &mut SizeCache) -> usize;

    /// See [`Message::write_to`].
    fn write_to(&self, cache: &mut SizeCache, encoder: &mut Encoder<'_>);

    /// How deeply groups nest in the message's own unknown fields.
    fn unknown_group_depth(&self) -> u32;

    /// See [`Message::write_backward`].
    fn write_backward(&self, encoder: &mut BackwardEncoder<'_>) {
        crate::encoding::backward::whole(self, encoder);
    }
}

impl<M: Message> Encodable for M {
    const NAME: &'static str = M::NAME;
    const CACHES_SIZES: bool = M::CACHES_SIZES;

    #[inline]
    fn compute_size(&self, cache: &mut SizeCache) -> usize {
        Message::compute_size(self, cache)
    }

    #[inline]
    fn write_to(&self, cache: &mut SizeCache, encoder: &mut Encoder<'_>) {
        Message::write_to(self, cache, encoder)
    }

    #[inline]
    fn unknown_group_depth(&self) -> u32 {
        self.unknown_fields().group_depth()
    }

    #[inline]
    fn write_backward(&self, encoder: &mut BackwardEncoder<'_>) {
        Message::write_backward(self, encoder)
    }
}

/// The decoding half that owned messages and views share: merging fields
/// read from input that lives for `'a` (views borrow from it). **Support
/// API**: every [`Message`] has it through a blanket impl; generated views
/// implement it directly.
#[doc(hidden)]
pub trait Mergeable<'a>: Encodable + Default {
    /// Merges one field, whose key `tag` has just been read and which
    /// [`Mergeable::merge_keyed`] left (see [`Message::merge_field`]).
    fn merge_field(&mut self, tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError>;

    /// Checks one field, whose key `tag` has just been read, as
    /// `merge_field` reads it (the same errors at the same offsets) but
    /// keeping nothing: how a view's sequence checks its message elements
    /// when the view is decoded. Generated views check each field in
    /// place; the provided body merges into a throwaway value.
    #[inline]
    fn check_field(tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
        Self::default().merge_field(tag, decoder)
    }

    /// See [`Message::merge_keyed`].
    #[inline(always)]
    fn merge_keyed(&mut self, key: u8, decoder: &mut Decoder<'a>) -> Result<bool, DecodeError> {
        let _ = (key, decoder);
        Ok(false)
    }

    /// Checks the field whose one-byte key `key` was just taken, as
    /// [`Mergeable::merge_keyed`] reads it, keeping nothing; `Ok(false)`
    /// leaves the key to [`Mergeable::check_field`]. Generated views
    /// check in place; the provided body merges into a throwaway value.
    #[inline]
    fn check_keyed(key: u8, decoder: &mut Decoder<'a>) -> Result<bool, DecodeError> {
        Self::default().merge_keyed(key, decoder)
    }

    /// The message's [fixed record](crate::encoding::fixed_record), if its
    /// fields make one (see [`Message::FIXED_RECORD`]).
    const FIXED_RECORD: Option<FixedRecord> = None;

    /// Sets every field from `record`, bytes that
    /// [`Mergeable::FIXED_RECORD`] matched; the provided body does nothing.
    #[inline]
    fn merge_fixed_record(&mut self, record: &[u8]) {
        let _ = record;
    }

    /// Merges fields until the end of the decoder's current message.
    #[inline]
    fn merge_from(&mut self, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
        merge_record_or_fields(
            Self::NAME,
            Self::FIXED_RECORD,
            self,
            decoder,
            Self::merge_fixed_record,
            Self::merge_keyed,
            Self::merge_field,
        )
    }

    /// Merges fields up to the end-group key of group `field_number`.
    #[inline]
    fn merge_group(
        &mut self,
        field_number: u32,
        decoder: &mut Decoder<'a>,
    ) -> Result<(), DecodeError> {
        merge_group_fields(
            Self::NAME,
            field_number,
            self,
            decoder,
            Self::merge_keyed,
            Self::merge_field,
        )
    }
}

impl<'a, M: Message> Mergeable<'a> for M {
    const FIXED_RECORD: Option<FixedRecord> = <M as Message>::FIXED_RECORD;

    #[inline]
    fn merge_fixed_record(&mut self, record: &[u8]) {
        Message::merge_fixed_record(self, record)
    }

    #[inline]
    fn merge_field(&mut self, tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
        Message::merge_field(self, tag, decoder)
    }

    #[inline(always)]
    fn merge_keyed(&mut self, key: u8, decoder: &mut Decoder<'a>) -> Result<bool, DecodeError> {
        Message::merge_keyed(self, key, decoder)
    }

    #[inline]
    fn merge_from(&mut self, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
        Message::merge_from(self, decoder)
    }

    #[inline]
    fn merge_group(
        &mut self,
        field_number: u32,
        decoder: &mut Decoder<'a>,
    ) -> Result<(), DecodeError> {
        Message::merge_group(self, field_number, decoder)
    }
}

/// Merges fields into `target` until the end of the decoder's current
/// message: each key offered to `take_key` first (see [`next_left_tag`]),
/// every key it leaves given to `take_field`. An end-group key there has
/// no group to close.
#[inline(always)]
fn merge_fields<'a, T: ?Sized>(
    name: &'static str,
    target: &mut T,
    decoder: &mut Decoder<'a>,
    mut take_key: impl FnMut(&mut T, u8, &mut Decoder<'a>) -> Result<bool, DecodeError>,
    mut take_field: impl FnMut(&mut T, Tag, &mut Decoder<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    while let Some(tag) = next_left_tag(name, target, decoder, &mut take_key)? {
        if tag.wire_type() == WireType::EndGroup {
            return Err(decoder.error(DecodeErrorKind::UnmatchedEndGroup {
                field_number: tag.field_number(),
            }));
        }
        take_field(target, tag, decoder).map_err(|e| e.in_field(name, tag.field_number()))?;
    }
    Ok(())
}

/// Offers keys to `take_key` (see [`Message::merge_keyed`]) until it
/// leaves one, and returns that key's tag, or `None` at the end of the
/// decoder's current message. A key of a field numbered 1 to 15 is offered
/// in its one-byte form even when it was written longer (a varint padded
/// with `0x80` bytes, which parsers must accept), since `merge_field`
/// answers those numbers with the wire-type error only; longer keys are
/// not offered. `take_key` is called from one place only: it is generated
/// code's whole keyed dispatch, inlined.
#[inline(always)]
fn next_left_tag<'a, T: ?Sized>(
    name: &'static str,
    target: &mut T,
    decoder: &mut Decoder<'a>,
    take_key: &mut impl FnMut(&mut T, u8, &mut Decoder<'a>) -> Result<bool, DecodeError>,
) -> Result<Option<Tag>, DecodeError> {
    loop {
        let key = match decoder.take_key_byte() {
            Some(key) => key,
            None => match decoder.read_tag()? {
                Some(tag) if tag.raw() < 0x80 => tag.raw() as u8,
                other => return Ok(other),
            },
        };
        let taken =
            take_key(target, key, decoder).map_err(|e| e.in_field(name, u32::from(key >> 3)))?;
        if !taken {
            return decoder.left_key_tag(key).map(Some);
        }
    }
}

/// Reads the rest of the decoder's current message into `target`: in one
/// step with `take_record` when it is exactly the message's fixed `record`
/// (see [`crate::encoding::fixed_record`]), field by field with
/// [`merge_fields`] otherwise. The one body of the owned and view
/// `merge_from` and of [`check_fields`].
#[inline(always)]
fn merge_record_or_fields<'a, T: ?Sized>(
    name: &'static str,
    record: Option<FixedRecord>,
    target: &mut T,
    decoder: &mut Decoder<'a>,
    take_record: impl FnOnce(&mut T, &'a [u8]),
    take_key: impl FnMut(&mut T, u8, &mut Decoder<'a>) -> Result<bool, DecodeError>,
    take_field: impl FnMut(&mut T, Tag, &mut Decoder<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    if let Some(record) = record
        && let Some(bytes) = decoder.take_fixed_record(&record)
    {
        take_record(target, bytes);
        return Ok(());
    }
    merge_fields(name, target, decoder, take_key, take_field)
}

/// Checks the fields of message `M` up to the end of the decoder's
/// current message, as merging them would ([`Mergeable::check_keyed`],
/// [`Mergeable::check_field`]).
#[inline]
pub(crate) fn check_fields<'a, M: Mergeable<'a>>(
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    merge_record_or_fields(
        M::NAME,
        M::FIXED_RECORD,
        &mut (),
        decoder,
        |_, _| {},
        |_, key, d| M::check_keyed(key, d),
        |_, tag, d| M::check_field(tag, d),
    )
}

/// Checks the fields of message `M` up to the end-group key of group
/// `field_number`, as merging them would.
#[inline]
pub(crate) fn check_group_fields<'a, M: Mergeable<'a>>(
    field_number: u32,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    merge_group_fields(
        M::NAME,
        field_number,
        &mut (),
        decoder,
        |_, key, d| M::check_keyed(key, d),
        |_, tag, d| M::check_field(tag, d),
    )
}

/// Merges fields into `target` as [`merge_fields`] does, up to the
/// end-group key of group `field_number`.
#[inline]
fn merge_group_fields<'a, T: ?Sized>(
    name: &'static str,
    field_number: u32,
    target: &mut T,
    decoder: &mut Decoder<'a>,
    mut take_key: impl FnMut(&mut T, u8, &mut Decoder<'a>) -> Result<bool, DecodeError>,
    mut take_field: impl FnMut(&mut T, Tag, &mut Decoder<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    while let Some(tag) = next_left_tag(name, target, decoder, &mut take_key)? {
        if tag.wire_type() == WireType::EndGroup {
            return decoder.check_end_group(tag, field_number);
        }
        take_field(target, tag, decoder).map_err(|e| e.in_field(name, tag.field_number()))?;
    }
    Err(decoder.error(DecodeErrorKind::MissingEndGroup { field_number }))
}

/// Sizes `message`, failing if it is beyond the limits `cache` was made
/// with.
pub(crate) fn checked_size<M: Encodable>(
    message: &M,
    cache: &mut SizeCache,
) -> Result<usize, EncodeError> {
    cache.check_unknown_depth(message.unknown_group_depth());
    let len = message.compute_size(cache);
    if cache.recursion_exceeded() {
        return Err(EncodeError::new(
            EncodeErrorKind::RecursionLimitExceeded {
                limit: cache.recursion_limit(),
            },
            M::NAME,
        ));
    }
    if len > MAX_MESSAGE_LEN {
        return Err(EncodeError::new(
            EncodeErrorKind::MessageTooLarge { length: len },
            M::NAME,
        ));
    }
    Ok(len)
}

/// Encodes `message` back to front into the end of `buf` under `options`
/// (see [`Message::encode_to_slice`]), checking the limits the two-pass
/// encoder checks.
pub(crate) fn encode_backward<'b, M: Encodable>(
    message: &M,
    buf: &'b mut [u8],
    options: &EncodeOptions,
) -> Result<&'b [u8], EncodeError> {
    let mut encoder = BackwardEncoder::new(buf, options);
    encoder.check_unknown_depth(message.unknown_group_depth());
    message.write_backward(&mut encoder);
    if encoder.recursion_exceeded() {
        return Err(EncodeError::new(
            EncodeErrorKind::RecursionLimitExceeded {
                limit: encoder.recursion_limit(),
            },
            M::NAME,
        ));
    }
    let len = encoder.written();
    if len > MAX_MESSAGE_LEN {
        return Err(EncodeError::new(
            EncodeErrorKind::MessageTooLarge { length: len },
            M::NAME,
        ));
    }
    let capacity = encoder.capacity();
    encoder.finish().ok_or_else(|| {
        EncodeError::new(
            EncodeErrorKind::BufferTooSmall {
                required: len,
                remaining: capacity,
            },
            M::NAME,
        )
    })
}

/// The error for a buffer over [`MAX_MESSAGE_LEN`].
#[cold]
fn too_large(len: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::MessageTooLarge { length: len as u64 })
}

/// Fails unless `buf` has room for `required` bytes.
pub(crate) fn check_room(
    message: &'static str,
    required: usize,
    buf: &impl BufMut,
) -> Result<(), EncodeError> {
    let remaining = buf.remaining_mut();
    if remaining < required {
        return Err(EncodeError::new(
            EncodeErrorKind::BufferTooSmall {
                required,
                remaining,
            },
            message,
        ));
    }
    Ok(())
}

/// `len` as a varint length prefix: the bytes and how many are used.
fn length_prefix(len: usize) -> ([u8; 10], usize) {
    let mut prefix = [0u8; 10];
    let mut encoder = Encoder::from_slice(&mut prefix);
    encoder.put_varint(len as u64);
    let used = encoder.position();
    (prefix, used)
}

/// Runs the write pass into `buf`: directly into its spare memory when it
/// has `len` contiguous bytes, through an intermediate `Vec` otherwise.
pub(crate) fn write_to_buf<M: Encodable>(
    message: &M,
    cache: &mut SizeCache,
    len: usize,
    buf: &mut impl BufMut,
) {
    let chunk = buf.chunk_mut();
    if chunk.len() >= len {
        // SAFETY: the encoder writes only initialised bytes into the chunk.
        let spare = unsafe { chunk.as_uninit_slice_mut() };
        let written = write_exact(message, cache, len, &mut spare[..len]);
        // SAFETY: `write_exact` initialised the first `written` bytes.
        unsafe { buf.advance_mut(written) };
    } else {
        let mut vec = Vec::with_capacity(len);
        write_to_vec(message, cache, len, &mut vec);
        buf.put_slice(&vec);
    }
}

/// Runs the write pass, appending to `vec`.
pub(crate) fn write_to_vec<M: Encodable>(
    message: &M,
    cache: &mut SizeCache,
    len: usize,
    vec: &mut Vec<u8>,
) {
    vec.reserve(len);
    let start = vec.len();
    let written = write_exact(message, cache, len, &mut vec.spare_capacity_mut()[..len]);
    // SAFETY: `write_exact` initialised the `written` bytes after `start`.
    unsafe { vec.set_len(start + written) };
}

/// Writes `message` into `buf`, which has room for exactly `len` bytes, and
/// returns the bytes written.
fn write_exact<M: Encodable>(
    message: &M,
    cache: &mut SizeCache,
    len: usize,
    buf: &mut [MaybeUninit<u8>],
) -> usize {
    let start = buf.as_ptr();
    let mut encoder = Encoder::new(buf);
    message.write_to(cache, &mut encoder);
    // The callers expose `written` bytes of `buf` as initialised, which is
    // only true if they were written through this very encoder: a
    // `write_to` could have replaced it with one over other memory.
    assert!(
        encoder.writes_into(start, len),
        "{}: write_to replaced its Encoder",
        M::NAME
    );
    let written = encoder.position();
    assert_eq!(
        written,
        len,
        "{}: write_to wrote {written} bytes, compute_size promised {len}",
        M::NAME
    );
    written
}

/// Reads a varint length prefix from a `Buf`, checking it against the bytes
/// that follow.
fn read_length_prefix(buf: &mut impl Buf) -> Result<usize, DecodeError> {
    let mut value = 0u64;
    for i in 0..10 {
        if !buf.has_remaining() {
            return Err(DecodeError::new(DecodeErrorKind::Truncated));
        }
        let byte = buf.get_u8();
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            if i == 9 && byte > 1 {
                return Err(DecodeError::new(DecodeErrorKind::VarintOverflow));
            }
            if value > buf.remaining() as u64 {
                return Err(DecodeError::new(DecodeErrorKind::LengthOutOfBounds {
                    length: value,
                    remaining: buf.remaining(),
                }));
            }
            return Ok(value as usize);
        }
    }
    Err(DecodeError::new(DecodeErrorKind::VarintTooLong))
}
