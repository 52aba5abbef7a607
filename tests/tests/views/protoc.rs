//! protobuf's unittest protos and the editions protos, encoded by protoc.

use super::*;

pub(crate) const UNITTEST: &str = "google/protobuf/unittest.proto";
pub(crate) const MAP_UNITTEST: &str = "google/protobuf/map_unittest.proto";

pub(crate) const PROTO2_TEXT: &str = r#"
optional_int32: -5 optional_int64: 1099511627776 optional_uint32: 300
optional_uint64: 18446744073709551615 optional_sint32: -70000
optional_sint64: -9 optional_fixed32: 7 optional_fixed64: 9
optional_sfixed32: -3 optional_sfixed64: -4 optional_float: 1.5
optional_double: -2.25 optional_bool: true
optional_string: "héllo" optional_bytes: "\001\002"
OptionalGroup { a: 17 }
optional_nested_message { bb: 42 }
optional_foreign_message { c: 7 d: 8 }
optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAR
repeated_int32: [1, -1, 300] repeated_string: ["a", "", "bc"]
repeated_bytes: ["x"] repeated_double: [0.5, -0.0]
RepeatedGroup { a: 1 } RepeatedGroup { a: 2 }
repeated_nested_message { bb: 1 } repeated_nested_message { bb: 2 }
repeated_nested_enum: [FOO, BAR]
default_int32: 9 default_string: "dflt" default_nested_enum: FOO
oneof_nested_message { bb: 5 }
"#;

pub(crate) const MAP_TEXT: &str = r#"
map_int32_int32 { key: 1 value: 2 } map_int32_int32 { key: -3 value: 4 }
map_int64_int64 { key: -5 value: 6 } map_uint32_uint32 { key: 7 value: 8 }
map_sint64_sint64 { key: -9 value: -10 } map_fixed32_fixed32 { key: 11 value: 12 }
map_sfixed64_sfixed64 { key: -13 value: 14 } map_int32_double { key: 15 value: 0.5 }
map_string_string { key: "k" value: "v" } map_string_string { key: "" value: "" }
map_int32_bytes { key: 16 value: "\377" }
map_int32_enum { key: 5 value: MAP_ENUM_BAR }
map_int32_foreign_message { key: 6 value { c: 7 } }
map_string_foreign_message { key: "f" value { } }
map_bool_bool { key: true value: false }
"#;

pub(crate) fn unittest_bytes(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&unittest_include(), file, message_type, text)
}

/// protoc encodes `text`; the view of it agrees with the owned decode, and
/// protoc reads what the view writes as what it wrote. Returns protoc's
/// bytes and the view's.
fn protoc_agrees<M: HasView + PartialEq + Debug>(
    include: &Path,
    file: &str,
    message_type: &str,
    text: &str,
) -> (Vec<u8>, Vec<u8>) {
    let include = include.to_path_buf();
    let bytes = protoc_encode_in(&include, file, message_type, text);
    let written = view_agrees::<M>(&bytes);
    assert_eq!(
        protoc_decode_in(&include, file, message_type, &written),
        protoc_decode_in(&include, file, message_type, &bytes),
        "protoc reads the view's bytes differently"
    );
    (bytes, written)
}

