//! Typed extensions against protoc: protoc encodes text with extensions and
//! buffa reads every one typed; buffa sets extensions and protoc's
//! `--decode` prints what it reads back. Covers every scalar type, repeated
//! extensions packed and not, message merging, groups and `DELIMITED`
//! messages, edition 2023, nested declarations, custom options, and
//! malformed or hostile input.
//!
//! - this file: helpers, and the proto2 extensions of `test.ext.Extendee`;
//! - `extensions/hostile.rs`: malformed and mutated values;
//! - `extensions/editions.rs`: edition 2023;
//! - `extensions/options.rs`: protobuf's unittest extensions and custom
//!   options of the descriptor types in buffa-types.

mod common;

use std::path::PathBuf;

use buffa::{DecodeErrorKind, EnumValue, ExtendableMessage, Message, MessageField};
use buffa_tests::extensions::test::api::{self, HttpRule};
use buffa_tests::extensions::test::ext::ed::{self, Leaf, Mood, Strict, Target};
use buffa_tests::extensions::test::ext::{self, EGroup, Extendee, Kind, Payload, RGroup, Scope};
use common::mutate::{mutate, mutation};
use common::{protoc_decode_in, protoc_encode_in};
use proptest::prelude::*;

const PROTO2: &str = "extensions2.proto";
const EDITIONS: &str = "editions.proto";
const OPTIONS: &str = "options.proto";

fn include() -> PathBuf {
    common::local_protos().join("extensions")
}

fn encode(file: &str, message: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&include(), file, message, text)
}

fn decode(file: &str, message: &str, bytes: &[u8]) -> String {
    protoc_decode_in(&include(), file, message, bytes)
}

fn encode_extendee(text: &str) -> Vec<u8> {
    encode(PROTO2, "test.ext.Extendee", text)
}

fn decode_extendee(bytes: &[u8]) -> String {
    decode(PROTO2, "test.ext.Extendee", bytes)
}

/// A varint, written independently of buffa.
fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
    out
}

/// A field key.
fn key(number: u32, wire_type: u8) -> Vec<u8> {
    varint(u64::from(number) << 3 | u64::from(wire_type))
}

/// A length-delimited field.
fn ld(number: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = key(number, 2);
    out.extend(varint(payload.len() as u64));
    out.extend_from_slice(payload);
    out
}

fn payload(a: i32, b: Option<&str>, list: &[i32], child: Option<Payload>) -> Payload {
    Payload {
        a: Some(a),
        b: b.map(str::to_owned),
        list: list.to_vec(),
        child: child.map_or_else(MessageField::none, MessageField::some),
        ..Default::default()
    }
}

const SCALARS_TEXT: &str = r#"
    id: 1
    [test.ext.e_int32]: -5
    [test.ext.e_int64]: -9000000000
    [test.ext.e_uint32]: 4294967295
    [test.ext.e_uint64]: 18446744073709551615
    [test.ext.e_sint32]: -2147483648
    [test.ext.e_sint64]: -9223372036854775808
    [test.ext.e_fixed32]: 4000000000
    [test.ext.e_fixed64]: 12345678901234
    [test.ext.e_sfixed32]: -7
    [test.ext.e_sfixed64]: -8
    [test.ext.e_float]: 1.5
    [test.ext.e_double]: -2.25
    [test.ext.e_bool]: true
    [test.ext.e_string]: "h\303\251llo"
    [test.ext.e_bytes]: "\000\377"
    [test.ext.e_kind]: KIND_NEGATIVE
    [test.ext.e_payload] { a: 1 b: "x" list: [1, 2] child { a: 2 } }
    [test.ext.egroup] { x: 3 y: "g" }
    [test.ext.Scope.nested]: "inner"
"#;

