//! Unknown fields of every wire type survive decode -> encode byte for byte.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use buffa::{Message, UnknownField, UnknownFields, UnknownValue};
use common::{Inner, Kitchen, Scalars, cat, key, ld, vfield};

const MAX_FIELD: u32 = (1 << 29) - 1;

/// Unknown fields (numbers unknown to `Scalars`, `Inner` and `Kitchen`'s
/// messages) of every wire type, including a group holding a nested group.
fn every_wire_type() -> Vec<u8> {
    cat(&[
        &vfield(120, 150),
        &key(121, 1),
        &[1, 2, 3, 4, 5, 6, 7, 8],
        &ld(122, b"hello"),
        // Group 123 { varint 1; group 124 { bytes 2; fixed32 3 }; fixed64 5 }
        &key(123, 3),
        &vfield(1, 1),
        &key(124, 3),
        &ld(2, b"x"),
        &key(3, 5),
        &[9, 9, 9, 9],
        &key(124, 4),
        &key(5, 1),
        &[0; 8],
        &key(123, 4),
        // An empty group.
        &key(126, 3),
        &key(126, 4),
        &key(125, 5),
        &[0xfe, 0xff, 0xff, 0xff],
        // The largest field number, and a 10-byte varint value.
        &vfield(MAX_FIELD, u64::MAX),
        // A non-canonical (padded) key for field 120 and value 1: kept as they
        // are.
        &[0xc0, 0x87, 0x80, 0x00, 0x81, 0x80, 0x00],
        // A zero-length payload.
        &ld(127, b""),
    ])
}

#[test]
fn every_wire_type_round_trips_byte_exact() {
    let input = every_wire_type();
    let message = Scalars::decode_from_slice(&input).unwrap();
    assert_eq!(message, {
        let mut expected = Scalars::default();
        expected.unknown_fields.push_raw(&input).unwrap();
        expected
    });
    assert_eq!(message.unknown_fields().as_bytes(), &input[..]);
    assert_eq!(message.encoded_len(), input.len());
    assert_eq!(message.encode_to_vec(), input);

    let fields: Vec<_> = message.unknown_fields.iter().collect();
    let group_body = cat(&[
        &vfield(1, 1),
        &key(124, 3),
        &ld(2, b"x"),
        &key(3, 5),
        &[9, 9, 9, 9],
        &key(124, 4),
        &key(5, 1),
        &[0; 8],
    ]);
    assert_eq!(
        fields,
        [
            UnknownField {
                number: 120,
                value: UnknownValue::Varint(150)
            },
            UnknownField {
                number: 121,
                value: UnknownValue::Fixed64(0x0807_0605_0403_0201)
            },
            UnknownField {
                number: 122,
                value: UnknownValue::LengthDelimited(b"hello")
            },
            UnknownField {
                number: 123,
                value: UnknownValue::Group(&group_body)
            },
            UnknownField {
                number: 126,
                value: UnknownValue::Group(&[])
            },
            UnknownField {
                number: 125,
                value: UnknownValue::Fixed32(0xffff_fffe)
            },
            UnknownField {
                number: MAX_FIELD,
                value: UnknownValue::Varint(u64::MAX)
            },
            UnknownField {
                number: 120,
                value: UnknownValue::Varint(1)
            },
            UnknownField {
                number: 127,
                value: UnknownValue::LengthDelimited(b"")
            },
        ]
    );
}

#[test]
fn unknown_fields_follow_known_fields_on_encode() {
    let unknown = every_wire_type();
    let known = cat(&[&vfield(1, 1), &ld(14, b"s")]);

    // Known first: the output is the input.
    let input = cat(&[&known, &unknown]);
    let message = Scalars::decode_from_slice(&input).unwrap();
    assert_eq!(message.f_int32, 1);
    assert_eq!(message.f_string, "s");
    assert_eq!(message.encode_to_vec(), input);

    // Interleaved: known fields are written first, unknown fields keep
    // their relative order.
    let input = cat(&[
        &vfield(200, 1),
        &vfield(1, 1),
        &ld(201, b"z"),
        &ld(14, b"s"),
    ]);
    let message = Scalars::decode_from_slice(&input).unwrap();
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&known, &vfield(200, 1), &ld(201, b"z")])
    );

    // A known field number with an unknown one of the same wire type next
    // to it is not confused.
    let input = cat(&[&vfield(18, 3)]);
    let message = Scalars::decode_from_slice(&input).unwrap();
    assert_eq!(message, {
        let mut expected = Scalars::default();
        expected.unknown_fields.push_varint(18, 3);
        expected
    });
}

