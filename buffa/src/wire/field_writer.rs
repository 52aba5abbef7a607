//! Writing a message field by field into a caller's slice, without
//! building a struct first.

use crate::error::{EncodeError, EncodeErrorKind};
use crate::options::{DEFAULT_RECURSION_LIMIT, MAX_MESSAGE_LEN};
use crate::wire::{Encoder, WireType, tag_len, varint_len, zigzag_encode32, zigzag_encode64};

/// Writes a message field by field, front to back, into a caller's
/// `&mut [u8]`, allocating nothing: for producers that stream values from
/// their own types straight into a buffer, with no generated struct in
/// between.
///
/// Fields are written in the order the calls come, each with its key.
/// A sub-message (or group) is a scope: [`FieldWriter::message`] runs a
/// closure that writes the sub-message's fields, then puts its length in
/// front of them. One byte is set aside for the length; a sub-message of
/// 128 bytes or more needs a longer prefix, and its bytes move up by the
/// difference once (each nesting level moves what it holds), so the output
/// is the canonical encoding generated code writes.
///
/// Writing never fails on the spot: when the slice runs out, the writer
/// stops writing and keeps counting, and [`FieldWriter::finish`] reports
/// the exact length the message needs. It also refuses what a decoder
/// would: messages longer than [`MAX_MESSAGE_LEN`] and scopes nested
/// deeper than the default recursion limit.
///
/// ```
/// use buffa::wire::FieldWriter;
///
/// let mut buf = [0u8; 32];
/// let mut writer = FieldWriter::new(&mut buf);
/// writer.varint(1, 150);
/// writer.message(2, |point| {
///     point.sint32(1, -1).sint32(2, 1);
/// });
/// let bytes = writer.finish()?;
/// assert_eq!(bytes, [0x08, 0x96, 0x01, 0x12, 0x04, 0x08, 0x01, 0x10, 0x02]);
/// # Ok::<(), buffa::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct FieldWriter<'a> {
    buf: &'a mut [u8],
    /// Bytes the message takes so far, counted past the slice's end.
    len: usize,
    depth: u32,
    max_depth: u32,
}

