//! The write side of the wire format: an append-only cursor over a buffer
//! whose exact size was computed beforehand.

use core::mem::MaybeUninit;

use crate::wire::{Tag, WireType};

/// Writes encoded bytes into memory reserved for exactly one message.
///
/// Encoding runs in two passes: a sizing pass fills a
/// [`SizeCache`](crate::wire::SizeCache) and yields the total length, then the
/// caller reserves that many bytes once and the write pass fills them
/// through an `Encoder`. The buffer may be uninitialised memory; the encoder
/// only ever appends, so the first [`Encoder::position`] bytes are always
/// initialised.
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
            let mut i = 0;
            while value >= 0x80 {
                dst[i].write(value as u8 | 0x80);
                value >>= 7;
                i += 1;
            }
            dst[i].write(value as u8);
            self.pos += i + 1;
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
        self.put_varint(u64::from(Tag::new(field_number, wire_type).raw()));
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
        } else {
            self.put_varint(u64::from(key));
            self.put_slice(&value);
        }
    }

    /// Appends the key of varint field `field_number` and `value`. With a
    /// one-byte key and room for the longest varint, one bounds check
    /// covers both.
    // Always inlined: LLVM otherwise calls it out of line for every
    // field (its fast path is a handful of instructions), 2-8% of the
    // encode's instructions on log, minecraft_savedata and mk48.
    #[inline(always)]
    pub fn put_key_and_varint(&mut self, field_number: u32, mut value: u64) {
        let key = Tag::new(field_number, WireType::Varint).raw();
        if key < 0x80
            && let Some(dst) = self.buf.get_mut(self.pos..self.pos + 11)
        {
            dst[0].write(key as u8);
            let mut i = 1;
            while value >= 0x80 {
                dst[i].write(value as u8 | 0x80);
                value >>= 7;
                i += 1;
            }
            dst[i].write(value as u8);
            self.pos += i + 1;
        } else {
            self.put_varint(u64::from(key));
            self.put_varint(value);
        }
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
        for field_number in [1, 15, 16, 2047, 536_870_911] {
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
