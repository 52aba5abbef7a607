//! A compact JSON [`serde::Serializer`] writing to a `Vec<u8>`: what
//! [`to_vec_with`](super::to_vec_with) and
//! [`to_string_with`](super::to_string_with) print with.
//!
//! Its output is byte for byte what `serde_json::to_vec` prints for the
//! same value (the same escapes, the same number formatting, the same
//! handling of non-string map keys), only faster: JSON is written into a
//! fixed chunk with no `io::Write` and `Formatter` layers between, with a
//! single check for room per string or number, strings are scanned for
//! the bytes that need escaping and copied eight bytes at a time, and the
//! chunk is moved to the output whenever it fills up. Floats are printed by
//! serde_json's own [`CompactFormatter`], so they always match it.
//!
//! The error type is [`serde_json::Error`], so that the `Serialize` impls'
//! custom errors (and those of `serde_json::Value`s written inside `Any`)
//! pass through unchanged.

use alloc::{string::ToString, vec::Vec};
use core::fmt::{self, Display};
use std::io;

use serde::ser::{self, Error as _, Impossible, Serialize};
use serde_json::Error;
use serde_json::ser::{CompactFormatter, Formatter};

type Result<T = ()> = core::result::Result<T, Error>;

/// The size of the chunk JSON is written into before it is moved to the
/// output (small enough that memcpy moves it with vector instructions).
const CHUNK: usize = 2048;

/// The room the fast path of [`Writer::write_quoted_between`] writes
/// into: `,"`, up to 16 bytes (two words) and `":`.
const SHORT_ROOM: usize = 20;

/// Strings longer than this are written in pieces of this length, each
/// with its own check for room.
const PIECE: usize = 256;

/// Room past the end of what is written that a write may use: strings are
/// copied eight bytes at a time, the last word overrunning.
const SLACK: usize = 8;

/// The compact JSON serializer: `&mut Writer` is a [`ser::Serializer`].
pub(crate) struct Writer {
    /// The JSON moved out of the chunk.
    out: Vec<u8>,
    /// The JSON not moved yet: `chunk[..pos]`.
    chunk: [u8; CHUNK],
    pos: usize,
}

impl Writer {
    /// A writer with nothing written yet.
    #[inline]
    pub(crate) fn new() -> Writer {
        Writer {
            out: Vec::new(),
            chunk: [0; CHUNK],
            pos: 0,
        }
    }

    /// The JSON written.
    #[inline]
    pub(crate) fn into_inner(mut self) -> Vec<u8> {
        if self.out.is_empty() {
            return self.chunk[..self.pos].to_vec();
        }
        self.flush();
        self.out
    }