/// Views of protobuf's unittest messages as protoc encodes them: proto2
/// with groups, defaults and a oneof, packed and unpacked repeated fields,
/// proto3, maps, and edition 2023 (DELIMITED sub-messages, a DELIMITED
/// oneof member and list, packed and expanded lists); the views write
/// protoc's bytes (maps: the same entries).
#[test]
fn unittest_messages_read_and_write_like_protoc() {
    use buffa_tests::editions::editions_check::Features;
    use buffa_tests::unittest::{edition_unittest, proto3_unittest, protobuf_unittest as u};
    let unittest = unittest_include();
    let same = |(bytes, written): (Vec<u8>, Vec<u8>)| assert_eq!(written, bytes);
    same(protoc_agrees::<u::TestAllTypes>(
        &unittest,
        UNITTEST,
        "protobuf_unittest.TestAllTypes",
        PROTO2_TEXT,
    ));
    // Built with lazy views: singular, repeated and group fields holding
    // `TestAllTypes`, one of them twice (its occurrences merge).
    let payload = "optional_int32: 1 optional_string: \"x\" repeated_int32: [2, 3]";
    let (bytes, _) = protoc_agrees::<u::TestParsingMerge>(
        &unittest,
        UNITTEST,
        "protobuf_unittest.TestParsingMerge",
        &format!(
            "required_all_types {{ {payload} }} optional_all_types {{ {payload} }} \
             repeated_all_types {{ {payload} }} repeated_all_types {{ }} \
             optionalgroup {{ optional_group_all_types {{ {payload} }} }} \
             repeatedgroup {{ repeated_group_all_types {{ }} }}"
        ),
    );
    let twice = [bytes.clone(), bytes].concat();
    let view = u::TestParsingMergeView::decode_view(&twice).unwrap();
    assert_eq!(view.repeated_all_types.len(), 4);
    assert_eq!(view.optional_all_types.payloads().count(), 2);
    let merged = view.optional_all_types.get().unwrap();
    assert_eq!(merged.repeated_int32, [2, 3, 2, 3]);
    assert_eq!(
        view.to_owned_message().unwrap(),
        u::TestParsingMerge::decode_from_slice(&twice).unwrap()
    );
    let repeated = "_int32: [1, -1] _int64: [-2] _uint32: [3] _uint64: [4] _sint32: [-5] \
        _sint64: [6] _fixed32: [7] _fixed64: [8] _sfixed32: [-9] _sfixed64: [10] \
        _float: [1.5] _double: [-0.25] _bool: [true, false] _enum: [FOREIGN_BAZ]";
    for (kind, message_type) in [
        ("packed", "TestPackedTypes"),
        ("unpacked", "TestUnpackedTypes"),
    ] {
        let text = repeated.replace(" _", &format!(" {kind}_"));
        let text = format!("{kind}{text}");
        let message_type = format!("protobuf_unittest.{message_type}");
        if kind == "packed" {
            same(protoc_agrees::<u::TestPackedTypes>(
                &unittest,
                UNITTEST,
                &message_type,
                &text,
            ));
        } else {
            same(protoc_agrees::<u::TestUnpackedTypes>(
                &unittest,
                UNITTEST,
                &message_type,
                &text,
            ));
        }
    }
    same(protoc_agrees::<proto3_unittest::TestAllTypes>(
        &unittest,
        "google/protobuf/unittest_proto3.proto",
        "proto3_unittest.TestAllTypes",
        "optional_int32: 1 optional_string: \"s\" optional_nested_message { bb: 3 } \
         optional_nested_enum: BAZ repeated_int32: [4, 5] repeated_nested_message { bb: 8 } \
         repeated_nested_enum: [FOO, BAZ] oneof_string: \"o\"",
    ));
    let (_, written) = protoc_agrees::<u::TestMap>(
        &unittest,
        MAP_UNITTEST,
        "protobuf_unittest.TestMap",
        MAP_TEXT,
    );
    let view = view_of::<u::TestMap>(&written).unwrap();
    assert_eq!(view.map_string_string.get(&"k"), Some("v"));
    assert_eq!(
        view.map_int32_int32.iter().collect::<Vec<_>>(),
        [(-3, 4), (1, 2)]
    );
    same(protoc_agrees::<edition_unittest::TestAllTypes>(
        &unittest,
        "google/protobuf/edition_unittest.proto",
        "edition_unittest.TestAllTypes",
        "optional_int32: 101 optionalgroup { a: 117 } optional_nested_message { bb: 118 } \
         repeated_int32: [201, 301] repeatedgroup { a: 217 } repeatedgroup { a: 317 } \
         oneof_string: \"604\"",
    ));
    same(protoc_agrees::<Features>(
        &local_protos().join("editions"),
        "features.proto",
        "editions_check.Features",
        r#"implicit_int: 1 implicit_string: "s" explicit_int: 0 required_int: 0
        packed: [1, 300] expanded: [1, 300] expanded_enum: [OPEN_ONE, 5]
        delimited { a: 7 child { a: 8 } } length_prefixed { a: 9 }
        delimited_list { } delimited_list { a: 10 } closed: CLOSED_TWO
        closed_list: [CLOSED_ONE] inner_map { key: 11 value { a: 12 } }
        delimited_member { a: 13 child { a: 14 } }"#,
    ));
}

/// Extensions of `TestAllExtensions` (which declares no field) are unknown
/// fields of its view: spans of protoc's bytes that cover them whole,
/// iterated like the owned message's, groups and sub-messages included.
#[test]
fn extensions_are_unknown_fields_of_the_view() {
    use buffa_tests::unittest::protobuf_unittest::TestAllExtensions;
    let text = r#"
        [protobuf_unittest.optional_int32_extension]: 101
        [protobuf_unittest.optional_fixed64_extension]: 108
        [protobuf_unittest.optional_string_extension]: "115"
        [protobuf_unittest.optionalgroup_extension] { a: 117 }
        [protobuf_unittest.optional_nested_message_extension] { bb: 118 }
        [protobuf_unittest.repeated_int32_extension]: [201, 301]
        [protobuf_unittest.repeatedgroup_extension] { a: 217 }
        [protobuf_unittest.oneof_bytes_extension]: "604"
    "#;
    let (bytes, written) = protoc_agrees::<TestAllExtensions>(
        &unittest_include(),
        UNITTEST,
        "protobuf_unittest.TestAllExtensions",
        text,
    );
    assert_eq!(written, bytes);
    let view = view_of::<TestAllExtensions>(&bytes).unwrap();
    let owned = TestAllExtensions::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        unknown_agree(&view.unknown_fields, &owned.unknown_fields),
        9
    );
    assert!(view.unknown_fields.spans().all(|span| inside(&bytes, span)));
    let covered: usize = view.unknown_fields.spans().map(<[u8]>::len).sum();
    assert_eq!(covered, bytes.len());
}
