//! The `features` elements declare, checked by the pool that codegen
//! builds its input into (buffa-descriptor's `rules::declared_features`):
//! a descriptor set protoc refuses is an error of `Input::parse` naming
//! the file and the element, never a panic or a silently different
//! schema. protoc 36.2's verdict on each case is
//! `buffa-descriptor/tests/rules_protoc.rs`'s
//! `declared_features_are_checked_as_protoc_checks_them`.

use buffa::Message as _;
use buffa_codegen::{Input, Options};
use buffa_types::google::protobuf::feature_set::{FieldPresence, JsonFormat, Utf8Validation};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, EnumValueDescriptorProto, FeatureSet,
    FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet, OneofDescriptorProto,
};

/// `m.proto`: `M { oneof o { string x = 1; } }` and `enum E`.
fn file(syntax: &str) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some("m.proto".into()),
        package: Some("p".into()),
        syntax: Some(syntax.into()),
        edition: (syntax == "editions").then_some(Edition::Edition2023),
        message_type: vec![DescriptorProto {
            name: Some("M".into()),
            field: vec![FieldDescriptorProto {
                name: Some("x".into()),
                number: Some(1),
                label: Some(Label::Optional),
                r#type: Some(Type::String),
                oneof_index: Some(0),
                json_name: Some("x".into()),
                ..Default::default()
            }],
            oneof_decl: vec![OneofDescriptorProto {
                name: Some("o".into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        enum_type: vec![EnumDescriptorProto {
            name: Some("E".into()),
            value: vec![EnumValueDescriptorProto {
                name: Some("E_ZERO".into()),
                number: Some(0),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn generate(file: FileDescriptorProto) -> Result<(), String> {
    let set = FileDescriptorSet {
        file: vec![file],
        ..Default::default()
    }
    .encode_to_vec();
    let options = Options::default();
    let input = Input::parse(&set, &options).map_err(|e| e.to_string())?;
    input
        .select(&["m.proto".to_owned()])
        .and_then(|selection| selection.generate())
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn declared_features_are_checked_as_the_pool_checks_them() {
    let none = || FeatureSet {
        utf8_validation: Some(Utf8Validation::None),
        ..Default::default()
    };
    type Edit = fn(&mut FileDescriptorProto, FeatureSet);
    let on_file: Edit = |f, set| f.options.get_or_insert_default().features = set.into();
    let on_message: Edit =
        |f, set| f.message_type[0].options.get_or_insert_default().features = set.into();
    let on_field: Edit = |f, set| {
        f.message_type[0].field[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    let on_oneof: Edit = |f, set| {
        f.message_type[0].oneof_decl[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    let on_enum: Edit =
        |f, set| f.enum_type[0].options.get_or_insert_default().features = set.into();
    let implicit = FeatureSet {
        field_presence: Some(FieldPresence::Implicit),
        ..Default::default()
    };
    let json = FeatureSet {
        json_format: Some(JsonFormat::LegacyBestEffort),
        ..Default::default()
    };
    let outside = "features are only valid under editions";
    let cases: Vec<(&str, Edit, FeatureSet, Option<String>)> = vec![
        (
            "proto3",
            on_file,
            FeatureSet::default(),
            Some(format!("invalid descriptor set: m.proto: {outside}")),
        ),
        (
            "proto3",
            on_field,
            none(),
            Some(format!("invalid descriptor set: m.proto: field p.M.x: {outside}")),
        ),
        (
            "proto2",
            on_oneof,
            FeatureSet::default(),
            Some(format!("invalid descriptor set: m.proto: oneof p.M.o: {outside}")),
        ),
        (
            "proto2",
            on_enum,
            FeatureSet::default(),
            Some(format!("invalid descriptor set: m.proto: enum p.E: {outside}")),
        ),
        (
            "proto2",
            on_message,
            FeatureSet::default(),
            Some(format!("invalid descriptor set: m.proto: message p.M: {outside}")),
        ),
        ("editions", on_field, none(), None),
        ("editions", on_oneof, FeatureSet::default(), None),
        (
            "editions",
            on_oneof,
            none(),
            Some("invalid descriptor set: m.proto: oneof p.M.o: feature utf8_validation cannot be set on a oneof".into()),
        ),
        (
            "editions",
            on_message,
            implicit,
            Some("invalid descriptor set: m.proto: message p.M: feature field_presence cannot be set on a message".into()),
        ),
        ("editions", on_message, json.clone(), None),
        (
            "editions",
            on_field,
            json,
            Some("invalid descriptor set: m.proto: field p.M.x: feature json_format cannot be set on a field".into()),
        ),
    ];
    for (i, (syntax, edit, set, refused)) in cases.into_iter().enumerate() {
        let mut file = file(syntax);
        edit(&mut file, set);
        assert_eq!(generate(file).err(), refused, "case {i} ({syntax})");
    }
}
