//! Unknown fields discarded per message path
//! (`Config::unknown_fields_in(UnknownFieldsRepr::Discard, ..)`), on
//! `proto/unknown`: build.rs discards them for the package `unknown` and
//! keeps them again for `Keeper` and `Outer.Inner`; `Extendable` keeps them
//! for its extension ranges. A discarding message decodes input holding
//! unknown fields into what the known fields alone decode to, re-encodes
//! without them, fails on malformed ones exactly as a keeping message
//! does, and its view, JSON and reflection work without them.

use buffa::{
    DecodeOptions, EnumValue, ExtendableMessage, HasView, Inline, Message, MessageField,
    MessageView,
};
use buffa_reflect::{ReflectMessage, Value, text};
use buffa_tests::unknown::unknown::{
    self as schema, Empty, Extendable, Keeper, Kind, Outer, Triangle, Vector3,
};

/// Generated with reflection (build.rs: `unknown_reflect`).
#[allow(dead_code, clippy::all)]
mod reflected {
    include!(concat!(env!("OUT_DIR"), "/unknown_reflect/include.rs"));
}

/// A key of field `number` with wire type `wire`, as a varint.
fn key(number: u32, wire: u8) -> Vec<u8> {
    varint(u64::from(number) << 3 | u64::from(wire))
}

fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
    out
}

/// Well-formed fields of every wire type at numbers no message of the
/// schema declares: a varint, bytes, a fixed32, a fixed64 and a group
/// holding a varint.
fn unknown_fields() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(key(20, 0));
    out.extend(varint(150));
    out.extend(key(21, 2));
    out.extend([2, b'h', b'i']);
    out.extend(key(22, 5));
    out.extend([1, 2, 3, 4]);
    out.extend(key(23, 1));
    out.extend([1, 2, 3, 4, 5, 6, 7, 8]);
    out.extend(key(24, 3));
    out.extend(key(1, 0));
    out.push(1);
    out.extend(key(24, 4));
    out
}

fn vector(x: f32) -> MessageField<Vector3, Inline<Vector3>> {
    MessageField::some(Vector3 {
        x: Some(x),
        y: Some(x + 1.0),
        z: None,
    })
}

fn triangle() -> Triangle {
    Triangle {
        a: vector(1.0),
        c: vector(3.0),
        kind: Some(Kind::One),
        kinds: vec![Kind::Zero, Kind::One],
        by_name: [("a".to_owned(), Kind::One)].into_iter().collect(),
        choice: Some(schema::triangle::Choice::Label("label".into())),
        ..Default::default()
    }
}

/// The known fields and the unknown ones interleaved: unknown fields
/// before, between (inside the input, not re-sorted) and after.
fn with_unknown(known: &[u8]) -> Vec<u8> {
    let mut input = unknown_fields();
    input.extend_from_slice(known);
    input.extend(unknown_fields());
    input
}

#[test]
fn discarding_messages_have_no_unknown_fields_field() {
    use buffa_tests::unknown::unknown::v3::{Point, Segment};
    // Three floats: no unknown-fields pointer, no padding, no niche (with
    // the pointer: 20 bytes, and `Option` of it 20 too).
    assert_eq!(size_of::<Point>(), 12);
    assert_eq!(size_of::<Option<Point>>(), 16);
    assert_eq!(size_of::<Segment>(), 32);
    // Three `Option<f32>`.
    assert_eq!(size_of::<Vector3>(), 24);
    assert_eq!(size_of::<Empty>(), 0);
    let segment = Segment {
        to: MessageField::some(Point {
            x: 1.0,
            y: 2.0,
            z: 3.0,
        }),
        ..Default::default()
    };
    let decoded = Segment::decode_from_slice(&with_unknown(&segment.encode_to_vec())).unwrap();
    assert_eq!(decoded, segment);
    // `Keeper` keeps its set: a pointer.
    let keeper = Keeper::default();
    assert!(keeper.unknown_fields.is_empty());
}

