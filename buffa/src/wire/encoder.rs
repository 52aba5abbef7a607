//! The write side of the wire format: a cursor over a buffer whose exact
//! size was computed beforehand.

use core::mem::MaybeUninit;

use crate::wire::{Tag, WireType, varint_len};

/// Writes encoded bytes into memory reserved for exactly one message.
///
/// Encoding runs in two passes: a sizing pass fills a
/// [`SizeCache`](crate::wire::SizeCache) and yields the total length, then the
/// caller reserves that many bytes once and the write pass fills them
/// through an `Encoder`. The buffer may be uninitialised memory; the encoder
/// appends, and only goes back to fill in a length below its position (a
/// leaf sub-message's, written before its length is known), so the first
/// [`Encoder::position`] bytes are always initialised.
///
/// Writing past the end of the buffer panics: it can only happen when a
/// [`Message`](crate::Message) implementation's `compute_size` and
/// `write_to` disagree, which is a bug in that implementation.
pub struct Encoder<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    pos: usize,
}

impl<'a> Encoder<'a> {
    /// An encoder that writes from the start of `buf`.
    pub fn new(buf: &'a mut [MaybeUninit<u8>]) -> Encoder<'a> {
        Encoder { buf, pos: 0 }
    }

    /// An encoder over initialised memory, for callers with a `&mut [u8]`.
    pub fn from_slice(buf: &'a mut [u8]) -> Encoder<'a> {
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the encoder
        // never writes uninitialised bytes, so the slice stays initialised.
        let buf = unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) };
        Encoder { buf, pos: 0 }
    }

    /// An encoder over initialised memory that continues behind its first
    /// `pos` bytes, which hold what was written before.
    pub(crate) fn from_slice_at(buf: &'a mut [u8], pos: usize) -> Encoder<'a> {
        assert!(
            pos <= buf.len(),
            "position {pos} past a {}-byte buffer",
            buf.len()
        );
        let mut encoder = Encoder::from_slice(buf);
        encoder.pos = pos;
        encoder
    }

    /// Whether this encoder writes into the `len` bytes at `start`.
    pub(crate) fn writes_into(&self, start: *const MaybeUninit<u8>, len: usize) -> bool {
        core::ptr::eq(self.buf.as_ptr(), start) && self.buf.len() == len
    }

    /// Bytes written so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes of room left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Appends one byte.
    #[inline]
    pub fn put_u8(&mut self, byte: u8) {
        self.buf[self.pos].write(byte);
        self.pos += 1;
    }

    /// Appends `bytes`.
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        self.buf[self.pos..end].write_copy_of_slice(bytes);
        self.pos = end;
    }

    /// Appends `value` as a varint.
    #[inline]
    pub fn put_varint(&mut self, value: u64) {
        if value < 0x80 {
            self.put_u8(value as u8);
        } else {
            self.put_varint_multi_byte(value);
        }
    }

    #[inline(never)]
    fn put_varint_multi_byte(&mut self, mut value: u64) {
        if let Some(dst) = self.buf.get_mut(self.pos..self.pos + 10) {
            // Fast path: room for the longest varint, one bounds check.
            self.pos += write_varint_unchecked(dst, value);
            return;
        }
        while value >= 0x80 {
            self.put_u8(value as u8 | 0x80);
            value >>= 7;
        }
        self.put_u8(value as u8);
    }

    /// Appends a field key.
    #[inline]
    pub fn put_tag(&mut self, field_number: u32, wire_type: WireType) {
        let key = Tag::new(field_number, wire_type).raw();
        if key < 0x80 {
            self.put_u8(key as u8);
        } else if key < 0x4000 {
            self.put_slice(&two_byte_key(key));
        } else {
            self.put_varint_multi_byte(u64::from(key));
        }
    }

    /// Appends the key of field `field_number` and the bytes of a
    /// fixed-width value. A one-byte key (field numbers up to 15) and the
    /// value share one bounds check.
    #[inline]
    pub fn put_key_and_fixed<const N: usize>(
        &mut self,
        field_number: u32,
        wire_type: WireType,
        value: [u8; N],
    ) {
        let key = Tag::new(field_number, wire_type).raw();
        if key < 0x80
            && let Some(dst) = self.buf.get_mut(self.pos..self.pos + 1 + N)
        {
            dst[0].write(key as u8);
            dst[1..].write_copy_of_slice(&value);
            self.pos += 1 + N;
        } else if key < 0x4000
            && let Some(dst) = self.buf.get_mut(self.pos..self.pos + 2 + N)
        {
            dst[..2].write_copy_of_slice(&two_byte_key(key));
            dst[2..].write_copy_of_slice(&value);
            self.pos += 2 + N;
        } else {
            self.put_tag(field_number, wire_type);
            self.put_slice(&value);
        }
    }

