//! One marker type per protobuf scalar type, tying the Rust value type to
//! its wire encoding.
//!
//! Several protobuf types share a Rust type (`int32`, `sint32` and
//! `sfixed32` are all `i32`) but not an encoding, so field helpers are
//! generic over these markers rather than over the value type.

use alloc::{borrow::ToOwned, string::String, vec::Vec};
use bytes::Bytes;

use crate::bytes_str::BytesStr;
use crate::enumeration::{EnumValue, Enumeration};
use crate::error::DecodeError;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::{
    WireType, varint_len, zigzag_decode32, zigzag_decode64, zigzag_encode32, zigzag_encode64,
};

/// A protobuf scalar type: how its Rust value is sized and written.
///
/// Reading is the separate [`DecodeScalar`], since a borrowed value
/// (`&'a str` in a view) can only be read from input that lives for `'a`.
pub trait ScalarType {
    /// The Rust type that holds a value.
    type Value: Default + Clone + PartialEq;

    /// The wire type of one value.
    const WIRE_TYPE: WireType;

    /// The encoded size of every value, for fixed-width types.
    const FIXED_SIZE: Option<usize> = None;

    /// Encoded length of `value` without its key (length prefix included
    /// for length-delimited types).
    fn encoded_len(value: &Self::Value) -> usize;

