//! Just enough of the wire format to copy descriptors field by field:
//! splitting an encoded message into its fields, and varints. Used where
//! descriptor bytes must pass through unchanged except for the fields
//! removed (`descriptor.rs`, `retention.rs`), since decoding and encoding
//! them again through prost-types would lose what prost-types does not
//! know (editions features, unknown extensions).

use crate::error::Error;

/// Wire type of a varint.
pub const VARINT: u8 = 0;
/// Wire type of a length-delimited value.
pub const LEN: u8 = 2;
/// Wire type of a group's start.
pub const START_GROUP: u8 = 3;
/// Wire type of a group's end.
const END_GROUP: u8 = 4;

/// How deep groups may nest in descriptors read here; deeper input is
/// refused rather than walked.
const MAX_GROUP_DEPTH: usize = 100;

/// One field of an encoded message.
pub struct RawField<'a> {
    /// The field number.
    pub number: u64,
    /// The wire type.
    pub wire_type: u8,
    /// The field's bytes, key included (and, for a group, its end).
    pub whole: &'a [u8],
    /// The value's bytes: for a length-delimited field without the
    /// length, for a group without its start and end.
    pub payload: &'a [u8],
}

/// The fields of an encoded message, in order.
pub fn fields(bytes: &[u8]) -> Result<Vec<RawField<'_>>, Error> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let start = pos;
        let key = read_varint(bytes, &mut pos).ok_or_else(invalid)?;
        let (number, wire_type) = split_key(key)?;
        if wire_type == END_GROUP {
            return Err(invalid());
        }
        let (payload_start, payload_end) = skip_value(bytes, &mut pos, number, wire_type)?;
        out.push(RawField {
            number,
            wire_type,
            whole: &bytes[start..pos],
            payload: &bytes[payload_start..payload_end],
        });
    }
    Ok(out)
}

/// Skips the value of a field whose key ends at `pos`, leaving `pos` after
/// it (after the end of a group), and returns where its payload lies.
fn skip_value(
    bytes: &[u8],
    pos: &mut usize,
    number: u64,
    wire_type: u8,
) -> Result<(usize, usize), Error> {
    let start = *pos;
    let end = match wire_type {
        VARINT => {
            read_varint(bytes, pos).ok_or_else(invalid)?;
            *pos
        }
        1 => start.checked_add(8).ok_or_else(invalid)?,
        LEN => {
            let len = read_varint(bytes, pos).ok_or_else(invalid)?;
            let len = usize::try_from(len).map_err(|_| invalid())?;
            let payload_start = *pos;
            let end = payload_start.checked_add(len).ok_or_else(invalid)?;
            if end > bytes.len() {
                return Err(invalid());
            }
            *pos = end;
            return Ok((payload_start, end));
        }
        START_GROUP => return skip_group(bytes, pos, number),
        5 => start.checked_add(4).ok_or_else(invalid)?,
        _ => return Err(invalid()),
    };
    if end > bytes.len() {
        return Err(invalid());
    }
    *pos = end;
    Ok((start, end))
}

/// Skips a group's fields and its end key; returns where the fields lie.
fn skip_group(bytes: &[u8], pos: &mut usize, number: u64) -> Result<(usize, usize), Error> {
    let start = *pos;
    // The numbers of the groups open, innermost last.
    let mut open = vec![number];
    loop {
        let key_start = *pos;
        let key = read_varint(bytes, pos).ok_or_else(invalid)?;
        let (inner, wire_type) = split_key(key)?;
        match wire_type {
            END_GROUP => {
                if open.pop() != Some(inner) {
                    return Err(invalid());
                }
                if open.is_empty() {
                    return Ok((start, key_start));
                }
            }
            START_GROUP => {
                if open.len() == MAX_GROUP_DEPTH {
                    return Err(Error::new(
                        "invalid FileDescriptorSet: groups nested too deeply",
                    ));
                }
                open.push(inner);
            }
            _ => {
                skip_value(bytes, pos, inner, wire_type)?;
            }
        }
    }
}

fn split_key(key: u64) -> Result<(u64, u8), Error> {
    let number = key >> 3;
    if number == 0 || number > u64::from(u32::MAX >> 3) {
        return Err(invalid());
    }
    Ok((number, (key & 7) as u8))
}

fn invalid() -> Error {
    Error::new("invalid FileDescriptorSet: malformed encoding")
}

/// Reads a varint at `pos`, advancing it; `None` when truncated or longer
/// than ten bytes.
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}

/// Appends `value` as a varint.
pub fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends field `number` holding the length-delimited `payload`.
pub fn put_len(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    put_varint(out, number << 3 | u64::from(LEN));
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

/// Appends field `number` as a group holding `payload`.
pub fn put_group(out: &mut Vec<u8>, number: u64, payload: &[u8]) {
    put_varint(out, number << 3 | u64::from(START_GROUP));
    out.extend_from_slice(payload);
    put_varint(out, number << 3 | u64::from(END_GROUP));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for value in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            let mut pos = 0;
            assert_eq!(read_varint(&out, &mut pos), Some(value));
            assert_eq!(pos, out.len());
        }
        assert_eq!(read_varint(&[0x80], &mut 0), None);
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
        assert_eq!(fields[2].payload, b"ab");
        assert_eq!(fields[3].whole.len(), 5);
        assert_eq!(fields[4].wire_type, START_GROUP);
        assert_eq!(fields[4].whole, &bytes[21..]);
        assert_eq!(fields[4].payload, &[0x08, 0x01, 0x33, 0x34]);
        let mut group = Vec::new();
        put_group(&mut group, 5, fields[4].payload);
        assert_eq!(group, fields[4].whole);
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
        let mut deep = vec![0x0b; MAX_GROUP_DEPTH + 1];
        deep.extend(vec![0x0c; MAX_GROUP_DEPTH + 1]);
        assert!(fields(&deep).is_err());
        let mut deep = vec![0x0b; MAX_GROUP_DEPTH];
        deep.extend(vec![0x0c; MAX_GROUP_DEPTH]);
        assert_eq!(fields(&deep).unwrap().len(), 1);
    }
}