    /// Makes room in the chunk for `additional` (at most [`CHUNK`]) more
    /// bytes.
    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        debug_assert!(additional <= CHUNK);
        if CHUNK - self.pos < additional {
            self.flush();
        }
    }

    /// Moves the chunk to the output.
    #[cold]
    #[inline(never)]
    fn flush(&mut self) {
        self.out.extend_from_slice(&self.chunk[..self.pos]);
        self.pos = 0;
    }

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        self.reserve(1);
        self.chunk[self.pos] = byte;
        self.pos += 1;
    }

    /// Writes `bytes`: a literal, or text that needs no escaping.
    #[inline(always)]
    fn extend(&mut self, bytes: &[u8]) {
        if bytes.len() > PIECE {
            self.extend_long(bytes);
            return;
        }
        self.reserve(bytes.len());
        self.chunk[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
    }

    #[cold]
    #[inline(never)]
    fn extend_long(&mut self, bytes: &[u8]) {
        self.flush();
        self.out.extend_from_slice(bytes);
    }

    // --- strings --------------------------------------------------------------

    /// Writes `s` as a JSON string.
    #[inline(always)]
    fn write_quoted(&mut self, s: &str) {
        self.write_quoted_between(false, s, false);
    }

    /// Writes `s` as a JSON string, after a `,` if `comma` and before a
    /// `:` if `colon`: an object key, with a single check for room.
    #[inline(always)]
    fn write_quoted_between(&mut self, comma: bool, s: &str, colon: bool) {
        // The fast path, for strings of up to 16 bytes that need no
        // escaping (most keys and enum names), with nothing to call and
        // few bounds checks: `,"`, the string as one or two words and
        // `":`, stored into a window of the chunk.
        let bytes = s.as_bytes();
        let len = bytes.len();
        if len <= 16 && CHUNK - self.pos >= SHORT_ROOM {
            let (first, last) = if len < 8 {
                let word = short_word(bytes);
                (word, word)
            } else {
                // Two words, overlapping unless 16 bytes long.
                (word_at(bytes, 0), word_at(bytes, len - 8))
            };
            if special_bytes(first) | special_bytes(last) == 0 {
                let pos = self.pos;
                let room: &mut [u8; SHORT_ROOM] =
                    (&mut self.chunk[pos..pos + SHORT_ROOM]).try_into().unwrap();
                room[0] = b',';
                let start = usize::from(comma);
                room[start] = b'"';
                room[start + 1..start + 9].copy_from_slice(&first.to_le_bytes());
                let end = start + 1 + len;
                // The last eight bytes; when shorter, the first word again.
                let second = end.max(start + 9) - 8;
                room[second..second + 8].copy_from_slice(&last.to_le_bytes());
                room[end..end + 2].copy_from_slice(b"\":");
                self.pos = pos + end + 1 + usize::from(colon);
                return;
            }
        }
        self.write_quoted_general(comma, s, colon);
    }

    /// [`Writer::write_quoted_between`] for any string.
    #[inline(never)]
    fn write_quoted_general(&mut self, comma: bool, s: &str, colon: bool) {
        let bytes = s.as_bytes();
        if bytes.len() > PIECE {
            self.write_long_quoted_between(comma, bytes, colon);
            return;
        }
        // `,` `"` `"` `:`, each written whether asked for or not (past the
        // end when not) and counted only when asked for.
        self.reserve(bytes.len() + 4 + SLACK);
        let mut pos = self.pos;
        self.chunk[pos] = b',';
        pos += usize::from(comma);
        self.chunk[pos] = b'"';
        self.pos = pos + 1;
        self.write_escaped_reserved(bytes);
        let pos = self.pos;
        self.chunk[pos..pos + 2].copy_from_slice(b"\":");
        self.pos = pos + 1 + usize::from(colon);
    }

    #[cold]
    #[inline(never)]
    fn write_long_quoted_between(&mut self, comma: bool, bytes: &[u8], colon: bool) {
        if comma {
            self.push(b',');
        }
        self.push(b'"');
        self.write_escaped_bytes(bytes);
        self.push(b'"');
        if colon {
            self.push(b':');
        }
    }

    /// Writes `s` escaped, without quotes.
    #[inline]
    fn write_escaped(&mut self, s: &str) {
        self.write_escaped_bytes(s.as_bytes());
    }

    /// Writes the bytes of a string escaped, in pieces (which may split a
    /// UTF-8 sequence: bytes of 0x80 and above are copied as they are).
    fn write_escaped_bytes(&mut self, bytes: &[u8]) {
        for piece in bytes.chunks(PIECE) {
            self.reserve(piece.len() + 2 + SLACK);
            self.write_escaped_reserved(piece);
        }
    }

    /// Writes `bytes` (at most [`PIECE`] of them) escaped, with room
    /// reserved for them unescaped, the slack and two bytes more.
    #[inline(always)]
    fn write_escaped_reserved(&mut self, bytes: &[u8]) {
        if let Some(at) = self.copy_clean(bytes, 0) {
            self.write_escapes(bytes, at);
        }
    }

    /// Copies `bytes[from..]` up to the first byte that needs escaping,
    /// which it returns the index of; or all of it. Room for all of it and
    /// the slack is reserved.
    #[inline(always)]
    fn copy_clean(&mut self, bytes: &[u8], mut from: usize) -> Option<usize> {
        let len = bytes.len();
        let chunk = &mut self.chunk;
        let mut pos = self.pos;
        if len < 8 {
            // Too short for a word: the bytes put together in one, topped
            // up with letters.
            let rest = &bytes[from..];
            let word = short_word(rest);
            chunk[pos..pos + 8].copy_from_slice(&word.to_le_bytes());
            let found = special_bytes(word);
            if found != 0 {
                let clean = (found.trailing_zeros() / 8) as usize;
                self.pos = pos + clean;
                return Some(from + clean);
            }
            self.pos = pos + rest.len();
            return None;
        }
        while from + 8 <= len {
            let word = word_at(bytes, from);
            chunk[pos..pos + 8].copy_from_slice(&word.to_le_bytes());
            let found = special_bytes(word);
            if found != 0 {
                let clean = (found.trailing_zeros() / 8) as usize;
                self.pos = pos + clean;
                return Some(from + clean);
            }
            from += 8;
            pos += 8;
        }
        if from < len {
            // The last 1 to 7 bytes: the last word of the string, shifted
            // down past the bytes before `from` (which may need escaping:
            // the byte escaped last) and topped up with letters.
            let rest = len - from;
            let shift = (8 - rest) * 8;
            let word = (word_at(bytes, len - 8) >> shift) | (LETTERS << (64 - shift));
            chunk[pos..pos + 8].copy_from_slice(&word.to_le_bytes());
            let found = special_bytes(word);
            if found != 0 {
                let clean = (found.trailing_zeros() / 8) as usize;
                self.pos = pos + clean;
                return Some(from + clean);
            }
            pos += rest;
        }
        self.pos = pos;
        None
    }

    /// Writes the rest of a string from `bytes[at]`, a byte that needs
    /// escaping, on.
    #[cold]
    #[inline(never)]
    fn write_escapes(&mut self, bytes: &[u8], mut at: usize) {
        loop {
            // The escape, the rest unescaped, the slack and two bytes.
            self.reserve(6 + (bytes.len() - at - 1) + SLACK + 2);
            self.write_escape(bytes[at]);
            match self.copy_clean(bytes, at + 1) {
                Some(next) => at = next,
                None => return,
            }
        }
    }

    /// Writes the escape of `byte` (a control character, `"` or `\`), as
    /// serde_json does. Room for it is reserved.
    #[inline(always)]
    fn write_escape(&mut self, byte: u8) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let letter = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0A => b'n',
            0x0C => b'f',
            0x0D => b'r',
            _ => {
                self.chunk[self.pos..self.pos + 6].copy_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(byte >> 4)],
                    HEX[usize::from(byte & 0xF)],
                ]);
                self.pos += 6;
                return;
            }
        };
        self.chunk[self.pos..self.pos + 2].copy_from_slice(&[b'\\', letter]);
        self.pos += 2;
    }

    /// Writes what `value` displays as a JSON string.
    fn collect_quoted<T: ?Sized + Display>(&mut self, value: &T) -> Result {
        struct Escaper<'a>(&'a mut Writer);

        impl fmt::Write for Escaper<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0.write_escaped(s);
                Ok(())
            }
        }

        self.push(b'"');
        fmt::write(&mut Escaper(self), format_args!("{value}"))
            .map_err(|_| Error::custom("a Display implementation returned an error"))?;
        self.push(b'"');
        Ok(())
    }

    // --- numbers --------------------------------------------------------------

    /// Writes `value` in decimal, as itoa (and so serde_json) does.
    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.reserve(20);
        let pos = self.pos;
        let out = (&mut self.chunk[pos..pos + 20]).try_into().unwrap();
        self.pos = pos + write_decimal(out, value);
    }

    #[inline]
    fn write_i64(&mut self, value: i64) {
        self.reserve(21);
        let mut pos = self.pos;
        self.chunk[pos] = b'-';
        pos += usize::from(value < 0);
        let out = (&mut self.chunk[pos..pos + 20]).try_into().unwrap();
        self.pos = pos + write_decimal(out, value.unsigned_abs());
    }

    fn write_i128(&mut self, value: i128) {
        self.extend(itoa::Buffer::new().format(value).as_bytes());
    }

    fn write_u128(&mut self, value: u128) {
        self.extend(itoa::Buffer::new().format(value).as_bytes());
    }

    #[inline]
    fn write_f32(&mut self, value: f32) {
        // Writing to the chunk cannot fail.
        let _ = CompactFormatter.write_f32(&mut ShortText(self), value);
    }

    #[inline]
    fn write_f64(&mut self, value: f64) {
        let _ = CompactFormatter.write_f64(&mut ShortText(self), value);
    }

    // --- structure ------------------------------------------------------------

    /// Starts `{"variant":`, the form of enum variants with data.
    #[inline]
    fn begin_variant(&mut self, variant: &str) {
        self.push(b'{');
        self.write_quoted_between(false, variant, true);
    }

    /// `[` or `{`, and the state of the compound: closed already when it is
    /// known to be empty.
    #[inline]
    fn begin_compound(&mut self, open: u8, close: u8, len: Option<usize>) -> Compound<'_> {
        self.reserve(2);
        self.chunk[self.pos..self.pos + 2].copy_from_slice(&[open, close]);
        let (state, written) = if len == Some(0) {
            (State::Empty, 2)
        } else {
            (State::First, 1)
        };
        self.pos += written;
        Compound { ser: self, state }
    }
}