    /// Writes `value` without its key.
    fn encode(value: &Self::Value, encoder: &mut Encoder<'_>);

    /// Writes the key of field `field_number` and then `value`. Varint and
    /// fixed-width types write a one-byte key and the value behind one
    /// bounds check.
    #[inline]
    fn encode_field(field_number: u32, value: &Self::Value, encoder: &mut Encoder<'_>) {
        encoder.put_tag(field_number, Self::WIRE_TYPE);
        Self::encode(value, encoder);
    }

    /// Whether `value` is the type's default, which implicit-presence fields
    /// do not write. Floating-point `-0.0` is not the default: it differs
    /// from `0.0` in its bits.
    fn is_default(value: &Self::Value) -> bool;
}

/// Reading a scalar from input that lives for `'a`. Owned value types read
/// from any input; borrowed ones ([`BorrowedStr`], [`BorrowedBytes`]) only
/// from input of their own lifetime.
pub trait DecodeScalar<'a>: ScalarType {
    /// Reads one value.
    fn decode(decoder: &mut Decoder<'a>) -> Result<Self::Value, DecodeError>;

    /// Reads one value, or `None` for a value the schema does not declare
    /// (only closed enums have such values), which the caller then keeps
    /// among the unknown fields.
    #[inline]
    fn decode_known(decoder: &mut Decoder<'a>) -> Result<Option<Self::Value>, DecodeError> {
        Self::decode(decoder).map(Some)
    }
}

/// Scalar types that may be packed: every numeric type, `bool` and enums.
pub trait Packable: ScalarType {}

macro_rules! varint_type {
    ($(#[$doc:meta])* $marker:ident, $value:ty, |$e:ident| $to_wire:expr, |$d:ident| $from_wire:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $marker {}

        impl ScalarType for $marker {
            type Value = $value;
            const WIRE_TYPE: WireType = WireType::Varint;

            #[inline]
            fn encoded_len(value: &$value) -> usize {
                let $e = *value;
                varint_len($to_wire)
            }

            #[inline]
            fn encode(value: &$value, encoder: &mut Encoder<'_>) {
                let $e = *value;
                encoder.put_varint($to_wire);
            }

            #[inline]
            fn encode_field(field_number: u32, value: &$value, encoder: &mut Encoder<'_>) {
                let $e = *value;
                encoder.put_key_and_varint(field_number, $to_wire);
            }

            #[inline]
            fn is_default(value: &$value) -> bool {
                *value == <$value>::default()
            }
        }

        impl<'a> DecodeScalar<'a> for $marker {
            #[inline]
            fn decode(decoder: &mut Decoder<'a>) -> Result<$value, DecodeError> {
                let $d = decoder.read_varint()?;
                Ok($from_wire)
            }
        }

        impl Packable for $marker {}
    };
}

varint_type!(
    /// `int32`: a varint; negative values take ten bytes.
    Int32, i32, |v| v as i64 as u64, |w| w as i32
);
varint_type!(
    /// `int64`: a varint; negative values take ten bytes.
    Int64, i64, |v| v as u64, |w| w as i64
);
varint_type!(
    /// `uint32`: a varint.
    UInt32, u32, |v| u64::from(v), |w| w as u32
);
varint_type!(
    /// `uint64`: a varint.
    UInt64, u64, |v| v, |w| w
);
varint_type!(
    /// `sint32`: a ZigZag-encoded varint.
    SInt32, i32, |v| u64::from(zigzag_encode32(v)), |w| zigzag_decode32(w as u32)
);
varint_type!(
    /// `sint64`: a ZigZag-encoded varint.
    SInt64, i64, |v| zigzag_encode64(v), |w| zigzag_decode64(w)
);
varint_type!(
    /// `bool`: a one-byte varint; any non-zero value reads as `true`.
    Bool, bool, |v| u64::from(v), |w| w != 0
);

macro_rules! fixed_type {
    ($(#[$doc:meta])* $marker:ident, $value:ty, $bits:ty, $wire:ident, $size:literal, $put:ident, $read:ident, |$e:ident| $to_wire:expr, |$d:ident| $from_wire:expr, |$z:ident| $is_default:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub enum $marker {}

        impl ScalarType for $marker {
            type Value = $value;
            const WIRE_TYPE: WireType = WireType::$wire;
            const FIXED_SIZE: Option<usize> = Some($size);

            #[inline]
            fn encoded_len(_: &$value) -> usize {
                $size
            }

            #[inline]
            fn encode(value: &$value, encoder: &mut Encoder<'_>) {
                let $e = *value;
                encoder.$put($to_wire);
            }

            #[inline]
            fn encode_field(field_number: u32, value: &$value, encoder: &mut Encoder<'_>) {
                let $e = *value;
                encoder.put_key_and_fixed(field_number, WireType::$wire, ($to_wire).to_le_bytes());
            }

            #[inline]
            fn is_default(value: &$value) -> bool {
                let $z = *value;
                $is_default
            }
        }

        impl<'a> DecodeScalar<'a> for $marker {
            #[inline]
            fn decode(decoder: &mut Decoder<'a>) -> Result<$value, DecodeError> {
                let $d = decoder.$read()?;
                Ok($from_wire)
            }
        }

        impl Packable for $marker {}

        impl super::fixed_record::FixedScalar for $marker {
            #[inline(always)]
            fn read_at(record: &[u8], at: usize) -> $value {
                let bytes = record[at..at + $size].try_into().expect("a record's field is in bounds");
                let $d = <$bits>::from_le_bytes(bytes);
                $from_wire
            }
        }
    };
}

fixed_type!(
    /// `fixed32`: four little-endian bytes.
    Fixed32, u32, u32, Fixed32, 4, put_fixed32, read_fixed32, |v| v, |w| w, |v| v == 0
);
fixed_type!(
    /// `fixed64`: eight little-endian bytes.
    Fixed64, u64, u64, Fixed64, 8, put_fixed64, read_fixed64, |v| v, |w| w, |v| v == 0
);
fixed_type!(
    /// `sfixed32`: four little-endian bytes, two's complement.
    SFixed32, i32, u32, Fixed32, 4, put_fixed32, read_fixed32, |v| v as u32, |w| w as i32, |v| v == 0
);
fixed_type!(
    /// `sfixed64`: eight little-endian bytes, two's complement.
    SFixed64, i64, u64, Fixed64, 8, put_fixed64, read_fixed64, |v| v as u64, |w| w as i64, |v| v == 0
);
fixed_type!(
    /// `float`: IEEE 754 single precision, little-endian.
    Float, f32, u32, Fixed32, 4, put_fixed32, read_fixed32, |v| v.to_bits(), |w| f32::from_bits(w), |v| v.to_bits() == 0
);
fixed_type!(
    /// `double`: IEEE 754 double precision, little-endian.
    Double, f64, u64, Fixed64, 8, put_fixed64, read_fixed64, |v| v.to_bits(), |w| f64::from_bits(w), |v| v.to_bits() == 0
);

/// `string` as [`String`]: length-delimited UTF-8, validated when read.
#[derive(Debug)]
pub enum ProtoString {}

impl ScalarType for ProtoString {
    type Value = String;
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &String) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &String, encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value.as_bytes());
    }

    #[inline]
    fn is_default(value: &String) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for ProtoString {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<String, DecodeError> {
        let value = decoder.read_str()?;
        decoder.charge(value.len())?;
        Ok(value.to_owned())
    }
}

/// `bytes` as [`Vec<u8>`].
#[derive(Debug)]
pub enum ProtoBytes {}

impl ScalarType for ProtoBytes {
    type Value = Vec<u8>;
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &Vec<u8>) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &Vec<u8>, encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value);
    }

    #[inline]
    fn is_default(value: &Vec<u8>) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for ProtoBytes {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<Vec<u8>, DecodeError> {
        decoder.read_owned_payload().map(<[u8]>::to_vec)
    }
}

/// `bytes` as [`bytes::Bytes`]: decoding from `Bytes` shares the input.
#[derive(Debug)]
pub enum SharedBytes {}

impl ScalarType for SharedBytes {
    type Value = Bytes;
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &Bytes) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &Bytes, encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value);
    }

    #[inline]
    fn is_default(value: &Bytes) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for SharedBytes {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<Bytes, DecodeError> {
        decoder.read_bytes()
    }
}

