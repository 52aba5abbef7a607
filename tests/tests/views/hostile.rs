//! Hostile input: mutated encodings of random messages and of protoc's
//! unittest messages, and broken lazy payloads.

use super::protoc::{MAP_TEXT, MAP_UNITTEST, PROTO2_TEXT, UNITTEST, unittest_bytes};
use super::*;

/// An eager view of hostile `input` fails exactly when the owned decode
/// does, with the same error, and otherwise holds the same message.
/// (Compared through encodings: mutated floats may be NaN.)
fn hostile_eager<M: HasView>(input: &[u8]) {
    match (M::decode_from_slice(input), view_of::<M>(input)) {
        (Ok(owned), Ok(view)) => {
            let encoded = owned_bytes(&owned);
            assert_eq!(view.encode_to_vec(), encoded, "input {input:02x?}");
            assert_eq!(owned_bytes(&view.to_owned_message().unwrap()), encoded);
        }
        (Err(owned), Err(view)) => assert_eq!(view, owned, "input {input:02x?}"),
        (owned, view) => panic!(
            "owned {:?}, view {:?} for {input:02x?}",
            owned.err(),
            view.err()
        ),
    }
}

/// A lazy view of hostile `input`: when the owned decode fails, decoding
/// the view or reading its lazy fields fails, and if only the reading
/// does, the view's encoding keeps the broken payload (the owned decode
/// still fails on it); when the owned decode succeeds, so does all of it,
/// to the same message.
fn hostile_lazy<M: HasView>(input: &[u8]) {
    let owned = M::decode_from_slice(input);
    let view = view_of::<M>(input);
    let copy = view
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|v| v.to_owned_message());
    match (owned, copy) {
        (Ok(owned), Ok(copy)) => {
            let encoded = owned_bytes(&owned);
            assert_eq!(owned_bytes(&copy), encoded, "input {input:02x?}");
            assert_eq!(view.unwrap().encode_to_vec(), encoded);
        }
        (Err(_), Err(_)) => {
            if let Ok(view) = view {
                let written = view.encode_to_vec();
                assert!(
                    M::decode_from_slice(&written).is_err(),
                    "a lazy view of {input:02x?} wrote {written:02x?}, which decodes"
                );
            }
        }
        (owned, copy) => panic!(
            "owned {:?}, lazy {:?} for {input:02x?}",
            owned.err(),
            copy.err()
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Mutated encodings of random messages: eager views fail exactly when
    /// the owned decode does; lazy views fail when it does, now or when
    /// read.
    #[test]
    fn mutated_proto3_inputs(value in everything(), mutations in vec(mutation(), 1..4)) {
        let input = mutate(&prost::Message::encode_to_vec(&value), &mutations);
        hostile_eager::<e::Everything>(&input);
        hostile_lazy::<l::Everything>(&input);
    }

    #[test]
    fn mutated_proto2_inputs(value in everything2(), mutations in vec(mutation(), 1..4)) {
        let input = mutate(&prost::Message::encode_to_vec(&value), &mutations);
        hostile_eager::<e::two::Everything2>(&input);
        hostile_lazy::<l::two::Everything2>(&input);
    }

    /// The same for protoc's encodings of unittest messages (proto2 with
    /// groups and closed enums, and `HashMap` maps).
    #[test]
    fn mutated_unittest_inputs(mutations in vec(mutation(), 1..4)) {
        use buffa_tests::unittest::protobuf_unittest::{TestAllTypes, TestMap};
        thread_local! {
            static SEEDS: (Vec<u8>, Vec<u8>) = (
                unittest_bytes(UNITTEST, "protobuf_unittest.TestAllTypes", PROTO2_TEXT),
                unittest_bytes(MAP_UNITTEST, "protobuf_unittest.TestMap", MAP_TEXT),
            );
        }
        SEEDS.with(|(all_types, map)| {
            hostile_eager::<TestAllTypes>(&mutate(all_types, &mutations));
            hostile_eager::<TestMap>(&mutate(map, &mutations));
        });
    }
}

/// A lazy field that occurs twice and whose occurrences do not decode is
/// written back as read: one field per occurrence, so the bytes still do
/// not decode (two payloads written as one could: a truncated varint in
/// the first completed by the second).
#[test]
fn broken_lazy_occurrences_are_written_back_apart() {
    // Everything.nested (7) twice: `08 80` (value: truncated varint), then
    // `01`; joined they would read as value: 128.
    let bytes = [0x3a, 0x02, 0x08, 0x80, 0x3a, 0x01, 0x01];
    assert!(e::Everything::decode_from_slice(&bytes).is_err());
    let view = view_of::<l::Everything>(&bytes).unwrap();
    assert!(view.to_owned_message().is_err());
    assert_eq!(view.encode_to_vec(), bytes);
}