impl<'a> FieldWriter<'a> {
    /// A writer that fills `buf` from its start.
    pub fn new(buf: &'a mut [u8]) -> FieldWriter<'a> {
        FieldWriter {
            buf,
            len: 0,
            depth: 0,
            max_depth: 0,
        }
    }

    /// Bytes written so far (or needed, once the slice has run out).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Claims the next `n` bytes and lets `write` fill them, if they fit.
    #[inline]
    fn put(&mut self, n: usize, write: impl FnOnce(&mut Encoder<'_>)) {
        let end = self.len.saturating_add(n);
        if end <= self.buf.len() {
            let mut encoder = Encoder::from_slice(&mut self.buf[self.len..]);
            write(&mut encoder);
            debug_assert_eq!(encoder.position(), n);
        }
        self.len = end;
    }

    /// Writes a varint field (`int32`, `int64`, `uint32`, `uint64`,
    /// `bool`, enums: negative `int32`s and enums sign-extended to 64
    /// bits, as protobuf writes them).
    pub fn varint(&mut self, field_number: u32, value: u64) -> &mut Self {
        self.put(tag_len(field_number) + varint_len(value), |e| {
            e.put_key_and_varint(field_number, value);
        });
        self
    }

    /// Writes an `int32` (or enum) field: a negative value sign-extended.
    pub fn int32(&mut self, field_number: u32, value: i32) -> &mut Self {
        self.varint(field_number, i64::from(value) as u64)
    }

    /// Writes a `sint32` field (ZigZag).
    pub fn sint32(&mut self, field_number: u32, value: i32) -> &mut Self {
        self.varint(field_number, u64::from(zigzag_encode32(value)))
    }

    /// Writes a `sint64` field (ZigZag).
    pub fn sint64(&mut self, field_number: u32, value: i64) -> &mut Self {
        self.varint(field_number, zigzag_encode64(value))
    }

    /// Writes a `bool` field.
    pub fn bool(&mut self, field_number: u32, value: bool) -> &mut Self {
        self.varint(field_number, u64::from(value))
    }

    /// Writes a 32-bit field (`fixed32`; `sfixed32` and `float` through
    /// their bits).
    pub fn fixed32(&mut self, field_number: u32, value: u32) -> &mut Self {
        self.put(tag_len(field_number) + 4, |e| {
            e.put_key_and_fixed(field_number, WireType::Fixed32, value.to_le_bytes());
        });
        self
    }

    /// Writes a 64-bit field (`fixed64`; `sfixed64` and `double` through
    /// their bits).
    pub fn fixed64(&mut self, field_number: u32, value: u64) -> &mut Self {
        self.put(tag_len(field_number) + 8, |e| {
            e.put_key_and_fixed(field_number, WireType::Fixed64, value.to_le_bytes());
        });
        self
    }

    /// Writes a `float` field.
    pub fn float(&mut self, field_number: u32, value: f32) -> &mut Self {
        self.fixed32(field_number, value.to_bits())
    }

    /// Writes a `double` field.
    pub fn double(&mut self, field_number: u32, value: f64) -> &mut Self {
        self.fixed64(field_number, value.to_bits())
    }

    /// Writes a length-delimited field holding `bytes`: `bytes`, or a
    /// sub-message (or packed run) encoded elsewhere.
    pub fn bytes(&mut self, field_number: u32, bytes: &[u8]) -> &mut Self {
        let len = bytes.len() as u64;
        self.put(tag_len(field_number) + varint_len(len) + bytes.len(), |e| {
            e.put_tag(field_number, WireType::LengthDelimited);
            e.put_varint(len);
            e.put_slice(bytes);
        });
        self
    }

    /// Writes a `string` field.
    pub fn string(&mut self, field_number: u32, value: &str) -> &mut Self {
        self.bytes(field_number, value.as_bytes())
    }

    /// Writes a sub-message field: its key, then the fields `write` writes
    /// through this writer, behind their length.
    pub fn message(&mut self, field_number: u32, write: impl FnOnce(&mut Self)) -> &mut Self {
        self.put(tag_len(field_number), |e| {
            e.put_tag(field_number, WireType::LengthDelimited);
        });
        // One byte set aside for the length; the body follows it.
        let prefix_at = self.len;
        self.len = self.len.saturating_add(1);
        self.nested(write);
        let body_len = self.len - prefix_at - 1;
        let end = self.len.saturating_add(varint_len(body_len as u64) - 1);
        if end <= self.buf.len() {
            Encoder::from_slice_at(&mut self.buf[..end], self.len).end_length_prefixed(prefix_at);
        }
        self.len = end;
        self
    }

    /// Writes a group field (proto2 groups, editions' `DELIMITED`
    /// encoding): start key, the fields `write` writes, end key.
    pub fn group(&mut self, field_number: u32, write: impl FnOnce(&mut Self)) -> &mut Self {
        self.put(tag_len(field_number), |e| {
            e.put_tag(field_number, WireType::StartGroup);
        });
        self.nested(write);
        self.put(tag_len(field_number), |e| {
            e.put_tag(field_number, WireType::EndGroup);
        });
        self
    }

    /// Runs `write` one nesting level down.
    fn nested(&mut self, write: impl FnOnce(&mut Self)) {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        write(self);
        self.depth -= 1;
    }

    /// Appends already-encoded fields (keys included) as they are.
    pub fn raw(&mut self, fields: &[u8]) -> &mut Self {
        self.put(fields.len(), |e| e.put_slice(fields));
        self
    }

    /// The bytes written: the first [`FieldWriter::len`] bytes of the
    /// slice. Fails with the exact length needed
    /// ([`EncodeErrorKind::BufferTooSmall`]) if they did not fit, and as
    /// the encoders do for a message longer than [`MAX_MESSAGE_LEN`] or
    /// nested deeper than the default recursion limit.
    pub fn finish(self) -> Result<&'a [u8], EncodeError> {
        const NAME: &str = "(written field by field)";
        if self.max_depth > DEFAULT_RECURSION_LIMIT {
            return Err(EncodeError::new(
                EncodeErrorKind::RecursionLimitExceeded {
                    limit: DEFAULT_RECURSION_LIMIT,
                },
                NAME,
            ));
        }
        if self.len > MAX_MESSAGE_LEN {
            return Err(EncodeError::new(
                EncodeErrorKind::MessageTooLarge { length: self.len },
                NAME,
            ));
        }
        if self.len > self.buf.len() {
            return Err(EncodeError::new(
                EncodeErrorKind::BufferTooSmall {
                    required: self.len,
                    remaining: self.buf.len(),
                },
                NAME,
            ));
        }
        let buf: &'a [u8] = self.buf;
        Ok(&buf[..self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn long_sub_messages_move_up_behind_a_longer_length() {
        let text = [b'x'; 200];
        let mut buf = [0u8; 256];
        let mut writer = FieldWriter::new(&mut buf);
        writer.message(1, |outer| {
            outer.message(2, |inner| {
                inner.bytes(3, &text);
            });
        });
        let bytes = writer.finish().unwrap();
        // inner: key 0x1a, length 200 (2 bytes), text: 203 bytes;
        // outer: key 0x12, length 203 (2 bytes), inner: 206 bytes.
        let mut expected = vec![0x0a, 0xce, 0x01, 0x12, 0xcb, 0x01, 0x1a, 0xc8, 0x01];
        expected.extend_from_slice(&text);
        assert_eq!(bytes, &expected[..]);
    }

    #[test]
    fn a_short_slice_gets_the_exact_length() {
        let text = [b'x'; 200];
        for available in [0, 5, 150, 207] {
            let mut buf = vec![0u8; available];
            let mut writer = FieldWriter::new(&mut buf);
            writer.varint(1, 1).message(2, |inner| {
                inner.bytes(3, &text);
            });
            assert_eq!(
                writer.finish().unwrap_err().kind(),
                &EncodeErrorKind::BufferTooSmall {
                    required: 2 + 3 + 203,
                    remaining: available,
                }
            );
        }
    }

    #[test]
    fn nesting_beyond_the_recursion_limit_is_refused() {
        fn nest(writer: &mut FieldWriter<'_>, levels: u32) {
            if levels > 0 {
                writer.message(1, |inner| nest(inner, levels - 1));
            }
        }
        let mut buf = [0u8; 512];
        let mut writer = FieldWriter::new(&mut buf);
        nest(&mut writer, DEFAULT_RECURSION_LIMIT);
        assert!(writer.finish().is_ok());
        let mut writer = FieldWriter::new(&mut buf);
        nest(&mut writer, DEFAULT_RECURSION_LIMIT + 1);
        assert!(matches!(
            writer.finish().unwrap_err().kind(),
            EncodeErrorKind::RecursionLimitExceeded { .. }
        ));
    }
}
