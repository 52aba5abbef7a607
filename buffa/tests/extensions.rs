//! Typed extensions over hand-written messages: `Inner` extended with one
//! extension per value type and encoding, declared as generated code
//! declares them. Expected bytes come from the independent wire helpers of
//! `common`; the protoc cross-checks live in `tests/tests/extensions.rs`.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use buffa::__private::Encoding;
use buffa::{DecodeErrorKind, EnumValue, ExtendableMessage, Extension, Message, UnknownFields};
use common::{Color, Inner, Shape, cat, key, ld, varint, vfield};

impl ExtendableMessage for Inner {
    fn unknown_fields_mut(&mut self) -> &mut UnknownFields {
        &mut self.unknown_fields
    }
}

const INT32: Extension<Inner, i32> = Extension::new(100, "test.int32", Encoding::Varint);
const SINT64: Extension<Inner, i64> = Extension::new(101, "test.sint64", Encoding::ZigZag);
const SFIXED32: Extension<Inner, i32> = Extension::new(102, "test.sfixed32", Encoding::Fixed);
const FIXED64: Extension<Inner, u64> = Extension::new(103, "test.fixed64", Encoding::Fixed);
const FLOAT: Extension<Inner, f32> = Extension::new(104, "test.float", Encoding::Fixed);
const DOUBLE: Extension<Inner, f64> = Extension::new(105, "test.double", Encoding::Fixed);
const BOOL: Extension<Inner, bool> = Extension::new(106, "test.bool", Encoding::Varint);
const STRING: Extension<Inner, String> =
    Extension::new(107, "test.string", Encoding::LengthDelimited);
const BYTES: Extension<Inner, Vec<u8>> =
    Extension::new(108, "test.bytes", Encoding::LengthDelimited);
const OPEN: Extension<Inner, EnumValue<Color>> = Extension::new(109, "test.open", Encoding::Varint);
const CLOSED: Extension<Inner, Shape> = Extension::new(110, "test.closed", Encoding::Varint);
const UINT32: Extension<Inner, u32> = Extension::new(111, "test.uint32", Encoding::Varint);
const MESSAGE: Extension<Inner, Inner> =
    Extension::new(120, "test.message", Encoding::LengthDelimited);
const GROUP: Extension<Inner, Inner> = Extension::new(121, "test.group", Encoding::Delimited);
const PACKED: Extension<Inner, Vec<i32>> =
    Extension::new(130, "test.packed", Encoding::ZigZag).packed();
const EXPANDED: Extension<Inner, Vec<u32>> = Extension::new(131, "test.expanded", Encoding::Fixed);
const CLOSED_LIST: Extension<Inner, Vec<Shape>> =
    Extension::new(132, "test.closed_list", Encoding::Varint).packed();
const STRINGS: Extension<Inner, Vec<String>> =
    Extension::new(133, "test.strings", Encoding::LengthDelimited);
const ZIGZAG: Extension<Inner, Vec<i64>> = Extension::new(135, "test.zigzag", Encoding::ZigZag);
const MESSAGES: Extension<Inner, Vec<Inner>> =
    Extension::new(134, "test.messages", Encoding::LengthDelimited);

fn zigzag_field(number: u32, value: i64) -> Vec<u8> {
    vfield(number, ((value << 1) ^ (value >> 63)) as u64)
}

fn fixed32(number: u32, value: u32) -> Vec<u8> {
    cat(&[&key(number, 5), &value.to_le_bytes()])
}

fn fixed64(number: u32, value: u64) -> Vec<u8> {
    cat(&[&key(number, 1), &value.to_le_bytes()])
}

/// `Inner` holding `fields` as unknown fields, as decoding them leaves it.
fn with_fields(fields: &[u8]) -> Inner {
    Inner::decode_from_slice(fields).unwrap()
}

fn inner(a: i32, b: &str) -> Inner {
    Inner {
        a,
        b: b.into(),
        ..Default::default()
    }
}

