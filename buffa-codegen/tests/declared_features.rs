//! Codegen checks its input through the descriptor pool it builds it into
//! (buffa-descriptor's `rules::declared_features`, whose every case is
//! compared with protoc 36.2 in `buffa-descriptor/tests/rules_protoc.rs`):
//! a descriptor set protoc refuses is an error of `Input::parse` naming
//! the file and the element, never a panic or a silently different
//! schema, and what protoc accepts generates.

use buffa::Message as _;
use buffa_codegen::{Input, Options};
use buffa_types::google::protobuf::feature_set::Utf8Validation;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, FeatureSet, FieldDescriptorProto, FileDescriptorProto,
    FileDescriptorSet,
};

/// `m.proto`: `M { string x = 1 [features.utf8_validation = NONE]; }`.
fn file(syntax: &str) -> FileDescriptorProto {
    let mut field = FieldDescriptorProto {
        name: Some("x".into()),
        number: Some(1),
        label: Some(Label::Optional),
        r#type: Some(Type::String),
        json_name: Some("x".into()),
        ..Default::default()
    };
    field.options.get_or_insert_default().features = FeatureSet {
        utf8_validation: Some(Utf8Validation::None),
        ..Default::default()
    }
    .into();
    FileDescriptorProto {
        name: Some("m.proto".into()),
        package: Some("p".into()),
        syntax: Some(syntax.into()),
        edition: (syntax == "editions").then_some(Edition::Edition2023),
        message_type: vec![DescriptorProto {
            name: Some("M".into()),
            field: vec![field],
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn generate(file: FileDescriptorProto) -> Result<String, String> {
    let set = FileDescriptorSet {
        file: vec![file],
        ..Default::default()
    }
    .encode_to_vec();
    let options = Options::default();
    let input = Input::parse(&set, &options).map_err(|e| e.to_string())?;
    let files = (input.select(&["m.proto"]))
        .and_then(|selection| selection.generate())
        .map_err(|e| e.to_string())?;
    Ok(files[0].content.clone())
}

#[test]
fn features_outside_editions_are_an_error_of_parse() {
    assert_eq!(
        generate(file("proto3")).unwrap_err(),
        "invalid descriptor set: m.proto: field p.M.x: features are only valid under editions"
    );
}

#[test]
fn features_where_protoc_allows_them_generate() {
    let generated = generate(file("editions")).unwrap();
    assert!(generated.contains("pub struct M {"), "{generated}");
}
