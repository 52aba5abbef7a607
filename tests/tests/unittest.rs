//! Tests over the code generated from protobuf's own unittest protos:
//! filled messages against protoc's C++ encoder, proto2 defaults, maps,
//! extensions and closed-enum values kept as unknown fields.

mod common;

use buffa::{EnumValue, Message, UnknownField, UnknownValue};
use buffa_tests::unittest::protobuf_unittest::{
    self, ForeignEnum, ForeignMessage, TestAllExtensions, TestAllTypes, TestExtremeDefaultValues,
    TestPackedTypes, TestUnpackedTypes, test_all_types,
};
use buffa_tests::unittest::protobuf_unittest_import::ImportEnum;
use common::filled::all_types;
use common::{protoc_decode, protoc_encode};

const UNITTEST: &str = "google/protobuf/unittest.proto";

/// [`all_types`] in text format.
const ALL_TYPES_TEXT: &str = r#"
optional_int32: 101 optional_int64: 102 optional_uint32: 103 optional_uint64: 104
optional_sint32: 105 optional_sint64: 106 optional_fixed32: 107 optional_fixed64: 108
optional_sfixed32: 109 optional_sfixed64: 110 optional_float: 111 optional_double: 112
optional_bool: true optional_string: "115" optional_bytes: "116"
OptionalGroup { a: 117 }
optional_nested_message { bb: 118 }
optional_foreign_message { c: 119 }
optional_import_message { d: 120 }
optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAZ optional_import_enum: IMPORT_BAZ
optional_string_piece: "124" optional_cord: "125"
optional_public_import_message { e: 126 }
optional_lazy_message { bb: 127 }
optional_unverified_lazy_message { bb: 128 }
repeated_int32: [201, 301] repeated_int64: [202, 302] repeated_uint32: [203, 303]
repeated_uint64: [204, 304] repeated_sint32: [205, 305] repeated_sint64: [206, 306]
repeated_fixed32: [207, 307] repeated_fixed64: [208, 308] repeated_sfixed32: [209, 309]
repeated_sfixed64: [210, 310] repeated_float: [211, 311] repeated_double: [212, 312]
repeated_bool: [true, false] repeated_string: ["215", "315"] repeated_bytes: ["216", "316"]
RepeatedGroup { a: 217 } RepeatedGroup { a: 317 }
repeated_nested_message { bb: 218 } repeated_nested_message { bb: 318 }
repeated_foreign_message { c: 219 } repeated_foreign_message { c: 319 }
repeated_import_message { d: 220 } repeated_import_message { d: 320 }
repeated_nested_enum: [BAR, BAZ] repeated_foreign_enum: [FOREIGN_BAR, FOREIGN_BAZ]
repeated_import_enum: [IMPORT_BAR, IMPORT_BAZ]
repeated_string_piece: ["224", "324"] repeated_cord: ["225", "325"]
repeated_lazy_message { bb: 227 } repeated_lazy_message { bb: 327 }
default_int32: 401 default_int64: 402 default_uint32: 403 default_uint64: 404
default_sint32: 405 default_sint64: 406 default_fixed32: 407 default_fixed64: 408
default_sfixed32: 409 default_sfixed64: 410 default_float: 411 default_double: 412
default_bool: false default_string: "415" default_bytes: "416"
default_nested_enum: FOO default_foreign_enum: FOREIGN_FOO default_import_enum: IMPORT_FOO
default_string_piece: "424" default_cord: "425"
oneof_bytes: "604"
"#;

#[test]
fn all_types_round_trip() {
    let message = all_types();
    let bytes = message.encode_to_vec();
    assert_eq!(bytes.len(), message.encoded_len());
    let decoded = TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded, message);
    assert_eq!(decoded.encode_to_vec(), bytes);
}

#[test]
fn all_types_match_protoc_bytes() {
    let reference = protoc_encode(UNITTEST, "protobuf_unittest.TestAllTypes", ALL_TYPES_TEXT);
    let decoded = TestAllTypes::decode_from_slice(&reference).unwrap();
    assert_eq!(decoded, all_types());
    assert!(decoded.unknown_fields.is_empty());
    // Both write fields in number order: the bytes are identical.
    assert_eq!(all_types().encode_to_vec(), reference);
}

#[test]
fn protoc_reads_what_buffa_writes() {
    let bytes = all_types().encode_to_vec();
    let text = protoc_decode(UNITTEST, "protobuf_unittest.TestAllTypes", &bytes);
    let reference = protoc_encode(UNITTEST, "protobuf_unittest.TestAllTypes", ALL_TYPES_TEXT);
    assert_eq!(
        text,
        protoc_decode(UNITTEST, "protobuf_unittest.TestAllTypes", &reference)
    );
}

