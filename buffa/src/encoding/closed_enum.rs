//! Decoding closed-enum fields: numbers the schema does not declare are
//! kept in the message's unknown fields, as the specification requires,
//! instead of in the field.

use crate::enumeration::Enumeration;
use crate::error::DecodeError;
use crate::unknown_fields::{UnknownSink, varint_field};
use crate::wire::Decoder;
use crate::wire::{Tag, WireType};
use alloc::vec::Vec;

use super::repeated::packed_count;
use super::types::ClosedEnum;

/// Reads one value; an undeclared number goes to `unknown` and yields
/// `None`.
#[inline]
pub fn read<'a, E: Enumeration>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<Option<E>, DecodeError> {
    decoder.check_wire_type(tag, WireType::Varint)?;
    read_value(tag.field_number(), decoder, unknown)
}

/// Checks a singular field (or oneof member) as [`read`] reads it,
/// keeping nothing, an undeclared number included (a view's
/// `check_field`).
#[inline]
pub fn check<'a, E: Enumeration>(tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
    read::<E>(tag, decoder, &mut crate::unknown_fields::DiscardUnknown).map(drop)
}

fn read_value<'a, E: Enumeration>(
    field_number: u32,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<Option<E>, DecodeError> {
    let raw = decoder.read_varint()?;
    let known = E::from_i32(raw as i32);
    if known.is_none() {
        // Charged as the key and value bytes the unknown field will hold.
        // Re-encoded rather than borrowed: a packed run's values have no
        // key of their own, and owned messages and views must keep the
        // same bytes.
        let (field, len) = varint_field(field_number, raw);
        decoder.charge(unknown.cost_of_written(len))?;
        unknown.push_written(field[..len].to_vec());
    }
    Ok(known)
}

/// Merges an explicit-presence field; an undeclared number leaves the field
/// as it was.
#[inline]
pub fn merge_optional<'a, E: Enumeration>(
    tag: Tag,
    value: &mut Option<E>,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<(), DecodeError> {
    if let Some(known) = read(tag, decoder, unknown)? {
        *value = Some(known);
    }
    Ok(())
}

/// Where a repeated closed-enum field's declared values go: the owned
/// field's vector, or a view's count of them.
pub trait Values<E> {
    /// Heap bytes one value costs, charged to the allocation budget.
    fn cost(&self) -> usize;
    /// Makes room for `additional` more values.
    fn reserve(&mut self, additional: usize);
    /// Appends one value.
    fn push(&mut self, value: E);
}

impl<E> Values<E> for Vec<E> {
    #[inline]
    fn cost(&self) -> usize {
        size_of::<E>()
    }

    #[inline]
    fn reserve(&mut self, additional: usize) {
        super::repeated::reserve(self, additional);
    }

    #[inline]
    fn push(&mut self, value: E) {
        Vec::push(self, value);
    }
}

/// Merges a repeated field, packed or not; undeclared numbers go to
/// `unknown` one by one, in order.
pub fn merge_repeated<'a, E: Enumeration>(
    tag: Tag,
    values: &mut impl Values<E>,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<(), DecodeError> {
    match tag.wire_type() {
        WireType::Varint => {
            decoder.charge(values.cost())?;
            if let Some(value) = read_value::<E>(tag.field_number(), decoder, unknown)? {
                values.push(value);
            }
            Ok(())
        }
        WireType::LengthDelimited => decoder.read_packed(|payload, packed| {
            let count = packed_count::<ClosedEnum<E>>(payload);
            packed.charge(count.saturating_mul(values.cost()))?;
            values.reserve(count);
            while !packed.is_empty() {
                if let Some(value) = read_value::<E>(tag.field_number(), packed, unknown)? {
                    values.push(value);
                }
            }
            Ok(())
        }),
        _ => Err(decoder.wire_type_mismatch(tag, WireType::Varint)),
    }
}