#[test]
fn decoding_drops_unknown_fields_and_encoding_writes_none() {
    let expected = triangle();
    let known = expected.encode_to_vec();
    let input = with_unknown(&known);
    let decoded = Triangle::decode_from_slice(&input).unwrap();
    assert_eq!(decoded, expected);
    assert!(decoded.unknown_fields().is_empty());
    assert_eq!(decoded.encode_to_vec(), known);
    assert_eq!(decoded.encoded_len(), known.len());

    // A message of no fields reads anything well-formed as nothing.
    let empty = Empty::decode_from_slice(&unknown_fields()).unwrap();
    assert_eq!(empty.encode_to_vec(), Vec::<u8>::new());

    // The same bytes kept by a message that keeps them come back.
    let kept = Keeper::decode_from_slice(&unknown_fields()).unwrap();
    assert_eq!(kept.unknown_fields.as_bytes(), &unknown_fields()[..]);
    assert_eq!(kept.encode_to_vec(), unknown_fields());
}

#[test]
fn closed_enum_numbers_not_declared_are_dropped() {
    let mut input = Vec::new();
    // kind = 7, kinds = [1, 7, 0], by_name = {"x": 7, "y": 1}, one_kind = 7.
    input.extend(key(4, 0));
    input.push(7);
    input.extend(key(5, 2));
    input.extend([3, 1, 7, 0]);
    for (name, value) in [(b'x', 7), (b'y', 1)] {
        input.extend(key(6, 2));
        input.extend([5, 0x0a, 1, name, 0x10, value]);
    }
    input.extend(key(7, 0));
    input.push(7);
    let decoded = Triangle::decode_from_slice(&input).unwrap();
    assert_eq!(decoded.kind, None);
    assert_eq!(decoded.kinds, [Kind::One, Kind::Zero]);
    assert_eq!(
        decoded.by_name,
        [("y".to_owned(), Kind::One)].into_iter().collect()
    );
    assert_eq!(decoded.choice, None);
    assert!(decoded.unknown_fields().is_empty());
}

/// Malformed unknown fields fail a discarding message with the same error,
/// at the same offset, as a keeping one: the input is checked, only the
/// keeping is skipped.
#[test]
fn malformed_unknown_fields_fail_as_when_kept() {
    let nested_groups = |depth: usize| {
        let mut input = Vec::new();
        for _ in 0..depth {
            input.extend(key(24, 3));
        }
        for _ in 0..depth {
            input.extend(key(24, 4));
        }
        input
    };
    let mut overflow = key(20, 0);
    overflow.extend([0xff; 9]);
    overflow.push(0x02);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated varint", [key(20, 0), vec![0x96]].concat()),
        ("length past the end", [key(21, 2), vec![5, b'h']].concat()),
        ("truncated fixed64", [key(23, 1), vec![1, 2, 3]].concat()),
        (
            "group without end",
            [key(24, 3), key(1, 0), vec![1]].concat(),
        ),
        ("unmatched end group", [key(24, 3), key(25, 4)].concat()),
        ("stray end group", key(24, 4)),
        ("varint overflow", overflow),
        ("wire type 6", key(20, 6)),
        ("field number 0", vec![0x00, 0x01]),
        ("groups past the recursion limit", nested_groups(101)),
    ];
    for (name, input) in cases {
        let kept = Keeper::decode_from_slice(&input).expect_err(name);
        let dropped = Empty::decode_from_slice(&input).expect_err(name);
        assert_eq!(dropped.kind(), kept.kind(), "{name}");
        assert_eq!(dropped.offset(), kept.offset(), "{name}");
        let inside = Triangle::decode_from_slice(&input).expect_err(name);
        assert_eq!(inside.kind(), kept.kind(), "{name}");
    }
    // Within the limit, the same groups are well-formed and dropped.
    assert!(Empty::decode_from_slice(&nested_groups(99)).is_ok());
}