#[test]
fn every_oneof_member_round_trips() {
    use test_all_types::{NestedMessage, OneofField};
    let members = [
        (OneofField::OneofUint32(0), "oneof_uint32: 0"),
        (
            OneofField::OneofUint32(u32::MAX),
            "oneof_uint32: 4294967295",
        ),
        (
            OneofField::OneofNestedMessage(Box::new(NestedMessage {
                bb: Some(-1),
                ..Default::default()
            })),
            "oneof_nested_message { bb: -1 }",
        ),
        (
            OneofField::OneofNestedMessage(Box::default()),
            "oneof_nested_message { }",
        ),
        (OneofField::OneofString(String::new()), "oneof_string: \"\""),
        (OneofField::OneofString("é".into()), "oneof_string: \"é\""),
        (
            OneofField::OneofBytes(vec![0, 255]),
            "oneof_bytes: \"\\000\\377\"",
        ),
    ];
    for (member, text) in members {
        let message = TestAllTypes {
            oneof_field: Some(member),
            ..Default::default()
        };
        let reference = protoc_encode(UNITTEST, "protobuf_unittest.TestAllTypes", text);
        assert_eq!(message.encode_to_vec(), reference, "{text}");
        assert_eq!(
            TestAllTypes::decode_from_slice(&reference).unwrap(),
            message
        );
    }
}

#[test]
fn last_oneof_member_on_the_wire_wins() {
    use test_all_types::{NestedMessage, OneofField};
    let bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "oneof_uint32: 1",
    );
    let mut bytes = bytes;
    bytes.extend(protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "oneof_nested_message { bb: 5 }",
    ));
    // An empty second occurrence of the same message member merges into
    // the first rather than replacing it.
    bytes.extend(protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "oneof_nested_message { }",
    ));
    let decoded = TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        decoded.oneof_field,
        Some(OneofField::OneofNestedMessage(Box::new(NestedMessage {
            bb: Some(5),
            ..Default::default()
        })))
    );
    // A different member replaces it.
    bytes.extend(protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "oneof_string: \"s\"",
    ));
    let decoded = TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        decoded.oneof_field,
        Some(OneofField::OneofString("s".into()))
    );
}

#[test]
fn extreme_scalar_values_match_protoc() {
    let message = TestAllTypes {
        optional_int32: Some(i32::MIN),
        optional_int64: Some(i64::MIN),
        optional_uint32: Some(u32::MAX),
        optional_uint64: Some(u64::MAX),
        optional_sint32: Some(i32::MIN),
        optional_sint64: Some(i64::MIN),
        optional_fixed32: Some(u32::MAX),
        optional_fixed64: Some(u64::MAX),
        optional_sfixed32: Some(i32::MIN),
        optional_sfixed64: Some(i64::MIN),
        optional_float: Some(f32::NEG_INFINITY),
        optional_double: Some(f64::MIN_POSITIVE),
        optional_bool: Some(false),
        optional_string: Some(String::new()),
        optional_bytes: Some(Vec::new()),
        repeated_int32: vec![-1, 0, i32::MAX],
        repeated_sint64: vec![-1, 0, i64::MAX],
        repeated_float: vec![-0.0, f32::INFINITY, f32::MIN_POSITIVE],
        ..Default::default()
    };
    let text = r#"
        optional_int32: -2147483648 optional_int64: -9223372036854775808
        optional_uint32: 4294967295 optional_uint64: 18446744073709551615
        optional_sint32: -2147483648 optional_sint64: -9223372036854775808
        optional_fixed32: 4294967295 optional_fixed64: 18446744073709551615
        optional_sfixed32: -2147483648 optional_sfixed64: -9223372036854775808
        optional_float: -inf optional_double: 2.2250738585072014e-308
        optional_bool: false optional_string: "" optional_bytes: ""
        repeated_int32: [-1, 0, 2147483647]
        repeated_sint64: [-1, 0, 9223372036854775807]
        repeated_float: [-0, inf, 1.17549435e-38]
    "#;
    let reference = protoc_encode(UNITTEST, "protobuf_unittest.TestAllTypes", text);
    assert_eq!(message.encode_to_vec(), reference);
    let decoded = TestAllTypes::decode_from_slice(&reference).unwrap();
    assert_eq!(decoded, message);
    assert!(decoded.repeated_float[0].is_sign_negative());
}

#[test]
fn nan_round_trips_bit_for_bit() {
    let nan = f64::from_bits(0x7ff8_0000_0000_0001);
    let message = TestAllTypes {
        optional_double: Some(nan),
        repeated_float: vec![f32::from_bits(0xffc0_0001)],
        ..Default::default()
    };
    let decoded = TestAllTypes::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert_eq!(decoded.optional_double.unwrap().to_bits(), nan.to_bits());
    assert_eq!(decoded.repeated_float[0].to_bits(), 0xffc0_0001);
}

