//! `buffa_http::bind` against protoc: a schema covering every kind of
//! field is compiled by the vendored protoc at test time, values are bound
//! into `DynamicMessage`s of it, and the result is compared, byte for
//! byte, with what protoc's own encoder makes of the same values written
//! in the text format.

mod support;

use std::sync::OnceLock;

use buffa_http::bind::{self, BindError, BindErrorKind};
use buffa_http::template::PathTemplate;
use buffa_http::{Binding, MAX_FIELD_PATH_DEPTH, query};
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, Value};
use support::{pool_of, proto_dir, protoc};

/// `tests/proto/bind.proto` and its imports, compiled once.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| pool_of(&proto_dir(), "bind.proto"))
}

fn message(name: &str) -> MessageDescriptor {
    pool()
        .get_message_by_name(name)
        .unwrap_or_else(|| panic!("no message {name}"))
}

fn binding(path: &str, value: &str) -> Binding {
    Binding {
        field_path: path.split('.').map(str::to_owned).collect(),
        value: value.to_owned(),
    }
}

/// A `bind.test.Request` with `pairs` bound, in order.
fn bound(pairs: &[(&str, &str)]) -> Result<DynamicMessage, BindError> {
    bound_into("bind.test.Request", pairs)
}

fn bound_into(name: &str, pairs: &[(&str, &str)]) -> Result<DynamicMessage, BindError> {
    let mut request = DynamicMessage::new(message(name));
    let bindings: Vec<Binding> = pairs.iter().map(|&(p, v)| binding(p, v)).collect();
    bind::bind_all(&mut request, &bindings)?;
    Ok(request)
}

/// Asserts that `message` encodes as protoc encodes `text` (the text
/// format of a message of the same type).
fn assert_encodes_as(message: &DynamicMessage, text: &str) {
    let name = message.descriptor().full_name().to_owned();
    let expected = protoc(
        &proto_dir(),
        &[&format!("--encode={name}"), "bind.proto"],
        text.as_bytes(),
    )
    .expect("protoc encodes the text");
    let actual = message.encode_to_vec();
    assert!(
        actual == expected,
        "bound {message:?}\nprotoc {:?}\nfrom the text {text:?}",
        DynamicMessage::decode(message.descriptor(), &expected)
    );
}

/// The error of binding `value` at `path` into a fresh Request.
fn error(path: &str, value: &str) -> BindError {
    bound(&[(path, value)]).expect_err("the binding fails")
}

#[test]
fn http_proto_query_parameter_example() {
    // "HTTP: `GET /v1/messages/123456?revision=2&sub.subfield=foo`
    //  gRPC: `GetMessage(message_id: "123456" revision: 2 sub:
    //  SubMessage(subfield: "foo"))`"
    let template = PathTemplate::parse("/v1/messages/{message_id}").unwrap();
    let mut bindings = template.matches("/v1/messages/123456").unwrap().unwrap();
    bindings.extend(query::parse("revision=2&sub.subfield=foo").unwrap());
    let mut request = DynamicMessage::new(message("bind.test.GetMessageRequest"));
    bind::bind_all(&mut request, &bindings).unwrap();
    assert_eq!(request.field_by_name("revision"), Some(&Value::I64(2)));
    assert_encodes_as(
        &request,
        r#"message_id: "123456" revision: 2 sub { subfield: "foo" }"#,
    );
}