/// Sets, in field-number order, the values of [`SCALARS_TEXT`].
fn scalars_by_buffa() -> Extendee {
    let mut message = Extendee {
        id: Some(1),
        ..Default::default()
    };
    message.set_extension(&ext::E_INT32, -5);
    message.set_extension(&ext::E_INT64, -9_000_000_000);
    message.set_extension(&ext::E_UINT32, u32::MAX);
    message.set_extension(&ext::E_UINT64, u64::MAX);
    message.set_extension(&ext::E_SINT32, i32::MIN);
    message.set_extension(&ext::E_SINT64, i64::MIN);
    message.set_extension(&ext::E_FIXED32, 4_000_000_000);
    message.set_extension(&ext::E_FIXED64, 12_345_678_901_234);
    message.set_extension(&ext::E_SFIXED32, -7);
    message.set_extension(&ext::E_SFIXED64, -8);
    message.set_extension(&ext::E_FLOAT, 1.5);
    message.set_extension(&ext::E_DOUBLE, -2.25);
    message.set_extension(&ext::E_BOOL, true);
    message.set_extension(&ext::E_STRING, "héllo".to_owned());
    message.set_extension(&ext::E_BYTES, vec![0, 0xff]);
    message.set_extension(&ext::E_KIND, Kind::Negative);
    message.set_extension(
        &ext::E_PAYLOAD,
        payload(1, Some("x"), &[1, 2], Some(payload(2, None, &[], None))),
    );
    message.set_extension(
        &ext::EGROUP,
        EGroup {
            x: Some(3),
            y: Some("g".into()),
            ..Default::default()
        },
    );
    message.set_extension(&ext::scope::NESTED, "inner".to_owned());
    message
}

#[test]
fn every_singular_kind_reads_what_protoc_encodes() {
    let message = Extendee::decode_from_slice(&encode_extendee(SCALARS_TEXT)).unwrap();
    assert_eq!(message.id, Some(1));
    assert_eq!(message.extension(&ext::E_INT32).unwrap(), Some(-5));
    assert_eq!(
        message.extension(&ext::E_INT64).unwrap(),
        Some(-9_000_000_000)
    );
    assert_eq!(message.extension(&ext::E_UINT32).unwrap(), Some(u32::MAX));
    assert_eq!(message.extension(&ext::E_UINT64).unwrap(), Some(u64::MAX));
    assert_eq!(message.extension(&ext::E_SINT32).unwrap(), Some(i32::MIN));
    assert_eq!(message.extension(&ext::E_SINT64).unwrap(), Some(i64::MIN));
    assert_eq!(
        message.extension(&ext::E_FIXED32).unwrap(),
        Some(4_000_000_000)
    );
    assert_eq!(
        message.extension(&ext::E_FIXED64).unwrap(),
        Some(12_345_678_901_234)
    );
    assert_eq!(message.extension(&ext::E_SFIXED32).unwrap(), Some(-7));
    assert_eq!(message.extension(&ext::E_SFIXED64).unwrap(), Some(-8));
    assert_eq!(message.extension(&ext::E_FLOAT).unwrap(), Some(1.5));
    assert_eq!(message.extension(&ext::E_DOUBLE).unwrap(), Some(-2.25));
    assert_eq!(message.extension(&ext::E_BOOL).unwrap(), Some(true));
    assert_eq!(
        message.extension(&ext::E_STRING).unwrap().as_deref(),
        Some("héllo")
    );
    assert_eq!(
        message.extension(&ext::E_BYTES).unwrap(),
        Some(vec![0, 0xff])
    );
    assert_eq!(
        message.extension(&ext::E_KIND).unwrap(),
        Some(Kind::Negative)
    );
    assert_eq!(
        message.extension(&ext::E_PAYLOAD).unwrap(),
        Some(payload(
            1,
            Some("x"),
            &[1, 2],
            Some(payload(2, None, &[], None))
        ))
    );
    let group = message.extension(&ext::EGROUP).unwrap().unwrap();
    assert_eq!((group.x, group.y.as_deref()), (Some(3), Some("g")));
    assert_eq!(
        message.extension(&ext::scope::NESTED).unwrap().as_deref(),
        Some("inner")
    );
    // Unset extensions read as unset.
    assert_eq!(message.extension(&ext::R_INT32).unwrap(), Vec::<i32>::new());
    assert!(!message.has_extension(&ext::scope::SCOPES));
}

