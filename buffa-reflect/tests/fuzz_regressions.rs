//! Inputs the fuzz targets of `fuzz/` (`descriptor_pool`,
//! `dynamic_message`) found failing, kept as tests of the property the
//! target checks.

use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, Value};
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FileDescriptorProto,
    field_descriptor_proto::{Label, Type},
};

fn field(name: &str, number: i32, label: Label, r#type: Type) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        label: Some(label),
        r#type: Some(r#type),
        ..Default::default()
    }
}

fn typed(name: &str, number: i32, r#type: Type, type_name: &str) -> FieldDescriptorProto {
    FieldDescriptorProto {
        type_name: Some(type_name.into()),
        ..field(name, number, Label::Optional, r#type)
    }
}

/// The part of `fuzz/proto/dynamic.proto` the inputs below use, under the
/// same field numbers (proto3 throughout, so repeated scalars are packed):
///
/// ```proto
/// enum Open { OPEN_ZERO = 0; OPEN_ONE = 1; }
/// message Three {
///   int32 f_int32 = 5; string f_string = 9; Open open = 16;
///   repeated int32 packed = 20;
/// }
/// message Root { repeated sint64 r_sint64 = 21; Three three = 60; }
/// ```
fn root() -> MessageDescriptor {
    let file = FileDescriptorProto {
        name: Some("fuzz_regressions.proto".into()),
        package: Some("fuzz".into()),
        syntax: Some("proto3".into()),
        enum_type: vec![EnumDescriptorProto {
            name: Some("Open".into()),
            value: ["OPEN_ZERO", "OPEN_ONE"]
                .iter()
                .zip(0..)
                .map(|(name, number)| EnumValueDescriptorProto {
                    name: Some((*name).into()),
                    number: Some(number),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        message_type: vec![
            DescriptorProto {
                name: Some("Three".into()),
                field: vec![
                    field("f_int32", 5, Label::Optional, Type::Int32),
                    field("f_string", 9, Label::Optional, Type::String),
                    typed("open", 16, Type::Enum, ".fuzz.Open"),
                    field("packed", 20, Label::Repeated, Type::Int32),
                ],
                ..Default::default()
            },
            DescriptorProto {
                name: Some("Root".into()),
                field: vec![
                    field("r_sint64", 21, Label::Repeated, Type::Sint64),
                    typed("three", 60, Type::Message, ".fuzz.Three"),
                ],
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_proto(file).expect("a valid file");
    pool.get_message_by_name("fuzz.Root").expect("fuzz.Root")
}

/// What `dynamic_message` checks of an accepted input: the encoding
/// decodes to the same message, and encodes to the same bytes again.
fn round_trip(root: &MessageDescriptor, input: &[u8]) -> DynamicMessage {
    let message = DynamicMessage::decode(root.clone(), input).expect("the input decodes");
    let bytes = message.encode_to_vec();
    assert_eq!(message.encoded_len(), bytes.len());
    let again = DynamicMessage::decode(root.clone(), &bytes).expect("the encoding decodes");
    assert_eq!(again, message, "the round trip changed the message");
    assert_eq!(again.encode_to_vec(), bytes, "the encoding is not stable");
    message
}

/// `dynamic_message`: implicit-presence scalars at their defaults on the
/// wire (`three.f_int32 = 0`, `three.f_string = ""`, `three.open = 0`)
/// and empty packed runs (`three.packed`, `r_sint64`) were stored as set,
/// so the decoded message differed from its own round trip, which does
/// not write them. They leave the fields unset, as in generated code.
#[test]
fn implicit_defaults_and_empty_packed_runs_are_unset() {
    let root = root();
    let input = b"\xe2\x03\x0a\x28\x00\x4a\x00\xa2\x01\x00\x80\x01\x00\xaa\x01\x00";
    let message = round_trip(&root, input);
    assert_eq!(message.encode_to_vec(), b"\xe2\x03\x00");
    assert_eq!(message.field_by_number(21), None);
    let Some(Value::Message(three)) = message.field_by_number(60) else {
        panic!("three is set: {message:?}");
    };
    for number in [5, 9, 16, 20] {
        assert_eq!(three.field_by_number(number), None, "field {number}");
    }
    let empty_three = DynamicMessage::decode(root.clone(), b"\xe2\x03\x00").unwrap();
    assert_eq!(message, empty_three);
}

/// The last occurrence of an implicit-presence scalar wins, its default
/// included: `three.f_int32` = 5 then 0 is unset.
#[test]
fn implicit_default_after_a_value_unsets_the_field() {
    let root = root();
    let message = round_trip(&root, b"\xe2\x03\x04\x28\x05\x28\x00");
    assert_eq!(message.encode_to_vec(), b"\xe2\x03\x00");
}
