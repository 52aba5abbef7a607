//! Printing: buffa's text of protoc's bytes is protoc's `--decode` text.

use buffa_reflect::{DynamicMessage, ReflectMessage, text};

use super::fixtures::{ANY_FIXTURES, FIXTURES};
use super::{as_protoc, buffa_print, descriptor, protoc_decode, protoc_encode};

/// Asserts that buffa prints `bytes` as `message_type` as protoc does.
fn assert_prints_like_protoc(message_type: &str, bytes: &[u8]) {
    let expected = protoc_decode(message_type, bytes);
    let printed = buffa_print(message_type, bytes, &as_protoc());
    assert_eq!(
        printed, expected,
        "{message_type}: buffa (left) and protoc (right) print {bytes:02x?} differently"
    );
}

#[test]
fn fixtures_print_like_protoc() {
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        let bytes = protoc_encode(message_type, fixture).unwrap_or_else(|e| panic!("{e}"));
        assert_prints_like_protoc(message_type, &bytes);
    }
}

#[test]
fn unknown_fields_print_like_protoc() {
    // Every fixture read as a message that knows none of its fields: the
    // varints, fixed values, strings, nested messages (guessed from their
    // bytes) and groups all become unknown fields.
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        let bytes = protoc_encode(message_type, fixture).unwrap_or_else(|e| panic!("{e}"));
        assert_prints_like_protoc("text2.Empty", &bytes);
    }
}

#[test]
fn unknown_field_edge_cases_print_like_protoc() {
    let cases: &[&[u8]] = &[
        // An empty length-delimited field: a string.
        &[0x0a, 0x00],
        // Bytes that are not a message: a string.
        &[0x0a, 0x02, 0xff, 0xff],
        // A field number 0 inside: not a message.
        &[0x0a, 0x02, 0x00, 0x01],
        // An end-group key at the top of a nested guess: not a message.
        &[0x0a, 0x01, 0x0c],
        // A group in a guessed message.
        &[0x0a, 0x04, 0x0b, 0x08, 0x01, 0x0c],
        // Fixed32 and fixed64 inside a guessed message.
        &[0x0a, 0x0e, 0x0d, 1, 2, 3, 4, 0x09, 1, 2, 3, 4, 5, 6, 7, 8],
        // A ten-byte varint.
        &[
            0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
        // Nested groups at the top level.
        &[0x0b, 0x13, 0x18, 0x05, 0x14, 0x0c],
        // A huge field number.
        &[0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01],
    ];
    for bytes in cases {
        assert_prints_like_protoc("text2.Empty", bytes);
    }
    // Length-delimited values nested deeper than the guessing budget of
    // ten levels: the innermost are printed as strings.
    let mut nested = vec![0x08, 0x01];
    for _ in 0..14 {
        let mut outer = vec![0x0a, nested.len() as u8];
        outer.extend_from_slice(&nested);
        nested = outer;
    }
    assert_prints_like_protoc("text2.Empty", &nested);
}

#[test]
fn unknown_closed_enum_values_print_like_protoc() {
    // f_color (14) = 5 and p_color (62) = [1, 7]: the undeclared numbers
    // of the closed enum are kept as unknown fields.
    let bytes = [0x70, 0x05, 0xf2, 0x03, 0x02, 0x01, 0x07];
    assert_prints_like_protoc("text2.Scalars", &bytes);
}

#[test]
fn expanded_any_reads_back_through_protoc() {
    // protoc does not expand Anys, but parses them expanded: buffa's
    // expanded text encodes, through protoc, to the same bytes.
    for (message_type, fixture) in ANY_FIXTURES {
        let bytes = protoc_encode(message_type, fixture).unwrap_or_else(|e| panic!("{e}"));
        let expanded = buffa_print(message_type, &bytes, &text::PrintOptions::new());
        assert!(expanded.contains("[type.googleapis.com/"), "{expanded}");
        let again = protoc_encode(message_type, &expanded).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, bytes, "{expanded}");
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
    ];
    for case in cases {
        let bytes = protoc_encode("text2.WithAny", case).unwrap_or_else(|e| panic!("{e}"));
        let expanded = buffa_print("text2.WithAny", &bytes, &text::PrintOptions::new());
        assert_eq!(expanded, protoc_decode("text2.WithAny", &bytes), "{case}");
    }
}

#[test]
fn single_line_separates_fields_by_spaces() {
    let bytes = protoc_encode(
        "text2.Node",
        "value: 1 child { value: 2 children {} } children { value: 3 }",
    )
    .unwrap();
    let options = text::PrintOptions::new().with_single_line(true);
    assert_eq!(
        buffa_print("text2.Node", &bytes, &options),
        "value: 1 child { value: 2 children { } } children { value: 3 }"
    );
    let map = protoc_encode("text3.Maps", r#"string_string { key: "k" value: "v" }"#).unwrap();
    assert_eq!(
        buffa_print("text3.Maps", &map, &options),
        r#"string_string { key: "k" value: "v" }"#
    );
}

#[test]
fn unknown_fields_can_be_left_out() {
    let bytes = [0x08, 0x01, 0xa0, 0x06, 0x02];
    let options = text::PrintOptions::new().with_print_unknown_fields(false);
    assert_eq!(buffa_print("text2.Node", &bytes, &options), "value: 1\n");
    assert_eq!(
        buffa_print("text2.Node", &bytes, &as_protoc()),
        "value: 1\n100: 2\n"
    );
}

#[test]
fn messages_built_through_reflection_print() {
    let node = descriptor("text2.Node");
    let mut message = DynamicMessage::new(node.clone());
    let value = node.get_field_by_name("value").unwrap();
    message
        .set_field(&value, buffa_reflect::Value::I32(-7))
        .unwrap();
    assert_eq!(text::to_string(&message), "value: -7\n");
    assert_eq!(text::to_string(&DynamicMessage::new(node)), "");
}