#[test]
fn reads_every_scalar_kind_from_its_encoding() {
    let message = with_fields(&cat(&[
        &vfield(100, (-5i64) as u64),
        &vfield(101, 2 * 7_000_000_000 - 1), // ZigZag of -7e9
        &fixed32(102, (-3i32) as u32),
        &fixed64(103, u64::MAX),
        &fixed32(104, 1.5f32.to_bits()),
        &fixed64(105, (-0.25f64).to_bits()),
        &vfield(106, 3), // any non-zero varint is true
        &ld(107, "ünïcode".as_bytes()),
        &ld(108, &[0, 0xff]),
        &vfield(109, 7), // an open enum keeps undeclared numbers
        &vfield(110, (-1i64) as u64),
        &vfield(111, u64::from(u32::MAX)),
    ]));
    assert_eq!(message.extension(&INT32).unwrap(), Some(-5));
    assert_eq!(message.extension(&SINT64).unwrap(), Some(-7_000_000_000));
    assert_eq!(message.extension(&SFIXED32).unwrap(), Some(-3));
    assert_eq!(message.extension(&FIXED64).unwrap(), Some(u64::MAX));
    assert_eq!(message.extension(&FLOAT).unwrap(), Some(1.5));
    assert_eq!(message.extension(&DOUBLE).unwrap(), Some(-0.25));
    assert_eq!(message.extension(&BOOL).unwrap(), Some(true));
    assert_eq!(
        message.extension(&STRING).unwrap().as_deref(),
        Some("ünïcode")
    );
    assert_eq!(message.extension(&BYTES).unwrap(), Some(vec![0, 0xff]));
    assert_eq!(
        message.extension(&OPEN).unwrap(),
        Some(EnumValue::Unknown(7))
    );
    assert_eq!(message.extension(&CLOSED).unwrap(), Some(Shape::Minus));
    assert_eq!(message.extension(&UINT32).unwrap(), Some(u32::MAX));
    // Nothing of the above is a known field of `Inner`.
    assert_eq!((message.a, message.b.as_str()), (0, ""));
}

#[test]
fn set_writes_the_encoding_and_reads_back() {
    let mut message = Inner::default();
    message.set_extension(&INT32, -1);
    message.set_extension(&SINT64, -1);
    message.set_extension(&SFIXED32, -2);
    message.set_extension(&DOUBLE, 2.0);
    message.set_extension(&STRING, "hi".to_owned());
    message.set_extension(&CLOSED, Shape::Square);
    message.set_extension(&OPEN, EnumValue::Known(Color::Blue));
    assert_eq!(
        message.unknown_fields.as_bytes(),
        cat(&[
            &vfield(100, u64::MAX),
            &vfield(101, 1),
            &fixed32(102, (-2i32) as u32),
            &fixed64(105, 2.0f64.to_bits()),
            &ld(107, b"hi"),
            &vfield(110, 2),
            &vfield(109, 2),
        ])
    );
    let back = Inner::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert_eq!(back.extension(&SINT64).unwrap(), Some(-1));
    assert_eq!(back.extension(&STRING).unwrap().as_deref(), Some("hi"));
    assert_eq!(
        back.extension(&OPEN).unwrap(),
        Some(EnumValue::Known(Color::Blue))
    );
}

#[test]
fn last_value_wins_and_other_wire_types_are_skipped_but_kept() {
    let fields = cat(&[
        &vfield(100, 1),
        &vfield(100, 2),
        // Field 100 as bytes and as fixed32: not an int32, so skipped.
        &ld(100, &[0x08]),
        &fixed32(100, 9),
    ]);
    let message = with_fields(&fields);
    assert_eq!(message.extension(&INT32).unwrap(), Some(2));
    assert!(message.has_extension(&INT32));
    assert_eq!(message.unknown_fields.as_bytes(), fields);
    // Only wrong wire types: unset.
    let message = with_fields(&cat(&[&ld(100, &[1]), &fixed64(107, 1)]));
    assert_eq!(message.extension(&INT32).unwrap(), None);
    assert_eq!(message.extension(&STRING).unwrap(), None);
    assert!(!message.has_extension(&INT32));
    // A packed run for a singular extension is not its value.
    assert_eq!(message.extension(&INT32).unwrap(), None);
}

