//! The text format over generated messages, against protoc (C++
//! protobuf's printer and parser): buffa-reflect's text fixtures, whose
//! protos build.rs compiles with `reflection()`, printed from and parsed
//! into the generated types. Extensions, which generated messages keep
//! encoded among their unknown fields, print among the fields by number
//! and parse back into the unknown fields.

mod common;

#[path = "../../buffa-reflect/tests/text/fixtures.rs"]
mod fixtures;

#[allow(dead_code, clippy::all)]
mod schema {
    include!(concat!(env!("OUT_DIR"), "/text/include.rs"));
}

use std::path::PathBuf;

use buffa::{ExtendableMessage, Message};
use buffa_reflect::{DynamicMessage, ReflectMessage, Value, text};
use fixtures::{ANY_FIXTURES, FIXTURES};
use schema::{text_editions, text2, text3};

/// The directory of the fixtures' protos.
fn include() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../buffa-reflect/tests/proto/text")
}

/// An empty generated message of type `message_type`.
fn generated(message_type: &str) -> Box<dyn ReflectMessage> {
    match message_type {
        "text2.Scalars" => Box::new(text2::Scalars::default()),
        "text2.Node" => Box::new(text2::Node::default()),
        "text2.Groups" => Box::new(text2::Groups::default()),
        "text2.Extendable" => Box::new(text2::Extendable::default()),
        "text2.WithOneof" => Box::new(text2::WithOneof::default()),
        "text2.WithAny" => Box::new(text2::WithAny::default()),
        "text2.Empty" => Box::new(text2::Empty::default()),
        "text3.Scalars3" => Box::new(text3::Scalars3::default()),
        "text3.Maps" => Box::new(text3::Maps::default()),
        "text3.Tree" => Box::new(text3::Tree::default()),
        "text_editions.Delimited" => Box::new(text_editions::Delimited::default()),
        other => panic!("no generated type for {other}"),
    }
}

/// The file declaring `message`'s type, for protoc.
fn file_of(message: &dyn ReflectMessage) -> String {
    message.descriptor().parent_file().name().to_owned()
}

fn protoc_encode(message_type: &str, text: &str) -> Vec<u8> {
    let file = file_of(generated(message_type).as_ref());
    common::protoc_encode_in(&include(), &file, message_type, text)
}

fn protoc_decode(message_type: &str, bytes: &[u8]) -> String {
    let file = file_of(generated(message_type).as_ref());
    common::protoc_decode_in(&include(), &file, message_type, bytes)
}

/// The generated message of type `message_type` decoded from `bytes`.
fn decoded(message_type: &str, bytes: &[u8]) -> Box<dyn ReflectMessage> {
    let mut message = generated(message_type);
    message
        .merge_binary(bytes, &buffa::DecodeOptions::new())
        .unwrap_or_else(|e| panic!("{message_type}: {e}"));
    message
}

fn encoded(message: &dyn ReflectMessage) -> Vec<u8> {
    let mut out = Vec::new();
    message.encode_binary(&mut out);
    out
}

/// Asserts that the generated message decoded from `bytes` prints as
/// protoc prints the bytes.
fn assert_prints_like_protoc(message_type: &str, bytes: &[u8]) {
    // The default prints what protoc prints (`Any`s by their fields).
    let printed = text::to_string(decoded(message_type, bytes).as_ref());
    assert_eq!(
        printed,
        protoc_decode(message_type, bytes),
        "{message_type}: buffa (left) and protoc (right) print {bytes:02x?} differently"
    );
}

/// Asserts that `input` parsed into the generated `message_type` encodes
/// as protoc encodes it: the same bytes or, where the two encodings may
/// order things differently (map entries of a `HashMap`, extensions that
/// generated code writes after the fields), the same message.
fn assert_parses_like_protoc(message_type: &str, input: &str) {
    let expected = protoc_encode(message_type, input);
    let mut message = generated(message_type);
    text::merge(message.as_mut(), input).unwrap_or_else(|e| panic!("{message_type}: {e}"));
    let bytes = encoded(message.as_ref());
    if bytes != expected {
        let descriptor = message.descriptor();
        assert_eq!(
            DynamicMessage::decode(descriptor.clone(), &bytes).unwrap(),
            DynamicMessage::decode(descriptor, &expected).unwrap(),
            "{message_type}: {input}"
        );
    }
}