#[test]
fn packed_and_unpacked_match_protoc_and_accept_each_other() {
    let packed = TestPackedTypes {
        packed_int32: vec![601, 701],
        packed_int64: vec![602, 702],
        packed_uint32: vec![603, 703],
        packed_uint64: vec![604, 704],
        packed_sint32: vec![605, 705],
        packed_sint64: vec![606, 706],
        packed_fixed32: vec![607, 707],
        packed_fixed64: vec![608, 708],
        packed_sfixed32: vec![609, 709],
        packed_sfixed64: vec![610, 710],
        packed_float: vec![611.0, 711.0],
        packed_double: vec![612.0, 712.0],
        packed_bool: vec![true, false],
        packed_enum: vec![ForeignEnum::ForeignBar, ForeignEnum::ForeignBaz],
        ..Default::default()
    };
    let values = "int32: [601, 701] int64: [602, 702] uint32: [603, 703] uint64: [604, 704] \
        sint32: [605, 705] sint64: [606, 706] fixed32: [607, 707] fixed64: [608, 708] \
        sfixed32: [609, 709] sfixed64: [610, 710] float: [611, 711] double: [612, 712] \
        bool: [true, false] enum: [FOREIGN_BAR, FOREIGN_BAZ]";
    let packed_text = prefix_fields(values, "packed_");
    let unpacked_text = prefix_fields(values, "unpacked_");
    let packed_bytes = protoc_encode(UNITTEST, "protobuf_unittest.TestPackedTypes", &packed_text);
    assert_eq!(packed.encode_to_vec(), packed_bytes);
    let unpacked_bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestUnpackedTypes",
        &unpacked_text,
    );
    let unpacked = TestUnpackedTypes::decode_from_slice(&unpacked_bytes).unwrap();
    assert_eq!(unpacked.encode_to_vec(), unpacked_bytes);
    assert_eq!(unpacked.unpacked_sint64, [606, 706]);
    // Parsers must accept both encodings whatever the declaration says:
    // the field numbers of the two messages are the same.
    assert_eq!(
        TestPackedTypes::decode_from_slice(&unpacked_bytes).unwrap(),
        packed
    );
    let as_unpacked = TestUnpackedTypes::decode_from_slice(&packed_bytes).unwrap();
    assert_eq!(as_unpacked, unpacked);
}

/// The varint encoding of `value`.
fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
    out
}