#[test]
fn repeated_reads_packed_and_expanded_and_writes_as_declared() {
    let zigzag = |v: i64| varint(((v << 1) ^ (v >> 63)) as u64);
    let message = with_fields(&cat(&[
        &vfield(130, 3), // -2, expanded
        &ld(130, &cat(&[&zigzag(5), &zigzag(-300)])),
        &ld(130, &[]),
        &fixed32(130, 1), // wrong wire type
        &vfield(130, 0),
        &ld(131, &cat(&[&7u32.to_le_bytes(), &8u32.to_le_bytes()])),
        &fixed32(131, 9),
    ]));
    assert_eq!(message.extension(&PACKED).unwrap(), vec![-2, 5, -300, 0]);
    assert_eq!(message.extension(&EXPANDED).unwrap(), vec![7, 8, 9]);

    let mut message = Inner::default();
    message.set_extension(&PACKED, vec![1, -1, 64]);
    message.set_extension(&EXPANDED, vec![1, 2]);
    assert_eq!(
        message.unknown_fields.as_bytes(),
        cat(&[
            &ld(130, &cat(&[&zigzag(1), &zigzag(-1), &zigzag(64)])),
            &fixed32(131, 1),
            &fixed32(131, 2),
        ])
    );
    // Setting a repeated extension replaces it; an empty one clears it.
    message.set_extension(&PACKED, vec![4]);
    assert_eq!(message.extension(&PACKED).unwrap(), vec![4]);
    message.set_extension(&PACKED, Vec::new());
    assert!(!message.has_extension(&PACKED));
    assert_eq!(message.extension(&EXPANDED).unwrap(), vec![1, 2]);
    // Strings are never packed: one field each, read back in order.
    let mut message = Inner::default();
    message.set_extension(&STRINGS, vec!["a".into(), String::new()]);
    assert_eq!(
        message.unknown_fields.as_bytes(),
        cat(&[&ld(133, b"a"), &ld(133, b"")])
    );
    assert_eq!(message.extension(&STRINGS).unwrap(), ["a", ""]);
    // An unpacked repeated extension reads packed runs too.
    let message = with_fields(&cat(&[
        &ld(135, &cat(&[&zigzag(-3), &zigzag(3)])),
        &zigzag_field(135, 9),
    ]));
    assert_eq!(message.extension(&ZIGZAG).unwrap(), [-3, 3, 9]);
}

#[test]
fn closed_enums_skip_numbers_they_do_not_declare() {
    let message = with_fields(&cat(&[
        &vfield(110, 2),
        &vfield(110, 5), // undeclared: the earlier value stands
        &ld(132, &cat(&[&varint(1), &varint(9), &varint(2)])),
        &vfield(132, 3),
    ]));
    assert_eq!(message.extension(&CLOSED).unwrap(), Some(Shape::Square));
    assert_eq!(
        message.extension(&CLOSED_LIST).unwrap(),
        vec![Shape::Circle, Shape::Square]
    );
    let only_unknown = with_fields(&vfield(110, 5));
    assert_eq!(only_unknown.extension(&CLOSED).unwrap(), None);
    assert!(!only_unknown.has_extension(&CLOSED));
    // The undeclared number stays kept.
    assert_eq!(only_unknown.unknown_fields.as_bytes(), vfield(110, 5));
}

#[test]
fn singular_messages_merge_every_occurrence_and_repeated_ones_do_not() {
    let first = cat(&[&vfield(1, 1), &ld(2, b"one")]);
    let second = vfield(1, 2);
    let message = with_fields(&cat(&[
        &ld(120, &first),
        &vfield(120, 5), // wrong wire type
        &ld(120, &second),
        &ld(134, &first),
        &ld(134, &second),
    ]));
    assert_eq!(message.extension(&MESSAGE).unwrap(), Some(inner(2, "one")));
    assert_eq!(
        message.extension(&MESSAGES).unwrap(),
        vec![inner(1, "one"), inner(2, "")]
    );
    assert!(message.has_extension(&MESSAGE));
    assert_eq!(message.extension(&GROUP).unwrap(), None);
}

#[test]
fn group_extensions_read_and_write_delimited() {
    let group = cat(&[&key(121, 3), &vfield(1, 4), &ld(2, b"g"), &key(121, 4)]);
    let message = with_fields(&cat(&[&group, &ld(121, &vfield(1, 9))]));
    // The length-delimited occurrence is not a group.
    assert_eq!(message.extension(&GROUP).unwrap(), Some(inner(4, "g")));

    let mut message = Inner::default();
    message.set_extension(&GROUP, inner(4, "g"));
    assert_eq!(message.unknown_fields.as_bytes(), group);
    let back = Inner::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert_eq!(back.extension(&GROUP).unwrap(), Some(inner(4, "g")));
}