#[test]
fn protoc_reads_what_buffa_sets() {
    let reference = encode_extendee(SCALARS_TEXT);
    let bytes = scalars_by_buffa().encode_to_vec();
    // Set in field-number order, the extensions encode as protoc's do.
    assert_eq!(bytes, reference);
    assert_eq!(decode_extendee(&bytes), decode_extendee(&reference));
}

const REPEATED_TEXT: &str = r#"
    [test.ext.r_int32]: [1, -1, 300]
    [test.ext.r_sint64]: [-2, 0, 9223372036854775807]
    [test.ext.r_double]: [0.5, -1e300]
    [test.ext.r_fixed32]: [7, 4294967295]
    [test.ext.r_bool]: [true, false, true]
    [test.ext.r_uint64]: [18446744073709551615]
    [test.ext.r_string]: ["a", "", "c"]
    [test.ext.r_bytes]: ["\001"]
    [test.ext.r_kind]: [KIND_B, KIND_A]
    [test.ext.r_payload] { a: 1 }
    [test.ext.r_payload] { b: "two" }
    [test.ext.rgroup] { z: 1 }
    [test.ext.rgroup] { z: 2 }
    [test.ext.Scope.scopes] { v: 1 }
    [test.ext.Scope.scopes] { }
"#;

fn scope(v: Option<i32>) -> Scope {
    Scope {
        v,
        ..Default::default()
    }
}

fn rgroup(z: i32) -> RGroup {
    RGroup {
        z: Some(z),
        ..Default::default()
    }
}

#[test]
fn repeated_extensions_read_and_write_as_protoc_does() {
    let reference = encode_extendee(REPEATED_TEXT);
    let message = Extendee::decode_from_slice(&reference).unwrap();
    assert_eq!(message.extension(&ext::R_INT32).unwrap(), [1, -1, 300]);
    assert_eq!(
        message.extension(&ext::R_SINT64).unwrap(),
        [-2, 0, i64::MAX]
    );
    assert_eq!(message.extension(&ext::R_DOUBLE).unwrap(), [0.5, -1e300]);
    assert_eq!(message.extension(&ext::R_FIXED32).unwrap(), [7, u32::MAX]);
    assert_eq!(
        message.extension(&ext::R_BOOL).unwrap(),
        [true, false, true]
    );
    assert_eq!(message.extension(&ext::R_UINT64).unwrap(), [u64::MAX]);
    assert_eq!(message.extension(&ext::R_STRING).unwrap(), ["a", "", "c"]);
    assert_eq!(message.extension(&ext::R_BYTES).unwrap(), [vec![1]]);
    assert_eq!(message.extension(&ext::R_KIND).unwrap(), [Kind::B, Kind::A]);
    let payloads = message.extension(&ext::R_PAYLOAD).unwrap();
    assert_eq!(payloads.len(), 2);
    assert_eq!(
        (payloads[0].a, payloads[1].b.as_deref()),
        (Some(1), Some("two"))
    );
    assert_eq!(
        message.extension(&ext::RGROUP).unwrap(),
        [rgroup(1), rgroup(2)]
    );
    assert_eq!(
        message.extension(&ext::scope::SCOPES).unwrap(),
        [scope(Some(1)), scope(None)]
    );

    let mut by_buffa = Extendee::default();
    by_buffa.set_extension(&ext::R_INT32, vec![1, -1, 300]);
    by_buffa.set_extension(&ext::R_SINT64, vec![-2, 0, i64::MAX]);
    by_buffa.set_extension(&ext::R_DOUBLE, vec![0.5, -1e300]);
    by_buffa.set_extension(&ext::R_FIXED32, vec![7, u32::MAX]);
    by_buffa.set_extension(&ext::R_BOOL, vec![true, false, true]);
    by_buffa.set_extension(&ext::R_UINT64, vec![u64::MAX]);
    by_buffa.set_extension(&ext::R_STRING, vec!["a".into(), "".into(), "c".into()]);
    by_buffa.set_extension(&ext::R_BYTES, vec![vec![1]]);
    by_buffa.set_extension(&ext::R_KIND, vec![Kind::B, Kind::A]);
    by_buffa.set_extension(&ext::R_PAYLOAD, payloads);
    by_buffa.set_extension(&ext::RGROUP, vec![rgroup(1), rgroup(2)]);
    by_buffa.set_extension(&ext::scope::SCOPES, vec![scope(Some(1)), scope(None)]);
    // Packed where declared packed, one field per value elsewhere: the
    // same bytes as protoc's.
    assert_eq!(by_buffa.encode_to_vec(), reference);
    assert_eq!(
        decode_extendee(&by_buffa.encode_to_vec()),
        decode_extendee(&reference)
    );
}

