//! Parsing: buffa's message of a text is protoc's `--encode` of it.

use buffa_reflect::{DynamicMessage, ReflectMessage, text};

use super::fixtures::{ANY_FIXTURES, FIXTURES};
use super::{descriptor, protoc_encode};

/// Asserts that buffa parses `input` as `message_type` into the message
/// protoc encodes: the same bytes, or with map fields (whose order protoc
/// does not fix) the same message.
fn assert_parses_like_protoc(message_type: &str, input: &str) {
    let expected = protoc_encode(message_type, input)
        .unwrap_or_else(|e| panic!("protoc rejects {input:?}: {e}"));
    let parsed = text::parse(&descriptor(message_type), input)
        .unwrap_or_else(|e| panic!("{message_type}: {e}\n{input}"));
    let encoded = parsed.encode_to_vec();
    if encoded != expected {
        // Maps are the only reason two encodings of one message differ.
        assert!(input.contains("key"), "{message_type}: {input}");
        let normalized = DynamicMessage::decode(descriptor(message_type), &expected)
            .unwrap()
            .encode_to_vec();
        assert_eq!(encoded, normalized, "{message_type}: {input}");
    }
}

#[test]
fn fixtures_parse_like_protoc() {
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        assert_parses_like_protoc(message_type, fixture);
    }
}

#[test]
fn printed_fixtures_parse_back() {
    for (message_type, fixture) in FIXTURES.iter().chain(ANY_FIXTURES) {
        let message = text::parse(&descriptor(message_type), fixture).unwrap();
        for options in [
            text::PrintOptions::new(),
            text::PrintOptions::new().with_single_line(true),
            text::PrintOptions::new().with_expand_any(false),
        ] {
            let printed = text::to_string_with(&message, &options);
            let again = text::parse(&descriptor(message_type), &printed)
                .unwrap_or_else(|e| panic!("{e}\n{printed}"));
            assert_eq!(again.encode_to_vec(), message.encode_to_vec(), "{printed}");
        }
    }
}

#[test]
fn every_syntax_parses_like_protoc() {
    let cases: &[(&str, &str)] = &[
        // Separators, comments, `<>` delimiters, optional colons.
        (
            "text2.Node",
            "value: 1; # a comment\n child: < value: 2, >, children: [{value: 3}, <value: 4>]",
        ),
        ("text2.Node", "children []  children: [] child {}"),
        // Lists and repeated occurrences append to each other.
        (
            "text2.Scalars",
            "r_int32: 1 r_int32: [2, 3] r_int32: [] r_int32: 4 p_int32: [5] p_int32: 6",
        ),
        // Integers in every base and sign.
        (
            "text2.Scalars",
            "f_int32: -0x80000000 f_uint32: 0xFFFFFFFF f_int64: -01 f_uint64: 0777 \
             f_sint32: 0x7fffffff f_sfixed64: -0x8000000000000000 f_fixed32: 00",
        ),
        // Floats of every form; integers beyond u64 as floats.
        (
            "text2.Scalars",
            "r_double: [1f, 1.0F, .5, 5., 1e3, 1E-3, 2.5e+2, -inf, INF, Infinity, -infinity, \
             18446744073709551616, 1e400, -1e-400, 0, -0, 9007199254740993] \
             r_float: [1.5f, 3.4028235e+39, -3.4028235e+39, 3.4028235677973366e38, 1e-50, \
             0.1, 16777217, nan, -NaN]",
        ),
        // Bools in every spelling.
        (
            "text2.Scalars",
            "r_bool: [true, True, t, 1, false, False, f, 0, 0x1, 00]",
        ),
        // Strings: concatenation, both quotes, every escape.
        (
            "text2.Scalars",
            r#"f_string: 'first' "second"
               'third' r_string: "\a\b\f\n\r\t\v\?\\\'\"" r_string: '\341\210\264'
               r_string: "\xe1\x88\xb4" r_string: "\u1234\U00010437" r_string: "\0\12\101"
               f_bytes: "\300\xc0\777\x1" 'b' r_bytes: "\U0010FFFF""#,
        ),
        // Enums by name and number.
        ("text2.Scalars", "f_color: 2 r_color: [0, GREEN, 1]"),
        (
            "text3.Scalars3",
            "f_mood: -2 r_mood: [HAPPY, 99, -99, MOOD_UNSPECIFIED]",
        ),
        // Groups by type name and by field name, with and without colon.
        (
            "text2.Groups",
            "data { x: 1 } item: { name: 'a' } Item: < > multiwordgroup {}",
        ),
        ("text2.Groups", "Data: { } Item [{ name: 'a' }, {}]"),
        (
            "text_editions.Delimited",
            "grouplike { a: 1 } not_group_like: { a: 2 }",
        ),
        // Extensions by full name, groups among them by field name.
        (
            "text2.Extendable",
            "[text2.extgroup] { g: 1 } [ text2 . ext_int ] : 5 [text2.ext_strings]: ['a', 'b']",
        ),
        // Maps: entries in any order, parts left out, lists of entries,
        // duplicate keys keep the last value.
        (
            "text3.Maps",
            r#"int32_string { value: "v" key: 1 } int32_string { key: 2 } int32_string { }
               string_tree [{ key: "a" value { id: 1 } }, { key: "b" }]
               string_string { key: "d" value: "first" } string_string { key: "d" value: "last" }
               string_mood { key: "m" value: 7 } bool_bool { key: t }"#,
        ),
        // An Any given by its fields.
        (
            "text2.WithAny",
            r#"any { type_url: "type.googleapis.com/text2.Node" value: "\010\001" }"#,
        ),
        // An Any expanded with a colon and angle brackets.
        (
            "text2.WithAny",
            "any: { [type.googleapis.com/text2.Node]: < value: 9 > }",
        ),
        // A oneof member at its default value in proto3, then another
        // field: nothing is set twice.
        ("text3.Tree", "label: '' id: 0 id: 1"),
        // An empty input.
        ("text2.Node", ""),
        ("text2.Node", "  # only a comment"),
    ];
    for (message_type, input) in cases {
        assert_parses_like_protoc(message_type, input);
    }
}

