//! Fields a message's schema does not know, kept byte for byte.

use core::fmt;

use crate::decoder::{DecodeOptions, Decoder};
use crate::encoder::Encoder;
use crate::error::DecodeError;
use crate::wire::{Tag, WireType};

/// The unknown fields of one message, in the order they were read.
///
/// They hold their encoded bytes exactly as they appeared, field keys
/// included, and are written back unchanged after the known fields, so a
/// message passing through a program built from an older schema loses
/// nothing. This is also where extensions and unrecognised closed-enum
/// values end up.
///
/// An empty set costs one pointer: most messages never see an unknown field,
/// and a small message such as a 3D vector of three `f32` should not grow
/// by the 24 bytes of an inline `Vec`.
///
/// Equality and hashing look at the kept bytes only: a set emptied by
/// [`UnknownFields::clear`] (which keeps its allocation) equals a new one.
#[derive(Clone, Default)]
pub struct UnknownFields {
    // One pointer when empty; a plain `Vec` would cost three words in
    // every message.
    #[allow(clippy::box_collection)]
    bytes: Option<Box<Vec<u8>>>,
}

/// One unknown field, as [`UnknownFields::iter`] yields it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownField<'a> {
    /// The field number.
    pub number: u32,
    /// The field's value.
    pub value: UnknownValue<'a>,
}

/// The value of an unknown field, interpreted only as far as its wire type
/// allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownValue<'a> {
    /// A varint.
    Varint(u64),
    /// Eight bytes.
    Fixed64(u64),
    /// A length-delimited payload (string, bytes, message or packed values).
    LengthDelimited(&'a [u8]),
    /// The encoded fields between a start-group and its end-group key.
    Group(&'a [u8]),
    /// Four bytes.
    Fixed32(u32),
}

impl UnknownFields {
    /// An empty set; does not allocate.
    pub const fn new() -> UnknownFields {
        UnknownFields { bytes: None }
    }

    /// Whether no unknown field was kept.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.as_ref().is_none_or(|bytes| bytes.is_empty())
    }

    /// The kept fields, encoded.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_deref().map_or(&[], Vec::as_slice)
    }

    /// Appends already-encoded fields (keys included).
    pub fn push_raw(&mut self, encoded: &[u8]) {
        self.bytes
            .get_or_insert_default()
            .extend_from_slice(encoded);
    }

    /// Appends a varint field, as used for closed-enum values the schema
    /// does not list.
    pub fn push_varint(&mut self, field_number: u32, value: u64) {
        let mut buf = [0u8; 15];
        let mut encoder = Encoder::from_slice(&mut buf);
        encoder.put_tag(field_number, WireType::Varint);
        encoder.put_varint(value);
        let len = encoder.position();
        self.push_raw(&buf[..len]);
    }

    /// Drops every kept field, keeping the allocation.
    pub fn clear(&mut self) {
        if let Some(bytes) = &mut self.bytes {
            bytes.clear();
        }
    }

    /// Bytes the fields take when written.
    #[inline]
    pub fn encoded_len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Writes the fields back exactly as they were read.
    #[inline]
    pub fn write(&self, encoder: &mut Encoder<'_>) {
        if let Some(bytes) = &self.bytes {
            encoder.put_slice(bytes);
        }
    }

    /// Iterates over the kept fields.
    ///
    /// The bytes were validated when they were read, so iteration cannot
    /// fail for fields kept by decoding; fields appended with
    /// [`UnknownFields::push_raw`] are trusted to be well formed, and
    /// iteration stops at the first malformed one.
    pub fn iter(&self) -> impl Iterator<Item = UnknownField<'_>> + '_ {
        let bytes = self.as_bytes();
        // No recursion limit: the bytes were already checked against the
        // limit they were decoded under, which may exceed the default.
        let options = DecodeOptions::new().with_recursion_limit(u32::MAX);
        let mut decoder = Decoder::new(bytes, &options).ok();
        core::iter::from_fn(move || {
            let d = decoder.as_mut()?;
            let field = read_unknown_field(d).ok().flatten();
            if field.is_none() {
                decoder = None;
            }
            field
        })
    }
}

impl PartialEq for UnknownFields {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for UnknownFields {}

impl core::hash::Hash for UnknownFields {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

fn read_unknown_field<'a>(d: &mut Decoder<'a>) -> Result<Option<UnknownField<'a>>, DecodeError> {
    let Some(tag) = d.read_tag()? else {
        return Ok(None);
    };
    let value = match tag.wire_type() {
        WireType::Varint => UnknownValue::Varint(d.read_varint()?),
        WireType::Fixed64 => UnknownValue::Fixed64(d.read_fixed64()?),
        WireType::Fixed32 => UnknownValue::Fixed32(d.read_fixed32()?),
        WireType::LengthDelimited => UnknownValue::LengthDelimited(d.read_length_delimited()?),
        WireType::StartGroup => UnknownValue::Group(read_group_body(d, tag)?),
        WireType::EndGroup => return Ok(None),
    };
    Ok(Some(UnknownField {
        number: tag.field_number(),
        value,
    }))
}

/// Returns the bytes between a start-group key and its end-group key.
fn read_group_body<'a>(d: &mut Decoder<'a>, start: Tag) -> Result<&'a [u8], DecodeError> {
    let body = d.remaining_slice();
    let before = d.remaining();
    let mut end_key_len = 0;
    d.read_group(|d| {
        while let Some(tag) = d.read_tag()? {
            if tag.wire_type() == WireType::EndGroup {
                end_key_len = d.last_tag_len();
                return d.check_end_group(tag, start.field_number());
            }
            d.skip_field(tag)?;
        }
        Err(d.error(crate::DecodeErrorKind::MissingEndGroup {
            field_number: start.field_number(),
        }))
    })?;
    Ok(&body[..before - d.remaining() - end_key_len])
}

impl fmt::Debug for UnknownFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_set_is_one_pointer_and_does_not_allocate() {
        assert_eq!(
            core::mem::size_of::<UnknownFields>(),
            core::mem::size_of::<usize>()
        );
        assert!(UnknownFields::new().is_empty());
        assert_eq!(UnknownFields::new().encoded_len(), 0);
    }

    #[test]
    fn iterates_every_wire_type() {
        let mut unknown = UnknownFields::new();
        unknown.push_varint(1, 150);
        unknown.push_raw(&[0x11, 1, 0, 0, 0, 0, 0, 0, 0]);
        unknown.push_raw(&[0x1a, 0x02, 0xaa, 0xbb]);
        unknown.push_raw(&[0x23, 0x08, 0x01, 0x24]);
        unknown.push_raw(&[0x2d, 2, 0, 0, 0]);
        let fields: Vec<_> = unknown.iter().collect();
        assert_eq!(
            fields,
            [
                UnknownField {
                    number: 1,
                    value: UnknownValue::Varint(150)
                },
                UnknownField {
                    number: 2,
                    value: UnknownValue::Fixed64(1)
                },
                UnknownField {
                    number: 3,
                    value: UnknownValue::LengthDelimited(&[0xaa, 0xbb])
                },
                UnknownField {
                    number: 4,
                    value: UnknownValue::Group(&[0x08, 0x01])
                },
                UnknownField {
                    number: 5,
                    value: UnknownValue::Fixed32(2)
                },
            ]
        );
    }

    #[test]
    fn clear_empties() {
        let mut unknown = UnknownFields::new();
        unknown.push_varint(3, 1);
        assert!(!unknown.is_empty());
        unknown.clear();
        assert!(unknown.is_empty());
        assert_eq!(unknown.as_bytes(), &[] as &[u8]);
    }
}
