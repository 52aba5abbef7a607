//! Malformed input fails with the right error kind, at the right offset,
//! with the field path in the message.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use buffa::{DecodeError, DecodeErrorKind, DecodeOptions, Message, WireType};
use common::{Chain, Inner, Kitchen, Scalars, cat, key, ld, vfield};

/// Decodes `input` as `M`, expecting failure.
fn fail<M: Message>(input: &[u8]) -> DecodeError {
    match M::decode_from_slice(input) {
        Ok(message) => panic!("{input:02x?} decoded to {message:?}"),
        Err(error) => error,
    }
}

/// Checks kind, offset and field path of the error decoding `input` as `M`.
fn check<M: Message>(
    input: &[u8],
    kind: DecodeErrorKind,
    offset: usize,
    path: &[(&'static str, u32)],
) -> DecodeError {
    let error = fail::<M>(input);
    assert_eq!(error.kind(), &kind, "{input:02x?}: {error}");
    assert_eq!(error.offset(), Some(offset), "{input:02x?}: {error}");
    assert_eq!(error.field_path().collect::<Vec<_>>(), path, "{input:02x?}");
    error
}

const SCALARS: &str = "test.Scalars";
const KITCHEN: &str = "test.Kitchen";
const INNER: &str = "test.Inner";

#[test]
fn truncated_input() {
    use DecodeErrorKind::Truncated;
    // A key with no value.
    check::<Scalars>(&[0x08], Truncated, 1, &[(SCALARS, 1)]);
    // A varint cut short.
    check::<Scalars>(&[0x08, 0x80], Truncated, 1, &[(SCALARS, 1)]);
    check::<Scalars>(
        &[0x08, 0x01, 0x10, 0xff, 0xff],
        Truncated,
        3,
        &[(SCALARS, 2)],
    );
    // A key cut short.
    check::<Scalars>(&[0x08, 0x01, 0x80], Truncated, 2, &[]);
    // Fixed-width values cut short.
    check::<Scalars>(&[0x3d, 1, 2, 3], Truncated, 1, &[(SCALARS, 7)]);
    check::<Scalars>(&[0x41, 1, 2, 3, 4, 5, 6, 7], Truncated, 1, &[(SCALARS, 8)]);
    // A missing length prefix.
    check::<Scalars>(&[0x72], Truncated, 1, &[(SCALARS, 14)]);
    // Unknown fields cut short.
    check::<Scalars>(&[0xa1, 0x01, 0, 0], Truncated, 2, &[(SCALARS, 20)]);
    // Inside a nested message: the nested payload ends first.
    check::<Kitchen>(
        &cat(&[&ld(8, &[0x08]), &[0x01]]),
        Truncated,
        3,
        &[(KITCHEN, 8), (INNER, 1)],
    );
    // Inside a packed run: three bytes cannot hold a fixed32.
    check::<Kitchen>(&ld(4, &[1, 0, 0]), Truncated, 2, &[(KITCHEN, 4)]);
    check::<Kitchen>(&ld(3, &[0x80]), Truncated, 2, &[(KITCHEN, 3)]);
    check::<Kitchen>(&ld(14, &[0x01, 0x80]), Truncated, 3, &[(KITCHEN, 14)]);
}

#[test]
fn varint_longer_than_ten_bytes() {
    use DecodeErrorKind::VarintTooLong;
    let eleven = cat(&[&[0xff; 10], &[0x01]]);
    check::<Scalars>(&cat(&[&[0x08], &eleven]), VarintTooLong, 1, &[(SCALARS, 1)]);
    // Ten continuation bytes are too long even with nothing after them.
    check::<Scalars>(
        &cat(&[&[0x08], &[0x80; 10]]),
        VarintTooLong,
        1,
        &[(SCALARS, 1)],
    );
    // As a key, and as a length prefix.
    check::<Scalars>(&eleven, VarintTooLong, 0, &[]);
    check::<Scalars>(
        &cat(&[&[0x72], &eleven]),
        VarintTooLong,
        1,
        &[(SCALARS, 14)],
    );
    // Ten bytes are fine.
    let ten = cat(&[&[0x08], &[0xff; 9], &[0x01]]);
    assert_eq!(Scalars::decode_from_slice(&ten).unwrap().f_int32, -1);
}

#[test]
fn invalid_wire_types_and_keys() {
    use DecodeErrorKind::{InvalidTag, InvalidWireType};
    check::<Scalars>(&[0x0e], InvalidWireType(6), 0, &[]);
    check::<Scalars>(&[0x08, 0x01, 0x0f], InvalidWireType(7), 2, &[]);
    // With a multi-byte key the offset is the key's start.
    check::<Scalars>(&[0x08, 0x01, 0xa6, 0x01], InvalidWireType(6), 2, &[]);
    // Field number 0.
    check::<Scalars>(&[0x00], InvalidTag(0), 0, &[]);
    check::<Scalars>(&[0x02, 0x00], InvalidTag(2), 0, &[]);
    // Keys above u32.
    check::<Scalars>(&[0x80, 0x80, 0x80, 0x80, 0x10], InvalidTag(1 << 32), 0, &[]);
    // Inside a nested message and inside an unknown group.
    check::<Kitchen>(&ld(8, &[0x0f]), InvalidWireType(7), 2, &[(KITCHEN, 8)]);
    check::<Scalars>(
        &cat(&[&key(100, 3), &[0x0e]]),
        InvalidWireType(6),
        2,
        &[(SCALARS, 100)],
    );
}

#[test]
fn wire_type_mismatch_for_known_fields() {
    let mismatch = |field_number, expected, actual| DecodeErrorKind::WireTypeMismatch {
        field_number,
        expected,
        actual,
    };
    use WireType::*;
    // The offset is just past the key.
    check::<Scalars>(
        &[0x0a, 0x00],
        mismatch(1, Varint, LengthDelimited),
        1,
        &[(SCALARS, 1)],
    );
    check::<Scalars>(
        &[0x38, 0x01],
        mismatch(7, Fixed32, Varint),
        1,
        &[(SCALARS, 7)],
    );
    check::<Scalars>(
        &[0x08, 0x01, 0x61 - 0x01, 0x00],
        mismatch(12, Fixed64, Varint),
        3,
        &[(SCALARS, 12)],
    );
    check::<Scalars>(
        &[0x75, 0, 0, 0, 0],
        mismatch(14, LengthDelimited, Fixed32),
        1,
        &[(SCALARS, 14)],
    );
    check::<Scalars>(
        &[0x6b, 0x6c],
        mismatch(13, Varint, StartGroup),
        1,
        &[(SCALARS, 13)],
    );
    // Message fields.
    check::<Kitchen>(
        &[0x40, 0x00],
        mismatch(8, LengthDelimited, Varint),
        1,
        &[(KITCHEN, 8)],
    );
    check::<Kitchen>(
        &[0x48, 0x00],
        mismatch(9, LengthDelimited, Varint),
        1,
        &[(KITCHEN, 9)],
    );
    check::<Kitchen>(
        &ld(15, &[]),
        mismatch(15, StartGroup, LengthDelimited),
        1,
        &[(KITCHEN, 15)],
    );
    check::<Kitchen>(
        &ld(22, &[]),
        mismatch(22, StartGroup, LengthDelimited),
        2,
        &[(KITCHEN, 22)],
    );
    // Repeated scalars accept their own wire type or a packed run, nothing
    // else.
    check::<Kitchen>(
        &[0x21, 0, 0, 0, 0, 0, 0, 0, 0],
        mismatch(4, Fixed32, Fixed64),
        1,
        &[(KITCHEN, 4)],
    );
    check::<Kitchen>(
        &[0x1d, 0, 0, 0, 0],
        mismatch(3, Varint, Fixed32),
        1,
        &[(KITCHEN, 3)],
    );
    check::<Kitchen>(
        &[0x35, 0, 0, 0, 0],
        mismatch(6, LengthDelimited, Fixed32),
        1,
        &[(KITCHEN, 6)],
    );
    // Enums and maps.
    check::<Kitchen>(
        &[0x6d, 0, 0, 0, 0],
        mismatch(13, Varint, Fixed32),
        1,
        &[(KITCHEN, 13)],
    );
    check::<Kitchen>(
        &[0x71, 0, 0, 0, 0, 0, 0, 0, 0],
        mismatch(14, Varint, Fixed64),
        1,
        &[(KITCHEN, 14)],
    );
    check::<Kitchen>(
        &[0x50, 0x00],
        mismatch(10, LengthDelimited, Varint),
        1,
        &[(KITCHEN, 10)],
    );
    // A map entry's key and value are checked too.
    check::<Kitchen>(
        &ld(10, &[0x0d, 0, 0, 0, 0]),
        mismatch(1, LengthDelimited, Fixed32),
        3,
        &[(KITCHEN, 10)],
    );
    check::<Kitchen>(
        &ld(11, &[0x10, 0x01]),
        mismatch(2, LengthDelimited, Varint),
        3,
        &[(KITCHEN, 11)],
    );
    check::<Kitchen>(
        &ld(17, &[0x12, 0x00]),
        mismatch(2, Varint, LengthDelimited),
        4,
        &[(KITCHEN, 17)],
    );
}

#[test]
fn invalid_utf8_in_string_fields() {
    use DecodeErrorKind::InvalidUtf8;
    // The offset is that of the length prefix.
    check::<Scalars>(&[0x72, 0x02, 0xff, 0xfe], InvalidUtf8, 1, &[(SCALARS, 14)]);
    // Overlong encoding, encoded surrogate, truncated sequence.
    for bad in [&[0xc0, 0x80][..], &[0xed, 0xa0, 0x80], &[b'a', 0xe2, 0x82]] {
        check::<Scalars>(&ld(14, bad), InvalidUtf8, 1, &[(SCALARS, 14)]);
    }
    // In a nested message, a repeated string, an optional string and a map
    // key.
    let error = check::<Kitchen>(
        &cat(&[
            &vfield(1, 1),
            &ld(8, &cat(&[&vfield(1, 2), &ld(2, &[0xc3, 0x28])])),
        ]),
        InvalidUtf8,
        7,
        &[(KITCHEN, 8), (INNER, 2)],
    );
    let text = error.to_string();
    assert!(text.contains("UTF-8"), "{text}");
    assert!(text.contains("at byte 7"), "{text}");
    assert!(
        text.contains("test.Kitchen field 8 > test.Inner field 2"),
        "{text}"
    );
    check::<Kitchen>(&ld(6, &[0xff]), InvalidUtf8, 1, &[(KITCHEN, 6)]);
    check::<Kitchen>(&ld(2, &[0xff]), InvalidUtf8, 1, &[(KITCHEN, 2)]);
    check::<Kitchen>(&ld(10, &ld(1, &[0xff])), InvalidUtf8, 3, &[(KITCHEN, 10)]);
    // `bytes` fields take any bytes.
    let message = Scalars::decode_from_slice(&ld(15, &[0xff, 0xfe])).unwrap();
    assert_eq!(message.f_bytes, [0xff, 0xfe]);
}

#[test]
fn length_prefix_beyond_the_input() {
    let out_of_bounds =
        |length, remaining| DecodeErrorKind::LengthOutOfBounds { length, remaining };
    // A 4 GB claim in a 9-byte input.
    let claim = [0x80, 0x80, 0x80, 0x80, 0x10];
    check::<Scalars>(
        &cat(&[&[0x7a], &claim, &[1, 2, 3]]),
        out_of_bounds(1 << 32, 3),
        6,
        &[(SCALARS, 15)],
    );
    check::<Scalars>(
        &[0x72, 0x05, b'a'],
        out_of_bounds(5, 1),
        2,
        &[(SCALARS, 14)],
    );
    check::<Kitchen>(
        &cat(&[&[0x42], &claim]),
        out_of_bounds(1 << 32, 0),
        6,
        &[(KITCHEN, 8)],
    );
    check::<Kitchen>(
        &cat(&[&[0x1a], &claim, &[1]]),
        out_of_bounds(1 << 32, 1),
        6,
        &[(KITCHEN, 3)],
    );
    // A nested length is bounded by the enclosing message, not the input.
    check::<Kitchen>(
        &cat(&[&ld(8, &[0x12, 0x05, b'a']), b"bcdefgh"]),
        out_of_bounds(5, 1),
        4,
        &[(KITCHEN, 8), (INNER, 2)],
    );
    // Length-delimited framing.
    let error = Kitchen::decode_length_delimited(&cat(&[&claim, &[1, 2, 3]])[..]).unwrap_err();
    assert_eq!(error.kind(), &out_of_bounds(1 << 32, 3));
    let error = Kitchen::decode_length_delimited(&[0x80][..]).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::Truncated);
    let error = Kitchen::decode_length_delimited(&[0xff; 11][..]).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::VarintTooLong);
}

