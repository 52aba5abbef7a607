//! Filled messages of protobuf's unittest protos, as protobuf's own
//! `TestUtil` fills them: `TestAllTypes`, `TestPackedTypes` and `TestMap`.

use buffa::EnumValue;
use buffa_tests::unittest::protobuf_unittest::{
    ForeignEnum, ForeignMessage, MapEnum, TestAllTypes, TestMap, TestPackedTypes, test_all_types,
};
use buffa_tests::unittest::protobuf_unittest_import::{
    ImportEnum, ImportMessage, PublicImportMessage,
};

/// Every field of `TestAllTypes` set, as protobuf's own `TestUtil` does.
pub fn all_types() -> TestAllTypes {
    use test_all_types::{NestedEnum, NestedMessage, OneofField, OptionalGroup, RepeatedGroup};
    let nested = |bb| NestedMessage {
        bb: Some(bb),
        ..Default::default()
    };
    TestAllTypes {
        optional_int32: Some(101),
        optional_int64: Some(102),
        optional_uint32: Some(103),
        optional_uint64: Some(104),
        optional_sint32: Some(105),
        optional_sint64: Some(106),
        optional_fixed32: Some(107),
        optional_fixed64: Some(108),
        optional_sfixed32: Some(109),
        optional_sfixed64: Some(110),
        optional_float: Some(111.0),
        optional_double: Some(112.0),
        optional_bool: Some(true),
        optional_string: Some("115".into()),
        optional_bytes: Some(b"116".to_vec()),
        optionalgroup: OptionalGroup {
            a: Some(117),
            ..Default::default()
        }
        .into(),
        optional_nested_message: nested(118).into(),
        optional_foreign_message: ForeignMessage {
            c: Some(119),
            ..Default::default()
        }
        .into(),
        optional_import_message: ImportMessage {
            d: Some(120),
            ..Default::default()
        }
        .into(),
        optional_nested_enum: Some(NestedEnum::Baz),
        optional_foreign_enum: Some(ForeignEnum::ForeignBaz),
        optional_import_enum: Some(ImportEnum::ImportBaz),
        optional_string_piece: Some("124".into()),
        optional_cord: Some("125".into()),
        optional_public_import_message: PublicImportMessage {
            e: Some(126),
            ..Default::default()
        }
        .into(),
        optional_lazy_message: nested(127).into(),
        optional_unverified_lazy_message: nested(128).into(),
        repeated_int32: vec![201, 301],
        repeated_int64: vec![202, 302],
        repeated_uint32: vec![203, 303],
        repeated_uint64: vec![204, 304],
        repeated_sint32: vec![205, 305],
        repeated_sint64: vec![206, 306],
        repeated_fixed32: vec![207, 307],
        repeated_fixed64: vec![208, 308],
        repeated_sfixed32: vec![209, 309],
        repeated_sfixed64: vec![210, 310],
        repeated_float: vec![211.0, 311.0],
        repeated_double: vec![212.0, 312.0],
        repeated_bool: vec![true, false],
        repeated_string: vec!["215".into(), "315".into()],
        repeated_bytes: vec![b"216".to_vec(), b"316".to_vec()],
        repeatedgroup: vec![
            RepeatedGroup {
                a: Some(217),
                ..Default::default()
            },
            RepeatedGroup {
                a: Some(317),
                ..Default::default()
            },
        ],
        repeated_nested_message: vec![nested(218), nested(318)],
        repeated_foreign_message: vec![
            ForeignMessage {
                c: Some(219),
                ..Default::default()
            },
            ForeignMessage {
                c: Some(319),
                ..Default::default()
            },
        ],
        repeated_import_message: vec![
            ImportMessage {
                d: Some(220),
                ..Default::default()
            },
            ImportMessage {
                d: Some(320),
                ..Default::default()
            },
        ],
        repeated_nested_enum: vec![NestedEnum::Bar, NestedEnum::Baz],
        repeated_foreign_enum: vec![ForeignEnum::ForeignBar, ForeignEnum::ForeignBaz],
        repeated_import_enum: vec![ImportEnum::ImportBar, ImportEnum::ImportBaz],
        repeated_string_piece: vec!["224".into(), "324".into()],
        repeated_cord: vec!["225".into(), "325".into()],
        repeated_lazy_message: vec![nested(227), nested(327)],
        default_int32: Some(401),
        default_int64: Some(402),
        default_uint32: Some(403),
        default_uint64: Some(404),
        default_sint32: Some(405),
        default_sint64: Some(406),
        default_fixed32: Some(407),
        default_fixed64: Some(408),
        default_sfixed32: Some(409),
        default_sfixed64: Some(410),
        default_float: Some(411.0),
        default_double: Some(412.0),
        default_bool: Some(false),
        default_string: Some("415".into()),
        default_bytes: Some(b"416".to_vec()),
        default_nested_enum: Some(NestedEnum::Foo),
        default_foreign_enum: Some(ForeignEnum::ForeignFoo),
        default_import_enum: Some(ImportEnum::ImportFoo),
        default_string_piece: Some("424".into()),
        default_cord: Some("425".into()),
        oneof_field: Some(OneofField::OneofBytes(b"604".to_vec())),
        ..Default::default()
    }
}

/// Two values in every packed field of `TestPackedTypes`.
pub fn packed_types() -> TestPackedTypes {
    TestPackedTypes {
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
    }
}

/// Entries in every map field of `TestMap`, boundary keys and values
/// among them, a `TestAllTypes` value included.
pub fn map() -> TestMap {
    TestMap {
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
        map_int32_all_types: [(22, all_types()), (23, TestAllTypes::default())].into(),
        ..Default::default()
    }
}