/// `"int32: [1] enum: [X]"` with every field name prefixed.
fn prefix_fields(values: &str, prefix: &str) -> String {
    values
        .split(' ')
        .map(|word| {
            if word.ends_with(':') {
                format!("{prefix}{word}")
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn proto2_default_accessors() {
    use test_all_types::NestedEnum;
    let unset = TestAllTypes::default();
    assert_eq!(unset.default_int32(), 41);
    assert_eq!(unset.default_int64(), 42);
    assert_eq!(unset.default_uint32(), 43);
    assert_eq!(unset.default_uint64(), 44);
    assert_eq!(unset.default_sint32(), -45);
    assert_eq!(unset.default_sint64(), 46);
    assert_eq!(unset.default_fixed32(), 47);
    assert_eq!(unset.default_fixed64(), 48);
    assert_eq!(unset.default_sfixed32(), 49);
    assert_eq!(unset.default_sfixed64(), -50);
    assert_eq!(unset.default_float(), 51.5);
    assert_eq!(unset.default_double(), 52e3);
    assert!(unset.default_bool());
    assert_eq!(unset.default_string(), "hello");
    assert_eq!(unset.default_bytes(), b"world");
    assert_eq!(unset.default_nested_enum(), NestedEnum::Bar);
    assert_eq!(unset.default_foreign_enum(), ForeignEnum::ForeignBar);
    assert_eq!(unset.default_import_enum(), ImportEnum::ImportBar);
    assert_eq!(unset.default_string_piece(), "abc");
    assert_eq!(unset.default_cord(), "123");
    // Without a declared default: the type's zero, the enum's first value.
    assert_eq!(unset.optional_int32(), 0);
    assert_eq!(unset.optional_string(), "");
    assert_eq!(unset.optional_bytes(), b"");
    assert_eq!(unset.optional_nested_enum(), NestedEnum::Foo);
    assert_eq!(unset.optional_foreign_enum(), ForeignEnum::ForeignFoo);
    // Unset fields are not written.
    assert!(unset.encode_to_vec().is_empty());
    // Set fields win over the default, even when equal to the zero value.
    let set = TestAllTypes {
        default_int32: Some(0),
        default_string: Some(String::new()),
        default_nested_enum: Some(NestedEnum::Foo),
        ..Default::default()
    };
    assert_eq!(set.default_int32(), 0);
    assert_eq!(set.default_string(), "");
    assert_eq!(set.default_nested_enum(), NestedEnum::Foo);
    assert_eq!(
        TestAllTypes::decode_from_slice(&set.encode_to_vec()).unwrap(),
        set
    );
}

#[test]
fn extreme_default_values() {
    let d = TestExtremeDefaultValues::default();
    assert_eq!(d.escaped_bytes(), b"\0\x01\x07\x08\x0c\n\r\t\x0b\\'\"\xfe");
    assert_eq!(d.large_uint32(), u32::MAX);
    assert_eq!(d.large_uint64(), u64::MAX);
    assert_eq!(d.small_int32(), -0x7fff_ffff);
    assert_eq!(d.small_int64(), -0x7fff_ffff_ffff_ffff);
    assert_eq!(d.really_small_int32(), i32::MIN);
    assert_eq!(d.really_small_int64(), i64::MIN);
    assert_eq!(d.utf8_string(), "\u{1234}");
    assert_eq!(d.zero_float(), 0.0);
    assert_eq!(d.one_float(), 1.0);
    assert_eq!(d.small_float(), 1.5);
    assert_eq!(d.negative_one_float(), -1.0);
    assert_eq!(d.negative_float(), -1.5);
    assert_eq!(d.large_float(), 2e8);
    assert_eq!(d.small_negative_float(), -8e-28);
    assert_eq!(d.inf_double(), f64::INFINITY);
    assert_eq!(d.neg_inf_double(), f64::NEG_INFINITY);
    assert!(d.nan_double().is_nan());
    assert_eq!(d.inf_float(), f32::INFINITY);
    assert_eq!(d.neg_inf_float(), f32::NEG_INFINITY);
    assert!(d.nan_float().is_nan());
    assert_eq!(d.cpp_trigraph(), "? ? ?? ?? ??? ??/ ??-");
    assert_eq!(d.string_with_zero(), "hel\0lo");
    assert_eq!(d.bytes_with_zero(), b"wor\0ld");
    assert_eq!(d.string_piece_with_zero(), "ab\0c");
    assert_eq!(d.cord_with_zero(), "12\x003");
    assert_eq!(d.replacement_string(), "${unknown}");
}

#[test]
fn defaults_are_not_encoded_and_decode_from_protoc_defaults() {
    // protoc writes a field set to its default; buffa reads it as set.
    let bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestExtremeDefaultValues",
        r#"large_uint32: 4294967295 nan_double: nan escaped_bytes: "\0\001\a\b\f\n\r\t\v\\\'\"\376""#,
    );
    let decoded = TestExtremeDefaultValues::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.large_uint32, Some(u32::MAX));
    assert!(decoded.nan_double.unwrap().is_nan());
    assert_eq!(
        decoded.escaped_bytes.as_deref(),
        Some(decoded.escaped_bytes())
    );
    assert_eq!(decoded.encode_to_vec(), bytes);
}

#[test]
fn extensions_survive_as_unknown_fields() {
    // TestAllExtensions declares no fields, only extension ranges: every
    // extension is an unknown field to buffa and must come back unchanged,
    // groups and sub-messages included.
    let text = r#"
        [protobuf_unittest.optional_int32_extension]: 101
        [protobuf_unittest.optional_fixed64_extension]: 108
        [protobuf_unittest.optional_float_extension]: 111
        [protobuf_unittest.optional_string_extension]: "115"
        [protobuf_unittest.optionalgroup_extension] { a: 117 }
        [protobuf_unittest.optional_nested_message_extension] { bb: 118 }
        [protobuf_unittest.optional_nested_enum_extension]: BAZ
        [protobuf_unittest.repeated_int32_extension]: [201, 301]
        [protobuf_unittest.repeatedgroup_extension] { a: 217 }
        [protobuf_unittest.repeatedgroup_extension] { a: 317 }
        [protobuf_unittest.oneof_bytes_extension]: "604"
    "#;
    let bytes = protoc_encode(UNITTEST, "protobuf_unittest.TestAllExtensions", text);
    let decoded = TestAllExtensions::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.unknown_fields.as_bytes(), &bytes[..]);
    assert_eq!(decoded.encoded_len(), bytes.len());
    assert_eq!(decoded.encode_to_vec(), bytes);
    let fields: Vec<UnknownField<'_>> = decoded.unknown_fields.iter().collect();
    assert_eq!(
        fields[0],
        UnknownField {
            number: 1,
            value: UnknownValue::Varint(101)
        }
    );
    assert_eq!(
        fields[1],
        UnknownField {
            number: 8,
            value: UnknownValue::Fixed64(108)
        }
    );
    assert_eq!(
        fields[2],
        UnknownField {
            number: 11,
            value: UnknownValue::Fixed32(111f32.to_bits())
        }
    );
    assert_eq!(
        fields[3],
        UnknownField {
            number: 14,
            value: UnknownValue::LengthDelimited(b"115")
        }
    );
    assert_eq!(
        fields[4],
        UnknownField {
            number: 16,
            value: UnknownValue::Group(&[0x88, 0x01, 117])
        }
    );
    assert_eq!(
        protoc_decode(
            UNITTEST,
            "protobuf_unittest.TestAllExtensions",
            &decoded.encode_to_vec()
        ),
        protoc_decode(UNITTEST, "protobuf_unittest.TestAllExtensions", &bytes)
    );
}

#[test]
fn unknown_fields_of_nested_messages_stay_with_them() {
    // ForeignMessage (field 19) has c = 1 and d = 2; TestAllTypes's
    // NestedMessage (field 18) has only bb = 1. Retagging the sub-message
    // from 19 to 18 makes d an unknown field of the nested message.
    let bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "optional_foreign_message { c: 1 d: 2 }",
    );
    assert_eq!(bytes[0], (19 << 3) | 2);
    let mut retyped = bytes.clone();
    retyped[0] = (18 << 3) | 2;
    let decoded = TestAllTypes::decode_from_slice(&retyped).unwrap();
    let nested = &decoded.optional_nested_message;
    assert_eq!(nested.bb, Some(1));
    assert_eq!(
        nested.unknown_fields.iter().collect::<Vec<_>>(),
        [UnknownField {
            number: 2,
            value: UnknownValue::Varint(2)
        }]
    );
    assert!(decoded.unknown_fields.is_empty());
    assert_eq!(decoded.encode_to_vec(), retyped);
}