    /// Appends the key of varint field `field_number` and `value`. With a
    /// one- or two-byte key and room for the longest varint, one bounds
    /// check covers both.
    // Always inlined: LLVM otherwise calls it out of line for every
    // field (its fast path is a handful of instructions), 2-8% of the
    // encode's instructions on log, minecraft_savedata and mk48.
    #[inline(always)]
    pub fn put_key_and_varint(&mut self, field_number: u32, value: u64) {
        let key = Tag::new(field_number, WireType::Varint).raw();
        if key < 0x80
            && let Some(dst) = self.buf.get_mut(self.pos..self.pos + 11)
        {
            dst[0].write(key as u8);
            // `write_varint_unchecked(&mut dst[1..], value)` writes the same
            // bytes, but LLVM then lays the field loops of log's encode out
            // worse (callgrind: 5.80M instructions against 5.74M).
            let mut value = value;
            let mut i = 1;
            while value >= 0x80 {
                dst[i].write(value as u8 | 0x80);
                value >>= 7;
                i += 1;
            }
            dst[i].write(value as u8);
            self.pos += i + 1;
        } else if key < 0x4000
            && let Some(dst) = self.buf.get_mut(self.pos..self.pos + 12)
        {
            dst[..2].write_copy_of_slice(&two_byte_key(key));
            self.pos += 2 + write_varint_unchecked(&mut dst[2..], value);
        } else {
            self.put_tag(field_number, WireType::Varint);
            self.put_varint(value);
        }
    }

    /// Sets one byte aside for the length of a value whose length is not
    /// known before it is written, and returns where, for
    /// [`Encoder::end_length_prefixed`].
    #[inline]
    pub(crate) fn begin_length_prefixed(&mut self) -> usize {
        let prefix_at = self.pos;
        self.put_u8(0);
        prefix_at
    }

    /// Writes the length of the value written behind the byte set aside at
    /// `prefix_at` (by [`Encoder::begin_length_prefixed`], or by
    /// [`FieldWriter::message`](crate::wire::FieldWriter::message)) into
    /// that byte; a length of 128 or more takes more bytes,
    /// and the value moves up to make room (the buffer was sized for the
    /// value's real length prefix, so the room is there).
    #[inline]
    pub(crate) fn end_length_prefixed(&mut self, prefix_at: usize) {
        let len = self.pos - prefix_at - 1;
        if len < 0x80 {
            self.buf[prefix_at].write(len as u8);
        } else {
            self.widen_length_prefix(prefix_at, len);
        }
    }

    #[cold]
    #[inline(never)]
    fn widen_length_prefix(&mut self, prefix_at: usize, len: usize) {
        let extra = varint_len(len as u64) - 1;
        let end = self.pos + extra;
        // Every byte up to `end` is initialised afterwards: the value's
        // bytes move to the end of that range, the prefix fills the rest.
        self.buf[..end].copy_within(prefix_at + 1..self.pos, prefix_at + 1 + extra);
        self.pos = prefix_at;
        self.put_varint(len as u64);
        self.pos = end;
    }

    /// Appends four little-endian bytes.
    #[inline]
    pub fn put_fixed32(&mut self, value: u32) {
        self.put_slice(&value.to_le_bytes());
    }

    /// Appends eight little-endian bytes.
    #[inline]
    pub fn put_fixed64(&mut self, value: u64) {
        self.put_slice(&value.to_le_bytes());
    }

    /// Appends a length prefix and then `bytes`.
    #[inline]
    pub fn put_length_delimited(&mut self, bytes: &[u8]) {
        self.put_varint(bytes.len() as u64);
        self.put_slice(bytes);
    }
}

/// Writes `value` as a varint at the start of `dst`, which the caller made
/// long enough for the longest (so the compiler drops the bounds checks),
/// and returns its length.
#[inline(always)]
fn write_varint_unchecked(dst: &mut [MaybeUninit<u8>], mut value: u64) -> usize {
    let mut i = 0;
    while value >= 0x80 {
        dst[i].write(value as u8 | 0x80);
        value >>= 7;
        i += 1;
    }
    dst[i].write(value as u8);
    i + 1
}

