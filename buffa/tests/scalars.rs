//! Every scalar type at its boundaries: encoded bytes checked against
//! hand-computed expectations, at the field-helper level and through a
//! whole message, and decoded back.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::fmt::Debug;

use buffa::__private::{self as t, DecodeScalar, ScalarType, scalar};
use buffa::bytes::Bytes;
use buffa::wire::{Decoder, Encoder};
use buffa::{DecodeOptions, EnumValue, Message};
use common::{Color, Scalars, cat, key};

/// Encodes `value` as field `field_number` with the field helpers.
fn encode_field<S: ScalarType>(field_number: u32, value: &S::Value) -> Vec<u8> {
    let len = scalar::size::<S>(field_number, value);
    let mut buf = vec![0u8; len];
    let mut encoder = Encoder::from_slice(&mut buf);
    scalar::write::<S>(field_number, value, &mut encoder);
    assert_eq!(encoder.position(), len, "size and write disagree");
    buf
}

/// Decodes a single field with the field helpers.
fn decode_field<S: for<'a> DecodeScalar<'a>>(bytes: &[u8]) -> S::Value {
    let options = DecodeOptions::default();
    let mut decoder = Decoder::new(bytes, &options).unwrap();
    let tag = decoder.read_tag().unwrap().unwrap();
    let value = scalar::read::<S>(tag, &mut decoder).unwrap();
    assert!(decoder.is_empty(), "trailing bytes after {bytes:02x?}");
    value
}

/// Checks one value of scalar type `S`, stored in field `field_number` of
/// [`Scalars`] (reached through `field`): its value bytes (without key) must
/// be `expected`, and it must round-trip through the helpers and through the
/// message. NaNs are compared by their encoded bits.
fn case<S: for<'a> DecodeScalar<'a>>(
    field_number: u32,
    field: fn(&mut Scalars) -> &mut S::Value,
    value: S::Value,
    expected: &[u8],
) where
    S::Value: Debug,
{
    let what = format!("field {field_number} = {value:?}");
    let wire = cat(&[&key(field_number, S::WIRE_TYPE as u8), expected]);

    // Field helpers: always written.
    assert_eq!(encode_field::<S>(field_number, &value), wire, "{what}");
    let decoded = decode_field::<S>(&wire);
    assert_eq!(encode_field::<S>(field_number, &decoded), wire, "{what}");
    let is_nan = format!("{value:?}").contains("NaN");
    assert!(decoded == value || is_nan, "{what}: decoded {decoded:?}");

    // Through a message, with implicit presence: defaults are not written.
    let mut message = Scalars::default();
    *field(&mut message) = value.clone();
    let expected_message: &[u8] = if S::is_default(&value) { &[] } else { &wire };
    let bytes = message.encode_to_vec();
    assert_eq!(bytes, expected_message, "{what}");
    assert_eq!(message.encoded_len(), bytes.len(), "{what}");
    let mut back = Scalars::decode_from_slice(&bytes).unwrap();
    assert_eq!(back.encode_to_vec(), bytes, "{what}");
    let back_value = field(&mut back).clone();
    assert!(
        back_value == value || is_nan,
        "{what}: decoded {back_value:?}"
    );
    if !is_nan {
        assert_eq!(back, message, "{what}");
    }
}

const MINUS_ONE_VARINT: [u8; 10] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];

#[test]
fn int32() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_int32;
    case::<t::Int32>(1, f, 0, &[0x00]);
    case::<t::Int32>(1, f, 1, &[0x01]);
    case::<t::Int32>(1, f, 127, &[0x7f]);
    case::<t::Int32>(1, f, 128, &[0x80, 0x01]);
    case::<t::Int32>(1, f, 300, &[0xac, 0x02]);
    case::<t::Int32>(1, f, i32::MAX, &[0xff, 0xff, 0xff, 0xff, 0x07]);
    // Negative int32 values are sign-extended to 64 bits: ten bytes.
    case::<t::Int32>(1, f, -1, &MINUS_ONE_VARINT);
    case::<t::Int32>(
        1,
        f,
        i32::MIN,
        &[0x80, 0x80, 0x80, 0x80, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01],
    );
}

#[test]
fn int64() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_int64;
    case::<t::Int64>(2, f, 0, &[0x00]);
    case::<t::Int64>(2, f, 1, &[0x01]);
    case::<t::Int64>(2, f, 127, &[0x7f]);
    case::<t::Int64>(2, f, 128, &[0x80, 0x01]);
    case::<t::Int64>(2, f, -1, &MINUS_ONE_VARINT);
    case::<t::Int64>(
        2,
        f,
        i64::MAX,
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
    );
    case::<t::Int64>(
        2,
        f,
        i64::MIN,
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    );
}