#[test]
fn every_scalar_kind_reads_its_proto3_json_text() {
    let request = bound(&[
        ("f_double", "-2.5e-3"),
        ("f_float", "1.25"),
        ("f_int32", "-2147483648"),
        ("f_int64", "-9223372036854775808"),
        ("f_uint32", "4294967295"),
        ("f_uint64", "18446744073709551615"),
        ("f_sint32", "-7"),
        ("f_sint64", "9223372036854775807"),
        ("f_fixed32", "7"),
        ("f_fixed64", "8"),
        ("f_sfixed32", "-9"),
        ("f_sfixed64", "-10"),
        ("f_bool", "true"),
        ("f_string", "a b&c=d\u{e9}\n\"{}"),
        ("f_bytes", "AAEC/w=="),
        ("color", "GREEN"),
        ("legacy.shape", "SQUARE"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        r#"f_double: -0.0025 f_float: 1.25 f_int32: -2147483648
           f_int64: -9223372036854775808 f_uint32: 4294967295
           f_uint64: 18446744073709551615 f_sint32: -7
           f_sint64: 9223372036854775807 f_fixed32: 7 f_fixed64: 8
           f_sfixed32: -9 f_sfixed64: -10 f_bool: true
           f_string: "a b&c=d\303\251\n\"{}" f_bytes: "\000\001\002\377"
           color: GREEN legacy { shape: SQUARE }"#,
    );
}

#[test]
fn integers_are_exact_and_within_range() {
    // proto3 JSON reads an integral fraction or exponent as the integer.
    let request = bound(&[("f_int32", "1e3"), ("f_uint64", "20.0")]).unwrap();
    assert_encodes_as(&request, "f_int32: 1000 f_uint64: 20");
    for (path, value) in [
        ("f_int32", "2147483648"),
        ("f_uint32", "-1"),
        ("f_int64", "9223372036854775808"),
        ("f_uint64", "18446744073709551616"),
        ("f_int32", "1.5"),
        ("f_int32", "0x10"),
        ("f_int32", " 1"),
        ("f_int32", ""),
        ("f_sfixed64", "one"),
    ] {
        let error = error(path, value);
        assert_eq!(error.kind(), BindErrorKind::InvalidValue, "{path}={value}");
        assert!(
            std::error::Error::source(&error).is_some(),
            "{path}={value}"
        );
    }
    assert_eq!(
        error("f_uint32", "-1").to_string(),
        r#""f_uint32": invalid uint32 value "-1""#
    );
}

#[test]
fn floats_take_nan_and_the_infinities() {
    let request = bound(&[
        ("f_double", "NaN"),
        ("f_float", "-Infinity"),
        ("nested.text", "x"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        r#"f_double: nan f_float: -inf nested { text: "x" }"#,
    );
    let request = bound(&[("f_double", "Infinity"), ("f_float", "3")]).unwrap();
    assert_encodes_as(&request, "f_double: inf f_float: 3");
    // Beyond a float's range, and text that is no JSON number.
    for (path, value) in [
        ("f_float", "1e39"),
        ("f_double", "1e999"),
        ("f_double", "nan"),
        ("f_double", "inf"),
        ("f_double", ".5"),
    ] {
        assert_eq!(
            error(path, value).kind(),
            BindErrorKind::InvalidValue,
            "{path}={value}"
        );
    }
}

#[test]
fn bytes_take_standard_and_url_safe_base64_padded_or_not() {
    for value in ["+/+/", "-_-_", "+/8=", "+/8", "-_8=", "-_8"] {
        let request = bound(&[("f_bytes", value)]).unwrap();
        let expected = if value.len() == 4 && !value.ends_with('=') {
            r#"f_bytes: "\373\377\277""#
        } else {
            r#"f_bytes: "\373\377""#
        };
        assert_encodes_as(&request, expected);
    }
    let request = bound(&[("chunks", "YQ"), ("chunks", "Yg=="), ("blob", "Yw")]).unwrap();
    assert_encodes_as(&request, r#"chunks: "a" chunks: "b" blob { value: "c" }"#);
    for value in ["*", "Y===", "Y"] {
        assert_eq!(
            error("f_bytes", value).kind(),
            BindErrorKind::InvalidValue,
            "{value}"
        );
    }
}

#[test]
fn enums_by_name_or_number_open_and_closed() {
    // Open: any number, declared or not.
    let request = bound(&[("color", "1"), ("colors", "GREEN"), ("colors", "7")]).unwrap();
    assert_encodes_as(&request, "color: RED colors: [GREEN, 7]");
    // Closed: declared names and numbers only.
    let request = bound(&[
        ("legacy.shape", "2"),
        ("legacy.shapes", "CIRCLE"),
        ("legacy.shapes", "1"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        "legacy { shape: SQUARE shapes: CIRCLE shapes: CIRCLE }",
    );
    for (path, value) in [
        ("color", "BLUE"),
        ("color", "red"),
        ("color", "2147483648"),
        ("legacy.shape", "0"),
        ("legacy.shape", "3"),
        ("legacy.shapes", "TRIANGLE"),
    ] {
        assert_eq!(
            error(path, value).kind(),
            BindErrorKind::InvalidValue,
            "{path}={value}"
        );
    }
    assert_eq!(
        error("legacy.shape", "3").to_string(),
        r#""legacy.shape": invalid enum bind.closed.Shape value "3""#
    );
}

#[test]
fn repeated_scalars_append_one_element_per_binding() {
    let parameters = query::parse("ids=1&tags=a&ids=-2&tags=b&ids=3&tags=").unwrap();
    let mut request = DynamicMessage::new(message("bind.test.Request"));
    bind::bind_all(&mut request, &parameters).unwrap();
    assert_encodes_as(&request, r#"ids: [1, -2, 3] tags: "a" tags: "b" tags: """#);
}

#[test]
fn a_singular_field_bound_twice_keeps_the_last_value() {
    let request = bound(&[
        ("f_int32", "5"),
        ("f_int32", "6"),
        ("f_string", "x"),
        ("f_string", ""),
        ("maybe", "3"),
        ("maybe", "0"),
        // Messages are replaced, not merged.
        ("when", "1970-01-01T00:00:05Z"),
        ("when", "1970-01-01T00:00:00.500Z"),
        ("update_mask", "a,b"),
        ("update_mask", "c"),
        // A oneof keeps its last member.
        ("name", "n"),
        ("number", "4"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        r#"f_int32: 6 maybe: 0 when { nanos: 500000000 }
           update_mask { paths: "c" } number: 4"#,
    );
    let request = bound(&[("number", "4"), ("name", "n")]).unwrap();
    assert_encodes_as(&request, r#"name: "n""#);
}

#[test]
fn well_known_types_read_their_json_form() {
    let request = bound(&[
        ("when", "1972-01-01T10:00:20.021+01:00"),
        ("timeout", "-1.5s"),
        ("update_mask", "user.displayName,photo"),
        ("limit", "-9223372036854775808"),
        ("flag", "false"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        // 10:00:20 at +01:00 is 09:00:20 UTC.
        r#"when { seconds: 63104420 nanos: 21000000 }
           timeout { seconds: -1 nanos: -500000000 }
           update_mask { paths: "user.display_name" paths: "photo" }
           limit { value: -9223372036854775808 }
           flag { }"#,
    );
    // A wrapper at its default is still set: it has presence.
    let request = bound(&[("limit", "0")]).unwrap();
    assert_encodes_as(&request, "limit { }");
    for (path, value) in [
        ("when", "yesterday"),
        ("when", "1972-01-01T10:00:20"),
        ("timeout", "5"),
        ("update_mask", "a_b"),
        ("limit", "1.5"),
        ("flag", "1"),
    ] {
        assert_eq!(
            error(path, value).kind(),
            BindErrorKind::InvalidValue,
            "{path}={value}"
        );
    }
    assert_eq!(
        error("when", "yesterday").to_string(),
        r#""when": invalid google.protobuf.Timestamp value "yesterday""#
    );
}

#[test]
fn fields_are_named_by_proto_or_json_name() {
    let request = bound(&[
        ("fInt64", "1"),
        ("nested.child.depth", "2"),
        ("nested.child.child.text", "t"),
        ("updateMask", "a"),
        ("renamed", "r"),
        ("renamed_field", "s"),
        ("legacy.count", "0"),
    ])
    .unwrap();
    assert_encodes_as(
        &request,
        r#"f_int64: 1 nested { child { depth: 2 child { text: "t" } } }
           update_mask { paths: "a" } renamed_field: "s" legacy { count: 0 }"#,
    );
    // The default JSON name is not the field's once `json_name` is set.
    let error = error("renamedField", "r");
    assert_eq!(error.kind(), BindErrorKind::UnknownField);
    assert_eq!(
        error.to_string(),
        r#""renamedField": no field "renamedField" in message `bind.test.Request`"#
    );
}

#[test]
fn paths_a_url_cannot_bind_are_refused() {
    let cases = [
        (
            "nope",
            BindErrorKind::UnknownField,
            r#"no field "nope" in message `bind.test.Request`"#,
        ),
        (
            "nested.nope",
            BindErrorKind::UnknownField,
            r#"no field "nope" in message `bind.test.Nested`"#,
        ),
        (
            "f_int32.x",
            BindErrorKind::Unbindable,
            "`f_int32` is a int32 field, not a message",
        ),
        (
            "ids.x",
            BindErrorKind::Unbindable,
            "`ids` is a repeated int64 field, not a message",
        ),
        (
            "items",
            BindErrorKind::Unbindable,
            "`items` is a repeated message field, which http.proto maps to no URL parameter",
        ),
        (
            "items.text",
            BindErrorKind::Unbindable,
            "`items` is a repeated message field, which http.proto maps to no URL parameter",
        ),
        (
            "labels",
            BindErrorKind::Unbindable,
            "`labels` is a map field, which a URL cannot bind",
        ),
        (
            "labels.key",
            BindErrorKind::Unbindable,
            "`labels` is a map field, which a URL cannot bind",
        ),
        (
            "nested",
            BindErrorKind::Unbindable,
            "`nested` is a message field (`bind.test.Nested`): bind its fields, `nested.<field>`",
        ),
        (
            "legacy",
            BindErrorKind::Unbindable,
            "`legacy` is a message field (`bind.closed.Legacy`): bind its fields, `legacy.<field>`",
        ),
        (
            "extra",
            BindErrorKind::Unbindable,
            "`extra` is a `google.protobuf.Struct`, which a URL cannot bind",
        ),
        (
            "when.seconds",
            BindErrorKind::Unbindable,
            "`google.protobuf.Timestamp` is bound whole, by its JSON form, not field by field",
        ),
        (
            "limit.value",
            BindErrorKind::Unbindable,
            "`google.protobuf.Int64Value` is bound whole, by its JSON form, not field by field",
        ),
        (
            "extra.fields",
            BindErrorKind::Unbindable,
            "`google.protobuf.Struct` is bound whole, by its JSON form, not field by field",
        ),
    ];
    for (path, kind, message) in cases {
        let error = error(path, "1");
        assert_eq!((error.kind(), error.message()), (kind, message), "{path}");
        assert_eq!(error.field_path().join("."), path);
        assert_eq!(error.to_string(), format!("{:?}: {message}", path));
    }
    let too_deep = Binding {
        field_path: vec!["nested".to_owned(); MAX_FIELD_PATH_DEPTH + 1],
        value: String::new(),
    };
    let mut request = DynamicMessage::new(message("bind.test.Request"));
    let error = bind::bind(&mut request, &too_deep).unwrap_err();
    assert_eq!(error.kind(), BindErrorKind::Unbindable);
    let empty = Binding {
        field_path: Vec::new(),
        value: String::new(),
    };
    let error = bind::bind(&mut request, &empty).unwrap_err();
    assert_eq!(
        (error.kind(), error.to_string().as_str()),
        (BindErrorKind::Unbindable, r#""": empty field path"#)
    );
    assert_eq!(request, DynamicMessage::new(message("bind.test.Request")));
}

#[test]
fn a_failed_binding_leaves_the_message_unchanged() {
    let mut request = bound(&[("f_int32", "1"), ("name", "n")]).unwrap();
    let before = request.clone();
    for (path, value) in [
        ("nested.child.nope", "1"),
        ("nested.child.depth", "x"),
        ("nested.items", "1"),
        ("legacy.shape", "9"),
        ("number", "x"),
    ] {
        bind::bind(&mut request, &binding(path, value)).unwrap_err();
        assert_eq!(request, before, "{path}={value}");
    }
    // bind_all stops at the first error, keeping what came before.
    let bindings = [
        binding("f_int64", "2"),
        binding("f_int64", "x"),
        binding("f_bool", "true"),
    ];
    let error = bind::bind_all(&mut request, &bindings).unwrap_err();
    assert_eq!(error.field_path(), ["f_int64"]);
    assert_encodes_as(&request, r#"f_int32: 1 f_int64: 2 name: "n""#);
}

#[test]
fn long_values_and_names_are_cut_short_in_errors() {
    let value = "9".repeat(1000);
    let error = error("f_int32", &value);
    let shown = format!("\"{}\"...", "9".repeat(64));
    assert_eq!(
        error.to_string(),
        format!("\"f_int32\": invalid int32 value {shown}")
    );
    let name = "n".repeat(1000);
    let error = self::error(&name, "1");
    assert_eq!(error.field_path(), std::slice::from_ref(&name));
    assert!(error.to_string().len() < 300, "{error}");
}

#[test]
fn generated_messages_bind_as_dynamic_ones_do() {
    // google.protobuf.Field (type.proto), generated in buffa-types.
    let mut field = buffa_types::google::protobuf::Field::default();
    let bindings = query::parse(
        "name=id&number=7&kind=TYPE_STRING&cardinality=3&packed=true&jsonName=ID&oneofIndex=-1",
    )
    .unwrap();
    bind::bind_all(&mut field, &bindings).unwrap();
    assert_eq!(field.name, "id");
    assert_eq!(field.number, 7);
    assert_eq!(field.json_name, "ID");
    assert_eq!(field.oneof_index, -1);
    assert!(field.packed);
    let expected = DynamicMessage::decode(field.descriptor(), &{
        let mut bytes = Vec::new();
        field.encode_binary(&mut bytes);
        bytes
    })
    .unwrap();
    let dynamic = {
        let mut message = DynamicMessage::new(field.descriptor());
        bind::bind_all(&mut message, &bindings).unwrap();
        message
    };
    assert_eq!(dynamic, expected);
    let error = bind::bind(&mut field, &binding("options.name", "x")).unwrap_err();
    assert_eq!(error.kind(), BindErrorKind::Unbindable);
    // A closed enum of a generated proto2 message (descriptor.proto's
    // FeatureSet).
    let mut features = buffa_types::google::protobuf::FeatureSet::default();
    bind::bind(&mut features, &binding("field_presence", "IMPLICIT")).unwrap();
    bind::bind(&mut features, &binding("enumType", "1")).unwrap();
    let error = bind::bind(&mut features, &binding("field_presence", "99")).unwrap_err();
    assert_eq!(error.kind(), BindErrorKind::InvalidValue);
    let json = buffa_reflect::json::to_string(&features).unwrap();
    assert_eq!(json, r#"{"fieldPresence":"IMPLICIT","enumType":"OPEN"}"#);
}

/// Odd names and values, every pair bound at every field of the schema:
/// each binding succeeds or fails with an error, never a panic, and a
/// failure leaves the message as it was.
#[test]
fn odd_input_never_panics() {
    let long = "x".repeat(5000);
    let deep = vec!["nested"; MAX_FIELD_PATH_DEPTH].join(".");
    let names: Vec<String> = message("bind.test.Request")
        .fields()
        .flat_map(|field| {
            let name = field.name().to_owned();
            [
                name.clone(),
                format!("{name}.text"),
                format!("{name}.value"),
                format!("{name}.seconds"),
            ]
        })
        .chain(
            [
                "",
                ".",
                "..",
                "\u{0}",
                "é",
                "[bind.test.ext]",
                "nested.",
                "nested..text",
                "@type",
                "legacy.shapes",
                "nested.child.child.child.text",
                &long,
                &deep,
            ]
            .map(str::to_owned),
        )
        .collect();
    let values = [
        "",
        " ",
        "-",
        "+1",
        "-0",
        "0",
        "1",
        "true",
        "null",
        "NaN",
        "-Infinity",
        "1e99999",
        "-1e-99999",
        "[1]",
        "{}",
        "\"",
        "\\",
        "\u{0}",
        "é",
        "AAAA",
        "RED",
        "7",
        "2147483648",
        "1970-01-01T00:00:00Z",
        "1s",
        "a,b",
        &long,
    ];
    for name in &names {
        for value in values {
            let path: Vec<String> = name.split('.').map(str::to_owned).collect();
            let binding = Binding {
                field_path: path,
                value: value.to_owned(),
            };
            let mut request = DynamicMessage::new(message("bind.test.Request"));
            if bind::bind(&mut request, &binding).is_err() {
                assert_eq!(
                    request,
                    DynamicMessage::new(message("bind.test.Request")),
                    "{name}={value}"
                );
            }
        }
    }
}
