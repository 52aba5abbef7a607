//! Open enums keep unknown numbers in the field; closed enums send them to
//! the unknown fields (singular, packed, expanded and map values) and those
//! are written back on encode.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::BTreeMap;

use buffa::{EnumValue, Enumeration, Message, UnknownField, UnknownValue};
use common::{Color, Kitchen, Shape, cat, ld, varint, vfield};

fn neg(value: i64) -> u64 {
    value as u64
}

#[test]
fn enum_value_api() {
    let known = EnumValue::<Color>::from_i32(2);
    assert_eq!(known, EnumValue::Known(Color::Blue));
    assert_eq!(known, Color::Blue);
    assert!(known.is_known());
    assert_eq!(known.known(), Some(Color::Blue));
    assert_eq!(known.to_i32(), 2);
    assert_eq!(format!("{known:?}"), "Blue");

    let unknown = EnumValue::<Color>::from(-9);
    assert_eq!(unknown, EnumValue::Unknown(-9));
    assert_ne!(unknown, Color::Red);
    assert!(!unknown.is_known());
    assert_eq!(unknown.known(), None);
    assert_eq!(unknown.to_i32(), -9);
    assert_eq!(format!("{unknown:?}"), "Unknown(-9)");

    assert_eq!(EnumValue::<Color>::from(Color::Green).to_i32(), 1);
    assert_eq!(EnumValue::<Color>::default(), Color::Red);
    assert_eq!(EnumValue::<Shape>::default(), Shape::Circle);
    assert_eq!(Shape::from_i32(0), None);
}

#[test]
fn open_enum_keeps_unknown_numbers_in_the_field() {
    for (number, wire) in [
        (7i32, vfield(12, 7)),
        (-5, vfield(12, neg(-5))),
        (i32::MAX, vfield(12, i32::MAX as u64)),
    ] {
        let message = Kitchen::decode_from_slice(&wire).unwrap();
        assert_eq!(message.color, EnumValue::Unknown(number));
        assert!(message.unknown_fields.is_empty());
        assert_eq!(message.encode_to_vec(), wire);
    }
    assert_eq!(vfield(12, neg(-5)).len(), 11);

    let message = Kitchen::decode_from_slice(&vfield(12, 1)).unwrap();
    assert_eq!(message.color, Color::Green);

    // Repeated open enums keep unknown numbers in place, packed or not.
    let wire = cat(&[&ld(21, &[0x02, 0x63]), &vfield(21, neg(-1)), &vfield(21, 0)]);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(
        message.colors,
        [
            EnumValue::Known(Color::Blue),
            EnumValue::Unknown(99),
            EnumValue::Unknown(-1),
            EnumValue::Known(Color::Red),
        ]
    );
    assert!(message.unknown_fields.is_empty());
    let minus_one = varint(neg(-1));
    assert_eq!(
        message.encode_to_vec(),
        ld(21, &cat(&[&[0x02, 0x63], &minus_one, &[0x00]]))
    );
}

#[test]
fn closed_enum_singular_unknown_goes_to_unknown_fields() {
    let wire = vfield(13, 9);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(message.shape, None);
    assert_eq!(message.unknown_fields.as_bytes(), &wire[..]);
    assert_eq!(
        message.unknown_fields.iter().collect::<Vec<_>>(),
        [UnknownField {
            number: 13,
            value: UnknownValue::Varint(9)
        }]
    );
    assert_eq!(message.encode_to_vec(), wire);

    // A known value followed by an unknown one: the field keeps the known
    // value, the unknown number is written back after the known fields.
    let wire = cat(&[&vfield(13, 2), &vfield(13, neg(-7)), &vfield(1, 1)]);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(message.shape, Some(Shape::Square));
    assert_eq!(message.opt_int32, Some(1));
    assert_eq!(message.unknown_fields.as_bytes(), &vfield(13, neg(-7))[..]);
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&vfield(1, 1), &vfield(13, 2), &vfield(13, neg(-7))])
    );

    // Negative declared numbers are known.
    let message = Kitchen::decode_from_slice(&vfield(13, neg(-1))).unwrap();
    assert_eq!(message.shape, Some(Shape::Minus));
    assert!(message.unknown_fields.is_empty());
}

#[test]
fn closed_enum_repeated_packed_unknowns_go_to_unknown_fields() {
    let minus_one = varint(neg(-1));
    let payload = cat(&[&[0x01, 0x09, 0x02], &minus_one, &[0x05]]);
    let wire = ld(14, &payload);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(message.shapes, [Shape::Circle, Shape::Square, Shape::Minus]);
    // One unknown field per unknown number, in order, as varints.
    assert_eq!(
        message.unknown_fields.as_bytes(),
        &cat(&[&vfield(14, 9), &vfield(14, 5)])[..]
    );
    let encoded = message.encode_to_vec();
    assert_eq!(
        encoded,
        cat(&[
            &ld(14, &cat(&[&[0x01, 0x02], &minus_one])),
            &vfield(14, 9),
            &vfield(14, 5)
        ])
    );
    // Stable across another round trip.
    let again = Kitchen::decode_from_slice(&encoded).unwrap();
    assert_eq!(again, message);
    assert_eq!(again.encode_to_vec(), encoded);
}

#[test]
fn closed_enum_repeated_expanded_unknowns_go_to_unknown_fields() {
    let wire = cat(&[
        &vfield(14, 1),
        &vfield(14, 9),
        &vfield(14, 2),
        &vfield(14, 0),
    ]);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(message.shapes, [Shape::Circle, Shape::Square]);
    assert_eq!(
        message.unknown_fields.as_bytes(),
        &cat(&[&vfield(14, 9), &vfield(14, 0)])[..]
    );
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&ld(14, &[0x01, 0x02]), &vfield(14, 9), &vfield(14, 0)])
    );
}

#[test]
fn closed_enum_map_value_unknowns_keep_the_whole_entry() {
    let known_a = ld(17, &cat(&[&vfield(1, 1), &vfield(2, 2)]));
    let unknown_entry = ld(17, &cat(&[&vfield(1, 5), &vfield(2, 9)]));
    // Value before key, non-canonical length prefix: kept exactly.
    let unknown_reordered = cat(&[&[0x8a, 0x01, 0x84, 0x00], &vfield(2, 7), &vfield(1, 6)]);
    let known_b = ld(17, &cat(&[&vfield(1, 3), &vfield(2, neg(-1))]));
    let wire = cat(&[&known_a, &unknown_entry, &unknown_reordered, &known_b]);

    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(
        message.shape_map,
        BTreeMap::from([(1, Shape::Square), (3, Shape::Minus)])
    );
    assert_eq!(
        message.unknown_fields.as_bytes(),
        &cat(&[&unknown_entry, &unknown_reordered])[..]
    );
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&known_a, &known_b, &unknown_entry, &unknown_reordered])
    );

    // An unknown value for a key already present leaves the old value.
    let wire = cat(&[&known_a, &ld(17, &cat(&[&vfield(1, 1), &vfield(2, 9)]))]);
    let message = Kitchen::decode_from_slice(&wire).unwrap();
    assert_eq!(message.shape_map, BTreeMap::from([(1, Shape::Square)]));
    assert!(!message.unknown_fields.is_empty());

    // A missing value is the enum's default: its first declared value.
    let message = Kitchen::decode_from_slice(&ld(17, &vfield(1, 4))).unwrap();
    assert_eq!(message.shape_map, BTreeMap::from([(4, Shape::Circle)]));
    assert!(message.unknown_fields.is_empty());
}
