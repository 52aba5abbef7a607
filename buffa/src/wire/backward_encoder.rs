//! The back-to-front writer: encodes into a caller's slice from its end,
//! so that every nested length is known once its value is written and no
//! sizing pass (or size cache) is needed.

use crate::options::EncodeOptions;
use crate::wire::nesting::NestingLimit;
use crate::wire::{Encoder, WireType, tag_len, varint_len};

/// Writes a message into a fixed slice from the end towards the start.
///
/// Fields are written in reverse order, and each length-delimited value
/// before its length prefix: when the value is done, its length is the
/// difference of [`BackwardEncoder::written`] before and after, so the
/// prefix and key go in front of it. This is how upb's encoder works; it
/// needs no size pass and therefore no heap memory for nested lengths.
///
/// When the slice runs out, the encoder stops writing but keeps counting,
/// so [`BackwardEncoder::written`] at the end is the exact length the
/// message needs: a too-small slice yields the exact room missing in one
/// pass.
///
/// The encoder also carries what the [`EncodeOptions`] ask of the pass:
/// it counts nesting depth against the recursion limit (like the
/// [`SizeCache`](crate::wire::SizeCache) does in the two-pass encoder) and
/// says whether map entries are to be written in key order.
#[derive(Debug)]
pub struct BackwardEncoder<'a> {
    buf: &'a mut [u8],
    /// Bytes the message needs so far, counted past the slice's start.
    written: usize,
    nesting: NestingLimit,
    deterministic: bool,
}

impl<'a> BackwardEncoder<'a> {
    /// An encoder that writes `buf` from its end, under `options`.
    pub fn new(buf: &'a mut [u8], options: &EncodeOptions) -> BackwardEncoder<'a> {
        BackwardEncoder {
            buf,
            written: 0,
            nesting: NestingLimit::new(options.recursion_limit()),
            deterministic: options.deterministic(),
        }
    }

    /// Bytes written so far, or needed so far once the slice has run out.
    #[inline]
    pub fn written(&self) -> usize {
        self.written
    }

    /// Whether everything written so far fits in the slice.
    #[inline]
    pub fn fits(&self) -> bool {
        self.written <= self.buf.len()
    }

    /// The bytes written: the last [`BackwardEncoder::written`] bytes of
    /// the slice, or `None` if they did not fit.
    pub fn finish(self) -> Option<&'a [u8]> {
        let start = self.buf.len().checked_sub(self.written)?;
        let buf: &'a [u8] = self.buf;
        Some(&buf[start..])
    }

    /// The slice's length.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The `len` bytes written last (the first `len` bytes of the
    /// message so far), to rearrange in place; `None` once the slice has
    /// run out.
    pub(crate) fn last_written_mut(&mut self, len: usize) -> Option<&mut [u8]> {
        let start = self.buf.len().checked_sub(self.written)?;
        self.buf.get_mut(start..start + len)
    }

    /// Claims the `len` bytes in front of what is written and lets `write`
    /// fill them front to back through an [`Encoder`] that starts there. Values whose length is cheap to know (scalars, strings,
    /// packed runs, unknown fields, leaf messages) are written this way.
    /// When the slice has run out, `write` is not called and the bytes are
    /// only counted.
    ///
    /// `write` must write exactly `len` bytes (checked in debug builds):
    /// the encoder it gets reaches over the bytes already written, so
    /// writing more would overwrite them.
    #[inline]
    pub fn put_forward(&mut self, len: usize, write: impl FnOnce(&mut Encoder<'_>)) {
        let Some(written) = self.claim(len) else {
            return;
        };
        let start = self.buf.len() - written;
        // The encoder sees the room up to the slice's end, over bytes
        // already written, so that its one-check fast paths (which need
        // room for the longest varint) apply; it writes only the bytes a
        // value takes, so exactly the claimed `len` when `write` is right.
        let mut encoder = Encoder::from_slice(&mut self.buf[start..]);
        write(&mut encoder);
        debug_assert_eq!(
            encoder.position(),
            len,
            "put_forward wrote other than len bytes"
        );
    }

    /// Counts `len` more bytes and returns the new total if they fit.
    #[inline]
    fn claim(&mut self, len: usize) -> Option<usize> {
        self.written = self.written.saturating_add(len);
        (self.written <= self.buf.len()).then_some(self.written)
    }

    /// Writes `value` as a varint in front of what is written.
    #[inline]
    pub fn put_varint(&mut self, value: u64) {
        self.put_forward(varint_len(value), |encoder| encoder.put_varint(value));
    }

    /// Writes the key and length prefix of a length-delimited field whose
    /// `len` bytes of value are already written.
    #[inline]
    pub fn put_key_and_length(&mut self, field_number: u32, len: usize) {
        let len = len as u64;
        self.put_forward(tag_len(field_number) + varint_len(len), |encoder| {
            encoder.put_tag(field_number, WireType::LengthDelimited);
            encoder.put_varint(len);
        });
    }

    /// Writes a field key in front of what is written.
    #[inline]
    pub fn put_tag(&mut self, field_number: u32, wire_type: WireType) {
        self.put_forward(tag_len(field_number), |encoder| {
            encoder.put_tag(field_number, wire_type);
        });
    }

    /// Writes `bytes` in front of what is written.
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        self.put_forward(bytes.len(), |encoder| encoder.put_slice(bytes));
    }

