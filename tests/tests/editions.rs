//! Edition 2023 features in generated code: presence (explicit, implicit,
//! legacy required), delimited message encoding, closed and open enums,
//! packed and expanded repeated fields. Checked against protoc's encoder
//! on `edition_unittest.proto`, `unittest_delimited.proto` and this crate's
//! `proto/editions/features.proto`.

mod common;

use buffa::{EnumValue, Message, UnknownField, UnknownValue};
use buffa_tests::editions::editions_check::{ClosedEnum, Features, Inner, OpenEnum, features};
use buffa_tests::unittest::edition_unittest::{self, test_all_types};
use buffa_tests::unittest::editions_unittest::TestDelimited;
use common::{local_protos, protoc_decode_raw, protoc_encode, protoc_encode_in};

const EDITION_UNITTEST: &str = "google/protobuf/edition_unittest.proto";

fn features_bytes(text: &str) -> Vec<u8> {
    protoc_encode_in(
        &local_protos().join("editions"),
        "features.proto",
        "editions_check.Features",
        text,
    )
}

#[test]
fn edition_unittest_reads_and_writes_like_protoc() {
    let text = r#"
        optional_int32: 101 optional_string: "115" optional_bytes: "116"
        optionalgroup { a: 117 }
        optional_nested_message { bb: 118 }
        optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAZ
        repeated_int32: [201, 301]
        repeatedgroup { a: 217 } repeatedgroup { a: 317 }
        repeated_nested_enum: [BAR, BAZ]
        default_int32: 0
        oneof_string: "604"
    "#;
    let bytes = protoc_encode(EDITION_UNITTEST, "edition_unittest.TestAllTypes", text);
    let message = edition_unittest::TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.optional_int32, Some(101));
    assert_eq!(message.optionalgroup.a, Some(117));
    assert_eq!(
        message
            .repeatedgroup
            .iter()
            .map(|g| g.a.unwrap())
            .collect::<Vec<_>>(),
        [217, 317]
    );
    assert_eq!(
        message.optional_nested_enum,
        Some(test_all_types::NestedEnum::Baz)
    );
    // Explicit presence (the file's default): a zero that was set is kept
    // and written.
    assert_eq!(message.default_int32, Some(0));
    assert_eq!(message.default_int64, None);
    assert_eq!(message.default_int64(), 42);
    assert!(message.unknown_fields.is_empty());
    assert_eq!(message.encode_to_vec(), bytes);
    // Without repeated scalars (packed in the edition file, expanded in
    // the proto2 one) the proto2 twin has the same wire format: groups are
    // the proto2 spelling of DELIMITED.
    let text = text
        .replace("repeated_int32: [201, 301]", "")
        .replace("repeated_nested_enum: [BAR, BAZ]", "");
    let edition = protoc_encode(EDITION_UNITTEST, "edition_unittest.TestAllTypes", &text);
    let proto2 = protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        &text
            .replace("optionalgroup {", "OptionalGroup {")
            .replace("repeatedgroup {", "RepeatedGroup {"),
    );
    assert_eq!(proto2, edition);
    let message = edition_unittest::TestAllTypes::decode_from_slice(&proto2).unwrap();
    assert_eq!(message.encode_to_vec(), proto2);
}

#[test]
fn edition_unittest_closed_enums_keep_unknown_values_aside() {
    // optional_nested_enum is field 21; 10 is not a NestedEnum value.
    let bytes = [0xa8, 0x01, 10];
    let message = edition_unittest::TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.optional_nested_enum, None);
    assert_eq!(
        message.unknown_fields.iter().collect::<Vec<_>>(),
        [UnknownField {
            number: 21,
            value: UnknownValue::Varint(10)
        }]
    );
    assert_eq!(message.encode_to_vec(), bytes);
}

#[test]
fn delimited_fields_are_groups_on_the_wire() {
    let text = "lengthprefixed { a: 1 } nested { lengthprefixed { b: 2 } } \
                grouplike { a: 3 } notgrouplike { b: 4 } notgrouplikescope { a: 5 } \
                messageimport { a: 6 }";
    let bytes = protoc_encode(
        "google/protobuf/unittest_delimited.proto",
        "editions_unittest.TestDelimited",
        text,
    );
    let message = TestDelimited::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.lengthprefixed.a, Some(1));
    assert_eq!(message.nested.lengthprefixed.b, Some(2));
    assert_eq!(message.grouplike.a, Some(3));
    assert_eq!(message.notgrouplike.b, Some(4));
    assert_eq!(message.notgrouplikescope.a, Some(5));
    assert_eq!(message.messageimport.a, Some(6));
    assert!(message.unknown_fields.is_empty());
    let written = message.encode_to_vec();
    assert_eq!(written, bytes);
    // Field 1 is length-prefixed, fields 2 to 6 are groups.
    assert_eq!(written[0], (1 << 3) | 2);
    assert!(protoc_decode_raw(&written).contains("3 {\n  1: 3\n}"));
    let nested_start = 2 + written[1] as usize;
    assert_eq!(written[nested_start], (2 << 3) | 3);
    assert_eq!(*written.last().unwrap(), (6 << 3) | 4);
}