#[test]
fn merge_adds_to_a_message() {
    let node = descriptor("text2.Node");
    let mut message = text::parse(&node, "children { value: 1 } child { value: 2 }").unwrap();
    text::merge(&mut message, "children { value: 3 } child { child { } }").unwrap_err();
    let options = text::ParseOptions::new().with_allow_singular_overwrites(true);
    let mut message = text::parse(&node, "children { value: 1 } child { value: 2 }").unwrap();
    text::merge_with(
        &mut message,
        "children { value: 3 } child { child { } }",
        &options,
    )
    .unwrap();
    assert_eq!(
        text::to_string_with(&message, &text::PrintOptions::new().with_single_line(true)),
        "child { value: 2 child { } } children { value: 1 } children { value: 3 }"
    );
    // The last value of a singular field wins when overwrites are allowed.
    let overwritten = text::parse_with(&node, "value: 1 value: 2", &options).unwrap();
    assert_eq!(text::to_string(&overwritten), "value: 2\n");
}

#[test]
fn unknown_fields_can_be_skipped() {
    let options = text::ParseOptions::new().with_allow_unknown_fields(true);
    let input = r#"
        nope: 1 value: 5 [text2.not_an_extension]: 'x' also { deeper < x: -inf y: [1, { z: "" }] > }
        list: [-1.5, nan, "s" 't', ident] child { unknown_inside: -0x5 value: 6 }
    "#;
    let message = text::parse_with(&descriptor("text2.Node"), input, &options).unwrap();
    assert_eq!(
        text::to_string_with(&message, &text::PrintOptions::new().with_single_line(true)),
        "value: 5 child { value: 6 }"
    );
    // Reserved names are skipped even without the option, as C++ does.
    let reserved = text::parse(&descriptor("text2.Reserved"), "gone: 1 kept: 2").unwrap();
    assert_eq!(text::to_string(&reserved), "kept: 2\n");
}

#[test]
fn recursion_limit_bounds_nesting() {
    let node = descriptor("text2.Node");
    let nested = |depth: usize| format!("{}{}", "child {".repeat(depth), "}".repeat(depth));
    assert!(text::parse(&node, &nested(100)).is_ok());
    let error = text::parse(&node, &nested(101)).unwrap_err();
    assert_eq!((error.line(), error.column()), (1, 7 * 100 + 7), "{error}");
    let options = text::ParseOptions::new().with_recursion_limit(3);
    assert!(text::parse_with(&node, &nested(3), &options).is_ok());
    assert!(text::parse_with(&node, &nested(4), &options).is_err());
    // Skipped values and Anys count too.
    let skipping = options.clone().with_allow_unknown_fields(true);
    assert!(text::parse_with(&node, "x { x { x { } } }", &skipping).is_ok());
    assert!(text::parse_with(&node, "x { x { x { x { } } } }", &skipping).is_err());
    let any = "any { [type.googleapis.com/text2.Node] { child { } } }";
    assert!(text::parse_with(&descriptor("text2.WithAny"), any, &options).is_ok());
    let any = "any { [type.googleapis.com/text2.Node] { child { child { } } } }";
    assert!(text::parse_with(&descriptor("text2.WithAny"), any, &options).is_err());
}

#[test]
fn input_length_is_bounded() {
    let options = text::ParseOptions::new().with_max_len(10);
    let node = descriptor("text2.Node");
    assert!(text::parse_with(&node, "value: 123", &options).is_ok());
    let error = text::parse_with(&node, "value: 1234", &options).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1, column 1: the input is 11 bytes long, more than the limit of 10"
    );
}

#[test]
fn generated_style_messages_parse_through_reflection() {
    // Parsing goes through ReflectMessage alone: a boxed trait object
    // works as well as a DynamicMessage.
    let mut message: Box<dyn ReflectMessage> =
        Box::new(DynamicMessage::new(descriptor("text3.Tree")));
    text::merge(message.as_mut(), "id: 3 children { id: 4 }").unwrap();
    assert_eq!(
        text::to_string_with(
            message.as_ref(),
            &text::PrintOptions::new().with_single_line(true)
        ),
        "id: 3 children { id: 4 }"
    );
}

#[test]
fn message_set_items_are_named_by_type() {
    // protoc prints a message set item under its type's name; buffa
    // prints and parses it so too.
    let input = "[text2.SetItem] { i: 1 }";
    let bytes = protoc_encode("text2.Set", input).unwrap();
    let expected = super::protoc_decode("text2.Set", &bytes);
    let message = text::parse(&descriptor("text2.Set"), input).unwrap();
    assert_eq!(text::to_string(&message), expected);
    // The extension's own name works too.
    let by_field_name = text::parse(&descriptor("text2.Set"), "[text2.SetItem.item] { i: 1 }");
    assert_eq!(text::to_string(&by_field_name.unwrap()), expected);
}
