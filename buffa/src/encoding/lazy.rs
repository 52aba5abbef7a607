//! Field helpers for lazy view fields ([`LazyField`], [`LazyRepeated`]):
//! decoding records payloads without reading them; encoding decodes them
//! and writes them as any message field, so a view encodes to the bytes
//! its owned message would.
//!
//! A payload that does not decode is written back as it was read (each
//! occurrence a field of its own: joined into one, a value cut short at
//! the end of one occurrence could be completed by the next), so encoding
//! loses nothing, changes nothing and cannot fail on it; sizing and
//! writing make the same choice, since both decode the same bytes.

use crate::error::DecodeError;
use crate::message::{Encodable, Mergeable};
use crate::view::{LazyField, LazyRepeated};
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::SizeCache;
use crate::wire::{Tag, WireType, tag_len, varint_len};

use super::message;

/// Reads a length-prefixed payload without decoding it: the depth it sits
/// at must be enterable, as an eager decode would require.
#[inline]
fn read_payload<'a>(tag: Tag, decoder: &mut Decoder<'a>) -> Result<(&'a [u8], u32), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    decoder.check_depth()?;
    let depth = decoder.depth_remaining() - 1;
    Ok((decoder.read_length_delimited()?, depth))
}

/// Skips a group whose start key `tag` was just read and returns the
/// fields between its keys; the scan checks the group's nesting.
#[inline]
fn read_group_body<'a>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<(&'a [u8], u32), DecodeError> {
    decoder.check_wire_type(tag, WireType::StartGroup)?;
    decoder.check_depth()?;
    let depth = decoder.depth_remaining() - 1;
    let start = decoder.remaining_slice();
    decoder.skip_field(tag)?;
    let consumed = start.len() - decoder.remaining();
    Ok((&start[..consumed - decoder.last_tag_len()], depth))
}

/// Merges one occurrence of a lazy singular message field.
#[inline]
pub fn merge_field<'a, V>(
    tag: Tag,
    field: &mut LazyField<'a, V>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    let (payload, depth) = read_payload(tag, decoder)?;
    field.push(payload, depth, decoder)
}

/// Merges one occurrence of a lazy group-encoded field.
#[inline]
pub fn merge_group_field<'a, V>(
    tag: Tag,
    field: &mut LazyField<'a, V>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    let (body, depth) = read_group_body(tag, decoder)?;
    field.push(body, depth, decoder)
}

/// Appends one element of a lazy repeated message field.
#[inline]
pub fn merge_repeated<'a, V>(
    tag: Tag,
    field: &mut LazyRepeated<'a, V>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    let (payload, depth) = read_payload(tag, decoder)?;
    field.push(payload, depth, decoder)
}

/// Appends one element of a lazy repeated group-encoded field.
#[inline]
pub fn merge_repeated_group<'a, V>(
    tag: Tag,
    field: &mut LazyRepeated<'a, V>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    let (body, depth) = read_group_body(tag, decoder)?;
    field.push(body, depth, decoder)
}

/// Size of the occurrences `payloads` of a field written back as read.
fn raw_size<'p>(
    field_number: u32,
    delimited: bool,
    payloads: impl Iterator<Item = &'p [u8]>,
) -> usize {
    payloads
        .map(|payload| {
            let len = payload.len();
            if delimited {
                2 * tag_len(field_number) + len
            } else {
                tag_len(field_number) + varint_len(len as u64) + len
            }
        })
        .sum()
}

/// Writes the occurrences `payloads` of a field as read, one field each.
fn write_raw<'p>(
    field_number: u32,
    delimited: bool,
    payloads: impl Iterator<Item = &'p [u8]>,
    encoder: &mut Encoder<'_>,
) {
    for payload in payloads {
        if delimited {
            encoder.put_tag(field_number, WireType::StartGroup);
        } else {
            encoder.put_tag(field_number, WireType::LengthDelimited);
            encoder.put_varint(payload.len() as u64);
        }
        encoder.put_slice(payload);
        if delimited {
            encoder.put_tag(field_number, WireType::EndGroup);
        }
    }
}

/// Size of one decoded message, length-prefixed or as a group.
fn size_one<V: Encodable>(
    field_number: u32,
    delimited: bool,
    view: &V,
    cache: &mut SizeCache,
) -> usize {
    if delimited {
        message::size_group(field_number, view, cache)
    } else {
        message::size(field_number, view, cache)
    }
}

/// Writes one decoded message, length-prefixed or as a group.
fn write_one<V: Encodable>(
    field_number: u32,
    delimited: bool,
    view: &V,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    if delimited {
        message::write_group(field_number, view, cache, encoder);
    } else {
        message::write(field_number, view, cache, encoder);
    }
}

/// Size of a lazy singular field (`delimited` for group encoding).
pub fn size_field<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyField<'a, V>,
    cache: &mut SizeCache,
) -> usize {
    if !field.is_set() {
        return 0;
    }
    match field.get() {
        Ok(view) => size_one(field_number, delimited, &view, cache),
        Err(_) => raw_size(field_number, delimited, field.payloads()),
    }
}

/// Writes a lazy singular field if it is set.
pub fn write_field<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyField<'a, V>,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    if !field.is_set() {
        return;
    }
    match field.get() {
        Ok(view) => write_one(field_number, delimited, &view, cache, encoder),
        Err(_) => write_raw(field_number, delimited, field.payloads(), encoder),
    }
}

/// Size of a lazy repeated field.
pub fn size_repeated<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyRepeated<'a, V>,
    cache: &mut SizeCache,
) -> usize {
    field
        .payloads()
        .zip(field.iter())
        .map(|(payload, view)| match view {
            Ok(view) => size_one(field_number, delimited, &view, cache),
            Err(_) => raw_size(field_number, delimited, core::iter::once(payload)),
        })
        .sum()
}

/// Writes a lazy repeated field.
pub fn write_repeated<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyRepeated<'a, V>,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    for (payload, view) in field.payloads().zip(field.iter()) {
        match view {
            Ok(view) => write_one(field_number, delimited, &view, cache, encoder),
            Err(_) => write_raw(field_number, delimited, core::iter::once(payload), encoder),
        }
    }
}