    /// Enters a nested message (or group, or map) whose unknown fields hold
    /// groups nested `unknown_depth` deep. Returns `false`, remembering
    /// that the limit was exceeded, when that would nest deeper than the
    /// recursion limit; the caller then skips the value and the encode
    /// fails. Every `true` must be paired with a
    /// [`BackwardEncoder::leave`].
    #[inline]
    pub fn enter(&mut self, unknown_depth: u32) -> bool {
        self.nesting.enter(unknown_depth)
    }

    /// Leaves a level entered with [`BackwardEncoder::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.nesting.leave();
    }

    /// Checks, without entering it, that one more level with groups
    /// `unknown_depth` deep below it is allowed (for leaf messages).
    /// Returns `false`, remembering it, at the limit.
    #[inline]
    pub fn can_enter(&mut self, unknown_depth: u32) -> bool {
        self.nesting.can_enter(unknown_depth)
    }

    /// Checks that groups `unknown_depth` deep fit below the current level:
    /// for the top-level message's unknown fields.
    #[inline]
    pub fn check_unknown_depth(&mut self, unknown_depth: u32) {
        self.nesting.check_unknown_depth(unknown_depth);
    }

    /// Remembers that a value nested deeper than the limit was skipped.
    #[inline]
    pub(crate) fn exceed_recursion_limit(&mut self) {
        self.nesting.exceed();
    }

    /// Nesting levels left below the current one.
    #[inline]
    pub fn depth_remaining(&self) -> u32 {
        self.nesting.remaining()
    }

    /// Whether a message nested deeper than the limit was met; what was
    /// written is then incomplete.
    #[inline]
    pub fn recursion_exceeded(&self) -> bool {
        self.nesting.exceeded()
    }

    /// The recursion limit in force.
    #[inline]
    pub fn recursion_limit(&self) -> u32 {
        self.nesting.limit()
    }

    /// Whether map entries must be written in key order.
    #[inline]
    pub fn deterministic(&self) -> bool {
        self.deterministic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_from_the_end_and_counts_past_the_start() {
        let mut buf = [0u8; 6];
        let mut encoder = BackwardEncoder::new(&mut buf, &EncodeOptions::new());
        encoder.put_slice(b"abc");
        encoder.put_key_and_length(1, 3);
        assert_eq!(encoder.written(), 5);
        assert!(encoder.fits());
        assert_eq!(encoder.finish(), Some(&[0x0a, 3, b'a', b'b', b'c'][..]));

        let mut small = [0u8; 4];
        let mut encoder = BackwardEncoder::new(&mut small, &EncodeOptions::new());
        encoder.put_slice(b"abc");
        encoder.put_key_and_length(1, 3);
        encoder.put_varint(300);
        assert_eq!(encoder.written(), 7);
        assert!(!encoder.fits());
        assert_eq!(encoder.finish(), None);
        // Only what fitted was written; the rest was counted.
        assert_eq!(small, [0, b'a', b'b', b'c']);
    }

    #[test]
    fn depth_beyond_the_limit_is_refused_and_remembered() {
        let mut buf = [0u8; 0];
        let options = EncodeOptions::new().with_recursion_limit(1);
        let mut encoder = BackwardEncoder::new(&mut buf, &options);
        assert!(encoder.enter(0));
        assert!(!encoder.can_enter(0));
        assert!(encoder.recursion_exceeded());
        encoder.leave();
        assert_eq!(encoder.depth_remaining(), 1);
    }
}