#[test]
fn uint32_and_uint64() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_uint32;
    case::<t::UInt32>(3, f, 0, &[0x00]);
    case::<t::UInt32>(3, f, 1, &[0x01]);
    case::<t::UInt32>(3, f, 127, &[0x7f]);
    case::<t::UInt32>(3, f, 128, &[0x80, 0x01]);
    case::<t::UInt32>(3, f, 16_384, &[0x80, 0x80, 0x01]);
    case::<t::UInt32>(3, f, u32::MAX, &[0xff, 0xff, 0xff, 0xff, 0x0f]);

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_uint64;
    case::<t::UInt64>(4, f, 0, &[0x00]);
    case::<t::UInt64>(4, f, 1, &[0x01]);
    case::<t::UInt64>(4, f, 127, &[0x7f]);
    case::<t::UInt64>(4, f, 128, &[0x80, 0x01]);
    case::<t::UInt64>(
        4,
        f,
        1 << 63,
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    );
    case::<t::UInt64>(4, f, u64::MAX, &MINUS_ONE_VARINT);
}

#[test]
fn sint32_and_sint64_use_zigzag() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_sint32;
    case::<t::SInt32>(5, f, 0, &[0x00]);
    case::<t::SInt32>(5, f, -1, &[0x01]);
    case::<t::SInt32>(5, f, 1, &[0x02]);
    case::<t::SInt32>(5, f, 63, &[0x7e]);
    case::<t::SInt32>(5, f, -64, &[0x7f]);
    case::<t::SInt32>(5, f, 64, &[0x80, 0x01]);
    case::<t::SInt32>(5, f, 127, &[0xfe, 0x01]);
    case::<t::SInt32>(5, f, 128, &[0x80, 0x02]);
    case::<t::SInt32>(5, f, i32::MAX, &[0xfe, 0xff, 0xff, 0xff, 0x0f]);
    case::<t::SInt32>(5, f, i32::MIN, &[0xff, 0xff, 0xff, 0xff, 0x0f]);

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_sint64;
    case::<t::SInt64>(6, f, 0, &[0x00]);
    case::<t::SInt64>(6, f, -1, &[0x01]);
    case::<t::SInt64>(6, f, 1, &[0x02]);
    case::<t::SInt64>(6, f, -64, &[0x7f]);
    case::<t::SInt64>(6, f, 64, &[0x80, 0x01]);
    case::<t::SInt64>(
        6,
        f,
        i64::MAX,
        &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
    );
    case::<t::SInt64>(6, f, i64::MIN, &MINUS_ONE_VARINT);
}

#[test]
fn fixed_width_integers_are_little_endian() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_fixed32;
    case::<t::Fixed32>(7, f, 0, &[0, 0, 0, 0]);
    case::<t::Fixed32>(7, f, 1, &[1, 0, 0, 0]);
    case::<t::Fixed32>(7, f, 128, &[0x80, 0, 0, 0]);
    case::<t::Fixed32>(7, f, 0x1234_5678, &[0x78, 0x56, 0x34, 0x12]);
    case::<t::Fixed32>(7, f, u32::MAX, &[0xff; 4]);

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_fixed64;
    case::<t::Fixed64>(8, f, 0, &[0; 8]);
    case::<t::Fixed64>(8, f, 1, &[1, 0, 0, 0, 0, 0, 0, 0]);
    case::<t::Fixed64>(8, f, 0x0102_0304_0506_0708, &[8, 7, 6, 5, 4, 3, 2, 1]);
    case::<t::Fixed64>(8, f, u64::MAX, &[0xff; 8]);

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_sfixed32;
    case::<t::SFixed32>(9, f, 0, &[0; 4]);
    case::<t::SFixed32>(9, f, 1, &[1, 0, 0, 0]);
    case::<t::SFixed32>(9, f, -1, &[0xff; 4]);
    case::<t::SFixed32>(9, f, i32::MAX, &[0xff, 0xff, 0xff, 0x7f]);
    case::<t::SFixed32>(9, f, i32::MIN, &[0, 0, 0, 0x80]);

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_sfixed64;
    case::<t::SFixed64>(10, f, 0, &[0; 8]);
    case::<t::SFixed64>(10, f, -1, &[0xff; 8]);
    case::<t::SFixed64>(
        10,
        f,
        i64::MAX,
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
    );
    case::<t::SFixed64>(10, f, i64::MIN, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
}

