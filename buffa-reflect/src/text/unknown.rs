//! Unknown fields, printed as C++ protobuf prints them: by number, after
//! the known fields, with their values read as far as the wire format
//! tells.
//!
//! Varints print in decimal, fixed32 and fixed64 values as zero-padded
//! hex (`0x0000002a`), groups as nested messages. A length-delimited value
//! is printed as a nested message when its bytes read as one the way C++
//! protobuf's printer reads them (`UnknownFieldSet::ParseFromCodedStream`
//! over a `CodedInputStream`, see [`read_fields`]), otherwise as an
//! escaped string; the guess recurses at most [`GUESS_BUDGET`] levels
//! deep.

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

/// The fields encoded in `bytes`, if C++ protobuf's
/// `WireFormat::SkipMessage` reads them as a whole message with groups
/// nested at most `group_budget` deep. Its reader is lenient where the
/// wire format leaves room and strict elsewhere, and the printed text
/// shows the difference:
///
/// - a tag is a varint of up to ten bytes of which the low 32 bits are
///   kept (bits above are dropped, not rejected); a tag of field number 0
///   (the literal tag 0 included), of wire type 6 or 7, or an end-group
///   tag outside its group ends the guess;
/// - a varint value has up to ten bytes, its bits beyond 64 dropped;
/// - a length is read as a tag is (ten bytes, low 32 bits), and must fit
///   in a signed 32-bit int and in the rest of the input;
/// - a group ends with the end-group tag of its own number.
fn read_fields(bytes: &[u8], group_budget: u32) -> Option<Vec<(u32, WireValue<'_>)>> {
    let mut input = bytes;
    read_until(&mut input, None, group_budget)
}

/// Reads fields up to the end of `input` (`group` is `None`) or to the
/// end-group tag of `group`.
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
        let tag = read_varint32(input)?;
        let number = tag >> 3;
        if tag & 7 == 4 {
            return (group == Some(number)).then_some(fields);
        }
        if number == 0 {
            return None;
        }
        let value = match tag & 7 {
            0 => WireValue::Varint(read_varint(input)?),
            1 => WireValue::Fixed64(u64::from_le_bytes(take(input, 8)?.try_into().ok()?)),
            2 => {
                let len = read_varint32(input)?;
                let len = usize::try_from(i32::try_from(len).ok()?).ok()?;
                WireValue::Delimited(take(input, len)?)
            }
            3 => {
                let budget = group_budget.checked_sub(1)?;
                WireValue::Group(read_until(input, Some(number), budget)?)
            }
            5 => WireValue::Fixed32(u32::from_le_bytes(take(input, 4)?.try_into().ok()?)),
            _ => return None,
        };
        fields.push((number, value));
    }
}

/// A varint of up to ten bytes, its bits beyond 64 dropped.
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

/// A varint of up to ten bytes read as C++'s `ReadVarint32` reads it:
/// its low 32 bits.
fn read_varint32(input: &mut &[u8]) -> Option<u32> {
    // Truncation is the point: C++ keeps the low 32 bits.
    read_varint(input).map(|value| value as u32)
}

fn take<'a>(input: &mut &'a [u8], len: usize) -> Option<&'a [u8]> {
    if input.len() < len {
        return None;
    }
    let (taken, rest) = input.split_at(len);
    *input = rest;
    Some(taken)
}