#[test]
fn closed_enum_unknown_values_go_to_unknown_fields() {
    use test_all_types::NestedEnum;
    // optional_nested_enum = 21, repeated_nested_enum = 51 (expanded),
    // packed_enum of TestPackedTypes = 103.
    let mut bytes = Vec::new();
    for (field, value) in [(21, 2), (21, 99), (51, 1), (51, 77), (51, 3)] {
        bytes.extend(varint(field << 3));
        bytes.extend(varint(value));
    }
    let decoded = TestAllTypes::decode_from_slice(&bytes).unwrap();
    // The known value read before the unknown one stays.
    assert_eq!(decoded.optional_nested_enum, Some(NestedEnum::Bar));
    assert_eq!(
        decoded.repeated_nested_enum,
        [NestedEnum::Foo, NestedEnum::Baz]
    );
    let unknown: Vec<_> = decoded.unknown_fields.iter().collect();
    assert_eq!(
        unknown,
        [
            UnknownField {
                number: 21,
                value: UnknownValue::Varint(99)
            },
            UnknownField {
                number: 51,
                value: UnknownValue::Varint(77)
            },
        ]
    );
    let again = TestAllTypes::decode_from_slice(&decoded.encode_to_vec()).unwrap();
    assert_eq!(again, decoded);
    // A negative unknown value is a ten-byte varint and stays one.
    let negative = [varint(21 << 3), varint(-2i64 as u64)].concat();
    assert_eq!(negative.len(), 12);
    let decoded = TestAllTypes::decode_from_slice(&negative).unwrap();
    assert_eq!(decoded.optional_nested_enum, None);
    assert_eq!(decoded.encode_to_vec(), negative);
    // NEG = -1 is known.
    let neg = [varint(21 << 3), varint(-1i64 as u64)].concat();
    let decoded = TestAllTypes::decode_from_slice(&neg).unwrap();
    assert_eq!(decoded.optional_nested_enum, Some(NestedEnum::Neg));
    assert_eq!(decoded.encode_to_vec(), neg);
}

#[test]
fn closed_enum_unknown_values_in_packed_fields() {
    // packed_enum = 103: FOREIGN_FOO (4), 42 (unknown), FOREIGN_BAZ (6).
    let bytes = [varint((103 << 3) | 2), vec![3, 4, 42, 6]].concat();
    let decoded = TestPackedTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        decoded.packed_enum,
        [ForeignEnum::ForeignFoo, ForeignEnum::ForeignBaz]
    );
    let unknown: Vec<_> = decoded.unknown_fields.iter().collect();
    assert_eq!(
        unknown,
        [UnknownField {
            number: 103,
            value: UnknownValue::Varint(42)
        }]
    );
    let again = TestPackedTypes::decode_from_slice(&decoded.encode_to_vec()).unwrap();
    assert_eq!(again, decoded);
}

#[test]
fn closed_enum_unknown_values_in_oneofs_and_maps() {
    use buffa_tests::unittest::protobuf_unittest::{
        Proto2MapEnum, Proto2MapEnumPlusExtra, TestEnumMap, TestEnumMapPlusExtra,
    };
    // Map entries whose value the closed enum lacks go to unknown fields
    // whole, and come back.
    let extra = TestEnumMapPlusExtra {
        known_map_field: [(0, Proto2MapEnumPlusExtra::EProto2MapEnumFoo)].into(),
        unknown_map_field: [
            (0, Proto2MapEnumPlusExtra::EProto2MapEnumFoo),
            (1, Proto2MapEnumPlusExtra::EProto2MapEnumExtra),
        ]
        .into(),
        ..Default::default()
    };
    let bytes = extra.encode_to_vec();
    let narrow = TestEnumMap::decode_from_slice(&bytes).unwrap();
    assert_eq!(narrow.known_map_field, [(0, Proto2MapEnum::Foo)].into());
    assert_eq!(narrow.unknown_map_field, [(0, Proto2MapEnum::Foo)].into());
    assert_eq!(narrow.unknown_fields.iter().count(), 1);
    let back = TestEnumMapPlusExtra::decode_from_slice(&narrow.encode_to_vec()).unwrap();
    assert_eq!(back, extra);
}

