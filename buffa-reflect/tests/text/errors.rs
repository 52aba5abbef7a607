//! Errors: what buffa rejects, protoc rejects too, and buffa says where.

use buffa_reflect::text;

use super::{descriptor, protoc_encode};

/// Inputs both parsers reject, with the line and column buffa reports
/// and a part of its message.
#[rustfmt::skip]
const REJECTED: &[(&str, &str, (u32, u32), &str)] = &[
    // Names.
    ("text2.Node", "value: 1\n  nope: 2", (2, 3), "unknown field `nope` in text2.Node"),
    ("text2.Node", "Value: 1", (1, 1), "unknown field `Value`"),
    ("text2.Groups", "DATA { }", (1, 1), "unknown field `DATA`"),
    // A group's type name in lower case is its field name; a non-group
    // field is not found by another case.
    ("text2.Groups", "multiWordGroup { }", (1, 1), "unknown field"),
    ("text2.Extendable", "[text2.nope]: 1", (1, 1), "not an extension of text2.Extendable"),
    ("text2.Extendable", "[text2.Node]: 1", (1, 1), "not an extension"),
    ("text2.Node", "[text2.ext_int]: 1", (1, 1), "not an extension of text2.Node"),
    // Extensions are named by field name, never by group type name.
    ("text2.Extendable", "[text2.ExtGroup] { }", (1, 1), "not an extension"),
    ("text2.Node", "1: 5", (1, 1), "expected an identifier"),
    // Punctuation.
    ("text2.Node", "value 1", (1, 7), "expected `:` after `value`"),
    ("text2.Node", "child { value: 1", (1, 17), "expected `}`, found end of input"),
    ("text2.Node", "child { value: 1 >", (1, 18), "expected"),
    ("text2.Node", "child: 5", (1, 8), "expected `{` or `<`"),
    ("text2.Node", "}", (1, 1), "expected an identifier"),
    ("text2.Scalars", "r_int32: [1 2]", (1, 13), "expected `,`"),
    ("text2.Scalars", "r_int32: [1,]", (1, 13), "expected an integer"),
    ("text2.Scalars", "f_int32: [1]", (1, 10), "expected an integer"),
    // Numbers.
    ("text2.Scalars", "f_int32: 2147483648", (1, 10), "integer out of range"),
    ("text2.Scalars", "f_int32: -2147483649", (1, 10), "integer out of range"),
    ("text2.Scalars", "f_uint32: 4294967296", (1, 11), "integer out of range"),
    ("text2.Scalars", "f_uint32: -1", (1, 11), "expected an integer"),
    ("text2.Scalars", "f_int64: 9223372036854775808", (1, 10), "out of range"),
    ("text2.Scalars", "f_int64: -9223372036854775809", (1, 10), "out of range"),
    ("text2.Scalars", "f_uint64: 18446744073709551616", (1, 11), "out of range"),
    ("text2.Scalars", "f_int32: 1.0", (1, 10), "expected an integer"),
    ("text2.Scalars", "f_int32: 1e5", (1, 10), "expected an integer"),
    ("text2.Scalars", "f_int32: 08", (1, 11), "octal"),
    ("text2.Scalars", "f_int32: 1x", (1, 11), "need space between number and identifier"),
    ("text2.Scalars", "f_double: 0x10", (1, 11), "expected a decimal number"),
    ("text2.Scalars", "f_double: 010", (1, 11), "expected a decimal number"),
    ("text2.Scalars", "f_double: infinite", (1, 11), "expected a number"),
    ("text2.Scalars", "f_double: - - 1", (1, 13), "expected a number"),
    ("text2.Scalars", "f_double: 1.5.5", (1, 14), "decimal point"),
    ("text2.Scalars", "f_double: 1e", (1, 13), "exponent"),
    ("text2.Scalars", "f_bool: 2", (1, 9), "integer out of range"),
    ("text2.Scalars", "f_bool: yes", (1, 9), "expected `true` or `false`"),
    ("text2.Scalars", "f_bool: TRUE", (1, 9), "expected `true` or `false`"),
    // Enums.
    ("text2.Scalars", "f_color: PURPLE", (1, 10), "unknown value `PURPLE` of enum text2.Color"),
    ("text2.Scalars", "f_color: 3", (1, 10), "not a value of the closed enum text2.Color"),
    ("text2.Scalars", "r_color: [RED, -1]", (1, 16), "closed enum"),
    ("text_editions.Delimited", "closed: 2", (1, 9), "closed enum"),
    ("text3.Scalars3", "f_mood: 2147483648", (1, 9), "out of range"),
    ("text3.Scalars3", "f_mood: 1.5", (1, 9), "expected an enum value"),
    // Strings.
    ("text2.Scalars", "f_string: 'abc", (1, 15), "end of input in a string"),
    ("text2.Scalars", "f_string: 'a\nb'", (1, 13), "cannot span lines"),
    ("text2.Scalars", r"f_string: 'a\qb'", (1, 13), "invalid escape"),
    ("text2.Scalars", r"f_string: '\x'", (1, 12), "hex digits"),
    ("text2.Scalars", r"f_string: '\u12'", (1, 12), "four hex digits"),
    ("text2.Scalars", "f_string: 1", (1, 11), "expected a string"),
    ("text2.Scalars", "\u{1}", (1, 1), "control character"),
    ("text2.Scalars", "é: 1", (1, 1), "non-ASCII"),
    // Set twice.
    ("text2.Node", "value: 1\nvalue: 2", (2, 1), "non-repeated field `value` is set twice"),
    ("text2.Node", "child {} child {}", (1, 10), "set twice"),
    ("text2.Groups", "Data {} data {}", (1, 9), "set twice"),
    ("text3.Tree", "id: 1 id: 2", (1, 7), "set twice"),
    ("text3.Tree", "label: '' subtree {}", (1, 11), "members of the same oneof `kind`"),
    ("text2.WithOneof", "number: 1 text: 'x'", (1, 11), "oneof `choice`"),
    ("text2.Extendable", "[text2.ext_int]: 1 [text2.ext_int]: 2", (1, 20), "set twice"),
    ("text3.Maps", "string_string { key: 'a' key: 'b' }", (1, 26), "set twice"),
    // Any.
    ("text2.WithAny", "any { [type.googleapis.com/text2.Missing] { } }", (1, 7), "not in the descriptor pool"),
    ("text2.WithAny", "any { [type.googleapis.com/text2.Node] { } [type.googleapis.com/text2.Node] { } }", (1, 44), "the Any is set twice"),
    ("text2.WithAny", "any { type_url: 'x' [type.googleapis.com/text2.Node] { } }", (1, 21), "the Any is set twice"),
    ("text2.WithAny", "any { [type.googleapis.com/text2.Node] { nope: 1 } }", (1, 42), "unknown field `nope` in text2.Node"),
    ("text2.WithAny", "any { [text2.Node] { } }", (1, 18), "expected `/`"),
];