/// Discarding keeps nothing, so it charges nothing to the allocation
/// budget where keeping the same bytes would.
#[test]
fn dropped_fields_cost_no_allocation_budget() {
    let input = unknown_fields().repeat(100);
    let options = DecodeOptions::new().with_allocation_limit(Some(64));
    assert!(Empty::decode_with_options(&input, &options).is_ok());
    assert!(Keeper::decode_with_options(&input, &options).is_err());
}

/// Each message follows its own rule: a keeping message inside a
/// discarding one keeps its fields, and the other way round.
#[test]
fn nested_messages_follow_their_own_rule() {
    // Triangle (discards) { keeper (keeps) { unknown } unknown }.
    let mut keeper = Keeper::decode_from_slice(&with_unknown(&[])).unwrap();
    keeper.id = Some(7);
    let outer = Triangle {
        keeper: MessageField::some(keeper.clone()),
        ..Default::default()
    };
    let decoded = Triangle::decode_from_slice(&with_unknown(&outer.encode_to_vec())).unwrap();
    assert_eq!(decoded.keeper.unknown_fields, keeper.unknown_fields);
    assert_eq!(decoded, outer);

    // Keeper (keeps) { triangle (discards) { unknown } unknown }.
    let inner = Triangle::decode_from_slice(&with_unknown(&triangle().encode_to_vec())).unwrap();
    let mut inner_bytes = key(2, 2);
    let triangle_bytes = with_unknown(&triangle().encode_to_vec());
    inner_bytes.extend(varint(triangle_bytes.len() as u64));
    inner_bytes.extend(&triangle_bytes);
    let decoded = Keeper::decode_from_slice(&with_unknown(&inner_bytes)).unwrap();
    assert_eq!(*decoded.triangle, inner);
    let twice: Vec<u8> = [unknown_fields(), unknown_fields()].concat();
    assert_eq!(decoded.unknown_fields.as_bytes(), &twice[..]);

    // Outer (discards) and Outer.Inner (keeps, a nested path).
    let mut inner = key(1, 2);
    inner.extend([2, b'o', b'k']);
    inner.extend(unknown_fields());
    let mut input = key(2, 2);
    input.extend(varint(inner.len() as u64));
    input.extend(&inner);
    input.extend(unknown_fields());
    let outer = Outer::decode_from_slice(&input).unwrap();
    assert_eq!(outer.inner.text(), "ok");
    assert_eq!(outer.inner.unknown_fields.as_bytes(), &unknown_fields()[..]);
    assert_eq!(
        outer.encode_to_vec(),
        input[..input.len() - unknown_fields().len()]
    );
}

/// A message with extension ranges keeps its unknown fields under a scope
/// rule that discards them, so extensions work.
#[test]
fn messages_with_extension_ranges_keep_them() {
    let mut message = Extendable {
        id: Some(1),
        ..Default::default()
    };
    message.set_extension(&schema::EXTRA, 42);
    let decoded = Extendable::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert_eq!(decoded.extension(&schema::EXTRA).unwrap(), Some(42));
    let kept = Extendable::decode_from_slice(&unknown_fields()).unwrap();
    assert_eq!(kept.unknown_fields.as_bytes(), &unknown_fields()[..]);
}

#[test]
fn views_keep_none_either() {
    let expected = triangle();
    let known = expected.encode_to_vec();
    let input = with_unknown(&known);
    let view = Triangle::decode_view(&input).unwrap();
    assert_eq!(view.kind, Some(Kind::One));
    assert_eq!(view.to_owned_message().unwrap(), expected);
    assert_eq!(view.encode_to_vec(), known);
    assert_eq!(view.encoded_len(), known.len());

    // A keeping message's view, inside the discarding one, keeps its spans.
    let keeper = Keeper::decode_from_slice(&with_unknown(&[])).unwrap();
    let outer = Triangle {
        keeper: MessageField::some(keeper.clone()),
        ..Default::default()
    };
    let input = with_unknown(&outer.encode_to_vec());
    let view = Triangle::decode_view(&input).unwrap();
    assert!(!view.keeper.unknown_fields.is_empty());
    assert_eq!(view.to_owned_message().unwrap(), outer);
    assert_eq!(view.encode_to_vec(), outer.encode_to_vec());

    // Malformed input fails the view as it fails the owned message.
    let bad = [key(24, 3), key(25, 4)].concat();
    let owned = Triangle::decode_from_slice(&bad).unwrap_err();
    let viewed = Triangle::decode_view(&bad).unwrap_err();
    assert_eq!(owned.kind(), viewed.kind());
}

