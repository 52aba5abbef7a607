//! Splitting an encoded message into its fields, and writing fields back,
//! over buffa's public wire layer (`buffa::wire`). Used where descriptor
//! bytes must pass through unchanged except for the fields removed
//! (`descriptor.rs`, `retention.rs`): each file embedded stays the bytes
//! protoc wrote.

use buffa::DecodeOptions;
use buffa::wire::{Decoder, Encoder, WireType, tag_len, varint_len};

use crate::error::Error;

/// One field of an encoded message.
pub struct RawField<'a> {
    /// The field number.
    pub number: u64,
    /// The wire type.
    pub wire_type: WireType,
    /// The field's bytes, key included (and, for a group, its end).
    pub whole: &'a [u8],
    /// The value's bytes: for a length-delimited field without the
    /// length, for a group without its start and end.
    pub payload: &'a [u8],
}

/// The fields of an encoded message, in order. Groups nest at most as
/// deep as buffa's default recursion limit allows.
pub fn fields(bytes: &[u8]) -> Result<Vec<RawField<'_>>, Error> {
    let mut decoder = Decoder::new(bytes, &DecodeOptions::default()).map_err(invalid)?;
    let mut out = Vec::new();
    loop {
        let start = decoder.offset();
        let Some(tag) = decoder.read_tag().map_err(invalid)? else {
            return Ok(out);
        };
        let value_start = decoder.offset();
        let payload = match tag.wire_type() {
            WireType::LengthDelimited => decoder.read_length_delimited().map_err(invalid)?,
            WireType::StartGroup => {
                decoder.skip_field(tag).map_err(invalid)?;
                &bytes[value_start..decoder.offset() - decoder.last_tag_len()]
            }
            _ => {
                decoder.skip_field(tag).map_err(invalid)?;
                &bytes[value_start..decoder.offset()]
            }
        };
        out.push(RawField {
            number: u64::from(tag.field_number()),
            wire_type: tag.wire_type(),
            whole: &bytes[start..decoder.offset()],
            payload,
        });
    }
}

/// The varints of `bytes`, one after another (a packed repeated field).
pub fn varints(bytes: &[u8]) -> Result<Vec<u64>, Error> {
    let mut decoder = Decoder::new(bytes, &DecodeOptions::default()).map_err(invalid)?;
    let mut out = Vec::new();
    while !decoder.is_empty() {
        out.push(decoder.read_varint().map_err(invalid)?);
    }
    Ok(out)
}

fn invalid(error: buffa::DecodeError) -> Error {
    Error::new(format!("invalid FileDescriptorSet: {error}"))
}

/// Appends `len` bytes to `out`, as `write` puts them.
fn append(out: &mut Vec<u8>, len: usize, write: impl FnOnce(&mut Encoder<'_>)) {
    let start = out.len();
    out.resize(start + len, 0);
    let mut encoder = Encoder::from_slice(&mut out[start..]);
    write(&mut encoder);
    debug_assert_eq!(encoder.remaining(), 0);
}

/// Field numbers here come from fields read by [`fields`], so they fit.
fn field_number(number: u64) -> u32 {
    u32::try_from(number).expect("a field number read from the wire")
}

/// Appends field `number` holding the length-delimited `payload`.
pub fn put_len(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    let number = field_number(number);
    let len = payload.len() as u64;
    let size = tag_len(number) + varint_len(len) + payload.len();
    append(out, size, |encoder| {
        encoder.put_tag(number, WireType::LengthDelimited);
        encoder.put_varint(len);
        encoder.put_slice(payload);
    });
}

/// Appends field `number` as a group holding `payload`.
pub fn put_group(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    let number = field_number(number);
    append(out, 2 * tag_len(number) + payload.len(), |encoder| {
        encoder.put_tag(number, WireType::StartGroup);
        encoder.put_slice(payload);
        encoder.put_tag(number, WireType::EndGroup);
    });
}

/// Appends `value` as a varint.
#[cfg(test)]
pub fn put_varint(out: &mut Vec<u8>, value: u64) {
    append(out, varint_len(value), |encoder| encoder.put_varint(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        let values = [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX];
        let mut out = Vec::new();
        for value in values {
            put_varint(&mut out, value);
        }
        assert_eq!(varints(&out).unwrap(), values);
        assert!(varints(&[0x80]).is_err());
    }

    #[test]
    fn fields_split_every_wire_type() {
        // 1: varint 150, 2: fixed64, 3: "ab", 4: fixed32, 5: a group
        // holding 1: varint 1 and 6: an empty group.
        let bytes = [
            0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 2, b'a', b'b', 0x25, 9, 9, 9, 9,
            0x2b, 0x08, 0x01, 0x33, 0x34, 0x2c,
        ];
        let fields = fields(&bytes).unwrap();
        let numbers: Vec<u64> = fields.iter().map(|f| f.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5]);
        assert_eq!(fields[0].whole, &[0x08, 0x96, 0x01]);
        assert_eq!(fields[1].payload, &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(fields[2].payload, b"ab");
        assert_eq!(fields[3].whole.len(), 5);
        assert_eq!(fields[4].wire_type, WireType::StartGroup);
        assert_eq!(fields[4].whole, &bytes[21..]);
        assert_eq!(fields[4].payload, &[0x08, 0x01, 0x33, 0x34]);
        let mut group = Vec::new();
        put_group(&mut group, 5, fields[4].payload);
        assert_eq!(group, fields[4].whole);
        let mut len = Vec::new();
        put_len(&mut len, 3, b"ab");
        assert_eq!(len, fields[2].whole);
    }

    #[test]
    fn fields_refuse_malformed_input() {
        for bytes in [
            &[0x1a, 5, b'a'][..], // truncated length-delimited
            &[0x11, 1, 2],        // truncated fixed64
            &[0x0b],              // group never ended
            &[0x0b, 0x14],        // group ended by another number
            &[0x0c],              // stray group end
            &[0x0f],              // wire type 7
            &[0x00],              // field number 0
            &[0x0b, 0x08],        // truncated varint in a group
        ] {
            assert!(fields(bytes).is_err(), "{bytes:?}");
        }
        let limit = buffa::DEFAULT_RECURSION_LIMIT as usize;
        let mut deep = vec![0x0b; limit + 1];
        deep.extend(vec![0x0c; limit + 1]);
        assert!(fields(&deep).is_err());
        let mut deep = vec![0x0b; limit];
        deep.extend(vec![0x0c; limit]);
        assert_eq!(fields(&deep).unwrap().len(), 1);
    }
}