#[test]
fn recursion_depth_is_limited_and_configurable() {
    let bytes = Chain::nested(9).encode_to_vec();
    let options = DecodeOptions::new().with_recursion_limit(7);
    let error = Chain::decode_with_options(&bytes, &options).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 7 }
    );
    assert!(error.to_string().contains("recursion limit 7"), "{error}");
    let options = DecodeOptions::new().with_recursion_limit(8);
    assert_eq!(
        Chain::decode_with_options(&bytes, &options).unwrap().len(),
        9
    );
    // Groups count as nesting, known or unknown.
    let options = DecodeOptions::new().with_recursion_limit(0);
    let error =
        Kitchen::decode_with_options(&cat(&[&key(15, 3), &key(15, 4)]), &options).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 0 }
    );
    let error =
        Kitchen::decode_with_options(&cat(&[&key(99, 3), &key(99, 4)]), &options).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 0 }
    );
    // Scalars need no nesting at all.
    assert_eq!(
        Kitchen::decode_with_options(&vfield(1, 1), &options)
            .unwrap()
            .opt_int32,
        Some(1)
    );
}

#[test]
fn unmatched_end_group() {
    let unmatched = |field_number| DecodeErrorKind::UnmatchedEndGroup { field_number };
    // At top level, after other fields.
    check::<Scalars>(&[0x0c], unmatched(1), 1, &[]);
    check::<Scalars>(&[0x08, 0x01, 0x0c], unmatched(1), 3, &[]);
    // Inside a length-delimited message.
    check::<Kitchen>(&ld(8, &[0x0c]), unmatched(1), 3, &[(KITCHEN, 8)]);
    // A group closed by another field number: unknown and known groups.
    check::<Scalars>(
        &cat(&[&key(100, 3), &key(101, 4)]),
        unmatched(101),
        4,
        &[(SCALARS, 100)],
    );
    check::<Kitchen>(
        &cat(&[&key(15, 3), &vfield(1, 1), &key(16, 4)]),
        unmatched(16),
        5,
        &[(KITCHEN, 15)],
    );
    // A stray end-group key two messages deep.
    check::<Chain>(
        &cat(&[&ld(1, &ld(1, &key(1, 4))), &key(1, 4)]),
        unmatched(1),
        5,
        &[("test.Chain", 1), ("test.Chain", 1)],
    );
}