#[test]
fn json_round_trips() {
    let message = Triangle {
        keeper: MessageField::some(Keeper {
            id: Some(3),
            ..Default::default()
        }),
        ..triangle()
    };
    let json = buffa::json::to_string(&message).unwrap();
    assert!(json.contains(r#""kind":"KIND_ONE""#), "{json}");
    let parsed: Triangle = buffa::json::from_str(&json).unwrap();
    assert_eq!(parsed, message);
    let empty = buffa::json::to_string(&Empty::default()).unwrap();
    assert_eq!(empty, "{}");
}

#[test]
fn equality_clone_default_and_hash() {
    let message = triangle();
    assert_eq!(message.clone(), message);
    assert_ne!(message, Triangle::default());
    // `Empty` derives `Hash` and `Eq` (no floats), without unknown fields.
    use std::collections::HashSet;
    let set: HashSet<Empty> = [Empty::default(), Empty::default()].into();
    assert_eq!(set.len(), 1);
    let _: EnumValue<Kind> = EnumValue::Known(Kind::Zero);
}

#[test]
fn reflection_has_no_unknown_fields_to_change() {
    use reflected::unknown::{Keeper, Triangle, Vector3};
    let mut message =
        Triangle::decode_from_slice(&with_unknown(&triangle().encode_to_vec())).unwrap();
    assert!(ReflectMessage::unknown_fields(&message).is_empty());
    assert!(ReflectMessage::unknown_fields_mut(&mut message).is_none());
    let mut keeper = Keeper::default();
    assert!(ReflectMessage::unknown_fields_mut(&mut keeper).is_some());

    // Reading and writing fields by descriptor works as for any message.
    let descriptor = message.descriptor();
    let kind = descriptor.get_field_by_name("kind").unwrap();
    assert_eq!(message.field_owned(&kind), Some(Value::EnumNumber(1)));
    let a = descriptor.get_field_by_name("a").unwrap();
    message.clear_field(&a);
    assert!(!message.a.is_set());

    // The text format prints and parses it.
    let printed = text::to_string(&message);
    assert!(printed.contains("kind: KIND_ONE"), "{printed}");
    let mut parsed = Triangle::default();
    text::merge(&mut parsed, &printed).unwrap();
    assert_eq!(parsed, message);
    let mut vector = Vector3::default();
    text::merge(&mut vector, "x: 1.5").unwrap();
    assert_eq!(vector.x, Some(1.5));

    // A field mask trims it (trimming clears unknown fields where kept).
    let mut mask = buffa_types::google::protobuf::FieldMask::default();
    mask.paths.push("kind".into());
    buffa_reflect::field_mask::trim(&mut message, &mask).unwrap();
    assert_eq!(message.kind, Some(reflected::unknown::Kind::One));
    assert!(!message.c.is_set() && message.choice.is_none());
}

#[test]
fn views_of_keepers_and_discarders_convert() {
    // `HasView` is implemented for both kinds.
    fn view_of<M: HasView>(bytes: &[u8]) -> M {
        M::decode_view(bytes).unwrap().to_owned_message().unwrap()
    }
    let keeper: Keeper = view_of(&unknown_fields());
    assert_eq!(keeper.unknown_fields.as_bytes(), &unknown_fields()[..]);
    let empty: Empty = view_of(&unknown_fields());
    assert_eq!(empty, Empty::default());
}