#[test]
fn fixtures_print_like_protoc() {
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        assert_prints_like_protoc(message_type, &protoc_encode(message_type, fixture));
    }
}

#[test]
fn unknown_fields_print_like_protoc() {
    // Every fixture read as a message that knows none of its fields.
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        assert_prints_like_protoc("text2.Empty", &protoc_encode(message_type, fixture));
    }
}

#[test]
fn fixtures_parse_like_protoc() {
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        assert_parses_like_protoc(message_type, fixture);
    }
}

#[test]
fn expanded_anys_of_generated_messages_parse_in_protoc() {
    // A generated `Any` is described by the well-known types' pool; its
    // value's type is found in the pool of the message printed.
    for (message_type, fixture) in ANY_FIXTURES {
        let bytes = protoc_encode(message_type, fixture);
        let options = text::PrintOptions::new().with_expand_any(true);
        let printed = text::to_string_with(decoded(message_type, &bytes).as_ref(), &options);
        assert!(printed.contains("[type.googleapis.com/"), "{printed}");
        assert_eq!(protoc_encode(message_type, &printed), bytes, "{printed}");
    }
}

/// Bytes of a `text2.Extendable` beyond its fixture: extensions and
/// unknown fields interleaved.
fn extendable_with_unknown_fields() -> Vec<u8> {
    let mut bytes = protoc_encode("text2.Extendable", "[text2.ext_int]: 3 a: 1");
    bytes.extend_from_slice(&[
        0xb8, 0x06, 0x01, // 103 as a varint: ExtGroup's number, not a group
        0xc8, 0x06, 0x07, // ext_color (105) = 7, undeclared in the closed enum
        0x98, 0x06, 0x2a, // 99 = 42, unknown
        0xa2, 0x06, 0x01, 0x61, // 100 length-delimited: not ext_int's wire type
        0xaa, 0x06, 0x01, 0x61, // ext_strings (101) += "a"
        0xc8, 0x06, 0x02, // ext_color = BLUE
        0xa0, 0x06, 0x04, // ext_int = 4, the last value wins
    ]);
    bytes
}

#[test]
fn extensions_and_unknown_fields_interleave_like_protoc() {
    let bytes = extendable_with_unknown_fields();
    assert_prints_like_protoc("text2.Extendable", &bytes);
    let message = decoded("text2.Extendable", &bytes);
    let printed = text::to_string(message.as_ref());
    assert!(printed.contains("[text2.ext_int]: 4\n"), "{printed}");
    // The same bytes as a dynamic message, which stores extensions as
    // fields, print the same.
    let dynamic = DynamicMessage::decode(message.descriptor(), &bytes).unwrap();
    assert_eq!(text::to_string(&dynamic), printed);
}

