//! [`BuffaCodec`]: tonic's [`Codec`] over buffa messages, with its
//! [`BuffaEncoder`] and [`BuffaDecoder`].

use std::fmt;
use std::marker::PhantomData;

use buffa::Message;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

use crate::options::{CodecOptions, DefaultOptions};
use crate::status;

/// A [`Codec`] that encodes messages of type `T` and decodes messages of
/// type `U`, both buffa [`Message`]s, under the limits of `O`.
///
/// Generated services use `BuffaCodec<Response, Request>` and generated
/// clients `BuffaCodec<Request, Response>`; both build it with
/// [`Default`]. A hand-written client names it the same way:
///
/// ```ignore
/// let codec = buffa_tonic::BuffaCodec::<EchoRequest, EchoReply>::default();
/// grpc.unary(request, path, codec).await
/// ```
///
/// Encoding sizes the message once, reserves that length in tonic's
/// buffer and writes the message there directly: no intermediate buffer.
/// Decoding applies `O::DECODE`, buffa's defaults with [`DefaultOptions`]:
/// the limits of [`Message::decode`]. Messages with `bytes::Bytes` or
/// `buffa::BytesStr` fields share tonic's receive buffer instead of
/// copying those values; the others are decoded in place. Errors become
/// [`Status`]es with code `INTERNAL`, as gRPC specifies for messages that
/// do not parse, and buffa's message, which names the field path.
pub struct BuffaCodec<T, U, O = DefaultOptions> {
    _types: PhantomData<fn(T, O) -> U>,
}

impl<T, U, O> BuffaCodec<T, U, O> {
    /// A codec; the same as [`Default::default`].
    pub const fn new() -> Self {
        BuffaCodec {
            _types: PhantomData,
        }
    }
}

impl<T, U, O> Default for BuffaCodec<T, U, O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, U, O> Clone for BuffaCodec<T, U, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, U, O> Copy for BuffaCodec<T, U, O> {}

impl<T, U, O> fmt::Debug for BuffaCodec<T, U, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuffaCodec")
            .field("encode", &std::any::type_name::<T>())
            .field("decode", &std::any::type_name::<U>())
            .field("options", &std::any::type_name::<O>())
            .finish()
    }
}

impl<T: Message, U: Message, O: CodecOptions> Codec for BuffaCodec<T, U, O> {
    type Encode = T;
    type Decode = U;
    type Encoder = BuffaEncoder<T, O>;
    type Decoder = BuffaDecoder<U, O>;

    fn encoder(&mut self) -> Self::Encoder {
        BuffaEncoder::new()
    }

    fn decoder(&mut self) -> Self::Decoder {
        BuffaDecoder::new()
    }
}

/// The [`Encoder`] of a [`BuffaCodec`]: writes messages of type `T` under
/// `O::ENCODE`.
pub struct BuffaEncoder<T, O = DefaultOptions> {
    _types: PhantomData<fn(T, O)>,
}

impl<T, O> BuffaEncoder<T, O> {
    /// An encoder; the same as [`Default::default`].
    pub const fn new() -> Self {
        BuffaEncoder {
            _types: PhantomData,
        }
    }
}

impl<T, O> Default for BuffaEncoder<T, O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, O> fmt::Debug for BuffaEncoder<T, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuffaEncoder")
            .field("message", &std::any::type_name::<T>())
            .finish()
    }
}

impl<T: Message, O: CodecOptions> Encoder for BuffaEncoder<T, O> {
    type Item = T;
    type Error = Status;

    /// Sizes `item` (failing with `INTERNAL` if it is beyond the encode
    /// limits), reserves its length in `dst`, and writes it there.
    fn encode(&mut self, item: T, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        let measured = item.measure(&O::ENCODE).map_err(status::encode_error)?;
        dst.reserve(measured.len());
        measured.encode(dst).map_err(status::encode_error)
    }
}

/// The [`Decoder`] of a [`BuffaCodec`]: reads messages of type `U` under
/// `O::DECODE`.
pub struct BuffaDecoder<U, O = DefaultOptions> {
    _types: PhantomData<fn(O) -> U>,
}

impl<U, O> BuffaDecoder<U, O> {
    /// A decoder; the same as [`Default::default`].
    pub const fn new() -> Self {
        BuffaDecoder {
            _types: PhantomData,
        }
    }
}

impl<U, O> Default for BuffaDecoder<U, O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<U, O> fmt::Debug for BuffaDecoder<U, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuffaDecoder")
            .field("message", &std::any::type_name::<U>())
            .finish()
    }
}

impl<U: Message, O: CodecOptions> Decoder for BuffaDecoder<U, O> {
    type Item = U;
    type Error = Status;

    /// Decodes the whole of `src`, one gRPC message, as a `U`.
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        // `merge_with_options` reads a contiguous buffer in place, or, for
        // messages that share their input, takes it as `Bytes`: for
        // tonic's buffer a split of its `BytesMut`, not a copy.
        let mut message = U::default();
        message
            .merge_with_options(src, &O::DECODE)
            .map_err(|e| status::decode_error(U::NAME, e))?;
        Ok(Some(message))
    }
}