/// The room a float takes: serde_json's floats are at most 24 bytes long
/// (`-2.2250738585072014e-308`), copied as at most 32.
const FLOAT_ROOM: usize = 32;

/// Where serde_json's formatter writes a float: into the chunk, copied
/// without a call to memcpy.
struct ShortText<'a>(&'a mut Writer);

impl io::Write for ShortText<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    #[inline(always)]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        let writer = &mut *self.0;
        let len = bytes.len();
        if len > FLOAT_ROOM {
            writer.extend(bytes);
            return Ok(());
        }
        writer.reserve(FLOAT_ROOM);
        let out = &mut writer.chunk[writer.pos..writer.pos + FLOAT_ROOM];
        // Two overlapping copies of a fixed size.
        if len >= 16 {
            out[..16].copy_from_slice(&bytes[..16]);
            out[len - 16..len].copy_from_slice(&bytes[len - 16..]);
        } else if len >= 8 {
            out[..8].copy_from_slice(&bytes[..8]);
            out[len - 8..len].copy_from_slice(&bytes[len - 8..]);
        } else if len >= 4 {
            out[..4].copy_from_slice(&bytes[..4]);
            out[len - 4..len].copy_from_slice(&bytes[len - 4..]);
        } else if len >= 2 {
            out[..2].copy_from_slice(&bytes[..2]);
            out[len - 2..len].copy_from_slice(&bytes[len - 2..]);
        } else if len == 1 {
            out[0] = bytes[0];
        }
        writer.pos += len;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
/// Eight `a`s: bytes that need no escaping, to fill words up with.
const LETTERS: u64 = ONES * b'a' as u64;

/// The high bit of each byte of `word` (eight string bytes, the first in
/// the low byte) that is a control character (below 0x20), `"` or `\`.
///
/// A byte flagged by one of the three tests may be a false positive only
/// if a lower byte is a true one (the borrow of the subtraction carries
/// upwards), so the lowest flagged byte, and whether any is flagged, are
/// exact. Bytes of 0x80 and above (UTF-8 sequences) are never flagged.
#[inline(always)]
fn special_bytes(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20);
    let quote = word ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    ((control & !word) | quote | backslash) & HIGHS
}