#[test]
fn malformed_values_are_errors_naming_the_extension_field() {
    // A sub-message whose field 1 is truncated, a string that is not
    // UTF-8, and a packed run that ends inside a varint.
    let message = with_fields(&cat(&[
        &ld(120, &[0x08]),
        &ld(107, &[0xff, 0xfe]),
        &ld(130, &[0x80]),
        &ld(134, &[0x12, 0x05, b'a']),
    ]));
    let error = message.extension(&MESSAGE).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::Truncated);
    assert_eq!(
        error.field_path().collect::<Vec<_>>(),
        [("test.Inner", 120), ("test.Inner", 1)]
    );
    let error = message.extension(&STRING).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::InvalidUtf8);
    assert!(
        error.to_string().ends_with("in test.Inner field 107"),
        "{error}"
    );
    assert_eq!(
        message.extension(&PACKED).unwrap_err().kind(),
        &DecodeErrorKind::Truncated
    );
    assert!(matches!(
        message.extension(&MESSAGES).unwrap_err().kind(),
        DecodeErrorKind::LengthOutOfBounds { .. }
    ));
    // Present, though unreadable.
    assert!(message.has_extension(&MESSAGE) && message.has_extension(&STRING));
    assert!(message.has_extension(&PACKED));
}

#[test]
fn deeply_nested_groups_in_a_value_hit_the_recursion_limit() {
    // `push_raw` accepts groups nested at any depth (it checks them
    // without recursion); decoding the value must refuse them, not
    // overflow the stack.
    // Far beyond the limit of 100 either way; Miri runs the smaller one.
    let depth = if cfg!(miri) { 1_000 } else { 100_000 };
    // Field 5, unknown to `Inner`.
    let mut body = vec![0x2b; depth]; // start-group 5
    body.extend(std::iter::repeat_n(0x2c, depth)); // end-group 5
    let mut message = Inner::default();
    message
        .unknown_fields
        .push_raw(&cat(&[&key(121, 3), &body, &key(121, 4)]))
        .unwrap();
    let error = message.extension(&GROUP).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::RecursionLimitExceeded { limit: 100 }
        ),
        "{error:?}"
    );
}

#[test]
fn clear_removes_every_occurrence_of_the_number_only() {
    let mut message = with_fields(&cat(&[
        &vfield(100, 1),
        &vfield(1, 5),
        &ld(100, b"x"),
        &vfield(101, 2),
    ]));
    assert_eq!(message.a, 5);
    message.clear_extension(&INT32);
    assert_eq!(message.unknown_fields.as_bytes(), vfield(101, 2));
    assert!(!message.has_extension(&INT32));
    assert_eq!(message.extension(&SINT64).unwrap(), Some(1));
    // `set` replaces occurrences of any wire type.
    let mut message = with_fields(&cat(&[&ld(100, b"x"), &vfield(100, 3)]));
    message.set_extension(&INT32, 4);
    assert_eq!(message.unknown_fields.as_bytes(), vfield(100, 4));
}

#[test]
fn identifiers_describe_themselves() {
    assert_eq!(PACKED.number(), 130);
    assert_eq!(PACKED.full_name(), "test.packed");
    assert_eq!(
        format!("{:?}", PACKED),
        "Extension { number: 130, full_name: \"test.packed\", encoding: ZigZag, packed: true }"
    );
    let copy = STRING;
    assert_eq!(copy.number(), STRING.number());
}

// Invalid declarations fail to compile as constants; called at run time,
// the same checks panic.

#[test]
#[should_panic(expected = "cannot have this encoding")]
fn a_value_type_refuses_encodings_it_cannot_have() {
    let _ = Extension::<Inner, String>::new(1, "test.bad", std::hint::black_box(Encoding::Varint));
}

#[test]
#[should_panic(expected = "can be packed")]
fn strings_cannot_be_packed() {
    let _ = Extension::<Inner, Vec<String>>::new(1, "test.bad", Encoding::LengthDelimited).packed();
}

#[test]
#[should_panic(expected = "field number out of range")]
fn field_numbers_are_checked() {
    let _ =
        Extension::<Inner, i32>::new(std::hint::black_box(1 << 29), "test.bad", Encoding::Varint);
}
