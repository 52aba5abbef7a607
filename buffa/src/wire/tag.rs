//! Wire types and tags: the first thing every encoded field carries.

use core::fmt;

/// The six wire types of the protobuf encoding.
///
/// The wire type tells a parser how many bytes a value occupies without
/// knowing the schema, which is what makes skipping unknown fields possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum WireType {
    /// `int32`, `int64`, `uint32`, `uint64`, `sint32`, `sint64`, `bool`, `enum`.
    Varint = 0,
    /// `fixed64`, `sfixed64`, `double`.
    Fixed64 = 1,
    /// `string`, `bytes`, embedded messages, packed repeated fields.
    LengthDelimited = 2,
    /// Start of a group (proto2 groups, editions `DELIMITED` messages).
    StartGroup = 3,
    /// End of a group.
    EndGroup = 4,
    /// `fixed32`, `sfixed32`, `float`.
    Fixed32 = 5,
}

impl WireType {
    /// Converts the low three bits of a tag into a wire type.
    ///
    /// Returns `None` for the two unused values, 6 and 7.
    #[inline]
    pub const fn from_bits(bits: u8) -> Option<WireType> {
        match bits {
            0 => Some(WireType::Varint),
            1 => Some(WireType::Fixed64),
            2 => Some(WireType::LengthDelimited),
            3 => Some(WireType::StartGroup),
            4 => Some(WireType::EndGroup),
            5 => Some(WireType::Fixed32),
            _ => None,
        }
    }
}

impl fmt::Display for WireType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            WireType::Varint => "varint",
            WireType::Fixed64 => "fixed64",
            WireType::LengthDelimited => "length-delimited",
            WireType::StartGroup => "start-group",
            WireType::EndGroup => "end-group",
            WireType::Fixed32 => "fixed32",
        };
        f.write_str(name)
    }
}

/// The smallest valid field number.
pub const MIN_FIELD_NUMBER: u32 = 1;
/// The largest valid field number, `2^29 - 1`.
pub const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// A decoded field key: field number and wire type.
///
/// Only constructed for valid keys: the field number lies in
/// `MIN_FIELD_NUMBER..=MAX_FIELD_NUMBER` and the wire type is one of
/// the six defined values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    field_number: u32,
    wire_type: WireType,
}

impl Tag {
    /// Builds a tag from its parts.
    ///
    /// # Panics
    ///
    /// Panics if `field_number` is outside the valid range; generated code
    /// only passes numbers that protoc has already validated.
    #[inline]
    pub const fn new(field_number: u32, wire_type: WireType) -> Tag {
        assert!(field_number >= MIN_FIELD_NUMBER && field_number <= MAX_FIELD_NUMBER);
        Tag {
            field_number,
            wire_type,
        }
    }

    /// Builds a tag from parts the caller has already validated.
    #[inline]
    pub(crate) const fn from_valid_parts(field_number: u32, wire_type: WireType) -> Tag {
        Tag {
            field_number,
            wire_type,
        }
    }

    /// Decodes a tag from its varint value. `None` if the field number is 0,
    /// above [`MAX_FIELD_NUMBER`], or the wire type is 6 or 7.
    #[inline]
    pub const fn from_raw(raw: u64) -> Option<Tag> {
        if raw > u32::MAX as u64 {
            return None;
        }
        let field_number = (raw >> 3) as u32;
        if field_number < MIN_FIELD_NUMBER {
            return None;
        }
        match WireType::from_bits((raw & 7) as u8) {
            Some(wire_type) => Some(Tag {
                field_number,
                wire_type,
            }),
            None => None,
        }
    }

    /// The field number.
    #[inline]
    pub const fn field_number(self) -> u32 {
        self.field_number
    }

    /// The wire type.
    #[inline]
    pub const fn wire_type(self) -> WireType {
        self.wire_type
    }

    /// The tag's varint value: `field_number << 3 | wire_type`.
    #[inline]
    pub const fn raw(self) -> u32 {
        (self.field_number << 3) | self.wire_type as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_from_raw_rejects_invalid_keys() {
        assert_eq!(Tag::from_raw(0), None, "field number 0");
        assert_eq!(Tag::from_raw((1 << 3) | 6), None, "wire type 6");
        assert_eq!(Tag::from_raw((1 << 3) | 7), None, "wire type 7");
        assert_eq!(Tag::from_raw(u64::from(u32::MAX) + 1), None, "above u32");
        let tag = Tag::from_raw((MAX_FIELD_NUMBER as u64) << 3 | 5).unwrap();
        assert_eq!(tag.field_number(), MAX_FIELD_NUMBER);
        assert_eq!(tag.wire_type(), WireType::Fixed32);
        assert_eq!(u64::from(tag.raw()), (MAX_FIELD_NUMBER as u64) << 3 | 5);
    }
}