/// The bytes of `bytes` (fewer than eight) in a word, the first in the low
/// byte, the rest of the word filled with `a`: read as two overlapping
/// halves.
#[inline(always)]
fn short_word(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    let word = if len >= 4 {
        let low = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let high = u32::from_le_bytes([
            bytes[len - 4],
            bytes[len - 3],
            bytes[len - 2],
            bytes[len - 1],
        ]);
        u64::from(low) | (u64::from(high) << ((len - 4) * 8))
    } else if len >= 2 {
        let low = u16::from_le_bytes([bytes[0], bytes[1]]);
        let high = u16::from_le_bytes([bytes[len - 2], bytes[len - 1]]);
        u64::from(low) | (u64::from(high) << ((len - 2) * 8))
    } else if len == 1 {
        u64::from(bytes[0])
    } else {
        0
    };
    // `len` < 8, so the shift is too.
    word | (LETTERS << (len * 8))
}

/// The eight bytes of `bytes` from `at` on, the first in the low byte.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Two decimal digits of each number below 100.
static DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The two digits of `value` (below 100).
#[inline(always)]
fn digit_pair(value: u64) -> [u8; 2] {
    let at = value as usize * 2;
    [DIGIT_PAIRS[at], DIGIT_PAIRS[at + 1]]
}

/// Writes `value` in decimal at the start of `out`, returning the number
/// of digits.
#[inline(always)]
fn write_decimal(out: &mut [u8; 20], value: u64) -> usize {
    if value < 10 {
        out[0] = b'0' + value as u8;
        1
    } else if value < 100 {
        out[..2].copy_from_slice(&digit_pair(value));
        2
    } else {
        write_long_decimal(out, value)
    }
}

/// [`write_decimal`] for values of three digits or more: the digits
/// written backwards into a buffer, from which 20 bytes are copied.
#[inline(never)]
fn write_long_decimal(out: &mut [u8; 20], mut value: u64) -> usize {
    let mut digits = [0u8; 40];
    let mut start = 20;
    while value >= 10_000 {
        let low = value % 10_000;
        value /= 10_000;
        digits[start - 4..start - 2].copy_from_slice(&digit_pair(low / 100));
        digits[start - 2..start].copy_from_slice(&digit_pair(low % 100));
        start -= 4;
    }
    if value >= 100 {
        digits[start - 2..start].copy_from_slice(&digit_pair(value % 100));
        value /= 100;
        start -= 2;
    }
    if value >= 10 {
        digits[start - 2..start].copy_from_slice(&digit_pair(value));
        start -= 2;
    } else {
        digits[start - 1] = b'0' + value as u8;
        start -= 1;
    }
    out.copy_from_slice(&digits[start..start + 20]);
    20 - start
}

// --- values -------------------------------------------------------------------

