//! Merge semantics from the protobuf specification: the last scalar wins,
//! repeated fields append, singular sub-messages merge, packed and expanded
//! encodings are interchangeable.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::{BTreeMap, HashMap};

use buffa::{EnumValue, Message, MessageField};
use common::{
    Chain, Color, Inner, Kitchen, Scalars, Shape, cat, key, kitchen_sample, ld, varint, vfield,
};

fn inner(a: i32, b: &str) -> Inner {
    Inner {
        a,
        b: b.into(),
        ..Inner::default()
    }
}

#[test]
fn last_value_wins_for_scalars() {
    let bytes = cat(&[
        &vfield(1, 1),
        &ld(14, b"first"),
        &[0x5d, 0, 0, 0x80, 0x3f], // float 1.0
        &vfield(1, 2),
        &ld(14, b"second"),
        &[0x5d, 0, 0, 0, 0x40], // float 2.0
        &vfield(17, 1),
        &vfield(17, 7),
    ]);
    let message = Scalars::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.f_int32, 2);
    assert_eq!(message.f_string, "second");
    assert_eq!(message.f_float, 2.0);
    assert_eq!(message.f_enum, EnumValue::Unknown(7));

    // A later zero overrides an earlier value, even though zero is never
    // written with implicit presence.
    let message = Scalars::decode_from_slice(&cat(&[&vfield(1, 5), &vfield(1, 0)])).unwrap();
    assert_eq!(message.f_int32, 0);

    // Explicit presence: the last value wins and an explicit zero is kept.
    let bytes = cat(&[
        &vfield(1, 9),
        &vfield(1, 0),
        &ld(2, b"a"),
        &ld(2, b""),
        &vfield(13, 2),
        &vfield(13, 1),
        &vfield(18, 1),
        &vfield(18, 0),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.opt_int32, Some(0));
    assert_eq!(message.opt_string.as_deref(), Some(""));
    assert_eq!(message.shape, Some(Shape::Circle));
    assert_eq!(message.opt_bool, Some(false));
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&vfield(1, 0), &ld(2, b""), &vfield(13, 1), &vfield(18, 0)])
    );
}

