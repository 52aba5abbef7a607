//! `google.protobuf.Any`: printed by default as protoc prints it, by its
//! fields; expanded on request into text protoc reads back; and parsed
//! expanded holding any type of the message's pool or any well-known
//! type, as JSON resolves them.

use buffa::Message;
use buffa_reflect::text;
use buffa_types::google::protobuf::Any;

use super::fixtures::ANY_FIXTURES;
use super::{buffa_print, decoded, descriptor, protoc_decode, protoc_encode};

/// The options that print `Any`s expanded.
fn expanded() -> text::PrintOptions {
    text::PrintOptions::new().with_expand_any(true)
}

#[test]
fn anys_print_by_default_as_protoc_decode_prints_them() {
    // protoc knows text2.Node, text2.Scalars and the rest (they are in the
    // files it decodes with), and still prints each Any by its fields.
    for (message_type, fixture) in ANY_FIXTURES {
        let bytes = protoc_encode(message_type, fixture).unwrap_or_else(|e| panic!("{e}"));
        let expected = protoc_decode(message_type, &bytes);
        assert!(expected.contains("type_url: "), "{expected}");
        assert!(!expected.contains("[type.googleapis.com/"), "{expected}");
        assert_eq!(text::to_string(&decoded(message_type, &bytes)), expected);
        assert_eq!(
            buffa_print(message_type, &bytes, &text::PrintOptions::default()),
            expected
        );
    }
}

#[test]
fn expanded_any_reads_back_through_protoc() {
    // protoc does not expand Anys, but parses them expanded: buffa's
    // expanded text encodes, through protoc, to the same bytes.
    for (message_type, fixture) in ANY_FIXTURES {
        let bytes = protoc_encode(message_type, fixture).unwrap_or_else(|e| panic!("{e}"));
        let printed = buffa_print(message_type, &bytes, &expanded());
        assert!(printed.contains("[type.googleapis.com/"), "{printed}");
        let again = protoc_encode(message_type, &printed).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, bytes, "{printed}");
    }
}

#[test]
fn any_expansion_falls_back_to_fields() {
    let cases = [
        // A type the pool does not have.
        r#"any { type_url: "type.googleapis.com/nowhere.Missing" value: "\010\001" }"#,
        // A value that does not decode as the type.
        r#"any { type_url: "type.googleapis.com/text2.Node" value: "\010" }"#,
        // A value with unknown fields, which the parser could not read.
        r#"any { type_url: "type.googleapis.com/text2.Node" value: "\010\001\240\006\002" }"#,
        // A value that does not encode back to its bytes.
        r#"any { type_url: "type.googleapis.com/text2.Node" value: "\010\001\010\002" }"#,
        // A URL the parser could not read back.
        r#"any { type_url: "type.googleapis.com/a/text2.Node" value: "" }"#,
        r#"any { type_url: "text2.Node" value: "" }"#,
        // A type name is taken literally, as in JSON: no full name starts
        // with a dot (and `[type.googleapis.com/.text2.Node]` would not
        // parse).
        r#"any { type_url: "type.googleapis.com/.text2.Node" value: "\010\001" }"#,
    ];
    for case in cases {
        let bytes = protoc_encode("text2.WithAny", case).unwrap_or_else(|e| panic!("{e}"));
        let printed = buffa_print("text2.WithAny", &bytes, &expanded());
        assert_eq!(printed, protoc_decode("text2.WithAny", &bytes), "{case}");
    }
}

const EMPTY_URL: &str = "type.googleapis.com/google.protobuf.Empty";
const ANY_URL: &str = "type.googleapis.com/google.protobuf.Any";