/// The name with which serde_json's `arbitrary_precision` feature writes a
/// `Number` (a struct of one field of this name, holding its text).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";
/// The same for a `RawValue` (feature `raw_value`).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = StructCompound<'a>;
    type SerializeStructVariant = Compound<'a>;

    #[inline]
    fn serialize_bool(self, value: bool) -> Result {
        if value {
            self.extend(b"true");
        } else {
            self.extend(b"false");
        }
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result {
        self.write_i64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result {
        self.write_i64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result {
        self.write_i64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result {
        self.write_i64(value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result {
        self.write_i128(value);
        Ok(())
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result {
        self.write_u64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result {
        self.write_u64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result {
        self.write_u64(value.into());
        Ok(())
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result {
        self.write_u64(value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> Result {
        self.write_u128(value);
        Ok(())
    }

    /// Like serde_json: `null` for NaN and the infinities.
    #[inline]
    fn serialize_f32(self, value: f32) -> Result {
        if value.is_finite() {
            self.write_f32(value);
        } else {
            self.extend(b"null");
        }
        Ok(())
    }

    /// Like serde_json: `null` for NaN and the infinities.
    #[inline]
    fn serialize_f64(self, value: f64) -> Result {
        if value.is_finite() {
            self.write_f64(value);
        } else {
            self.extend(b"null");
        }
        Ok(())
    }

    #[inline]
    fn serialize_char(self, value: char) -> Result {
        self.write_quoted(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    #[inline(always)]
    fn serialize_str(self, value: &str) -> Result {
        self.write_quoted(value);
        Ok(())
    }

    /// Like serde_json: an array of the byte values.
    fn serialize_bytes(self, value: &[u8]) -> Result {
        let mut seq = ser::Serializer::serialize_seq(self, Some(value.len()))?;
        for byte in value {
            ser::SerializeSeq::serialize_element(&mut seq, byte)?;
        }
        ser::SerializeSeq::end(seq)
    }

    #[inline]
    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result {
        self.extend(b"null");
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    /// `{"variant":value}`.
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.begin_variant(variant);
        value.serialize(&mut *self)?;
        self.push(b'}');
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        Ok(self.begin_compound(b'[', b']', len))
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    /// `{"variant":[...]}`.
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.begin_variant(variant);
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>> {
        Ok(self.begin_compound(b'{', b'}', len))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructCompound<'a>> {
        if name == NUMBER_TOKEN || name == RAW_VALUE_TOKEN {
            return Ok(StructCompound::Raw { ser: self, name });
        }
        Ok(StructCompound::Map(self.serialize_map(Some(len))?))
    }

    /// `{"variant":{...}}`.
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.begin_variant(variant);
        self.serialize_map(Some(len))
    }

    #[inline]
    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result {
        self.collect_quoted(value)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Written whole already (`[]` or `{}`).
    Empty,
    First,
    Rest,
}

/// An array or object being written.
pub(crate) struct Compound<'a> {
    ser: &'a mut Writer,
    state: State,
}

impl Compound<'_> {
    /// The `,` before an element or entry but the first.
    #[inline]
    fn separate(&mut self) {
        if self.state == State::First {
            self.state = State::Rest;
        } else {
            self.ser.push(b',');
        }
    }

    #[inline]
    fn close(&mut self, close: u8) {
        if self.state != State::Empty {
            self.ser.push(close);
        }
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.separate();
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(mut self) -> Result {
        self.close(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(mut self) -> Result {
        self.close(b']');
        self.ser.push(b'}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        let comma = self.state != State::First;
        self.state = State::Rest;
        key.serialize(MapKeySerializer {
            ser: &mut *self.ser,
            comma,
        })
    }

    #[inline(always)]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.ser)
    }

    #[inline(always)]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result {
        self.serialize_key(key)?;
        self.serialize_value(value)
    }

    #[inline]
    fn end(mut self) -> Result {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    #[inline]
    fn end(mut self) -> Result {
        self.close(b'}');
        self.ser.push(b'}');
        Ok(())
    }
}

/// A struct being written: an object, or serde_json's `Number` or
/// `RawValue` when one of its features that write them as structs is on
/// (the text is then written as it is, as serde_json does).
pub(crate) enum StructCompound<'a> {
    Map(Compound<'a>),
    Raw {
        ser: &'a mut Writer,
        name: &'static str,
    },
}

impl ser::SerializeStruct for StructCompound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        match self {
            StructCompound::Map(map) => ser::SerializeMap::serialize_entry(map, key, value),
            StructCompound::Raw { ser, name } if key == *name => {
                value.serialize(RawSerializer(ser))
            }
            StructCompound::Raw { name, .. } => Err(Error::custom(format_args!(
                "invalid field {key:?} of {name}"
            ))),
        }
    }

    #[inline]
    fn end(self) -> Result {
        match self {
            StructCompound::Map(map) => ser::SerializeMap::end(map),
            StructCompound::Raw { .. } => Ok(()),
        }
    }
}

// --- map keys -----------------------------------------------------------------

/// Serializes the keys of objects: strings, and like serde_json, numbers,
/// bools and chars as strings.
/// Writes the `,` before the key when `comma`, and the `:` after it.
struct MapKeySerializer<'a> {
    ser: &'a mut Writer,
    comma: bool,
}

impl MapKeySerializer<'_> {
    /// Writes a key that is not a string as one: `write` writes its text.
    #[inline]
    fn quote(self, write: impl FnOnce(&mut Writer)) -> Result {
        if self.comma {
            self.ser.push(b',');
        }
        self.ser.push(b'"');
        write(&mut *self.ser);
        self.ser.extend(b"\":");
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error::custom("key must be a string")
}

/// The methods of a serializer that accept nothing but strings (and
/// wrappers of them).
macro_rules! reject_non_strings {
    ($error:expr; $($method:ident($($arg:ty),*)),* $(,)?) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result {
                Err($error)
            }
        )*

        fn serialize_unit_struct(self, _name: &'static str) -> Result {
            Err($error)
        }

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _name: &'static str,
            _variant_index: u32,
            _variant: &'static str,
            _value: &T,
        ) -> Result {
            Err($error)
        }

        fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
            Err($error)
        }

        fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
            Err($error)
        }

        fn serialize_tuple_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err($error)
        }

        fn serialize_tuple_variant(
            self,
            _name: &'static str,
            _variant_index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err($error)
        }

        fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
            Err($error)
        }

        fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
            Err($error)
        }

        fn serialize_struct_variant(
            self,
            _name: &'static str,
            _variant_index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err($error)
        }
    };
}

/// A map key that is a number: its text, quoted.
macro_rules! quoted_integer_keys {
    ($($method:ident($t:ty) => $write:ident),* $(,)?) => {$(
        fn $method(self, value: $t) -> Result {
            self.quote(|ser| ser.$write(value.into()))
        }
    )*};
}

impl ser::Serializer for MapKeySerializer<'_> {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline(always)]
    fn serialize_str(self, value: &str) -> Result {
        self.ser.write_quoted_between(self.comma, value, true);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.quote(|ser| {
            if value {
                ser.extend(b"true");
            } else {
                ser.extend(b"false");
            }
        })
    }

    quoted_integer_keys!(
        serialize_i8(i8) => write_i64,
        serialize_i16(i16) => write_i64,
        serialize_i32(i32) => write_i64,
        serialize_i64(i64) => write_i64,
        serialize_i128(i128) => write_i128,
        serialize_u8(u8) => write_u64,
        serialize_u16(u16) => write_u64,
        serialize_u32(u32) => write_u64,
        serialize_u64(u64) => write_u64,
        serialize_u128(u128) => write_u128,
    );

    fn serialize_f32(self, value: f32) -> Result {
        if !value.is_finite() {
            return Err(Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quote(|ser| ser.write_f32(value))
    }

    fn serialize_f64(self, value: f64) -> Result {
        if !value.is_finite() {
            return Err(Error::custom(
                "float key must be finite (got NaN or +/-inf)",
            ));
        }
        self.quote(|ser| ser.write_f64(value))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    #[inline]
    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result {
        if self.comma {
            self.ser.push(b',');
        }
        self.ser.collect_quoted(value)?;
        self.ser.push(b':');
        Ok(())
    }

    reject_non_strings!(
        key_must_be_a_string();
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
    );
}

// --- raw text -----------------------------------------------------------------

/// Writes the text of serde_json's `Number` or `RawValue` as it is.
struct RawSerializer<'a>(&'a mut Writer);

fn expected_raw_text() -> Error {
    Error::custom("expected the text of a serde_json Number or RawValue")
}

impl ser::Serializer for RawSerializer<'_> {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, value: &str) -> Result {
        self.0.extend(value.as_bytes());
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
    ) -> Result {
        Err(expected_raw_text())
    }

    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result {
        self.serialize_str(&value.to_string())
    }

    reject_non_strings!(
        expected_raw_text();
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
    );
}

#[cfg(test)]
mod tests {
    use alloc::{format, string::String, string::ToString, vec, vec::Vec};
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::ser::{SerializeStruct, Serializer};
    use serde_json::json;

    use super::*;

    /// Whether JSON strings escape `byte`.
    fn is_special(byte: u8) -> bool {
        byte < 0x20 || byte == b'"' || byte == b'\\'
    }

    fn ours<T: ?Sized + Serialize>(value: &T) -> Result<String> {
        let mut writer = Writer::new();
        value.serialize(&mut writer)?;
        Ok(String::from_utf8(writer.into_inner()).unwrap())
    }

    fn same<T: ?Sized + Serialize + fmt::Debug>(value: &T) {
        let expected = serde_json::to_string(value).unwrap();
        assert_eq!(ours(value).unwrap(), expected, "{value:?}");
    }

    #[test]
    fn every_ascii_byte_escapes_as_in_serde_json() {
        for byte in 0u8..=0x7F {
            let c = char::from(byte);
            same(&c);
            same(&c.to_string());
            // At every position of a word, and in the overlapping tail.
            for len in 0..20 {
                for at in 0..=len {
                    let mut s = "a".repeat(len);
                    s.insert(at, c);
                    same(&s);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn strings_escape_as_in_serde_json(s in "[\\x00-\\x7f\"\\\\aé日🎉]{0,40}") {
            prop_assert_eq!(ours(&s).unwrap(), serde_json::to_string(&s).unwrap());
        }

        /// Longer strings (written in pieces), and enough of them to fill
        /// the chunk many times over, as values and as keys.
        #[test]
        fn long_strings_escape_as_in_serde_json(
            strings in proptest::collection::vec("[\\x00-\\x7f\"\\\\aé日🎉]{0,700}", 0..20),
        ) {
            prop_assert_eq!(ours(&strings).unwrap(), serde_json::to_string(&strings).unwrap());
            let map: BTreeMap<_, _> = strings.iter().map(|s| (s, s)).collect();
            prop_assert_eq!(ours(&map).unwrap(), serde_json::to_string(&map).unwrap());
        }

        #[test]
        fn numbers_as_in_serde_json(
            ints in proptest::collection::vec(any::<i64>(), 0..300),
            uints in proptest::collection::vec(any::<u64>(), 0..300),
            doubles in proptest::collection::vec(any::<f64>(), 0..300),
            floats in proptest::collection::vec(any::<f32>(), 0..300),
        ) {
            prop_assert_eq!(ours(&ints).unwrap(), serde_json::to_string(&ints).unwrap());
            prop_assert_eq!(ours(&uints).unwrap(), serde_json::to_string(&uints).unwrap());
            prop_assert_eq!(ours(&doubles).unwrap(), serde_json::to_string(&doubles).unwrap());
            prop_assert_eq!(ours(&floats).unwrap(), serde_json::to_string(&floats).unwrap());
            let keys: BTreeMap<_, _> = ints.iter().map(|&i| (i, i)).collect();
            prop_assert_eq!(ours(&keys).unwrap(), serde_json::to_string(&keys).unwrap());
        }
    }

    #[test]
    fn strings_across_pieces_and_chunks() {
        // Escapes on every side of the piece boundaries, in strings that
        // start at every place in the chunk.
        for len in [
            PIECE - 1,
            PIECE,
            PIECE + 1,
            2 * PIECE + 3,
            CHUNK + 5,
            3 * CHUNK,
        ] {
            for special in ["\"", "\n", "\u{1}", "é", "🎉"] {
                let mut strings = Vec::new();
                for at in [0, 1, 7, 8, PIECE - 1, PIECE, PIECE + 1, len - 1] {
                    let mut s = "x".repeat(len);
                    if at < len && s.is_char_boundary(at) {
                        s.insert_str(at, special);
                    }
                    strings.push(s.clone());
                    strings.push(format!("{s}{s}"));
                }
                for skip in 0..3 {
                    same(&strings[skip..]);
                }
            }
        }
    }

    #[test]
    fn special_bytes_flags_exactly_the_first() {
        // Every pair of bytes in a word: the first special byte is found.
        let samples: Vec<u8> = (0u8..=0x7F).chain([0x80, 0xBF, 0xC3, 0xE2, 0xFF]).collect();
        for &a in &samples {
            for &b in &samples {
                for i in 0..8 {
                    for j in 0..8 {
                        let mut word = [b'x'; 8];
                        word[i] = a;
                        word[j] = b;
                        let expected = word.iter().position(|&x| is_special(x));
                        let found = special_bytes(u64::from_le_bytes(word));
                        let first = (found != 0).then(|| (found.trailing_zeros() / 8) as usize);
                        assert_eq!(first, expected, "{word:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn strings_with_utf8_and_escapes() {
        for s in [
            "",
            "é",
            "naïve café",
            "日本語のテキスト",
            "emoji 🎉🎉 and \"quotes\" and \\ and \n\t\r\u{8}\u{c}",
            "\u{7f}\u{80}\u{9f}\u{a0}\u{2028}\u{2029}\u{feff}\u{10ffff}",
            "abcdefgh\"abcdefgh\\abcdefgh\u{1}abcdefgh\u{1f}",
            "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"",
            "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
            "ab\u{1f}\u{20}\u{21}\u{22}\u{23}\u{5b}\u{5c}\u{5d}xyzxyzxyz",
            "longer text without anything special in it at all, 0123456789",
        ] {
            same(s);
            // As a map key too.
            same(&BTreeMap::from([(s, 1)]));
        }
    }

    #[test]
    fn collect_str_escapes() {
        struct Shown(&'static str);
        impl Display for Shown {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)?;
                f.write_str("\"tail\n")
            }
        }
        let expected = {
            let mut out = Vec::new();
            serde_json::Serializer::new(&mut out)
                .collect_str(&Shown("a\\b"))
                .unwrap();
            String::from_utf8(out).unwrap()
        };
        let mut writer = Writer::new();
        writer.collect_str(&Shown("a\\b")).unwrap();
        assert_eq!(String::from_utf8(writer.into_inner()).unwrap(), expected);
        assert_eq!(expected, r#""a\\b\"tail\n""#);
    }

    #[test]
    fn value_trees() {
        let values = [
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(-1),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(0.0),
            json!(-0.0),
            json!(1.5),
            json!(0.1),
            json!(1e300),
            json!(-1e-300),
            json!(5e-324),
            json!(f64::MAX),
            json!(123456789.125),
            json!("text"),
            json!([]),
            json!({}),
            json!([[]]),
            json!([{}]),
            json!({"a": {}}),
            json!({"a": []}),
            json!([1, "two", 3.0, null, true, [false, {"x": [1, 2, {"y": null}]}]]),
            json!({
                "name": "buffa",
                "nested": {"list": [1, 2, 3], "empty": {}, "map": {"k\"ey": "v\nal"}},
                "number": -42,
                "float": 2.5e-8,
                "flag": false,
                "nothing": null,
            }),
        ];
        for value in &values {
            same(value);
        }
        same(&values);
    }

    #[test]
    fn floats() {
        for v in [
            0.0f64,
            -0.0,
            1.0,
            0.1,
            1.0 / 3.0,
            1e15,
            1e16,
            1e17,
            1e-7,
            123.456,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            same(&v);
            same(&(v as f32));
        }
        for v in [
            f32::MAX,
            f32::MIN_POSITIVE,
            16777217.0,
            0.3,
            f32::NAN,
            f32::INFINITY,
        ] {
            same(&v);
        }
        assert_eq!(ours(&f64::NAN).unwrap(), "null");
        assert_eq!(ours(&f32::NEG_INFINITY).unwrap(), "null");
    }

    #[test]
    fn integers() {
        same(&[i8::MIN, 0, i8::MAX]);
        same(&[i16::MIN, 0, i16::MAX]);
        same(&[i32::MIN, -1, 0, 1, i32::MAX]);
        same(&[i64::MIN, -1, 0, 1, i64::MAX]);
        same(&[i128::MIN, 0, i128::MAX]);
        same(&[0, u8::MAX]);
        same(&[0, u16::MAX]);
        same(&[0, u32::MAX]);
        same(&[0, 9, 10, 99, 100, u64::MAX]);
        same(&[0, u128::MAX]);
        // Every length, at its edges.
        let mut edges: Vec<u64> = (0..=1000).collect();
        let mut power = 1u64;
        while let Some(next) = power.checked_mul(10) {
            edges.extend([power - 1, power, power + 1, next - 1]);
            power = next;
        }
        same(&edges);
        same(&edges.iter().map(|&v| v as i64).collect::<Vec<_>>());
        same(&edges.iter().map(|&v| -(v as i64)).collect::<Vec<_>>());
    }

    #[test]
    fn non_string_keys() {
        same(&BTreeMap::from([(1i32, "a"), (-2, "b")]));
        same(&BTreeMap::from([(u64::MAX, 0)]));
        same(&BTreeMap::from([(i128::MIN, 0)]));
        same(&BTreeMap::from([(true, 0), (false, 1)]));
        same(&BTreeMap::from([('c', 0), ('"', 1)]));
        same(&BTreeMap::from([(Some("some"), 0)]));
        same(&OrderedFloatMap(vec![(1.5, 0), (-0.0, 1), (1e300, 2)]));
        same(&OrderedFloatMap(vec![(0.1, 0)]));
        // Keys that are not strings.
        assert!(ours(&BTreeMap::from([((), 0)])).is_err());
        assert!(ours(&BTreeMap::from([(vec![1], 0)])).is_err());
        assert!(ours(&BTreeMap::from([(None::<&str>, 0)])).is_err());
    }

    /// A map with float keys (which `BTreeMap` cannot hold).
    struct OrderedFloatMap(Vec<(f64, i32)>);

    impl fmt::Debug for OrderedFloatMap {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.fmt(f)
        }
    }

    impl Serialize for OrderedFloatMap {
        fn serialize<S: Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }

    #[test]
    fn non_finite_float_keys_are_errors() {
        let map = OrderedFloatMap(vec![(f64::NAN, 0)]);
        assert!(serde_json::to_string(&map).is_err());
        assert!(ours(&map).is_err());
    }

    #[test]
    fn serde_data_model() {
        // Bytes, unit, options, and the enum variant forms.
        same(&serde_bytes_like(b"\x00\x01\xff"));
        same(&());
        same(&Some(3));
        same(&None::<i32>);
        same(&(1, "two", [3.5]));
        same(&Variants);
    }

    fn serde_bytes_like(bytes: &'static [u8]) -> impl Serialize + fmt::Debug {
        #[derive(Debug)]
        struct Bytes(&'static [u8]);
        impl Serialize for Bytes {
            fn serialize<S: Serializer>(
                &self,
                serializer: S,
            ) -> core::result::Result<S::Ok, S::Error> {
                serializer.serialize_bytes(self.0)
            }
        }
        Bytes(bytes)
    }

    /// Every variant form, in a list.
    #[derive(Debug)]
    struct Variants;

    impl Serialize for Variants {
        fn serialize<S: Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
            use serde::ser::{SerializeSeq, SerializeStructVariant, SerializeTupleVariant};

            struct Unit;
            impl Serialize for Unit {
                fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                    s.serialize_unit_variant("E", 0, "Unit")
                }
            }
            struct Newtype;
            impl Serialize for Newtype {
                fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                    s.serialize_newtype_variant("E", 1, "Newtype", &[1, 2])
                }
            }
            struct Tuple(usize);
            impl Serialize for Tuple {
                fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                    let mut t = s.serialize_tuple_variant("E", 2, "Tuple", self.0)?;
                    for i in 0..self.0 {
                        t.serialize_field(&i)?;
                    }
                    t.end()
                }
            }
            struct Struct(usize);
            impl Serialize for Struct {
                fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                    let mut t = s.serialize_struct_variant("E", 3, "Struct", self.0)?;
                    for key in ["a", "b"].iter().take(self.0) {
                        t.serialize_field(key, &true)?;
                    }
                    t.end()
                }
            }
            struct Plain;
            impl Serialize for Plain {
                fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                    let mut t = s.serialize_struct("Plain", 2)?;
                    t.serialize_field("x", &1)?;
                    t.serialize_field("y", "z")?;
                    t.end()
                }
            }

            let mut seq = serializer.serialize_seq(None)?;
            seq.serialize_element(&Unit)?;
            seq.serialize_element(&Newtype)?;
            seq.serialize_element(&Tuple(0))?;
            seq.serialize_element(&Tuple(2))?;
            seq.serialize_element(&Struct(0))?;
            seq.serialize_element(&Struct(2))?;
            seq.serialize_element(&Plain)?;
            seq.end()
        }
    }

    #[test]
    fn serde_json_number_and_raw_value_structs() {
        // How serde_json's `arbitrary_precision` and `raw_value` features
        // write a number and a raw value.
        struct Raw(&'static str, &'static str);
        impl Serialize for Raw {
            fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                let mut t = s.serialize_struct(self.0, 1)?;
                t.serialize_field(self.0, self.1)?;
                t.end()
            }
        }
        assert_eq!(ours(&Raw(NUMBER_TOKEN, "1.50")).unwrap(), "1.50");
        assert_eq!(
            ours(&[Raw(RAW_VALUE_TOKEN, r#"{"a": [1]}"#)]).unwrap(),
            r#"[{"a": [1]}]"#
        );
    }

    #[test]
    fn custom_errors_pass_through() {
        struct Fails;
        impl Serialize for Fails {
            fn serialize<S: Serializer>(&self, _: S) -> core::result::Result<S::Ok, S::Error> {
                Err(S::Error::custom("out of range"))
            }
        }
        let error = ours(&BTreeMap::from([("a", [Fails])])).unwrap_err();
        assert_eq!(error.to_string(), "out of range");
        assert_eq!((error.line(), error.column()), (0, 0));
    }
}
