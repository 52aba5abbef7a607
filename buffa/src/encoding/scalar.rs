//! Field helpers for singular scalar fields, under each presence
//! discipline: always written (oneof members, required fields), implicit
//! presence (written unless default), and explicit presence (`Option`).

use crate::error::DecodeError;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::{Tag, tag_len};

use super::types::{DecodeScalar, ScalarType};

/// Size of a field that is always written: key plus value.
#[inline]
pub fn size<S: ScalarType>(field_number: u32, value: &S::Value) -> usize {
    tag_len(field_number) + S::encoded_len(value)
}

/// Writes a field unconditionally.
#[inline]
pub fn write<S: ScalarType>(field_number: u32, value: &S::Value, encoder: &mut Encoder<'_>) {
    S::encode_field(field_number, value, encoder);
}

/// Size of an implicit-presence field: zero when the value is the default.
#[inline]
pub fn size_implicit<S: ScalarType>(field_number: u32, value: &S::Value) -> usize {
    if S::is_default(value) {
        0
    } else {
        size::<S>(field_number, value)
    }
}

/// Writes an implicit-presence field unless its value is the default.
#[inline]
pub fn write_implicit<S: ScalarType>(
    field_number: u32,
    value: &S::Value,
    encoder: &mut Encoder<'_>,
) {
    if !S::is_default(value) {
        write::<S>(field_number, value, encoder);
    }
}

/// Size of an explicit-presence field: zero when unset.
#[inline]
pub fn size_optional<S: ScalarType>(field_number: u32, value: &Option<S::Value>) -> usize {
    value
        .as_ref()
        .map_or(0, |value| size::<S>(field_number, value))
}

/// Writes an explicit-presence field if it is set.
#[inline]
pub fn write_optional<S: ScalarType>(
    field_number: u32,
    value: &Option<S::Value>,
    encoder: &mut Encoder<'_>,
) {
    if let Some(value) = value {
        write::<S>(field_number, value, encoder);
    }
}

/// Reads one value of a field whose key `tag` was just read, checking the
/// wire type.
#[inline]
pub fn read<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<S::Value, DecodeError> {
    decoder.check_wire_type(tag, S::WIRE_TYPE)?;
    S::decode(decoder)
}

/// Checks a singular field (or oneof member) as [`merge`] reads it,
/// keeping nothing (a view's `check_field`).
#[inline]
pub fn check<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    read::<S>(tag, decoder).map(drop)
}

/// Merges a singular field: the last value read wins.
#[inline]
pub fn merge<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    value: &mut S::Value,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    *value = read::<S>(tag, decoder)?;
    Ok(())
}

/// Merges an explicit-presence field: the last value read wins and the
/// field becomes set.
#[inline]
pub fn merge_optional<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    value: &mut Option<S::Value>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    *value = Some(read::<S>(tag, decoder)?);
    Ok(())
}