/// `string` as [`BytesStr`]: validated as UTF-8 exactly as [`ProtoString`]
/// is; decoding from `Bytes` shares the input, like [`SharedBytes`].
#[derive(Debug)]
pub enum SharedStr {}

impl ScalarType for SharedStr {
    type Value = BytesStr;
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &BytesStr) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &BytesStr, encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value.as_bytes());
    }

    #[inline]
    fn is_default(value: &BytesStr) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for SharedStr {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<BytesStr, DecodeError> {
        decoder.read_bytes_str()
    }
}

/// An open enum, stored as [`EnumValue<E>`]: unknown numbers are kept in
/// the field.
#[derive(Debug)]
pub enum OpenEnum<E> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, core::marker::PhantomData<E>),
}

impl<E: Enumeration> ScalarType for OpenEnum<E> {
    type Value = EnumValue<E>;
    const WIRE_TYPE: WireType = WireType::Varint;

    #[inline]
    fn encoded_len(value: &EnumValue<E>) -> usize {
        varint_len(value.to_i32() as i64 as u64)
    }

    #[inline]
    fn encode(value: &EnumValue<E>, encoder: &mut Encoder<'_>) {
        encoder.put_varint(value.to_i32() as i64 as u64);
    }

    #[inline]
    fn is_default(value: &EnumValue<E>) -> bool {
        value.to_i32() == 0
    }
}

impl<'a, E: Enumeration> DecodeScalar<'a> for OpenEnum<E> {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<EnumValue<E>, DecodeError> {
        Ok(EnumValue::from_i32(decoder.read_varint()? as i32))
    }
}

impl<E: Enumeration> Packable for OpenEnum<E> {}

/// A closed enum, stored as `E`. Encodes like `int32`. Numbers the schema
/// does not declare belong in the unknown fields: decoding goes through
/// [`DecodeScalar::decode_known`] (see
/// [`closed_enum`](crate::encoding::closed_enum)), which reports them. The
/// plain [`DecodeScalar::decode`] maps them to the default variant and is
/// never used by generated code.
#[derive(Debug)]
pub enum ClosedEnum<E> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, core::marker::PhantomData<E>),
}

impl<E: Enumeration> ScalarType for ClosedEnum<E> {
    type Value = E;
    const WIRE_TYPE: WireType = WireType::Varint;

    #[inline]
    fn encoded_len(value: &E) -> usize {
        varint_len(value.to_i32() as i64 as u64)
    }

    #[inline]
    fn encode(value: &E, encoder: &mut Encoder<'_>) {
        encoder.put_varint(value.to_i32() as i64 as u64);
    }

    #[inline]
    fn is_default(value: &E) -> bool {
        value.to_i32() == 0
    }
}

impl<'a, E: Enumeration> DecodeScalar<'a> for ClosedEnum<E> {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<E, DecodeError> {
        Ok(E::from_i32(decoder.read_varint()? as i32).unwrap_or_default())
    }

    #[inline]
    fn decode_known(decoder: &mut Decoder<'a>) -> Result<Option<E>, DecodeError> {
        Ok(E::from_i32(decoder.read_varint()? as i32))
    }
}

impl<E: Enumeration> Packable for ClosedEnum<E> {}

/// `string` in a view, as `&'a str` borrowed from the input: validated as
/// UTF-8 exactly as [`ProtoString`] is, never copied.
#[derive(Debug)]
pub enum BorrowedStr<'a> {
    #[doc(hidden)]
    _Never(
        core::convert::Infallible,
        core::marker::PhantomData<&'a str>,
    ),
}

impl<'a> ScalarType for BorrowedStr<'a> {
    type Value = &'a str;
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &&'a str) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &&'a str, encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value.as_bytes());
    }

    #[inline]
    fn is_default(value: &&'a str) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for BorrowedStr<'a> {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<&'a str, DecodeError> {
        decoder.read_str()
    }
}

/// `bytes` in a view, as `&'a [u8]` borrowed from the input.
#[derive(Debug)]
pub enum BorrowedBytes<'a> {
    #[doc(hidden)]
    _Never(
        core::convert::Infallible,
        core::marker::PhantomData<&'a [u8]>,
    ),
}

impl<'a> ScalarType for BorrowedBytes<'a> {
    type Value = &'a [u8];
    const WIRE_TYPE: WireType = WireType::LengthDelimited;

    #[inline]
    fn encoded_len(value: &&'a [u8]) -> usize {
        varint_len(value.len() as u64) + value.len()
    }

    #[inline]
    fn encode(value: &&'a [u8], encoder: &mut Encoder<'_>) {
        encoder.put_length_delimited(value);
    }

    #[inline]
    fn is_default(value: &&'a [u8]) -> bool {
        value.is_empty()
    }
}

impl<'a> DecodeScalar<'a> for BorrowedBytes<'a> {
    #[inline]
    fn decode(decoder: &mut Decoder<'a>) -> Result<&'a [u8], DecodeError> {
        decoder.read_length_delimited()
    }
}