#[test]
fn delimited_field_sent_length_prefixed_is_an_error() {
    // grouplike (field 3) with wire type 2 instead of a start group.
    let bytes = [(3 << 3) | 2, 2, 0x08, 1];
    assert!(TestDelimited::decode_from_slice(&bytes).is_err());
}

fn filled_features() -> Features {
    Features {
        implicit_int: 1,
        implicit_string: "s".into(),
        implicit_enum: OpenEnum::OpenOne.into(),
        explicit_int: Some(0),
        explicit_string: Some(String::new()),
        required_int: Some(0),
        packed: vec![1, 2, 300],
        expanded: vec![1, 2, 300],
        expanded_enum: vec![OpenEnum::OpenOne.into(), EnumValue::Unknown(5)],
        delimited: Inner {
            a: 7,
            child: Inner {
                a: 8,
                ..Default::default()
            }
            .into(),
            ..Default::default()
        }
        .into(),
        length_prefixed: Inner {
            a: 9,
            ..Default::default()
        }
        .into(),
        delimited_list: vec![
            Inner::default(),
            Inner {
                a: 10,
                ..Default::default()
            },
        ],
        closed: Some(ClosedEnum::ClosedTwo),
        closed_list: vec![ClosedEnum::ClosedOne],
        inner_map: [(
            11,
            Inner {
                a: 12,
                ..Default::default()
            },
        )]
        .into(),
        choice: Some(features::Choice::DelimitedMember(Box::new(Inner {
            a: 13,
            ..Default::default()
        }))),
        ..Default::default()
    }
}

const FILLED_FEATURES_TEXT: &str = r#"
    implicit_int: 1 implicit_string: "s" implicit_enum: OPEN_ONE
    explicit_int: 0 explicit_string: "" required_int: 0
    packed: [1, 2, 300] expanded: [1, 2, 300] expanded_enum: [OPEN_ONE, 5]
    delimited { a: 7 child { a: 8 } }
    length_prefixed { a: 9 }
    delimited_list { } delimited_list { a: 10 }
    closed: CLOSED_TWO closed_list: [CLOSED_ONE]
    inner_map { key: 11 value { a: 12 } }
    delimited_member { a: 13 }
"#;

#[test]
fn features_match_protoc() {
    let message = filled_features();
    let bytes = features_bytes(FILLED_FEATURES_TEXT);
    assert_eq!(message.encode_to_vec(), bytes);
    assert_eq!(Features::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn implicit_presence_skips_zero_values_explicit_keeps_them() {
    let zero = Features {
        implicit_int: 0,
        implicit_string: String::new(),
        implicit_enum: OpenEnum::OpenZero.into(),
        ..Default::default()
    };
    assert!(zero.encode_to_vec().is_empty());
    let set = Features {
        explicit_int: Some(0),
        ..Default::default()
    };
    assert_eq!(set.encode_to_vec(), [4 << 3, 0]);
    assert_eq!(set.encode_to_vec(), features_bytes("explicit_int: 0"));
    // A zero read from the wire into an implicit field is indistinguishable
    // from unset, and is not written back.
    let decoded = Features::decode_from_slice(&[1 << 3, 0]).unwrap();
    assert_eq!(decoded, Features::default());
    assert!(decoded.encode_to_vec().is_empty());
}

#[test]
fn packed_and_expanded_encodings() {
    let message = Features {
        packed: vec![1, 2],
        expanded: vec![1, 2],
        ..Default::default()
    };
    assert_eq!(
        message.encode_to_vec(),
        [(7 << 3) | 2, 2, 1, 2, 8 << 3, 1, 8 << 3, 2]
    );
    // Either encoding is accepted for either field.
    let swapped = [(8 << 3) | 2, 2, 1, 2, 7 << 3, 1, 7 << 3, 2];
    let decoded = Features::decode_from_slice(&swapped).unwrap();
    assert_eq!(decoded.packed, [1, 2]);
    assert_eq!(decoded.expanded, [1, 2]);
}

#[test]
fn editions_closed_enum_unknown_values() {
    // closed = 13, closed_list = 14 (packed by default).
    let bytes = [13 << 3, 9, (14 << 3) | 2, 3, 1, 9, 2];
    let decoded = Features::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.closed, None);
    assert_eq!(
        decoded.closed_list,
        [ClosedEnum::ClosedOne, ClosedEnum::ClosedTwo]
    );
    assert_eq!(decoded.unknown_fields.iter().count(), 2);
    let again = Features::decode_from_slice(&decoded.encode_to_vec()).unwrap();
    assert_eq!(again, decoded);
    // Open enums keep the number.
    let open = Features::decode_from_slice(&[3 << 3, 9]).unwrap();
    assert_eq!(open.implicit_enum, EnumValue::Unknown(9));
    assert_eq!(open.encode_to_vec(), [3 << 3, 9]);
}