#[test]
fn repeated_scalars_accept_packed_and_unpacked_occurrences_mixed() {
    // protoc writes r_int32 (130) unpacked and r_sint64 (131) packed; the
    // other form of each is appended by hand.
    let mut bytes = encode_extendee("[test.ext.r_int32]: [1, 2] [test.ext.r_sint64]: [-1]");
    bytes.extend(ld(130, &[varint(3), varint(4)].concat()));
    bytes.extend(key(131, 0));
    bytes.extend(varint(5)); // ZigZag of -3
    bytes.extend(encode_extendee("[test.ext.r_int32]: 5"));
    let message = Extendee::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.extension(&ext::R_INT32).unwrap(), [1, 2, 3, 4, 5]);
    assert_eq!(message.extension(&ext::R_SINT64).unwrap(), [-1, -3]);
    // protoc reads the mix the same way.
    let text = decode_extendee(&bytes);
    assert!(
        text.contains("[test.ext.r_int32]: 4\n[test.ext.r_int32]: 5\n[test.ext.r_sint64]: -1\n[test.ext.r_sint64]: -3"),
        "{text}"
    );
}

#[test]
fn singular_scalars_take_the_last_value_and_messages_merge() {
    let first = encode_extendee(
        r#"[test.ext.e_int32]: 1 [test.ext.e_string]: "a" [test.ext.e_kind]: KIND_A
           [test.ext.e_payload] { a: 1 b: "x" list: 1 }
           [test.ext.egroup] { x: 1 y: "first" }"#,
    );
    let second = encode_extendee(
        r#"[test.ext.e_int32]: 2 [test.ext.e_string]: "b"
           [test.ext.e_payload] { a: 2 list: 2 child { a: 3 } }
           [test.ext.egroup] { x: 2 }"#,
    );
    let both = [first, second].concat();
    let message = Extendee::decode_from_slice(&both).unwrap();
    assert_eq!(message.extension(&ext::E_INT32).unwrap(), Some(2));
    assert_eq!(
        message.extension(&ext::E_STRING).unwrap().as_deref(),
        Some("b")
    );
    assert_eq!(message.extension(&ext::E_KIND).unwrap(), Some(Kind::A));
    let merged = message.extension(&ext::E_PAYLOAD).unwrap().unwrap();
    assert_eq!(
        merged,
        payload(2, Some("x"), &[1, 2], Some(payload(3, None, &[], None)))
    );
    let group = message.extension(&ext::EGROUP).unwrap().unwrap();
    assert_eq!((group.x, group.y.as_deref()), (Some(2), Some("first")));

    // protoc merges the same way: one message holding buffa's values
    // prints as protoc's parse of both.
    let mut by_buffa = Extendee::default();
    by_buffa.set_extension(&ext::E_INT32, 2);
    by_buffa.set_extension(&ext::E_STRING, "b".into());
    by_buffa.set_extension(&ext::E_KIND, Kind::A);
    by_buffa.set_extension(&ext::E_PAYLOAD, merged);
    by_buffa.set_extension(&ext::EGROUP, group);
    assert_eq!(
        decode_extendee(&by_buffa.encode_to_vec()),
        decode_extendee(&both)
    );
}