/// The varint bytes of a key from 128 to 16383 (field numbers 16 to 2047).
#[inline(always)]
const fn two_byte_key(key: u32) -> [u8; 2] {
    [key as u8 | 0x80, (key >> 7) as u8]
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;
    use std::vec;

    use super::*;

    fn encode(f: impl FnOnce(&mut Encoder<'_>)) -> Vec<u8> {
        let mut buf = [0u8; 32];
        let mut encoder = Encoder::from_slice(&mut buf);
        f(&mut encoder);
        let len = encoder.position();
        buf[..len].to_vec()
    }

    #[test]
    fn varints_at_boundaries() {
        assert_eq!(encode(|e| e.put_varint(0)), [0x00]);
        assert_eq!(encode(|e| e.put_varint(1)), [0x01]);
        assert_eq!(encode(|e| e.put_varint(127)), [0x7f]);
        assert_eq!(encode(|e| e.put_varint(128)), [0x80, 0x01]);
        assert_eq!(encode(|e| e.put_varint(300)), [0xac, 0x02]);
        assert_eq!(
            encode(|e| e.put_varint(u64::MAX)),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
        // A negative int32 is sign-extended to ten bytes.
        assert_eq!(
            encode(|e| e.put_varint(-1i32 as i64 as u64)),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
    }

    /// The combined key-and-value writes give the bytes of a separate key
    /// and value, for one- and two-byte keys, every varint length, and
    /// buffers with exactly the room needed (where the combined check
    /// fails and the separate writes take over).
    #[test]
    fn combined_key_and_value_writes_match_separate_ones() {
        let values = [0, 1, 127, 128, 300, 1 << 35, u64::MAX];
        for field_number in [1, 15, 16, 2047, 2048, 536_870_911] {
            for value in values {
                let separate = encode(|e| {
                    e.put_tag(field_number, WireType::Varint);
                    e.put_varint(value);
                });
                let mut exact = vec![0u8; separate.len()];
                let mut encoder = Encoder::from_slice(&mut exact);
                encoder.put_key_and_varint(field_number, value);
                assert_eq!(encoder.position(), separate.len());
                assert_eq!(exact, separate, "field {field_number}, {value:#x}");
                assert_eq!(
                    encode(|e| e.put_key_and_varint(field_number, value)),
                    separate
                );
            }
            let separate = encode(|e| {
                e.put_tag(field_number, WireType::Fixed32);
                e.put_fixed32(0xdead_beef);
            });
            let mut exact = vec![0u8; separate.len()];
            let mut encoder = Encoder::from_slice(&mut exact);
            encoder.put_key_and_fixed(
                field_number,
                WireType::Fixed32,
                0xdead_beef_u32.to_le_bytes(),
            );
            assert_eq!(exact, separate, "field {field_number}, fixed32");
        }
    }

    /// A value written behind a one-byte placeholder gets the length
    /// prefix `put_length_delimited` writes, at every prefix length, in a
    /// buffer of exactly the final size.
    #[test]
    fn length_filled_in_after_the_value() {
        for len in [0, 1, 127, 128, 300, 16_383, 16_384] {
            let value: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut expected = vec![0u8; len + 3];
            let mut encoder = Encoder::from_slice(&mut expected);
            encoder.put_length_delimited(&value);
            let size = encoder.position();
            expected.truncate(size);

            let mut buf = vec![0u8; size];
            let mut encoder = Encoder::from_slice(&mut buf);
            let prefix_at = encoder.begin_length_prefixed();
            encoder.put_slice(&value);
            encoder.end_length_prefixed(prefix_at);
            assert_eq!(encoder.position(), size, "length {len}");
            assert_eq!(buf, expected, "length {len}");
        }
    }

    /// A value longer than the room its prefix leaves panics rather than
    /// writing past the buffer.
    #[test]
    #[should_panic]
    fn filled_in_length_without_room_panics() {
        let mut buf = [0u8; 129];
        let mut encoder = Encoder::from_slice(&mut buf);
        let prefix_at = encoder.begin_length_prefixed();
        encoder.put_slice(&[7; 128]);
        encoder.end_length_prefixed(prefix_at);
    }

    #[test]
    fn varint_slow_path_near_the_end_of_the_buffer() {
        let mut buf = [0u8; 3];
        let mut encoder = Encoder::from_slice(&mut buf);
        encoder.put_varint(16_384);
        assert_eq!(encoder.position(), 3);
        assert_eq!(buf, [0x80, 0x80, 0x01]);
    }

    #[test]
    #[should_panic]
    fn writing_past_the_end_panics() {
        let mut buf = [0u8; 1];
        Encoder::from_slice(&mut buf).put_fixed32(1);
    }
}