#[test]
fn missing_end_group() {
    let missing = |field_number| DecodeErrorKind::MissingEndGroup { field_number };
    check::<Kitchen>(
        &cat(&[&key(15, 3), &vfield(1, 1)]),
        missing(15),
        3,
        &[(KITCHEN, 15)],
    );
    check::<Kitchen>(&key(22, 3), missing(22), 2, &[(KITCHEN, 22)]);
    check::<Scalars>(
        &cat(&[&key(100, 3), &vfield(1, 1)]),
        missing(100),
        4,
        &[(SCALARS, 100)],
    );
    // Nested unknown groups, the inner one unclosed.
    check::<Scalars>(
        &cat(&[&key(100, 3), &key(101, 3)]),
        missing(101),
        4,
        &[(SCALARS, 100)],
    );
    // A group cannot end outside the message it started in.
    check::<Kitchen>(
        &cat(&[&ld(8, &key(100, 3)), &key(100, 4)]),
        missing(100),
        4,
        &[(KITCHEN, 8), (INNER, 100)],
    );
}

#[test]
fn errors_display_kind_offset_and_path() {
    let error = fail::<Kitchen>(&cat(&[&ld(9, &[]), &ld(9, &[0x08])]));
    assert_eq!(
        error.to_string(),
        "failed to decode protobuf message: input ended in the middle of a value at byte 5 \
         in test.Kitchen field 9 > test.Inner field 1"
    );
    let error = fail::<Inner>(&[0x08, 0x01, 0x0e]);
    assert_eq!(
        error.to_string(),
        "failed to decode protobuf message: invalid wire type 6 at byte 2"
    );
    // Usable as a std error, and comparable.
    let boxed: Box<dyn std::error::Error> = Box::new(error.clone());
    assert_eq!(boxed.to_string(), error.to_string());
    assert_eq!(error, fail::<Inner>(&[0x08, 0x01, 0x0e]));
}