/// Inputs the specification (and the conformance suite) rejects, but
/// protoc accepts: invalid UTF-8 in a string field (C++ only logs it),
/// surrogates (which C++ pairs up) and code points beyond U+10FFFF (for
/// which C++ keeps a `U`) in unicode escapes.
#[rustfmt::skip]
const REJECTED_BY_SPEC: &[(&str, &str, (u32, u32), &str)] = &[
    ("text3.Scalars3", r"f_string: '\300'", (1, 11), "invalid UTF-8"),
    ("text3.Scalars3", r"f_string: 'ok' '\xc0'", (1, 11), "invalid UTF-8"),
    ("text2.Scalars", r"f_string: '\xc0'", (1, 11), "invalid UTF-8"),
    ("text2.Scalars", r"f_bytes: '\ud801\udc37'", (1, 11), "surrogates"),
    ("text2.Scalars", r"f_bytes: '\ud800'", (1, 11), "surrogates"),
    ("text2.Scalars", r"f_bytes: 'a\U0000dc00'", (1, 12), "surrogates"),
    ("text2.Scalars", r"f_bytes: '\U00110000'", (1, 11), "beyond U+10FFFF"),
];

/// Asserts that buffa rejects `input` at `position`, saying `message`.
fn assert_rejects(message_type: &str, input: &str, position: (u32, u32), message: &str) {
    let error = text::parse(&descriptor(message_type), input)
        .expect_err(&format!("{message_type}: {input:?} parsed"));
    assert!(
        error.message().contains(message),
        "{message_type}: {input:?}: {error} does not say {message:?}"
    );
    assert_eq!(
        (error.line(), error.column()),
        position,
        "{message_type}: {input:?}: {error}"
    );
}

#[test]
fn rejected_inputs_are_rejected_by_protoc_too() {
    for &(message_type, input, position, message) in REJECTED {
        assert_rejects(message_type, input, position, message);
        assert!(
            protoc_encode(message_type, input).is_err(),
            "{message_type}: protoc accepts {input:?}"
        );
    }
}

#[test]
fn inputs_the_specification_forbids_are_rejected() {
    for &(message_type, input, position, message) in REJECTED_BY_SPEC {
        assert_rejects(message_type, input, position, message);
    }
}

#[test]
fn errors_display_their_position() {
    let error = text::parse(&descriptor("text2.Node"), "value: 1\n  foo: 2").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2, column 3: unknown field `foo` in text2.Node"
    );
}