#[test]
fn map_unittest_round_trip_and_protoc() {
    use buffa_tests::unittest::protobuf_unittest::{MapEnum, TestMap};
    let map = TestMap {
        map_int32_int32: [(0, 0), (-1, 1), (i32::MIN, i32::MAX)].into(),
        map_int64_int64: [(i64::MIN, i64::MAX)].into(),
        map_uint32_uint32: [(u32::MAX, 7)].into(),
        map_uint64_uint64: [(u64::MAX, 8)].into(),
        map_sint32_sint32: [(-9, 9)].into(),
        map_sint64_sint64: [(-10, 10)].into(),
        map_fixed32_fixed32: [(11, 11)].into(),
        map_fixed64_fixed64: [(12, 12)].into(),
        map_sfixed32_sfixed32: [(-13, 13)].into(),
        map_sfixed64_sfixed64: [(-14, 14)].into(),
        map_int32_float: [(15, 1.5)].into(),
        map_int32_double: [(16, -2.5)].into(),
        map_bool_bool: [(false, true), (true, false)].into(),
        map_string_string: [(String::new(), "empty".into()), ("k".into(), String::new())].into(),
        map_int32_bytes: [(17, vec![0, 1, 2])].into(),
        map_int32_enum: [(18, MapEnum::Bar.into()), (19, EnumValue::Unknown(99))].into(),
        map_int32_foreign_message: [(
            20,
            ForeignMessage {
                c: Some(21),
                ..Default::default()
            },
        )]
        .into(),
        map_string_foreign_message: [("x".into(), ForeignMessage::default())].into(),
        map_int32_all_types: [(22, all_types())].into(),
        ..Default::default()
    };
    let bytes = map.encode_to_vec();
    assert_eq!(bytes.len(), map.encoded_len());
    let decoded = TestMap::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded, map);
    // protoc re-encodes the same content (entry order may differ, so
    // compare through protoc's own decoding of its output).
    let text = protoc_decode(
        "google/protobuf/map_unittest.proto",
        "protobuf_unittest.TestMap",
        &bytes,
    );
    let reference = protoc_encode(
        "google/protobuf/map_unittest.proto",
        "protobuf_unittest.TestMap",
        &text,
    );
    assert_eq!(TestMap::decode_from_slice(&reference).unwrap(), map);
}

#[test]
fn map_entries_missing_key_or_value_and_duplicate_keys() {
    use buffa_tests::unittest::protobuf_unittest::TestMap;
    // map_int32_int32 = 1. An entry without key, one without value, one
    // with its fields reversed, and a duplicate key: the last one wins.
    let bytes = [
        0x0a, 0x02, 0x10, 0x05, // {value: 5}
        0x0a, 0x02, 0x08, 0x07, // {key: 7}
        0x0a, 0x04, 0x10, 0x03, 0x08, 0x02, // {value: 3, key: 2}
        0x0a, 0x04, 0x08, 0x02, 0x10, 0x04, // {key: 2, value: 4}
    ];
    let decoded = TestMap::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.map_int32_int32, [(0, 5), (7, 0), (2, 4)].into());
}

#[test]
fn proto3_unittest_round_trip() {
    use buffa_tests::unittest::proto3_unittest::{self, TestAllTypes};
    let message = TestAllTypes {
        optional_int32: 1,
        optional_string: "s".into(),
        optional_nested_enum: proto3_unittest::test_all_types::NestedEnum::Baz.into(),
        optional_foreign_enum: EnumValue::Unknown(1234),
        repeated_int32: vec![1, -1],
        repeated_nested_enum: vec![EnumValue::Unknown(-7)],
        ..Default::default()
    };
    let bytes = message.encode_to_vec();
    let decoded = TestAllTypes::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded, message);
    assert!(decoded.unknown_fields.is_empty());
    // Implicit presence: zero values are not written.
    let zero = TestAllTypes {
        optional_int32: 0,
        optional_string: String::new(),
        optional_nested_enum: EnumValue::Unknown(0),
        optional_nested_message: Default::default(),
        ..Default::default()
    };
    assert!(zero.encode_to_vec().is_empty());
    let text = protoc_decode(
        "google/protobuf/unittest_proto3.proto",
        "proto3_unittest.TestAllTypes",
        &bytes,
    );
    assert!(text.contains("optional_foreign_enum: 1234"), "{text}");
}

#[test]
fn proto3_optional_unittest() {
    use buffa_tests::unittest::protobuf_unittest::TestProto3Optional;
    let message = TestProto3Optional {
        optional_int32: Some(0),
        optional_string: Some(String::new()),
        optional_bytes: Some(Vec::new()),
        optional_nested_enum: Some(EnumValue::from_i32(0)),
        ..Default::default()
    };
    let bytes = message.encode_to_vec();
    let text = protoc_decode(
        "google/protobuf/unittest_proto3_optional.proto",
        "protobuf_unittest.TestProto3Optional",
        &bytes,
    );
    assert!(text.contains("optional_int32: 0"), "{text}");
    assert!(text.contains("optional_string: \"\""), "{text}");
    let decoded = TestProto3Optional::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.optional_int32, Some(0));
    assert_eq!(decoded.optional_string.as_deref(), Some(""));
    assert_eq!(decoded, message);
}

#[test]
fn open_enum_unknown_values_are_preserved() {
    use buffa_tests::unittest::proto3_preserve_unknown_enum_unittest::{
        MyEnum, MyEnumPlusExtra, MyMessage, MyMessagePlusExtra, my_message, my_message_plus_extra,
    };
    let extra = MyMessagePlusExtra {
        e: MyEnumPlusExtra::EExtra.into(),
        repeated_e: vec![MyEnumPlusExtra::EExtra.into(), MyEnumPlusExtra::EBar.into()],
        repeated_packed_e: vec![MyEnumPlusExtra::EExtra.into()],
        repeated_packed_unexpected_e: vec![MyEnumPlusExtra::EExtra.into()],
        o: Some(my_message_plus_extra::O::OneofE1(
            MyEnumPlusExtra::EExtra.into(),
        )),
        ..Default::default()
    };
    let bytes = extra.encode_to_vec();
    let narrow = MyMessage::decode_from_slice(&bytes).unwrap();
    assert_eq!(narrow.e, EnumValue::<MyEnum>::Unknown(3));
    assert_eq!(
        narrow.repeated_e,
        [EnumValue::Unknown(3), MyEnum::Bar.into()]
    );
    assert_eq!(
        narrow.o,
        Some(my_message::O::OneofE1(EnumValue::Unknown(3)))
    );
    assert!(narrow.unknown_fields.is_empty());
    assert_eq!(narrow.encode_to_vec(), bytes);
}

