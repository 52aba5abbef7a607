//! Round-trip stability on hostile input: encodings of real messages are
//! mutated at random (bytes overwritten, truncated, spliced), and whatever
//! the decoder accepts must survive encode -> decode unchanged. This checks
//! that generated `compute_size`, `write_to` and `merge_field` agree on
//! every field kind, including unknown fields, closed-enum values routed to
//! them, groups, oneofs and maps, on inputs no hand-written test thought of.

mod common;

use buffa::Message;
use buffa_tests::unittest::proto3_unittest;
use buffa_tests::unittest::protobuf_unittest::{TestAllTypes, TestMap};
use common::mutate::{mutate, mutation};
use common::protoc_encode;
use proptest::prelude::*;

const PROTO2_SEED: &str = r#"
optional_int32: -5 optional_int64: 1099511627776 optional_uint32: 300
optional_sint32: -70000 optional_fixed64: 9 optional_sfixed32: -3
optional_float: 1.5 optional_double: -2.25 optional_bool: true
optional_string: "héllo" optional_bytes: "\001\002"
OptionalGroup { a: 17 }
optional_nested_message { bb: 42 }
optional_foreign_message { c: 7 }
optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAR
repeated_int32: [1, -1, 300] repeated_string: ["a", "bc"]
RepeatedGroup { a: 1 } RepeatedGroup { a: 2 }
repeated_nested_message { bb: 1 } repeated_nested_message { bb: 2 }
repeated_nested_enum: [FOO, BAR]
default_int32: 9 default_string: "dflt"
oneof_nested_message { bb: 5 }
"#;

const PROTO3_SEED: &str = r#"
optional_int32: 1 optional_sint64: -9 optional_string: "s"
optional_nested_message { bb: 3 } optional_nested_enum: BAZ
repeated_int32: [4, 5, 6] repeated_double: [0.5] repeated_nested_enum: [FOO, BAZ]
repeated_nested_message { bb: 8 } oneof_string: "o"
"#;

const MAP_SEED: &str = r#"
map_int32_int32 { key: 1 value: 2 } map_int32_int32 { key: -3 value: 4 }
map_string_string { key: "k" value: "v" }
map_int32_enum { key: 5 value: MAP_ENUM_BAR }
map_int32_foreign_message { key: 6 value { c: 7 } }
map_bool_bool { key: true value: false }
"#;

/// Whatever decodes must re-encode to the length it reports, and that
/// encoding must decode to a message that encodes to the same fields.
/// (Encodings are compared rather than messages because NaN != NaN, and as
/// sorted field lists because a `HashMap` iterates in no fixed order.)
fn check_stable<M: Message>(input: &[u8]) {
    let Ok(message) = M::decode_from_slice(input) else {
        return;
    };
    let encoded = message.encode_to_vec();
    assert_eq!(encoded.len(), message.encoded_len());
    let again = M::decode_from_slice(&encoded)
        .unwrap_or_else(|e| panic!("re-encoding of accepted input does not decode: {e}"));
    assert_eq!(
        top_level_fields(&again.encode_to_vec()),
        top_level_fields(&encoded),
        "decode(encode(m)) differs from m for input {input:02x?}"
    );
}

/// The top-level fields of an encoding, each as its debug form, sorted.
fn top_level_fields(encoded: &[u8]) -> Vec<String> {
    let mut fields = buffa::UnknownFields::new();
    fields.push_raw(encoded).unwrap();
    let mut listed: Vec<String> = fields.iter().map(|field| format!("{field:?}")).collect();
    let total: usize = listed.len();
    assert!(
        total > 0 || encoded.is_empty(),
        "encoding does not parse as fields"
    );
    listed.sort();
    listed
}

fn seed(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode(file, message_type, text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn proto2_all_types_round_trip_stays_stable(mutations in prop::collection::vec(mutation(), 1..6)) {
        thread_local! {
            static SEED: Vec<u8> = seed("google/protobuf/unittest.proto", "protobuf_unittest.TestAllTypes", PROTO2_SEED);
        }
        SEED.with(|seed| check_stable::<TestAllTypes>(&mutate(seed, &mutations)));
    }

    #[test]
    fn proto3_all_types_round_trip_stays_stable(mutations in prop::collection::vec(mutation(), 1..6)) {
        thread_local! {
            static SEED: Vec<u8> = seed("google/protobuf/unittest_proto3.proto", "proto3_unittest.TestAllTypes", PROTO3_SEED);
        }
        SEED.with(|seed| check_stable::<proto3_unittest::TestAllTypes>(&mutate(seed, &mutations)));
    }

    #[test]
    fn maps_round_trip_stays_stable(mutations in prop::collection::vec(mutation(), 1..6)) {
        thread_local! {
            static SEED: Vec<u8> = seed("google/protobuf/map_unittest.proto", "protobuf_unittest.TestMap", MAP_SEED);
        }
        SEED.with(|seed| check_stable::<TestMap>(&mutate(seed, &mutations)));
    }
}

#[test]
fn seeds_decode_unmutated() {
    let proto2 = seed(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        PROTO2_SEED,
    );
    let message = TestAllTypes::decode_from_slice(&proto2).unwrap();
    assert_eq!(message.optional_int32, Some(-5));
    assert_eq!(message.optionalgroup.a, Some(17));
    assert!(message.unknown_fields.is_empty());
    let map = seed(
        "google/protobuf/map_unittest.proto",
        "protobuf_unittest.TestMap",
        MAP_SEED,
    );
    assert_eq!(
        TestMap::decode_from_slice(&map)
            .unwrap()
            .map_int32_int32
            .len(),
        2
    );
}