#[test]
fn nested_messages_keep_their_own_unknown_fields() {
    let unknown = every_wire_type();
    let inner_bytes = cat(&[&vfield(1, 4), &unknown]);
    let input = cat(&[
        &ld(8, &inner_bytes),
        &ld(9, &unknown),
        &ld(11, &cat(&[&vfield(1, 2), &ld(2, &inner_bytes)])),
        &key(15, 3),
        &unknown,
        &key(15, 4),
        &ld(16, &inner_bytes),
        &unknown,
    ]);
    let message = Kitchen::decode_from_slice(&input).unwrap();
    assert_eq!(message.child.a, 4);
    assert_eq!(message.child.unknown_fields.as_bytes(), &unknown[..]);
    assert_eq!(message.children[0].unknown_fields.as_bytes(), &unknown[..]);
    assert_eq!(
        message.int_to_msg[&1].unknown_fields.as_bytes(),
        &unknown[..]
    );
    assert_eq!(message.group.unknown_fields.as_bytes(), &unknown[..]);
    assert_eq!(message.inline_child.unknown_fields.as_bytes(), &unknown[..]);
    assert_eq!(message.unknown_fields.as_bytes(), &unknown[..]);
    assert_eq!(message.encode_to_vec(), input);
}

#[test]
fn merging_appends_unknown_fields() {
    let mut message = Inner::decode_from_slice(&vfield(50, 1)).unwrap();
    message.merge_from_slice(&vfield(51, 2)).unwrap();
    message.merge_from_slice(&vfield(50, 3)).unwrap();
    assert_eq!(
        message.encode_to_vec(),
        cat(&[&vfield(50, 1), &vfield(51, 2), &vfield(50, 3)])
    );
}

fn hash_of(value: &UnknownFields) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn equality_and_hash_depend_on_the_bytes_only() {
    let mut unknown = UnknownFields::new();
    assert!(unknown.is_empty());
    assert_eq!(unknown.as_bytes(), b"");
    unknown.push_varint(3, 300);
    assert_eq!(unknown.as_bytes(), &[0x18, 0xac, 0x02]);
    assert_eq!(unknown.encoded_len(), 3);
    unknown.push_raw(&ld(4, b"a")).unwrap();
    assert_eq!(unknown.as_bytes(), &[0x18, 0xac, 0x02, 0x22, 0x01, b'a']);

    let mut same = UnknownFields::new();
    same.push_raw(&[0x18, 0xac, 0x02, 0x22, 0x01, b'a'])
        .unwrap();
    assert_eq!(unknown, same);
    assert_eq!(hash_of(&unknown), hash_of(&same));

    // Cleared (allocation kept) equals new (never allocated).
    unknown.clear();
    assert!(unknown.is_empty());
    assert_eq!(unknown, UnknownFields::new());
    assert_eq!(hash_of(&unknown), hash_of(&UnknownFields::new()));
    assert_ne!(same, UnknownFields::new());

    // So a cleared message equals a default one.
    let mut message = Scalars::decode_from_slice(&vfield(99, 1)).unwrap();
    assert_ne!(message, Scalars::default());
    message.clear();
    assert_eq!(message, Scalars::default());
}

#[test]
fn deep_groups_kept_under_a_raised_limit_can_be_iterated() {
    // 300 nested unknown groups, accepted with a recursion limit of 400.
    let mut input = vec![0x4b; 300];
    input.extend(vec![0x4c; 300]);
    let options = buffa::DecodeOptions::new().with_recursion_limit(400);
    let message = Inner::decode_with_options(&input, &options).unwrap();
    // Encoding needs the same raised limit.
    let deep = buffa::EncodeOptions::new().with_recursion_limit(400);
    assert_eq!(message.encode_to_vec_with_options(&deep).unwrap(), input);
    // Iteration re-reads bytes that decoding has already validated: it must
    // not stop at the default limit.
    let fields: Vec<_> = message.unknown_fields.iter().collect();
    assert_eq!(
        fields,
        [UnknownField {
            number: 9,
            value: UnknownValue::Group(&input[1..input.len() - 1])
        }]
    );
    assert!(format!("{message:?}").contains("Group"));
}