#[test]
fn proto2_unknown_enum_values_via_preserve_unknown_enum2() {
    use buffa_tests::unittest::proto2_preserve_unknown_enum_unittest::MyMessage;
    use buffa_tests::unittest::proto3_preserve_unknown_enum_unittest::{
        MyEnumPlusExtra, MyMessagePlusExtra,
    };
    let extra = MyMessagePlusExtra {
        e: MyEnumPlusExtra::EExtra.into(),
        repeated_e: vec![MyEnumPlusExtra::EExtra.into(), MyEnumPlusExtra::EBar.into()],
        ..Default::default()
    };
    let bytes = extra.encode_to_vec();
    // The proto2 twin has closed enums: the unknown values become unknown
    // fields, and nothing is lost on the way back.
    let closed = MyMessage::decode_from_slice(&bytes).unwrap();
    assert_eq!(closed.e, None);
    assert_eq!(closed.repeated_e.len(), 1);
    assert_eq!(closed.unknown_fields.iter().count(), 2);
    let back = MyMessagePlusExtra::decode_from_slice(&closed.encode_to_vec()).unwrap();
    assert_eq!(back.e, extra.e);
    let mut repeated = back.repeated_e.clone();
    repeated.sort_by_key(|e| e.to_i32());
    assert_eq!(repeated, [MyEnumPlusExtra::EBar, MyEnumPlusExtra::EExtra]);
}

#[test]
fn required_fields_are_plain_optionals_on_the_wire() {
    use buffa_tests::unittest::protobuf_unittest::{TestRequired, TestRequiredForeign};
    let message = TestRequiredForeign {
        optional_message: TestRequired {
            a: Some(1),
            b: Some(2),
            c: Some(3),
            ..Default::default()
        }
        .into(),
        repeated_message: vec![TestRequired::default()],
        dummy: Some(9),
        ..Default::default()
    };
    let bytes = message.encode_to_vec();
    assert_eq!(
        TestRequiredForeign::decode_from_slice(&bytes).unwrap(),
        message
    );
}

#[test]
fn recursive_messages() {
    use buffa_tests::unittest::protobuf_unittest::{NestedTestAllTypes, TestRecursiveMessage};
    let mut deep = TestRecursiveMessage {
        i: Some(0),
        ..Default::default()
    };
    for i in 1..50 {
        deep = TestRecursiveMessage {
            a: deep.into(),
            i: Some(i),
            ..Default::default()
        };
    }
    let bytes = deep.encode_to_vec();
    assert_eq!(
        TestRecursiveMessage::decode_from_slice(&bytes).unwrap(),
        deep
    );
    let nested = NestedTestAllTypes {
        child: NestedTestAllTypes {
            payload: all_types().into(),
            ..Default::default()
        }
        .into(),
        repeated_child: vec![NestedTestAllTypes::default(); 3],
        ..Default::default()
    };
    let bytes = nested.encode_to_vec();
    assert_eq!(
        NestedTestAllTypes::decode_from_slice(&bytes).unwrap(),
        nested
    );
}

#[test]
fn merging_follows_proto_rules() {
    // Scalars: last wins; repeated: appended; messages: merged.
    let first = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "optional_int32: 1 repeated_int32: [1] optional_foreign_message { c: 1 } optional_string: \"a\"",
    );
    let second = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "optional_int32: 2 repeated_int32: [2] optional_foreign_message { d: 2 }",
    );
    let mut message = TestAllTypes::decode_from_slice(&first).unwrap();
    message.merge_from_slice(&second).unwrap();
    let expected_bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        "optional_int32: 2 repeated_int32: [1, 2] optional_foreign_message { c: 1 d: 2 } optional_string: \"a\"",
    );
    assert_eq!(message.encode_to_vec(), expected_bytes);
    let mut concatenated = first.clone();
    concatenated.extend(&second);
    assert_eq!(
        TestAllTypes::decode_from_slice(&concatenated).unwrap(),
        message
    );
}

