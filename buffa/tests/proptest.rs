//! Property tests: random messages round-trip; random and mutated inputs
//! never panic the decoder, and whatever decodes re-encodes consistently.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::BTreeMap;

use buffa::bytes::Bytes;
use buffa::{DecodeOptions, EnumValue, Message, MessageField, UnknownFields};
use common::{Chain, Holder, Inner, Kitchen, Scalars, Shape, cat, key, kitchen_sample, varint};
use proptest::collection::{btree_map, hash_map, vec};
use proptest::num::f64 as pf64;
use proptest::option;
use proptest::prelude::*;

/// One encoded unknown field, numbered 100..1000, of any wire type.
fn unknown_field() -> impl Strategy<Value = Vec<u8>> {
    let value = prop_oneof![
        any::<u64>().prop_map(|v| (0u8, varint(v))),
        any::<u64>().prop_map(|v| (1, v.to_le_bytes().to_vec())),
        vec(any::<u8>(), 0..6).prop_map(|b| (2, cat(&[&varint(b.len() as u64), &b]))),
        any::<u64>().prop_map(|v| (3, cat(&[&[0x08], &varint(v)]))),
        any::<u32>().prop_map(|v| (5, v.to_le_bytes().to_vec())),
    ];
    (100u32..1000, value).prop_map(|(field, (wire_type, body))| {
        if wire_type == 3 {
            cat(&[&key(field, 3), &body, &key(field, 4)])
        } else {
            cat(&[&key(field, wire_type), &body])
        }
    })
}

fn unknown_fields() -> impl Strategy<Value = UnknownFields> {
    vec(unknown_field(), 0..3).prop_map(|fields| {
        let mut unknown = UnknownFields::new();
        for field in fields {
            unknown.push_raw(&field).unwrap();
        }
        unknown
    })
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<i32>(), ".{0,6}", unknown_fields()).prop_map(|(a, b, unknown_fields)| Inner {
        a,
        b,
        unknown_fields,
    })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![Just(Shape::Circle), Just(Shape::Square), Just(Shape::Minus)]
}

/// Every double but NaN (which is not equal to itself).
fn double() -> impl Strategy<Value = f64> {
    pf64::POSITIVE | pf64::NEGATIVE | pf64::NORMAL | pf64::SUBNORMAL | pf64::ZERO | pf64::INFINITE
}

fn kitchen() -> impl Strategy<Value = Kitchen> {
    let scalars = (
        option::of(any::<i32>()),
        option::of(".{0,6}"),
        vec(any::<i64>(), 0..5),
        vec(any::<u32>(), 0..5),
        vec(double(), 0..4),
        vec(".{0,5}", 0..3),
        vec(vec(any::<u8>(), 0..5), 0..3),
        option::of(any::<bool>()),
        any::<u64>(),
        vec(any::<u8>(), 0..6),
        any::<i32>(),
        vec(any::<i32>(), 0..4),
    );
    let messages = (
        option::of(inner()),
        vec(inner(), 0..3),
        hash_map(".{0,4}", any::<i32>(), 0..4),
        btree_map(any::<i32>(), inner(), 0..3),
        option::of(shape()),
        vec(shape(), 0..4),
        option::of(inner()),
        option::of(inner()),
        btree_map(any::<i32>(), shape(), 0..3),
        vec(inner(), 0..3),
        unknown_fields(),
    );
    (scalars, messages).prop_map(
        |(
            (
                opt_int32,
                opt_string,
                packed_sint64,
                expanded_fixed32,
                packed_double,
                strings,
                blobs,
                opt_bool,
                uint64,
                shared,
                color,
                colors,
            ),
            (
                child,
                children,
                str_to_int,
                int_to_msg,
                shape,
                shapes,
                group,
                inline_child,
                shape_map,
                groups,
                unknown_fields,
            ),
        )| Kitchen {
            opt_int32,
            opt_string,
            packed_sint64,
            expanded_fixed32,
            packed_double,
            strings,
            blobs,
            child: MessageField::from(child),
            children,
            str_to_int,
            int_to_msg,
            color: EnumValue::from_i32(color),
            shape,
            shapes,
            group: MessageField::from(group),
            inline_child: MessageField::from(inline_child),
            shape_map,
            opt_bool,
            uint64,
            shared: Bytes::from(shared),
            colors: colors.into_iter().map(EnumValue::from_i32).collect(),
            groups,
            unknown_fields,
        },
    )
}

fn scalars() -> impl Strategy<Value = Scalars> {
    (
        (
            any::<i32>(),
            any::<i64>(),
            any::<u32>(),
            any::<u64>(),
            any::<i32>(),
            any::<i64>(),
        ),
        (any::<u32>(), any::<u64>(), any::<i32>(), any::<i64>()),
        // Floats from raw bits: NaN payloads, signs, subnormals, all of them.
        (any::<u32>(), any::<u64>(), any::<bool>()),
        (
            ".{0,8}",
            vec(any::<u8>(), 0..8),
            vec(any::<u8>(), 0..8),
            any::<i32>(),
        ),
        unknown_fields(),
    )
        .prop_map(
            |(v, f, (float, double, b), (s, bytes, shared, e), unknown_fields)| Scalars {
                f_int32: v.0,
                f_int64: v.1,
                f_uint32: v.2,
                f_uint64: v.3,
                f_sint32: v.4,
                f_sint64: v.5,
                f_fixed32: f.0,
                f_fixed64: f.1,
                f_sfixed32: f.2,
                f_sfixed64: f.3,
                f_float: f32::from_bits(float),
                f_double: f64::from_bits(double),
                f_bool: b,
                f_string: s,
                f_bytes: bytes,
                f_shared: Bytes::from(shared),
                f_enum: EnumValue::from_i32(e),
                unknown_fields,
            },
        )
}