#[test]
fn float() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_float;
    case::<t::Float>(11, f, 0.0, &[0, 0, 0, 0]);
    case::<t::Float>(11, f, 1.0, &[0x00, 0x00, 0x80, 0x3f]);
    case::<t::Float>(11, f, -2.5, &[0x00, 0x00, 0x20, 0xc0]);
    case::<t::Float>(11, f, f32::MAX, &[0xff, 0xff, 0x7f, 0x7f]);
    case::<t::Float>(11, f, f32::MIN, &[0xff, 0xff, 0x7f, 0xff]);
    case::<t::Float>(11, f, f32::MIN_POSITIVE, &[0x00, 0x00, 0x80, 0x00]);
    case::<t::Float>(11, f, f32::INFINITY, &[0x00, 0x00, 0x80, 0x7f]);
    case::<t::Float>(11, f, f32::NEG_INFINITY, &[0x00, 0x00, 0x80, 0xff]);
    // -0.0 differs from the default 0.0 in its bits, so it is written even
    // with implicit presence.
    case::<t::Float>(11, f, -0.0, &[0x00, 0x00, 0x00, 0x80]);
    // Subnormals.
    case::<t::Float>(11, f, f32::from_bits(1), &[0x01, 0x00, 0x00, 0x00]);
    case::<t::Float>(
        11,
        f,
        f32::from_bits(0x807f_ffff),
        &[0xff, 0xff, 0x7f, 0x80],
    );
    // NaNs keep their exact bits: quiet with payload, negative, signalling.
    case::<t::Float>(
        11,
        f,
        f32::from_bits(0x7fc0_0001),
        &[0x01, 0x00, 0xc0, 0x7f],
    );
    case::<t::Float>(
        11,
        f,
        f32::from_bits(0xffc0_0000),
        &[0x00, 0x00, 0xc0, 0xff],
    );
    case::<t::Float>(
        11,
        f,
        f32::from_bits(0x7f80_0001),
        &[0x01, 0x00, 0x80, 0x7f],
    );

    let message = Scalars {
        f_float: -0.0,
        ..Scalars::default()
    };
    let back = Scalars::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert!(back.f_float.is_sign_negative() && back.f_float == 0.0);
}

#[test]
fn double() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_double;
    case::<t::Double>(12, f, 0.0, &[0; 8]);
    case::<t::Double>(12, f, 1.0, &[0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
    case::<t::Double>(12, f, -0.0, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    case::<t::Double>(
        12,
        f,
        f64::MAX,
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f],
    );
    case::<t::Double>(
        12,
        f,
        f64::MIN,
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xff],
    );
    case::<t::Double>(12, f, f64::MIN_POSITIVE, &[0, 0, 0, 0, 0, 0, 0x10, 0x00]);
    case::<t::Double>(12, f, f64::INFINITY, &[0, 0, 0, 0, 0, 0, 0xf0, 0x7f]);
    case::<t::Double>(12, f, f64::NEG_INFINITY, &[0, 0, 0, 0, 0, 0, 0xf0, 0xff]);
    case::<t::Double>(12, f, f64::from_bits(1), &[1, 0, 0, 0, 0, 0, 0, 0]);
    case::<t::Double>(
        12,
        f,
        f64::from_bits(0x800f_ffff_ffff_ffff),
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x80],
    );
    case::<t::Double>(
        12,
        f,
        f64::from_bits(0x7ff8_0000_0000_0001),
        &[1, 0, 0, 0, 0, 0, 0xf8, 0x7f],
    );
    case::<t::Double>(
        12,
        f,
        f64::from_bits(0xfff0_0000_dead_beef),
        &[0xef, 0xbe, 0xad, 0xde, 0, 0, 0xf0, 0xff],
    );
}

#[test]
fn bool() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_bool;
    case::<t::Bool>(13, f, false, &[0x00]);
    case::<t::Bool>(13, f, true, &[0x01]);
    // Any non-zero varint, canonical or not, reads as true.
    assert!(decode_field::<t::Bool>(&[0x68, 0x02]));
    assert!(decode_field::<t::Bool>(&[0x68, 0x80, 0x01]));
    assert!(decode_field::<t::Bool>(&cat(&[&[0x68], &MINUS_ONE_VARINT])));
    assert!(!decode_field::<t::Bool>(&[0x68, 0x80, 0x00]));
}