#[test]
fn messages_of_every_unittest_package_encode_by_default() {
    // A smoke test touching one type of each generated package, so a
    // package that silently generated nothing would fail to compile here.
    use buffa_tests::unittest::*;
    fn check<M: Message + PartialEq>(message: M) {
        let bytes = message.encode_to_vec();
        assert_eq!(
            M::decode_from_slice(&bytes).unwrap(),
            message,
            "{}",
            M::NAME
        );
    }
    check(edition_unittest::TestAllTypes::default());
    check(editions_unittest::TestDelimited::default());
    check(legacy_features_unittest::TestEditionsMessage::default());
    check(proto2_arena_unittest::ArenaMessage::default());
    check(proto2_nofieldpresence_unittest::TestAllTypes::default());
    check(proto2_wireformat_unittest::TestMessageSet::default());
    check(proto3_arena_unittest::TestAllTypes::default());
    check(proto3_arena_lite_unittest::TestAllTypes::default());
    check(proto3_lite_unittest::TestAllTypes::default());
    check(protobuf_unittest::lazy_imports::ImportedMessage::default());
    check(protobuf_unittest::no_generic_services_test::TestMessage::default());
    check(protobuf_unittest::TestAllTypesLite::default());
    check(protobuf_unittest::TestEnormousDescriptor::default());
    check(protobuf_unittest::TestMessageWithCustomOptions::default());
    check(protobuf_unittest::TestWellKnownTypes::default());
    check(protobuf_unittest::TestOptimizedForSize::default());
    check(protobuf_unittest::TestEmbedOptimizedForSize::default());
    check(protobuf_unittest::TestMapLite::default());
    check(protobuf_unittest::TopLevelMessage::default());
    check(unittest_drop_unknown_fields::Foo::default());
    check(google::protobuf::FileDescriptorSet::default());
    check(pb::TestInvalidFeatures::default());
    let _ = protobuf_unittest::TestAllTypes::NAME;
}

#[test]
fn group_in_a_oneof() {
    use protobuf_unittest::{TestOneof, test_oneof};
    let bytes = protoc_encode(
        UNITTEST,
        "protobuf_unittest.TestOneof",
        r#"FooGroup { a: 5 b: "x" }"#,
    );
    let decoded = TestOneof::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        decoded.foo,
        Some(test_oneof::Foo::Foogroup(Box::new(test_oneof::FooGroup {
            a: Some(5),
            b: Some("x".into()),
            ..Default::default()
        })))
    );
    assert_eq!(decoded.encode_to_vec(), bytes);
    // Start and end keys of field 4.
    assert_eq!(bytes[0], (4 << 3) | 3);
    assert_eq!(*bytes.last().unwrap(), (4 << 3) | 4);
}

#[test]
fn recursive_map_values() {
    use protobuf_unittest::TestRecursiveMapMessage;
    let mut message = TestRecursiveMapMessage::default();
    for depth in 0..20 {
        message = TestRecursiveMapMessage {
            a: [
                (depth.to_string(), message),
                (String::new(), Default::default()),
            ]
            .into(),
            ..Default::default()
        };
    }
    let bytes = message.encode_to_vec();
    assert_eq!(
        TestRecursiveMapMessage::decode_from_slice(&bytes).unwrap(),
        message
    );
}

#[test]
fn message_set_items_survive_as_unknown_groups() {
    use protobuf_unittest::TestMessageSetContainer;
    let file = "google/protobuf/unittest_mset.proto";
    let text = r#"message_set {
        [protobuf_unittest.TestMessageSetExtension1.message_set_extension] { i: 123 }
        [protobuf_unittest.TestMessageSetExtension2.message_set_extension] { str: "foo" }
    }"#;
    let bytes = protoc_encode(file, "protobuf_unittest.TestMessageSetContainer", text);
    let decoded = TestMessageSetContainer::decode_from_slice(&bytes).unwrap();
    let items: Vec<_> = decoded.message_set.unknown_fields.iter().collect();
    assert_eq!(items.len(), 2);
    assert!(
        items
            .iter()
            .all(|item| item.number == 1 && matches!(item.value, UnknownValue::Group(_)))
    );
    assert_eq!(decoded.encode_to_vec(), bytes);
    assert_eq!(
        protoc_decode(
            file,
            "protobuf_unittest.TestMessageSetContainer",
            &decoded.encode_to_vec()
        ),
        protoc_decode(file, "protobuf_unittest.TestMessageSetContainer", &bytes)
    );
}

#[test]
fn extensions_interleaved_with_known_fields() {
    use protobuf_unittest::TestFieldOrderings;
    // Field numbers 1 (known), 5 (extension), 11 (known), 50 (extension),
    // 101 and 200 (known). buffa writes the extensions, unknown to it,
    // after the known fields: a different but equivalent order.
    let text = r#"my_int: 1 [protobuf_unittest.my_extension_int]: 23 my_string: "foo"
        [protobuf_unittest.my_extension_string]: "bar" my_float: 1.5
        optional_nested_message { oo: 7 bb: 8 }"#;
    let bytes = protoc_encode(UNITTEST, "protobuf_unittest.TestFieldOrderings", text);
    let decoded = TestFieldOrderings::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.my_int, Some(1));
    assert_eq!(decoded.my_string.as_deref(), Some("foo"));
    assert_eq!(decoded.optional_nested_message.oo, Some(7));
    assert_eq!(
        decoded
            .unknown_fields
            .iter()
            .map(|f| f.number)
            .collect::<Vec<_>>(),
        [5, 50]
    );
    let written = decoded.encode_to_vec();
    assert_eq!(written.len(), bytes.len());
    assert_ne!(written, bytes);
    assert_eq!(
        protoc_decode(UNITTEST, "protobuf_unittest.TestFieldOrderings", &written),
        protoc_decode(UNITTEST, "protobuf_unittest.TestFieldOrderings", &bytes)
    );
    assert_eq!(
        TestFieldOrderings::decode_from_slice(&written).unwrap(),
        decoded
    );
}
