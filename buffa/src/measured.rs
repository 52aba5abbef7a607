//! [`Measured`]: a message whose encoded length is known, ready to be
//! written, so that a caller can make room between buffa's two encode
//! passes.

use bytes::BufMut;

use crate::error::EncodeError;
use crate::message::{Message, check_room, write_to_buf};
use crate::wire::SizeCache;

/// A message after the sizing pass of an encode, before the write pass:
/// returned by [`Message::measure`].
///
/// [`Message::encode`] sizes a message, then writes it straight into the
/// buffer's spare memory when the buffer has room for all of it, and
/// through a temporary buffer when it does not. A caller that owns a
/// growable buffer (a `BytesMut`, a transport's frame buffer) can do
/// better: measure, reserve [`Measured::len`] bytes, then write, so the
/// message is sized once and written once, with no copy.
///
/// ```ignore
/// use buffa::{EncodeOptions, Message};
/// use buffa::bytes::BytesMut;
///
/// let measured = message.measure(&EncodeOptions::new())?;
/// let mut buf = BytesMut::new();
/// buf.reserve(measured.len());
/// measured.encode(&mut buf)?;
/// ```
///
/// The message stays borrowed until it is written, so it cannot change
/// between the two passes.
#[derive(Debug)]
pub struct Measured<'a, M: Message> {
    message: &'a M,
    cache: SizeCache,
    len: usize,
}

impl<'a, M: Message> Measured<'a, M> {
    /// Wraps the result of a sizing pass that filled `cache` and returned
    /// `len`, checked against the limits.
    pub(crate) fn new(message: &'a M, cache: SizeCache, len: usize) -> Measured<'a, M> {
        Measured {
            message,
            cache,
            len,
        }
    }

    /// The encoded length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the message encodes to no bytes at all (every field unset).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The message being encoded.
    pub fn message(&self) -> &'a M {
        self.message
    }

    /// Writes the message into `buf`: straight into its spare memory when
    /// its current chunk holds [`Measured::len`] bytes (reserve them first),
    /// through a temporary buffer otherwise. Fails, writing nothing, if
    /// `buf` cannot take the whole message.
    pub fn encode(mut self, buf: &mut impl BufMut) -> Result<(), EncodeError> {
        check_room(M::NAME, self.len, buf)?;
        write_to_buf(self.message, &mut self.cache, self.len, buf);
        Ok(())
    }
}