#[test]
fn extensions_of_generated_messages_through_reflection() {
    let bytes = extendable_with_unknown_fields();
    let mut message = text2::Extendable::decode_from_slice(&bytes).unwrap();
    let pool = message.descriptor().pool().clone();
    let ext = |name: &str| pool.get_extension_by_name(name).unwrap();
    let (ext_int, ext_color, ext_strings, ext_node, ext_double) = (
        ext("text2.ext_int"),
        ext("text2.ext_color"),
        ext("text2.ext_strings"),
        ext("text2.ext_node"),
        ext("text2.ext_double"),
    );

    // Read: decoded on demand, never lent.
    assert!(message.has_field(&ext_int));
    assert_eq!(message.field_owned(&ext_int), Some(Value::I32(4)));
    assert!(message.field(&ext_int).is_none());
    assert_eq!(message.field_owned(&ext_color), Some(Value::EnumNumber(2)));
    assert_eq!(
        message.field_owned(&ext_strings),
        Some(Value::List(vec![Value::String("a".into())]))
    );
    assert!(!message.has_field(&ext_node) && message.field_owned(&ext_node).is_none());
    assert!(!message.has_field(&ext_double));
    assert!(message.set_fields().iter().all(|(f, _)| !f.is_extension()));

    // Write: the occurrences are replaced (the undeclared 7 of ext_color
    // too), the other unknown fields stay.
    message.set_field(&ext_color, Value::EnumNumber(1)).unwrap();
    message.set_field(&ext_double, Value::F64(0.5)).unwrap();
    let mut node = DynamicMessage::new(ext_node.kind().as_message().unwrap().clone());
    node.set_field_by_name("value", Value::I32(9)).unwrap();
    message.set_field(&ext_node, Value::Message(node)).unwrap();
    message.clear_field(&ext_int);
    message
        .set_field(&ext_strings, Value::List(Vec::new()))
        .unwrap();
    assert!(!message.has_field(&ext_int) && !message.has_field(&ext_strings));
    assert!(message.has_field(&ext_node));
    assert_eq!(
        text::to_string(&message),
        protoc_decode("text2.Extendable", &message.encode_to_vec())
    );
    assert_eq!(
        text::to_string_with(&message, &text::PrintOptions::new().with_single_line(true)),
        "a: 1 [text2.ext_node] { value: 9 } [text2.ext_color]: GREEN [text2.ext_double]: 0.5 \
         103: 1 99: 42"
    );

    // The typed extension API reads and writes the same bytes.
    assert_eq!(message.extension(&text2::EXT_DOUBLE).unwrap(), Some(0.5));
    let node = message.extension(&text2::EXT_NODE).unwrap().unwrap();
    assert_eq!(node.value, Some(9));
    message.set_extension(&text2::EXT_INT, 11);
    assert_eq!(message.field_owned(&ext_int), Some(Value::I32(11)));

    // Refused: a value of another kind, and changing in place.
    let before = message.clone();
    assert!(message.set_field(&ext_color, Value::EnumNumber(7)).is_err());
    assert!(message.set_field(&ext_double, Value::I32(1)).is_err());
    assert!(message.field_mut(&ext_node).is_err());
    assert_eq!(message, before);
}

#[test]
fn merging_text_into_extensions_of_a_generated_message() {
    let start = "a: 1 [text2.ext_int]: 3 [text2.ext_node] { value: 1 } [text2.ext_strings]: 'p'";
    let merged = "[text2.ext_int]: 5 [text2.ext_node] { child { value: 2 } } \
                  [text2.ext_strings]: 'q' [text2.extgroup] { g: 6 }";
    let original = decoded(
        "text2.Extendable",
        &protoc_encode("text2.Extendable", start),
    );

    // An extension already set is set twice, unless overwrites are allowed.
    let mut message = original.new_instance();
    message
        .merge_binary(&encoded(original.as_ref()), &buffa::DecodeOptions::new())
        .unwrap();
    let error = text::merge(message.as_mut(), merged).unwrap_err();
    assert!(error.to_string().contains("set twice"), "{error}");

    // Allowed: a scalar is replaced, a message merged, a list appended to,
    // as protoc merges the two texts.
    let options = text::ParseOptions::new().with_allow_singular_overwrites(true);
    let mut message = original.new_instance();
    message
        .merge_binary(&encoded(original.as_ref()), &buffa::DecodeOptions::new())
        .unwrap();
    text::merge_with(message.as_mut(), merged, &options).unwrap();
    let expected = protoc_encode(
        "text2.Extendable",
        "a: 1 [text2.ext_int]: 5 [text2.ext_node] { value: 1 child { value: 2 } } \
         [text2.ext_strings]: ['p', 'q'] [text2.extgroup] { g: 6 }",
    );
    assert_eq!(
        text::to_string(message.as_ref()),
        protoc_decode("text2.Extendable", &expected)
    );

    // An error keeps the extensions read before it.
    let mut message = generated("text2.Extendable");
    text::merge(message.as_mut(), "[text2.ext_int]: 7 nope: 1").unwrap_err();
    let ext_int = message
        .descriptor()
        .pool()
        .get_extension_by_name("text2.ext_int")
        .unwrap();
    assert_eq!(message.field_owned(&ext_int), Some(Value::I32(7)));
}
