//! Extensions of other schemas: protobuf's own unittest family, and custom
//! options of the descriptor types in buffa-types.

use super::*;

#[test]
fn protobufs_own_unittest_extensions_read_typed() {
    use buffa_tests::unittest::protobuf_unittest::{
        self as unittest, TestAllExtensions, test_all_types,
    };
    let text = r#"
        [protobuf_unittest.optional_int32_extension]: 101
        [protobuf_unittest.optional_fixed64_extension]: 108
        [protobuf_unittest.optional_string_extension]: "115"
        [protobuf_unittest.optionalgroup_extension] { a: 117 }
        [protobuf_unittest.optional_nested_message_extension] { bb: 118 }
        [protobuf_unittest.optional_nested_enum_extension]: BAZ
        [protobuf_unittest.repeated_int32_extension]: [201, 301]
        [protobuf_unittest.repeatedgroup_extension] { a: 217 }
        [protobuf_unittest.repeatedgroup_extension] { a: 317 }
        [protobuf_unittest.TestNestedExtension.test]: "nested"
    "#;
    let bytes = common::protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllExtensions",
        text,
    );
    let message = TestAllExtensions::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        message
            .extension(&unittest::OPTIONAL_INT32_EXTENSION)
            .unwrap(),
        Some(101)
    );
    assert_eq!(
        message
            .extension(&unittest::OPTIONAL_FIXED64_EXTENSION)
            .unwrap(),
        Some(108)
    );
    assert_eq!(
        message
            .extension(&unittest::OPTIONAL_STRING_EXTENSION)
            .unwrap()
            .as_deref(),
        Some("115")
    );
    assert_eq!(
        message
            .extension(&unittest::OPTIONALGROUP_EXTENSION)
            .unwrap()
            .unwrap()
            .a,
        Some(117)
    );
    assert_eq!(
        message
            .extension(&unittest::OPTIONAL_NESTED_MESSAGE_EXTENSION)
            .unwrap()
            .unwrap()
            .bb,
        Some(118)
    );
    assert_eq!(
        message
            .extension(&unittest::OPTIONAL_NESTED_ENUM_EXTENSION)
            .unwrap(),
        Some(test_all_types::NestedEnum::Baz)
    );
    assert_eq!(
        message
            .extension(&unittest::REPEATED_INT32_EXTENSION)
            .unwrap(),
        [201, 301]
    );
    let groups = message
        .extension(&unittest::REPEATEDGROUP_EXTENSION)
        .unwrap();
    assert_eq!(
        groups.iter().map(|g| g.a).collect::<Vec<_>>(),
        [Some(217), Some(317)]
    );
    // Declared in a message: its constant lives in that message's module.
    assert_eq!(
        message
            .extension(&unittest::test_nested_extension::TEST)
            .unwrap()
            .as_deref(),
        Some("nested")
    );
}

#[test]
fn custom_method_and_field_options_read_from_protocs_descriptors() {
    use buffa_types::google::protobuf::{FileDescriptorSet, MethodOptions};
    let set = FileDescriptorSet::decode_from_slice(&common::protoc_descriptor_set(
        &include(),
        &[OPTIONS],
    ))
    .unwrap();
    let file = set.file.iter().find(|f| f.name() == OPTIONS).unwrap();
    let options = &file.service[0].method[0].options;
    let rule = options.extension(&api::HTTP).unwrap().unwrap();
    assert_eq!(rule.get, "/v1/things/{id}");
    assert_eq!(
        rule.additional_bindings,
        [HttpRule {
            post: "/v1/things:get".into(),
            body: "*".into(),
            ..Default::default()
        }]
    );
    let field = &file
        .message_type
        .iter()
        .find(|m| m.name() == "Tagged")
        .unwrap()
        .field[0];
    assert_eq!(field.options.extension(&api::FIELD_TAGS).unwrap(), [7, 9]);

    // And the other way: an option set by buffa, as protoc prints it.
    let mut by_buffa = MethodOptions {
        deprecated: Some(true),
        ..Default::default()
    };
    by_buffa.set_extension(
        &api::HTTP,
        HttpRule {
            post: "/v1/x".into(),
            body: "*".into(),
            ..Default::default()
        },
    );
    assert_eq!(
        decode(
            OPTIONS,
            "google.protobuf.MethodOptions",
            &by_buffa.encode_to_vec()
        ),
        "deprecated: true\n[test.api.http] {\n  post: \"/v1/x\"\n  body: \"*\"\n}\n"
    );
}

/// The same custom options through a `DescriptorPool` built from protoc's
/// descriptor set: typed, from the pool's `MethodOptions`, and dynamic,
/// from `dynamic_options()`, found by the extension's name alone.
#[test]
fn custom_options_read_through_the_descriptor_pool() {
    use buffa_reflect::{DescriptorPool, DynamicOptions, ReflectMessage, Value, ValueRef};
    let pool =
        DescriptorPool::decode(&common::protoc_descriptor_set(&include(), &[OPTIONS])).unwrap();
    let method = pool
        .get_service_by_name("test.api.Things")
        .unwrap()
        .methods()
        .find(|m| m.name() == "GetThing")
        .unwrap();

    // Typed: the pool keeps the options as buffa-types' MethodOptions.
    let rule = method.options().extension(&api::HTTP).unwrap().unwrap();
    assert_eq!(rule.get, "/v1/things/{id}");

    // Dynamic: no generated code names the option.
    let http = pool.get_extension_by_name("test.api.http").unwrap();
    assert_eq!(http.number(), 72295728);
    let options = method.dynamic_options().unwrap();
    let Some(ValueRef::Message(rule)) = options.field(&http) else {
        panic!("(test.api.http) is set: {options:?}");
    };
    let rule_type = rule.descriptor();
    assert_eq!(rule_type.full_name(), "test.api.HttpRule");
    let get = rule_type.get_field_by_name("get").unwrap();
    assert!(matches!(
        rule.field(&get),
        Some(ValueRef::String("/v1/things/{id}"))
    ));
    let bindings = rule_type.get_field_by_name("additional_bindings").unwrap();
    let Some(ValueRef::List(bindings)) = rule.field(&bindings) else {
        panic!("additional_bindings is set");
    };
    assert_eq!(bindings.len(), 1);

    // A repeated scalar option on a field.
    let tags = pool.get_extension_by_name("test.api.field_tags").unwrap();
    let field = pool
        .get_message_by_name("test.api.Tagged")
        .unwrap()
        .get_field_by_name("name")
        .unwrap();
    let field_options = field.dynamic_options().unwrap();
    assert_eq!(
        field_options.field_by_number(tags.number()),
        Some(&Value::List(vec![Value::I32(7), Value::I32(9)]))
    );
    // A message without options has none set.
    assert!(
        pool.get_message_by_name("test.api.HttpRule")
            .unwrap()
            .dynamic_options()
            .unwrap()
            .set_fields()
            .is_empty()
    );
}