#[test]
fn occurrences_with_another_wire_type_are_skipped_and_kept() {
    let mut bytes = encode_extendee("[test.ext.e_int32]: 7 [test.ext.e_payload] { a: 1 }");
    // e_int32 (100) as bytes, e_payload (116) as a varint, e_string (113)
    // as a fixed32, after the real values.
    let odd = [
        ld(100, b"x"),
        [key(116, 0), varint(9)].concat(),
        [key(113, 5), vec![1, 2, 3, 4]].concat(),
    ]
    .concat();
    bytes.extend(&odd);
    let message = Extendee::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.extension(&ext::E_INT32).unwrap(), Some(7));
    assert_eq!(
        message.extension(&ext::E_PAYLOAD).unwrap(),
        Some(payload(1, None, &[], None))
    );
    assert_eq!(message.extension(&ext::E_STRING).unwrap(), None);
    assert!(!message.has_extension(&ext::E_STRING));
    // Kept as read.
    assert!(message.unknown_fields.as_bytes().ends_with(&odd));
    assert_eq!(message.encode_to_vec(), bytes);
}

#[test]
fn has_and_clear_follow_the_field_number() {
    let mut message = Extendee::decode_from_slice(&encode_extendee(SCALARS_TEXT)).unwrap();
    assert!(message.has_extension(&ext::E_INT32));
    assert!(message.has_extension(&ext::EGROUP));
    assert!(!message.has_extension(&ext::R_KIND));
    message.clear_extension(&ext::E_INT32);
    message.clear_extension(&ext::EGROUP);
    message.clear_extension(&ext::R_KIND); // nothing to clear
    assert!(!message.has_extension(&ext::E_INT32));
    assert_eq!(message.extension(&ext::E_INT32).unwrap(), None);
    assert_eq!(message.extension(&ext::E_SINT32).unwrap(), Some(i32::MIN));
    let without = SCALARS_TEXT
        .lines()
        .filter(|line| !line.contains("e_int32") && !line.contains("egroup"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        decode_extendee(&message.encode_to_vec()),
        decode_extendee(&encode_extendee(&without))
    );
    // Setting replaces: one occurrence, the new value.
    message.set_extension(&ext::E_SINT32, 4);
    assert_eq!(message.extension(&ext::E_SINT32).unwrap(), Some(4));
    assert_eq!(
        message
            .unknown_fields
            .iter()
            .filter(|f| f.number == 104)
            .count(),
        1
    );
}

#[test]
fn closed_enum_numbers_the_enum_does_not_declare_are_skipped() {
    // 5 is not a `Kind`: protoc (parsing as C++ does) leaves it unknown.
    let mut bytes = encode_extendee("[test.ext.e_kind]: KIND_B");
    bytes.extend([key(115, 0), varint(5)].concat());
    bytes.extend(ld(138, &[varint(1), varint(5), varint(2)].concat()));
    let message = Extendee::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.extension(&ext::E_KIND).unwrap(), Some(Kind::B));
    assert_eq!(message.extension(&ext::R_KIND).unwrap(), [Kind::A, Kind::B]);
    let text = decode_extendee(&bytes);
    assert!(text.contains("[test.ext.e_kind]: KIND_B"), "{text}");
    assert!(text.contains("115: 5"), "{text}");
}

#[path = "extensions/editions.rs"]
mod editions;
#[path = "extensions/hostile.rs"]
mod hostile;
#[path = "extensions/options.rs"]
mod options;
