//! `DynamicMessage` against generated code and prost on the same schemas:
//! random prost values (`common::strategies`) encoded by prost must decode
//! into a dynamic message that re-encodes to the bytes buffa's generated
//! type writes; mutated encodings must be accepted or refused by both
//! alike; protobuf's unittest messages, extensions included, round-trip.
//! The descriptors come from protoc (`--descriptor_set_out`), not from
//! buffa.

mod common;

use std::sync::OnceLock;

use buffa::Message as _;
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, Value};
use buffa_tests::crosscheck::crosscheck as b;
use buffa_tests::prost_crosscheck::crosscheck as p;
use buffa_tests::unittest::protobuf_unittest::{TestAllExtensions, TestAllTypes};
use common::mutate::{mutate, mutation};
use common::strategies::*;
use common::{local_protos, protoc_descriptor_set, protoc_encode, unittest_include};
use proptest::prelude::*;

/// One pool of the cross-check and unittest protos, built by protoc.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool = DescriptorPool::decode(&protoc_descriptor_set(
            &local_protos().join("crosscheck"),
            &["proto2.proto", "proto3.proto"],
        ))
        .expect("the cross-check protos make a pool");
        let unittest = DescriptorPool::decode(&protoc_descriptor_set(
            &unittest_include(),
            &["google/protobuf/unittest.proto"],
        ))
        .expect("the unittest protos make a pool");
        pool.add_file_descriptor_set(unittest.file_descriptor_set())
            .expect("the two sets share only identical files");
        pool
    })
}

fn descriptor(full_name: &str) -> MessageDescriptor {
    pool()
        .get_message_by_name(full_name)
        .unwrap_or_else(|| panic!("{full_name} is in the pool"))
}

/// prost's bytes of `value` decode as a generated `B` and as a dynamic
/// message of the same type; both write the same bytes.
fn same_as_generated<P: prost::Message, B: buffa::Message>(value: &P) {
    let bytes = value.encode_to_vec();
    let generated = B::decode_from_slice(&bytes).expect("generated decode");
    let dynamic = DynamicMessage::decode(descriptor(B::NAME), &bytes).expect("dynamic decode");
    assert_eq!(
        dynamic.encode_to_vec(),
        generated.encode_to_vec(),
        "{dynamic:?}"
    );
    assert_eq!(dynamic.encoded_len(), generated.encoded_len());
}

