//! A field whose `type` is unset but whose `type_name` names a type is
//! accepted by the descriptor pool (it resolves the kind, as protoc's
//! builder does for its parser's output), but protoc never hands such a
//! field to a generator: `Input::parse` refuses it with an error naming
//! the field, where generating from it panicked (a fuzz finding: an enum
//! default read as a scalar's).

use buffa::Message as _;
use buffa_codegen::{Input, Options};
use buffa_types::google::protobuf::field_descriptor_proto::Label;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FileDescriptorProto, FileDescriptorSet,
};

#[test]
fn a_field_without_a_type_is_an_error_of_parse() {
    let value = |name: &str, number| EnumValueDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        ..Default::default()
    };
    let file = FileDescriptorProto {
        name: Some("u.proto".into()),
        package: Some("u".into()),
        enum_type: vec![EnumDescriptorProto {
            name: Some("E".into()),
            value: vec![value("A", 0), value("B", 1)],
            ..Default::default()
        }],
        message_type: vec![DescriptorProto {
            name: Some("M".into()),
            field: vec![FieldDescriptorProto {
                name: Some("e".into()),
                number: Some(1),
                label: Some(Label::Optional),
                type_name: Some(".u.E".into()),
                default_value: Some("B".into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let set = FileDescriptorSet {
        file: vec![file],
        ..Default::default()
    }
    .encode_to_vec();
    let options = Options::default();
    let error = Input::parse(&set, &options).unwrap_err().to_string();
    assert_eq!(
        error,
        "invalid descriptor set: field .u.M.e has no type (protoc writes every field's type)"
    );
}
