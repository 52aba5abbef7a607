//! Map fields: `HashMap` and `BTreeMap`, scalar and message values, entries
//! with missing parts, duplicate keys.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

use buffa::__private::{self as t, map};
use buffa::wire::{Decoder, Encoder, SizeCache};
use buffa::{DecodeOptions, Message};
use common::{Inner, Kitchen, Shape, cat, ld, vfield};

fn inner(a: i32, b: &str) -> Inner {
    Inner {
        a,
        b: b.into(),
        ..Inner::default()
    }
}

/// Splits an encoding of single-byte-keyed, length-delimited fields into
/// whole fields.
fn split_fields(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut fields = Vec::new();
    while !bytes.is_empty() {
        assert!(bytes[1] < 0x80, "test helper expects short entries");
        let len = 2 + bytes[1] as usize;
        fields.push(bytes[..len].to_vec());
        bytes = &bytes[len..];
    }
    fields
}

#[test]
fn hash_map_with_scalar_values() {
    let message = Kitchen {
        str_to_int: HashMap::from([("a".into(), 1), ("bb".into(), -1), ("".into(), 0)]),
        ..Kitchen::default()
    };
    let bytes = message.encode_to_vec();
    // Entries come in hash order; each is written with key and value, even
    // default ones.
    let mut entries = split_fields(&bytes);
    entries.sort();
    let mut expected = vec![
        ld(10, &cat(&[&ld(1, b"a"), &vfield(2, 1)])),
        ld(10, &cat(&[&ld(1, b"bb"), &vfield(2, -1i64 as u64)])),
        ld(10, &cat(&[&ld(1, b""), &vfield(2, 0)])),
    ];
    expected.sort();
    assert_eq!(entries, expected);
    assert_eq!(message.encoded_len(), bytes.len());
    assert_eq!(Kitchen::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn btree_map_with_message_values() {
    let message = Kitchen {
        int_to_msg: BTreeMap::from([
            (-1, inner(1, "")),
            (2, Inner::default()),
            (64, inner(0, "x")),
        ]),
        ..Kitchen::default()
    };
    let bytes = message.encode_to_vec();
    assert_eq!(
        bytes,
        cat(&[
            // Keys are sint32: zigzag.
            &ld(11, &cat(&[&vfield(1, 1), &ld(2, &vfield(1, 1))])),
            &ld(11, &cat(&[&vfield(1, 4), &ld(2, &[])])),
            &ld(11, &cat(&[&vfield(1, 128), &ld(2, &ld(2, b"x"))])),
        ])
    );
    assert_eq!(message.encoded_len(), bytes.len());
    assert_eq!(Kitchen::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn btree_map_with_closed_enum_values() {
    let message = Kitchen {
        shape_map: BTreeMap::from([(0, Shape::Circle), (1, Shape::Minus)]),
        ..Kitchen::default()
    };
    let bytes = message.encode_to_vec();
    assert_eq!(
        bytes,
        cat(&[
            &ld(17, &cat(&[&vfield(1, 0), &vfield(2, 1)])),
            &ld(17, &cat(&[&vfield(1, 1), &vfield(2, -1i64 as u64)])),
        ])
    );
    assert_eq!(Kitchen::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn entries_with_missing_key_or_value_decode_to_defaults() {
    let bytes = cat(&[
        // string -> int32: value only, key only, neither.
        &ld(10, &vfield(2, 7)),
        &ld(10, &ld(1, b"k")),
        // sint32 -> message: key only, value only.
        &ld(11, &vfield(1, 6)),
        &ld(11, &ld(2, &vfield(1, 9))),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        message.str_to_int,
        HashMap::from([("".into(), 7), ("k".into(), 0)])
    );
    assert_eq!(
        message.int_to_msg,
        BTreeMap::from([(3, Inner::default()), (0, inner(9, ""))])
    );
    assert!(message.unknown_fields.is_empty());

    // An empty entry is the default key mapped to the default value.
    let message = Kitchen::decode_from_slice(&cat(&[&ld(10, &[]), &ld(11, &[])])).unwrap();
    assert_eq!(message.str_to_int, HashMap::from([("".into(), 0)]));
    assert_eq!(message.int_to_msg, BTreeMap::from([(0, Inner::default())]));
}

#[test]
fn duplicate_keys_keep_the_last_value() {
    let bytes = cat(&[
        &ld(10, &cat(&[&ld(1, b"k"), &vfield(2, 1)])),
        &ld(10, &cat(&[&ld(1, b"j"), &vfield(2, 5)])),
        &ld(10, &cat(&[&ld(1, b"k"), &vfield(2, 2)])),
        // Message values are replaced, not merged.
        &ld(11, &cat(&[&vfield(1, 2), &ld(2, &vfield(1, 1))])),
        &ld(11, &cat(&[&vfield(1, 2), &ld(2, &ld(2, b"x"))])),
        &ld(17, &cat(&[&vfield(1, 1), &vfield(2, 1)])),
        &ld(17, &cat(&[&vfield(1, 1), &vfield(2, 2)])),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        message.str_to_int,
        HashMap::from([("k".into(), 2), ("j".into(), 5)])
    );
    assert_eq!(message.int_to_msg, BTreeMap::from([(1, inner(0, "x"))]));
    assert_eq!(message.shape_map, BTreeMap::from([(1, Shape::Square)]));

    // Merging into an existing map overrides per key.
    let mut merged = message.clone();
    merged
        .merge_from_slice(&ld(10, &cat(&[&ld(1, b"j"), &vfield(2, 6)])))
        .unwrap();
    assert_eq!(
        merged.str_to_int,
        HashMap::from([("k".into(), 2), ("j".into(), 6)])
    );
}

#[test]
fn entry_field_order_repeats_and_unknown_entry_fields() {
    let bytes = cat(&[
        // Value before key; the key repeated (last wins); an unknown field
        // and an unknown group inside the entry are skipped.
        &ld(
            10,
            &cat(&[
                &vfield(2, 3),
                &ld(1, b"x"),
                &vfield(9, 1),
                &[0x1b, 0x08, 0x01, 0x1c],
                &ld(1, b"y"),
            ]),
        ),
        // A message value appearing twice in one entry merges.
        &ld(
            11,
            &cat(&[&ld(2, &vfield(1, 1)), &vfield(1, 2), &ld(2, &ld(2, b"z"))]),
        ),
    ]);
    let message = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.str_to_int, HashMap::from([("y".into(), 3)]));
    assert_eq!(message.int_to_msg, BTreeMap::from([(1, inner(1, "z"))]));
    assert!(message.unknown_fields.is_empty());
}

#[test]
fn large_hash_map_round_trips() {
    // Smaller under Miri, where the full size takes minutes.
    let (strings, messages) = if cfg!(miri) { (50, 15) } else { (1000, 300) };
    let message = Kitchen {
        str_to_int: (0..strings)
            .map(|i| (format!("key{i}"), i * 7 - 3000))
            .collect(),
        int_to_msg: (0..messages)
            .map(|i| (i - messages / 2, inner(i, "v")))
            .collect(),
        ..Kitchen::default()
    };
    let bytes = message.encode_to_vec();
    assert_eq!(message.encoded_len(), bytes.len());
    assert_eq!(Kitchen::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn helpers_work_with_any_hasher() {
    type Map = HashMap<u64, Inner, BuildHasherDefault<DefaultHasher>>;
    let map: Map = [(1, inner(1, "")), (u64::MAX, inner(0, "max"))]
        .into_iter()
        .collect();

    let mut cache = SizeCache::new();
    let len = map::size::<t::UInt64, map::MessageValue<Inner>, _>(5, &map, &mut cache);
    let mut buf = vec![0u8; len];
    let mut encoder = Encoder::from_slice(&mut buf);
    map::write::<t::UInt64, map::MessageValue<Inner>, _>(5, &map, &mut cache, &mut encoder);
    assert_eq!(encoder.position(), len);

    let options = DecodeOptions::default();
    let mut decoder = Decoder::new(&buf, &options).unwrap();
    let mut back = Map::default();
    let mut unknown = buffa::UnknownFields::new();
    while let Some(tag) = decoder.read_tag().unwrap() {
        map::merge::<t::UInt64, map::MessageValue<Inner>, _>(
            tag,
            &mut back,
            &mut decoder,
            &mut unknown,
        )
        .unwrap();
    }
    assert_eq!(back, map);
    assert!(unknown.is_empty());
}