/// Decodes `bytes` as `M`; when that succeeds, the message must re-encode
/// (with `encoded_len` agreeing) and the re-encoding must decode again to a
/// message of the same encoded length.
fn decode_never_panics<M: Message>(bytes: &[u8]) {
    if let Ok(message) = M::decode_from_slice(bytes) {
        let encoded = message.encode_to_vec();
        assert_eq!(message.encoded_len(), encoded.len());
        let again = M::decode_from_slice(&encoded).expect("re-encoding decodes");
        assert_eq!(again.encoded_len(), encoded.len());
    }
    let _ = M::decode(Bytes::copy_from_slice(bytes));
    let _ = M::decode_length_delimited(bytes);
    let options = DecodeOptions::new().with_recursion_limit(3);
    let _ = M::decode_with_options(bytes, &options);
    let mut merged = M::default();
    let _ = merged.merge_from_slice(bytes);
}

fn decode_all_never_panic(bytes: &[u8]) {
    decode_never_panics::<Kitchen>(bytes);
    decode_never_panics::<Scalars>(bytes);
    decode_never_panics::<Chain>(bytes);
    decode_never_panics::<Holder>(bytes);
}

#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u8),
    Flip(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
        (any::<usize>(), 0u8..8).prop_map(|(i, bit)| Mutation::Flip(i, bit)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Remove),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let len = bytes.len();
    match *mutation {
        Mutation::Set(i, b) if len > 0 => bytes[i % len] = b,
        Mutation::Flip(i, bit) if len > 0 => bytes[i % len] ^= 1 << bit,
        Mutation::Insert(i, b) => bytes.insert(i % (len + 1), b),
        Mutation::Remove(i) if len > 0 => {
            bytes.remove(i % len);
        }
        Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
        _ => {}
    }
}

/// The default configuration, scaled down under Miri: each case runs about
/// 100 times slower there, and isolation forbids the failure file's I/O.
fn config() -> ProptestConfig {
    if cfg!(miri) {
        ProptestConfig {
            cases: 1,
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    } else {
        ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn kitchen_round_trips(message in kitchen()) {
        let bytes = message.encode_to_vec();
        prop_assert_eq!(message.encoded_len(), bytes.len());
        let decoded = Kitchen::decode_from_slice(&bytes).unwrap();
        prop_assert_eq!(&decoded, &message);
        prop_assert_eq!(decoded.encoded_len(), bytes.len());
        let shared = Kitchen::decode(Bytes::from(bytes.clone())).unwrap();
        prop_assert_eq!(&shared, &message);
        let framed = message.encode_length_delimited_to_vec();
        prop_assert_eq!(&Kitchen::decode_length_delimited(&framed[..]).unwrap(), &message);
    }

    #[test]
    fn scalars_round_trip_bit_exact(message in scalars()) {
        let bytes = message.encode_to_vec();
        prop_assert_eq!(message.encoded_len(), bytes.len());
        let decoded = Scalars::decode_from_slice(&bytes).unwrap();
        prop_assert_eq!(decoded.f_float.to_bits(), message.f_float.to_bits());
        prop_assert_eq!(decoded.f_double.to_bits(), message.f_double.to_bits());
        prop_assert_eq!(decoded.encode_to_vec(), bytes);
        if !message.f_float.is_nan() && !message.f_double.is_nan() {
            prop_assert_eq!(decoded, message);
        }
    }

    #[test]
    fn merging_two_messages_equals_decoding_their_concatenation(
        a in kitchen(),
        b in kitchen(),
    ) {
        let (a_bytes, b_bytes) = (a.encode_to_vec(), b.encode_to_vec());
        let mut merged = Kitchen::decode_from_slice(&a_bytes).unwrap();
        merged.merge_from_slice(&b_bytes).unwrap();
        let concatenated = Kitchen::decode_from_slice(&cat(&[&a_bytes, &b_bytes])).unwrap();
        prop_assert_eq!(&merged, &concatenated);
        // Spot-check the semantics: repeated fields append, maps override.
        let strings: Vec<_> = a.strings.iter().chain(&b.strings).cloned().collect();
        prop_assert_eq!(&merged.strings, &strings);
        let mut shape_map: BTreeMap<_, _> = a.shape_map.clone();
        shape_map.extend(b.shape_map.clone());
        prop_assert_eq!(&merged.shape_map, &shape_map);
        prop_assert_eq!(merged.opt_int32, b.opt_int32.or(a.opt_int32));
    }

    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..64)) {
        decode_all_never_panic(&bytes);
    }

    #[test]
    fn mutated_encodings_never_panic(
        message in kitchen(),
        mutations in vec(mutation(), 1..4),
    ) {
        let mut bytes = message.encode_to_vec();
        for m in &mutations {
            mutate(&mut bytes, m);
        }
        decode_all_never_panic(&bytes);
    }

    #[test]
    fn mutated_sample_never_panics(mutations in vec(mutation(), 1..6)) {
        let mut bytes = kitchen_sample().encode_to_vec();
        bytes.extend(Chain::nested(5).encode_to_vec());
        for m in &mutations {
            mutate(&mut bytes, m);
        }
        decode_all_never_panic(&bytes);
    }
}