#[test]
fn repeated_fields_append() {
    let bytes = cat(&[
        &ld(6, b"a"),
        &ld(7, b"\x01"),
        &ld(9, &vfield(1, 1)),
        &ld(6, b"b"),
        &ld(9, &[]),
        &ld(7, b""),
        &ld(6, b"a"),
        &key(22, 3),
        &vfield(1, 4),
        &key(22, 4),
        &key(22, 3),
        &key(22, 4),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.strings, ["a", "b", "a"]);
    assert_eq!(message.blobs, [vec![1], vec![]]);
    assert_eq!(message.children, [inner(1, ""), Inner::default()]);
    assert_eq!(message.groups, [inner(4, ""), Inner::default()]);

    // Merging more input appends to what is there.
    let mut merged = message.clone();
    merged.merge_from_slice(&ld(6, b"c")).unwrap();
    assert_eq!(merged.strings, ["a", "b", "a", "c"]);
}

#[test]
fn packed_and_expanded_encodings_are_both_accepted_even_mixed() {
    // Field 3 is declared packed (sint64): packed [1, 2], expanded 3,
    // packed [-1], an empty packed run, expanded -2.
    let bytes = cat(&[
        &ld(3, &[0x02, 0x04]),
        &vfield(3, 6),
        &ld(3, &[0x01]),
        &ld(3, &[]),
        &vfield(3, 3),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.packed_sint64, [1, 2, 3, -1, -2]);
    // Re-encoded as the declared packed form: one key, one run.
    assert_eq!(
        message.encode_to_vec(),
        ld(3, &[0x02, 0x04, 0x06, 0x01, 0x03])
    );

    // Field 4 is declared expanded (fixed32): accepts packed runs as well.
    let bytes = cat(&[
        &ld(4, &[1, 0, 0, 0, 2, 0, 0, 0]),
        &[0x25, 3, 0, 0, 0],
        &ld(4, &[4, 0, 0, 0]),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.expanded_fixed32, [1, 2, 3, 4]);
    let mut expanded = Vec::new();
    for v in 1u8..=4 {
        expanded.extend([0x25, v, 0, 0, 0]);
    }
    assert_eq!(message.encode_to_vec(), expanded);

    // Doubles (fixed64), open enums and closed enums, each both ways.
    let bytes = cat(&[
        &[0x29, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
        &ld(
            5,
            &[0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0x08, 0x40],
        ),
        &ld(21, &[0x01, 0x05]),
        &vfield(21, 2),
        &vfield(14, 2),
        &ld(14, &[0x01, 0x02]),
        &vfield(14, 1),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.packed_double, [1.0, 2.0, 3.0]);
    assert_eq!(
        message.colors,
        [
            EnumValue::Known(Color::Green),
            EnumValue::Unknown(5),
            EnumValue::Known(Color::Blue)
        ]
    );
    assert_eq!(
        message.shapes,
        [Shape::Square, Shape::Circle, Shape::Square, Shape::Circle]
    );
    assert!(message.unknown_fields.is_empty());
}

#[test]
fn singular_message_seen_twice_merges_into_the_first() {
    // Boxed (8), inline (16), group-encoded (15): a=5, then b="x", then a=7.
    let boxed = cat(&[
        &ld(8, &vfield(1, 5)),
        &ld(8, &ld(2, b"x")),
        &ld(8, &vfield(1, 7)),
    ]);
    let inline = cat(&[
        &ld(16, &vfield(1, 5)),
        &ld(16, &ld(2, b"x")),
        &ld(16, &vfield(1, 7)),
    ]);
    let group = cat(&[
        &key(15, 3),
        &vfield(1, 5),
        &key(15, 4),
        &key(15, 3),
        &ld(2, b"x"),
        &key(15, 4),
        &key(15, 3),
        &vfield(1, 7),
        &key(15, 4),
    ]);
    let message = Kitchen::decode_from_slice(&cat(&[&boxed, &inline, &group])).unwrap();
    assert_eq!(message.child.as_option(), Some(&inner(7, "x")));
    assert_eq!(message.inline_child.as_option(), Some(&inner(7, "x")));
    assert_eq!(message.group.as_option(), Some(&inner(7, "x")));

    // An empty occurrence sets the field without changing it.
    let message = Kitchen::decode_from_slice(&ld(8, &[])).unwrap();
    assert!(message.child.is_set());
    assert_eq!(*message.child, Inner::default());

    // Merging is recursive: child.child survives a second occurrence of
    // child that only sets child.value.
    let first = Chain {
        child: MessageField::some(Chain {
            child: MessageField::some(Chain {
                value: 1,
                ..Chain::default()
            }),
            ..Chain::default()
        }),
        ..Chain::default()
    };
    let second = Chain {
        child: MessageField::some(Chain {
            value: 2,
            ..Chain::default()
        }),
        ..Chain::default()
    };
    let mut bytes = first.encode_to_vec();
    assert_eq!(bytes, ld(1, &ld(1, &vfield(2, 1))));
    bytes.extend(second.encode_to_vec());
    let merged = Chain::decode_from_slice(&bytes).unwrap();
    assert_eq!(merged.child.value, 2);
    assert_eq!(merged.child.child.value, 1);
    assert!(merged.child.child.child.as_option().is_none());
}

#[test]
fn merge_from_slice_onto_an_existing_message() {
    let mut target = Kitchen {
        opt_int32: Some(1),
        opt_string: Some("keep".into()),
        packed_sint64: vec![1],
        strings: vec!["a".into()],
        child: MessageField::some(inner(1, "")),
        str_to_int: HashMap::from([("k".into(), 1), ("j".into(), 2)]),
        int_to_msg: BTreeMap::from([(1, inner(1, "one"))]),
        ..Kitchen::default()
    };
    let source = Kitchen {
        opt_int32: Some(2),
        packed_sint64: vec![2, 3],
        strings: vec!["b".into()],
        child: MessageField::some(inner(0, "y")),
        str_to_int: HashMap::from([("k".into(), 3)]),
        // Map entries replace whole values: they do not merge.
        int_to_msg: BTreeMap::from([(1, inner(0, "uno"))]),
        uint64: 9,
        ..Kitchen::default()
    };
    let target_bytes = target.encode_to_vec();
    let source_bytes = source.encode_to_vec();
    target.merge_from_slice(&source_bytes).unwrap();

    let expected = Kitchen {
        opt_int32: Some(2),
        opt_string: Some("keep".into()),
        packed_sint64: vec![1, 2, 3],
        strings: vec!["a".into(), "b".into()],
        child: MessageField::some(inner(1, "y")),
        str_to_int: HashMap::from([("k".into(), 3), ("j".into(), 2)]),
        int_to_msg: BTreeMap::from([(1, inner(0, "uno"))]),
        uint64: 9,
        ..Kitchen::default()
    };
    assert_eq!(target, expected);

    // Merging equals decoding the concatenation, and `merge(Buf)` agrees.
    let concatenated = Kitchen::decode_from_slice(&cat(&[&target_bytes, &source_bytes])).unwrap();
    assert_eq!(concatenated, expected);
    let mut via_buf = Kitchen::decode_from_slice(&target_bytes).unwrap();
    via_buf.merge(&source_bytes[..]).unwrap();
    assert_eq!(via_buf, expected);

    // A failed merge reports the error.
    let mut broken = expected.clone();
    assert!(broken.merge_from_slice(&[0x08]).is_err());
}

#[test]
fn clear_resets_every_field() {
    let mut message = kitchen_sample();
    assert!(!message.encode_to_vec().is_empty());
    assert!(!message.unknown_fields.is_empty());
    message.clear();
    assert!(message.unknown_fields.is_empty());
    assert!(message.encode_to_vec().is_empty());
    assert_eq!(message.encoded_len(), 0);
    assert_eq!(message, Kitchen::default());

    // A cleared message decodes like a fresh one.
    let bytes = kitchen_sample().encode_to_vec();
    message.merge_from_slice(&bytes).unwrap();
    assert_eq!(message, Kitchen::decode_from_slice(&bytes).unwrap());
    assert_eq!(message, kitchen_sample());

    let mut scalars = Scalars::decode_from_slice(&cat(&[&vfield(1, 3), &vfield(99, 1)])).unwrap();
    scalars.clear();
    assert_eq!(scalars, Scalars::default());
    assert_eq!(scalars.encode_to_vec(), Vec::<u8>::new());
}

#[test]
fn non_canonical_length_prefixes_and_keys_merge_normally() {
    // Key for field 6 written in two bytes, length written in three.
    let bytes = cat(&[&[0xb2, 0x00], &[0x83, 0x80, 0x00], b"abc"]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.strings, ["abc"]);
    assert_eq!(varint(3), [3]);
}
