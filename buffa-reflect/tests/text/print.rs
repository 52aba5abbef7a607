//! Printing: buffa's text of protoc's bytes is protoc's `--decode` text.

use buffa_reflect::{DynamicMessage, ReflectMessage, text};

use super::fixtures::{ANY_FIXTURES, FIXTURES};
use super::{buffa_print, decoded, descriptor, protoc_decode, protoc_encode};

/// Asserts that buffa prints `bytes` as `message_type` as protoc does.
pub(super) fn assert_prints_like_protoc(message_type: &str, bytes: &[u8]) {
    let expected = protoc_decode(message_type, bytes);
    let printed = text::to_string(&decoded(message_type, bytes));
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
fn unknown_closed_enum_values_print_like_protoc() {
    // f_color (14) = 5 and p_color (62) = [1, 7]: the undeclared numbers
    // of the closed enum are kept as unknown fields.
    let bytes = [0x70, 0x05, 0xf2, 0x03, 0x02, 0x01, 0x07];
    assert_prints_like_protoc("text2.Scalars", &bytes);
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
        text::to_string(&decoded("text2.Node", &bytes)),
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