#[test]
fn string_bytes_and_shared_bytes() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_string;
    case::<t::ProtoString>(14, f, String::new(), &[0x00]);
    case::<t::ProtoString>(14, f, "a".into(), &[0x01, b'a']);
    case::<t::ProtoString>(
        14,
        f,
        "h\u{e9}\u{1f600}".into(),
        &[7, b'h', 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80],
    );
    let long = "x".repeat(128);
    case::<t::ProtoString>(14, f, long.clone(), &cat(&[&[0x80, 0x01], long.as_bytes()]));

    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_bytes;
    case::<t::ProtoBytes>(15, f, Vec::new(), &[0x00]);
    case::<t::ProtoBytes>(15, f, vec![0x00, 0xff, 0x80], &[0x03, 0x00, 0xff, 0x80]);
    let big = vec![7u8; 300];
    case::<t::ProtoBytes>(15, f, big.clone(), &cat(&[&[0xac, 0x02], &big]));

    // Field 16 takes a two-byte key.
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_shared;
    case::<t::SharedBytes>(16, f, Bytes::new(), &[0x00]);
    case::<t::SharedBytes>(16, f, Bytes::from_static(b"\x01\x02"), &[0x02, 0x01, 0x02]);
    assert_eq!(key(16, 2), [0x82, 0x01]);
}

#[test]
fn open_enum() {
    let f: fn(&mut Scalars) -> &mut _ = |m| &mut m.f_enum;
    case::<t::OpenEnum<Color>>(17, f, EnumValue::Known(Color::Red), &[0x00]);
    case::<t::OpenEnum<Color>>(17, f, EnumValue::Known(Color::Blue), &[0x02]);
    case::<t::OpenEnum<Color>>(17, f, EnumValue::Unknown(128), &[0x80, 0x01]);
    // Negative enum numbers are sign-extended like int32.
    case::<t::OpenEnum<Color>>(17, f, EnumValue::Unknown(-1), &MINUS_ONE_VARINT);
}

#[test]
fn varint_decoding_truncates_and_accepts_non_canonical_forms() {
    // int32 written as a five-byte (not sign-extended) varint still reads -1.
    assert_eq!(
        decode_field::<t::Int32>(&[0x08, 0xff, 0xff, 0xff, 0xff, 0x0f]),
        -1
    );
    // int32/uint32 keep the low 32 bits of a 64-bit varint.
    assert_eq!(
        decode_field::<t::Int32>(&cat(&[&[0x08], &common::varint(0x1_0000_0005)])),
        5
    );
    assert_eq!(
        decode_field::<t::UInt32>(&cat(&[&[0x18], &MINUS_ONE_VARINT])),
        u32::MAX
    );
    // Padded varints.
    assert_eq!(
        decode_field::<t::UInt64>(&[0x20, 0x81, 0x80, 0x80, 0x00]),
        1
    );
    assert_eq!(decode_field::<t::SInt32>(&[0x28, 0x83, 0x00]), -2);
    // A padded key is accepted too.
    assert_eq!(decode_field::<t::UInt32>(&[0x98, 0x00, 0x05]), 5);
}

#[test]
fn all_fields_together_have_the_summed_size_and_round_trip() {
    let message = Scalars {
        f_int32: -1,
        f_int64: i64::MIN,
        f_uint32: u32::MAX,
        f_uint64: 128,
        f_sint32: i32::MIN,
        f_sint64: 1,
        f_fixed32: 2,
        f_fixed64: 3,
        f_sfixed32: -4,
        f_sfixed64: -5,
        f_float: f32::INFINITY,
        f_double: -0.0,
        f_bool: true,
        f_string: "s".into(),
        f_bytes: vec![9],
        f_shared: Bytes::from_static(b"sh"),
        f_enum: EnumValue::Unknown(5),
        unknown_fields: Default::default(),
    };
    let expected = cat(&[
        &[0x08],
        &MINUS_ONE_VARINT,
        &[
            0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
        ],
        &[0x18, 0xff, 0xff, 0xff, 0xff, 0x0f],
        &[0x20, 0x80, 0x01],
        &[0x28, 0xff, 0xff, 0xff, 0xff, 0x0f],
        &[0x30, 0x02],
        &[0x3d, 2, 0, 0, 0],
        &[0x41, 3, 0, 0, 0, 0, 0, 0, 0],
        &[0x4d, 0xfc, 0xff, 0xff, 0xff],
        &[0x51, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0x5d, 0x00, 0x00, 0x80, 0x7f],
        &[0x61, 0, 0, 0, 0, 0, 0, 0, 0x80],
        &[0x68, 0x01],
        &[0x72, 0x01, b's'],
        &[0x7a, 0x01, 9],
        &[0x82, 0x01, 0x02, b's', b'h'],
        &[0x88, 0x01, 0x05],
    ]);
    assert_eq!(message.encode_to_vec(), expected);
    assert_eq!(message.encoded_len(), expected.len());
    assert_eq!(Scalars::decode_from_slice(&expected).unwrap(), message);
    // The default message encodes to nothing.
    assert!(Scalars::default().encode_to_vec().is_empty());
}
