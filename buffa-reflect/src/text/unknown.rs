//! Unknown fields, printed as C++ protobuf prints them: by number, after
//! the known fields, with their values read as far as the wire format
//! tells.
//!
//! Varints print in decimal, fixed32 and fixed64 values as zero-padded
//! hex (`0x0000002a`), groups as nested messages. A length-delimited value
//! is printed as a nested message when its bytes read as a well-formed
//! message (not empty, groups nested at most as deep as the remaining
//! budget allows), otherwise as an escaped string; the guess recurses at
//! most [`GUESS_BUDGET`] levels deep.

use std::fmt::Write;

use buffa::{UnknownFields, UnknownValue};

use super::print::{Printer, quoted};

/// How many levels of length-delimited values may be guessed to be
/// messages, as C++ protobuf's printer allows.
const GUESS_BUDGET: u32 = 10;

/// How deeply the printer follows groups in unknown fields; a group
/// nested deeper (only possible in unknown fields added by hand) is
/// printed as the escaped bytes of its contents.
const MAX_GROUP_DEPTH: u32 = 100;

/// One field read without a schema.
enum WireValue<'a> {
    Varint(u64),
    Fixed32(u32),
    Fixed64(u64),
    Delimited(&'a [u8]),
    Group(Vec<(u32, WireValue<'a>)>),
}

impl Printer<'_> {
    /// Prints the message's unknown fields.
    pub(super) fn unknown_fields(&mut self, fields: &UnknownFields) {
        for field in fields.iter() {
            let value = match field.value {
                UnknownValue::Varint(v) => WireValue::Varint(v),
                UnknownValue::Fixed32(v) => WireValue::Fixed32(v),
                UnknownValue::Fixed64(v) => WireValue::Fixed64(v),
                UnknownValue::LengthDelimited(bytes) => WireValue::Delimited(bytes),
                UnknownValue::Group(bytes) => match read_fields(bytes, MAX_GROUP_DEPTH) {
                    Some(fields) => WireValue::Group(fields),
                    None => WireValue::Delimited(bytes),
                },
            };
            self.wire_field(field.number, &value, GUESS_BUDGET);
        }
    }

    fn wire_field(&mut self, number: u32, value: &WireValue<'_>, budget: u32) {
        self.start_line();
        let _ = write!(self.out, "{number}");
        match value {
            WireValue::Varint(v) => {
                let _ = write!(self.out, ": {v}");
            }
            WireValue::Fixed32(v) => {
                let _ = write!(self.out, ": 0x{v:08x}");
            }
            WireValue::Fixed64(v) => {
                let _ = write!(self.out, ": 0x{v:016x}");
            }
            WireValue::Delimited(bytes) => {
                let nested = if !bytes.is_empty() && budget > 0 {
                    read_fields(bytes, budget)
                } else {
                    None
                };
                match nested {
                    Some(fields) => return self.wire_message(&fields, budget),
                    None => {
                        self.out.push_str(": ");
                        quoted(&mut self.out, bytes);
                    }
                }
            }
            WireValue::Group(fields) => return self.wire_message(fields, budget),
        }
        self.end_line();
    }

    /// ` { fields }`, the fields' own guesses a level shallower.
    fn wire_message(&mut self, fields: &[(u32, WireValue<'_>)], budget: u32) {
        self.open();
        for (number, value) in fields {
            self.wire_field(*number, value, budget.saturating_sub(1));
        }
        self.close();
    }
}

/// The fields encoded in `bytes`, if they are a whole, well-formed
/// message whose groups nest at most `group_budget` deep: valid keys
/// (32 bits, field numbers from 1, wire types 0 to 5), varints of at most ten
/// bytes, lengths within the input, and each group closed by the end key
/// of its own number.
fn read_fields(bytes: &[u8], group_budget: u32) -> Option<Vec<(u32, WireValue<'_>)>> {
    let mut input = bytes;
    let fields = read_until(&mut input, None, group_budget)?;
    Some(fields)
}

/// Reads fields up to the end of `input` (`group` is `None`) or to the
/// end-group key of `group`.
fn read_until<'a>(
    input: &mut &'a [u8],
    group: Option<u32>,
    group_budget: u32,
) -> Option<Vec<(u32, WireValue<'a>)>> {
    let mut fields = Vec::new();
    loop {
        if input.is_empty() {
            return group.is_none().then_some(fields);
        }
        let key = u32::try_from(read_varint(input)?).ok()?;
        let number = Some(key >> 3).filter(|&n| n > 0)?;
        let value = match key & 7 {
            0 => WireValue::Varint(read_varint(input)?),
            1 => WireValue::Fixed64(u64::from_le_bytes(take(input, 8)?.try_into().ok()?)),
            2 => {
                let len = usize::try_from(read_varint(input)?).ok()?;
                WireValue::Delimited(take(input, len)?)
            }
            3 => {
                let budget = group_budget.checked_sub(1)?;
                WireValue::Group(read_until(input, Some(number), budget)?)
            }
            4 => return (group == Some(number)).then_some(fields),
            5 => WireValue::Fixed32(u32::from_le_bytes(take(input, 4)?.try_into().ok()?)),
            _ => return None,
        };
        fields.push((number, value));
    }
}

fn read_varint(input: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for i in 0..10 {
        let (&byte, rest) = input.split_first()?;
        *input = rest;
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}

fn take<'a>(input: &mut &'a [u8], len: usize) -> Option<&'a [u8]> {
    if input.len() < len {
        return None;
    }
    let (taken, rest) = input.split_at(len);
    *input = rest;
    Some(taken)
}