/// `bytes` are accepted by the generated `B` exactly when a dynamic
/// message accepts them, and then both write the same bytes.
fn same_verdict<B: buffa::Message>(bytes: &[u8]) {
    let generated = B::decode_from_slice(bytes);
    let dynamic = DynamicMessage::decode(descriptor(B::NAME), bytes);
    match (generated, dynamic) {
        (Ok(generated), Ok(dynamic)) => {
            assert_eq!(dynamic.encode_to_vec(), generated.encode_to_vec())
        }
        (Err(_), Err(_)) => {}
        (generated, dynamic) => panic!(
            "generated {:?} but dynamic {:?}",
            generated.map(drop),
            dynamic.map(drop)
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn implicit_fields(value in implicit()) { same_as_generated::<p::Implicit, b::Implicit>(&value) }

    #[test]
    fn optional_fields(value in optional()) { same_as_generated::<p::Optional, b::Optional>(&value) }

    #[test]
    fn packed_fields(value in packed()) { same_as_generated::<p::Packed, b::Packed>(&value) }

    #[test]
    fn expanded_fields(value in expanded()) { same_as_generated::<p::Expanded, b::Expanded>(&value) }

    #[test]
    fn map_fields(value in maps()) { same_as_generated::<p::Maps, b::Maps>(&value) }

    #[test]
    fn nested_messages(value in nested()) { same_as_generated::<p::Nested, b::Nested>(&value) }

    #[test]
    fn oneof_fields(value in oneofs()) { same_as_generated::<p::Oneofs, b::Oneofs>(&value) }

    #[test]
    fn everything_proto3(value in everything()) {
        same_as_generated::<p::Everything, b::Everything>(&value)
    }

    #[test]
    fn everything_proto2(value in everything2()) {
        same_as_generated::<p::two::Everything2, b::two::Everything2>(&value)
    }

    #[test]
    fn proto2_groups_and_closed_maps(groups in groups(), maps in closed_maps()) {
        same_as_generated::<p::two::Groups, b::two::Groups>(&groups);
        same_as_generated::<p::two::ClosedMaps, b::two::ClosedMaps>(&maps);
    }

    #[test]
    fn mutated_encodings_get_the_same_verdict(
        value in everything2(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let bytes = mutate(&prost::Message::encode_to_vec(&value), &mutations);
        same_verdict::<b::two::Everything2>(&bytes);
    }

    #[test]
    fn mutated_proto3_encodings_get_the_same_verdict(
        value in everything(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let bytes = mutate(&prost::Message::encode_to_vec(&value), &mutations);
        same_verdict::<b::Everything>(&bytes);
    }
}

/// Every field of protobuf's `TestAllTypes`, encoded by protoc.
const ALL_TYPES_TEXT: &str = r#"
optional_int32: -101 optional_int64: -102 optional_uint32: 103 optional_uint64: 104
optional_sint32: -105 optional_sint64: -106 optional_fixed32: 107 optional_fixed64: 108
optional_sfixed32: -109 optional_sfixed64: -110 optional_float: 111.5 optional_double: -112.25
optional_bool: true optional_string: "115 \xe2\x82\xac" optional_bytes: "\001\377"
OptionalGroup { a: 117 }
optional_nested_message { bb: 118 } optional_foreign_message { c: 119 }
optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAR
repeated_int32: [201, -301] repeated_sint64: [-206, 306] repeated_string: ["215", ""]
RepeatedGroup { a: 217 } RepeatedGroup { a: 317 }
repeated_nested_message { bb: 218 } repeated_nested_message {}
repeated_nested_enum: [BAR, BAZ]
default_int32: 401 default_string: "415"
oneof_nested_message { bb: 601 }
"#;

#[test]
fn unittest_all_types_round_trip_like_generated_code() {
    let bytes = protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        ALL_TYPES_TEXT,
    );
    let generated = TestAllTypes::decode_from_slice(&bytes).unwrap();
    let dynamic = DynamicMessage::decode(descriptor(TestAllTypes::NAME), &bytes).unwrap();
    assert_eq!(dynamic.encode_to_vec(), generated.encode_to_vec());

    // The values read back are the ones protoc wrote.
    assert_eq!(
        dynamic.field_by_name("optional_int32"),
        Some(&Value::I32(-101))
    );
    assert_eq!(
        dynamic.field_by_name("optional_sint64"),
        Some(&Value::I64(-106))
    );
    assert_eq!(
        dynamic.field_by_name("optional_fixed32"),
        Some(&Value::U32(107))
    );
    assert_eq!(
        dynamic.field_by_name("optional_float"),
        Some(&Value::F32(111.5))
    );
    assert_eq!(
        dynamic.field_by_name("optional_string"),
        Some(&Value::String("115 \u{20ac}".into()))
    );
    assert_eq!(
        dynamic.field_by_name("optional_bytes"),
        Some(&Value::Bytes(vec![1, 255]))
    );
    assert_eq!(
        dynamic.field_by_name("repeated_int32"),
        Some(&Value::List(vec![Value::I32(201), Value::I32(-301)]))
    );
    // BAZ = 3 in TestAllTypes.NestedEnum.
    assert_eq!(
        dynamic.field_by_name("optional_nested_enum"),
        Some(&Value::EnumNumber(3))
    );
    let Some(Value::Message(group)) = dynamic.field_by_name("optionalgroup") else {
        panic!("OptionalGroup is a message: {dynamic:?}");
    };
    assert_eq!(group.field_by_name("a"), Some(&Value::I32(117)));
    let Some(Value::Message(oneof)) = dynamic.field_by_name("oneof_nested_message") else {
        panic!("the oneof member is set: {dynamic:?}");
    };
    assert_eq!(oneof.field_by_name("bb"), Some(&Value::I32(601)));
}

#[test]
fn extensions_the_pool_declares_are_fields() {
    let text = "[protobuf_unittest.optional_int32_extension]: 7 \
                [protobuf_unittest.repeated_string_extension]: [\"a\", \"b\"] \
                [protobuf_unittest.optional_nested_message_extension] { bb: 9 } \
                [protobuf_unittest.optionalgroup_extension] { a: 5 }";
    let bytes = protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllExtensions",
        text,
    );
    let extendee = descriptor(TestAllExtensions::NAME);
    let dynamic = DynamicMessage::decode(extendee.clone(), &bytes).unwrap();
    assert!(dynamic.unknown_fields().is_empty(), "{dynamic:?}");
    let int32 = pool()
        .get_extension_by_name("protobuf_unittest.optional_int32_extension")
        .unwrap();
    assert_eq!(
        dynamic.field_by_number(int32.number()),
        Some(&Value::I32(7))
    );
    let set: Vec<String> = dynamic
        .set_fields()
        .into_iter()
        .map(|(field, _)| field.full_name().to_owned())
        .collect();
    assert_eq!(
        set,
        [
            "protobuf_unittest.optional_int32_extension",
            "protobuf_unittest.optionalgroup_extension",
            "protobuf_unittest.optional_nested_message_extension",
            "protobuf_unittest.repeated_string_extension",
        ]
    );
    // Generated code keeps them as unknown fields, in the order read, and
    // writes them back as read; so does the dynamic message when the
    // input is in field-number order, as protoc writes it.
    let generated = TestAllExtensions::decode_from_slice(&bytes).unwrap();
    assert_eq!(dynamic.encode_to_vec(), generated.encode_to_vec());
    assert_eq!(dynamic.encode_to_vec(), bytes);
}

#[test]
fn set_through_reflection_encodes_like_protoc() {
    let all = descriptor(TestAllTypes::NAME);
    let mut message = DynamicMessage::new(all.clone());
    let field = |name: &str| all.get_field_by_name(name).unwrap();
    message
        .set_field(&field("optional_sint32"), Value::I32(-105))
        .unwrap();
    message
        .set_field(
            &field("repeated_double"),
            Value::List(vec![Value::F64(1.5), Value::F64(-0.0)]),
        )
        .unwrap();
    message
        .set_field(&field("oneof_uint32"), Value::U32(5))
        .unwrap();
    // A second oneof member replaces the first.
    message
        .set_field(&field("oneof_string"), Value::String("x".into()))
        .unwrap();
    assert!(!message.has_field(&field("oneof_uint32")));
    // A value of the wrong type is refused and changes nothing.
    let error = message
        .set_field(&field("optional_int32"), Value::String("1".into()))
        .unwrap_err();
    assert!(error.to_string().contains("optional_int32"), "{error}");
    assert!(!message.has_field(&field("optional_int32")));

    let expected = protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        "optional_sint32: -105 repeated_double: [1.5, -0] oneof_string: \"x\"",
    );
    assert_eq!(message.encode_to_vec(), expected);
}

#[test]
fn nesting_beyond_the_limit_is_refused_both_ways() {
    // The cross-check `Nested` recurses through `child`.
    let nested = descriptor("crosscheck.Nested");
    let child = nested.get_field_by_name("child").unwrap();
    let mut root = DynamicMessage::new(nested.clone());
    {
        let mut current: &mut dyn ReflectMessage = &mut root;
        for _ in 0..150 {
            let buffa_reflect::ValueMut::Message(next) = current.field_mut(&child).unwrap() else {
                panic!("child is a message field");
            };
            current = next;
        }
    }
    let error = root
        .encode_to_vec_with_options(&buffa::EncodeOptions::new())
        .unwrap_err();
    assert!(error.to_string().contains("recursion limit"), "{error}");
    let bytes = root
        .encode_to_vec_with_options(&buffa::EncodeOptions::new().with_recursion_limit(200))
        .unwrap();
    let error = DynamicMessage::decode(nested.clone(), &bytes).unwrap_err();
    assert!(error.to_string().contains("recursion limit"), "{error}");
}

/// Cases a review found where a dynamic message parted from generated
/// code; each input is checked against the generated type's verdict.
#[test]
fn edge_cases_agree_with_generated_code() {
    // A known extension (optional_int32_extension, field 1) with a wire
    // type that cannot hold it: generated code keeps it unknown, so must
    // the dynamic message.
    let wrong_wire_type = [0x0a, 0x00];
    same_verdict::<TestAllExtensions>(&wrong_wire_type);
    let dynamic =
        DynamicMessage::decode(descriptor(TestAllExtensions::NAME), &wrong_wire_type).unwrap();
    assert_eq!(dynamic.unknown_fields().as_bytes(), wrong_wire_type);
    assert!(dynamic.set_fields().is_empty());

    // A map entry whose closed-enum value is first undeclared (99), then
    // declared: the last value wins and the entry is known.
    // string_enum = 1: entry { key "k", value 99, value 0 }.
    let entry = [0x0a, 0x07, 0x0a, 0x01, b'k', 0x10, 99, 0x10, 0x00];
    same_verdict::<b::two::ClosedMaps>(&entry);
    let dynamic = DynamicMessage::decode(descriptor("crosscheck.two.ClosedMaps"), &entry).unwrap();
    assert!(dynamic.unknown_fields().is_empty(), "{dynamic:?}");

    // A zero in an implicit-presence field and an empty packed run are
    // not set: the message equals an empty one.
    let implicit = descriptor("crosscheck.Implicit");
    let zero = [0x18, 0x00];
    same_verdict::<b::Implicit>(&zero);
    assert_eq!(
        DynamicMessage::decode(implicit.clone(), &zero).unwrap(),
        DynamicMessage::new(implicit)
    );
    let packed = descriptor("crosscheck.Packed");
    assert_eq!(
        DynamicMessage::decode(packed.clone(), &[0x0a, 0x00]).unwrap(),
        DynamicMessage::new(packed)
    );
}

#[test]
fn closed_enums_take_declared_numbers_only() {
    let oneofs = descriptor("crosscheck.two.Oneofs2");
    let field = oneofs.get_field_by_name("c_enum").unwrap();
    let mut message = DynamicMessage::new(oneofs);
    // CLOSED_NEGATIVE = -5 is declared, 3 is not.
    message.set_field(&field, Value::EnumNumber(-5)).unwrap();
    let error = message.set_field(&field, Value::EnumNumber(3)).unwrap_err();
    assert!(error.to_string().contains("c_enum"), "{error}");
    assert_eq!(
        message.field_by_name("c_enum"),
        Some(&Value::EnumNumber(-5))
    );
}