/// The encoding of an `Any` holding `google.protobuf.Empty`, and of an
/// `Any` holding that `Any`, by protoc (whose pool has `Any`, imported
/// by text2.proto, but not `Empty`, so the inner one is written by its
/// fields).
fn empty_in_any() -> (Vec<u8>, Vec<u8>) {
    let empty = format!(r#"any {{ type_url: "{EMPTY_URL}" }}"#);
    let nested = format!(r#"any {{ [{ANY_URL}] {{ type_url: "{EMPTY_URL}" }} }}"#);
    let encode =
        |text: &str| protoc_encode("text2.WithAny", text).unwrap_or_else(|e| panic!("{e}"));
    (encode(&empty), encode(&nested))
}

#[test]
fn well_known_types_in_expanded_anys_parse_into_dynamic_messages() {
    // text2.proto imports any.proto only: its pool has no
    // google.protobuf.Empty, which every Any can hold nevertheless.
    assert!(
        descriptor("text2.WithAny")
            .pool()
            .get_message_by_name("google.protobuf.Empty")
            .is_none()
    );
    let (empty, nested) = empty_in_any();
    let parse = |text: &str| {
        text::parse(&descriptor("text2.WithAny"), text)
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .encode_to_vec()
    };
    assert_eq!(parse(&format!("any {{ [{EMPTY_URL}] {{}} }}")), empty);
    assert_eq!(
        parse(&format!("any {{ [{ANY_URL}] {{ [{EMPTY_URL}] {{}} }} }}")),
        nested
    );
    // An Any of the test pool at the top level.
    let any = text::parse(
        &descriptor("google.protobuf.Any"),
        &format!("[{EMPTY_URL}] {{}}"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(any.encode_to_vec(), empty[2..]);
    // A well-known type with fields.
    let timestamp = text::parse(
        &descriptor("text2.WithAny"),
        "any { [type.googleapis.com/google.protobuf.Timestamp] { seconds: 5 nanos: 6 } }",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let expected = protoc_encode(
        "text2.WithAny",
        r#"any { type_url: "type.googleapis.com/google.protobuf.Timestamp" value: "\010\005\020\006" }"#,
    )
    .unwrap();
    assert_eq!(timestamp.encode_to_vec(), expected);
}

#[test]
fn well_known_types_in_expanded_anys_parse_into_generated_anys() {
    // A generated Any, at the top level and holding an Any.
    let (empty, nested) = empty_in_any();
    let mut top = Any::default();
    text::merge(&mut top, &format!("[{EMPTY_URL}] {{}}")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(top.encode_to_vec(), empty[2..]);
    let mut outer = Any::default();
    text::merge(&mut outer, &format!("[{ANY_URL}] {{ [{EMPTY_URL}] {{}} }}"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outer.encode_to_vec(), nested[2..]);
}

#[test]
fn well_known_types_in_anys_print_expanded_and_parse_back() {
    let (empty, nested) = empty_in_any();
    let printed = buffa_print("text2.WithAny", &empty, &expanded());
    assert_eq!(printed, format!("any {{\n  [{EMPTY_URL}] {{\n  }}\n}}\n"));
    for bytes in [empty, nested] {
        let printed = buffa_print("text2.WithAny", &bytes, &expanded());
        let parsed = text::parse(&descriptor("text2.WithAny"), &printed)
            .unwrap_or_else(|e| panic!("{e}: {printed}"));
        assert_eq!(parsed.encode_to_vec(), bytes, "{printed}");
    }
}

#[cfg(feature = "json")]
#[test]
fn text_and_json_resolve_the_same_types_in_anys() {
    // JSON resolves the well-known types in any Any; so does the text
    // format, to the same bytes.
    let (empty, nested) = empty_in_any();
    let json = |input: &str| {
        buffa_reflect::json::from_str(&descriptor("text2.WithAny"), input)
            .unwrap_or_else(|e| panic!("{e}: {input}"))
            .encode_to_vec()
    };
    assert_eq!(
        json(&format!(r#"{{"any": {{"@type": "{EMPTY_URL}"}}}}"#)),
        empty
    );
    assert_eq!(
        json(&format!(
            r#"{{"any": {{"@type": "{ANY_URL}", "value": {{"@type": "{EMPTY_URL}"}}}}}}"#
        )),
        nested
    );
}
