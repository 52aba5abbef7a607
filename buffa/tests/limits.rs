//! The limits shared by decoding and encoding: message size, allocation
//! (packed runs, the optional budget), deterministic map order, and the
//! `impl Buf` entry points consuming what they read. Recursion limits are
//! covered in nesting.rs.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::collections::HashMap;

use buffa::bytes::{Buf, Bytes};
use buffa::{
    DecodeErrorKind, DecodeOptions, EncodeErrorKind, EncodeOptions, MAX_MESSAGE_LEN, Message,
};
use common::{Chain, Inner, Kitchen, cat, key, ld, varint, vfield};

/// A zeroed allocation: the kernel maps its pages lazily, so a test can
/// hold a multi-GiB `bytes` value without touching that much memory as
/// long as nothing reads or writes it.
fn zeroed(len: usize) -> Vec<u8> {
    vec![0u8; len]
}

#[test]
#[cfg_attr(miri, ignore = "allocates gigabytes")]
fn a_message_over_2_gib_is_refused_by_every_encode_entry_point() {
    let mut kitchen = Kitchen::default();
    kitchen.blobs.push(zeroed(MAX_MESSAGE_LEN));
    let len = kitchen.encoded_len();
    assert!(len > MAX_MESSAGE_LEN);
    let expected = EncodeErrorKind::MessageTooLarge { length: len };

    let error = kitchen
        .encode_to_vec_with_options(&EncodeOptions::new())
        .unwrap_err();
    assert_eq!(error.kind(), &expected);
    assert_eq!(error.message_name(), "test.Kitchen");
    assert!(
        error.to_string().contains("exceed the 2 GiB message limit"),
        "{error}"
    );

    let mut buf = Vec::new();
    assert_eq!(kitchen.encode(&mut buf).unwrap_err().kind(), &expected);
    assert_eq!(
        kitchen
            .encode_length_delimited(&mut buf)
            .unwrap_err()
            .kind(),
        &expected
    );
    assert!(buf.is_empty(), "nothing written");
}

#[test]
#[cfg_attr(miri, ignore = "allocates gigabytes")]
fn a_nested_message_over_4_gib_is_an_error_not_a_panic() {
    // Before the limits, the nested length overflowed the size cache's u32
    // and `encoded_len` panicked.
    let mut kitchen = Kitchen::default();
    let inner = Inner {
        // SAFETY: zero bytes are valid UTF-8.
        b: unsafe { String::from_utf8_unchecked(zeroed(5 << 30)) },
        ..Inner::default()
    };
    kitchen.children.push(inner);
    let len = kitchen.encoded_len();
    assert!(len > 5 << 30);
    assert_eq!(
        kitchen
            .encode_to_vec_with_options(&EncodeOptions::new())
            .unwrap_err()
            .kind(),
        &EncodeErrorKind::MessageTooLarge { length: len }
    );
}

#[test]
#[cfg_attr(miri, ignore = "allocates gigabytes")]
fn a_message_of_exactly_the_limit_is_accepted() {
    // One `bytes` element: key (1) + 5-byte length prefix + payload.
    let mut kitchen = Kitchen::default();
    kitchen.blobs.push(zeroed(MAX_MESSAGE_LEN - 6));
    assert_eq!(kitchen.encoded_len(), MAX_MESSAGE_LEN);
    // The size check passes; only the buffer is too small.
    let mut small = [0u8; 8];
    let error = kitchen.encode(&mut &mut small[..]).unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::BufferTooSmall {
            required: MAX_MESSAGE_LEN,
            remaining: 8
        }
    );
}

/// `count` values of `-1`, each a ten-byte varint, as Kitchen's packed
/// `sint64` field 3 would never write them but a hostile peer can.
fn ten_byte_varints(count: usize) -> Vec<u8> {
    let mut payload = Vec::new();
    for _ in 0..count {
        payload.extend(varint(u64::MAX));
    }
    payload
}

#[test]
fn a_packed_run_reserves_one_element_per_value_not_per_byte() {
    for count in [16, 100] {
        let payload = ten_byte_varints(count);
        assert_eq!(payload.len(), 10 * count);
        let kitchen = Kitchen::decode_from_slice(&ld(3, &payload)).unwrap();
        assert_eq!(kitchen.packed_sint64.len(), count);
        // sint64 zigzag: u64::MAX decodes to i64::MIN.
        assert!(kitchen.packed_sint64.iter().all(|&v| v == i64::MIN));
        assert_eq!(kitchen.packed_sint64.capacity(), count);
    }
    // Closed enums (field 14) too: -1 is `Shape::Minus`.
    let kitchen = Kitchen::decode_from_slice(&ld(14, &ten_byte_varints(16))).unwrap();
    assert_eq!(kitchen.shapes.len(), 16);
    assert_eq!(kitchen.shapes.capacity(), 16);
    // Fixed-width runs (field 5, double) reserve length / 8.
    let kitchen = Kitchen::decode_from_slice(&ld(5, &[0u8; 8 * 12])).unwrap();
    assert_eq!(kitchen.packed_double.capacity(), 12);
}

#[test]
fn the_allocation_budget_stops_amplifying_input() {
    // 1,000 empty repeated messages: 2 input bytes each, but each one is a
    // whole `Inner` in memory.
    let mut input = Vec::new();
    for _ in 0..1000 {
        input.extend(ld(9, &[]));
    }
    let unlimited = Kitchen::decode_from_slice(&input).unwrap();
    assert_eq!(unlimited.children.len(), 1000);

    let budget = 100 * size_of::<Inner>();
    let options = DecodeOptions::new().with_allocation_limit(Some(budget));
    let error = Kitchen::decode_with_options(&input, &options).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::AllocationLimitExceeded { limit: budget }
    );
    // The 101st element is refused, right after its key at byte 200.
    assert_eq!(error.offset(), Some(201));
    assert!(error.to_string().contains("allocation limit"), "{error}");

    let enough = DecodeOptions::new().with_allocation_limit(Some(1000 * size_of::<Inner>() * 2));
    assert_eq!(
        Kitchen::decode_with_options(&input, &enough).unwrap(),
        unlimited
    );
}

#[test]
fn the_allocation_budget_charges_boxed_sub_messages_not_inline_ones() {
    // Field 8 is `MessageField<Inner>` (a Box), field 16 the same inline.
    let boxed = ld(8, &[]);
    let inline = ld(16, &[]);
    let just_short = DecodeOptions::new().with_allocation_limit(Some(size_of::<Inner>() - 1));
    assert_eq!(
        Kitchen::decode_with_options(&boxed, &just_short)
            .unwrap_err()
            .kind(),
        &DecodeErrorKind::AllocationLimitExceeded {
            limit: size_of::<Inner>() - 1
        }
    );
    let nothing = DecodeOptions::new().with_allocation_limit(Some(0));
    assert!(
        Kitchen::decode_with_options(&inline, &nothing)
            .unwrap()
            .inline_child
            .is_set()
    );
    // A boxed field seen again merges into the same box: charged once.
    let exact = DecodeOptions::new().with_allocation_limit(Some(size_of::<Inner>()));
    assert!(Kitchen::decode_with_options(&cat(&[&boxed, &boxed]), &exact).is_ok());
}

#[test]
fn the_allocation_budget_counts_strings_bytes_and_unknown_fields() {
    let string = ld(6, &[b'x'; 40]);
    let blob = ld(7, &[7; 40]);
    let unknown = ld(99, &[1; 40]);
    for field in [&string, &blob, &unknown] {
        let input = cat(&[field, field]);
        // Each value costs at least its 40 bytes: 60 admits one, not two.
        let tight = DecodeOptions::new().with_allocation_limit(Some(60));
        assert_eq!(
            Kitchen::decode_with_options(&input, &tight)
                .unwrap_err()
                .kind(),
            &DecodeErrorKind::AllocationLimitExceeded { limit: 60 }
        );
        let roomy = DecodeOptions::new().with_allocation_limit(Some(400));
        assert!(Kitchen::decode_with_options(&input, &roomy).is_ok());
    }
    // Shared `Bytes` fields (field 20) allocate nothing when decoding from
    // `Bytes`, and are not charged.
    let shared = ld(20, &[5; 40]);
    let input = Bytes::from(cat(&[&shared, &shared, &shared]));
    let tight = DecodeOptions::new().with_allocation_limit(Some(10));
    assert_eq!(
        Kitchen::decode_bytes(&input, &tight).unwrap().shared,
        vec![5u8; 40]
    );
}

/// Kitchen's map field 10 (`map<string, int32>`) with the given entries,
/// encoded by hand in the given order.
fn map_entries(entries: &[(&str, i32)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, v) in entries {
        out.extend(ld(
            10,
            &cat(&[&ld(1, k.as_bytes()), &vfield(2, *v as i64 as u64)]),
        ));
    }
    out
}

#[test]
fn deterministic_encoding_writes_map_entries_in_key_order() {
    let keys = ["delta", "alpha", "", "charlie", "bravo", "b"];
    let deterministic = EncodeOptions::new().with_deterministic(true);
    let mut sorted: Vec<(&str, i32)> = keys.iter().map(|k| (*k, k.len() as i32)).collect();
    sorted.sort();
    let expected = map_entries(&sorted);

    // Maps with the same entries, built in different orders and with
    // different capacities, so that their iteration orders differ.
    let mut encodings = Vec::new();
    for rotation in 0..keys.len() {
        let mut map = HashMap::with_capacity(rotation * 7);
        for k in keys.iter().cycle().skip(rotation).take(keys.len()) {
            map.insert(k.to_string(), k.len() as i32);
        }
        let kitchen = Kitchen {
            str_to_int: map,
            ..Kitchen::default()
        };
        let bytes = kitchen.encode_to_vec_with_options(&deterministic).unwrap();
        assert_eq!(bytes, expected, "rotation {rotation}");
        let mut written = Vec::new();
        kitchen
            .encode_with_options(&mut written, &deterministic)
            .unwrap();
        assert_eq!(written, expected);
        encodings.push(kitchen.encode_to_vec());
    }
    // Without the option every encoding still decodes to the same map.
    for bytes in encodings {
        let back = Kitchen::decode_from_slice(&bytes).unwrap();
        assert_eq!(back.str_to_int.len(), keys.len());
    }
}

#[test]
fn deterministic_encoding_orders_nested_maps_with_message_values() {
    // A map inside a repeated message inside the top-level message: the
    // size cache must hold the sorted order through both passes.
    let deterministic = EncodeOptions::new().with_deterministic(true);
    let mut kitchen = Kitchen::default();
    kitchen.children.push(Inner::default());
    kitchen.str_to_int = HashMap::from([("z".into(), 1), ("a".into(), 2), ("m".into(), 3)]);
    kitchen.child.set(Inner {
        a: 1,
        ..Inner::default()
    });
    let bytes = kitchen.encode_to_vec_with_options(&deterministic).unwrap();
    let back = Kitchen::decode_from_slice(&bytes).unwrap();
    assert_eq!(back, kitchen);
    let tail = map_entries(&[("a", 2), ("m", 3), ("z", 1)]);
    assert!(
        bytes.windows(tail.len()).any(|w| w == tail),
        "entries in key order"
    );
}

#[test]
fn decode_consumes_a_borrowed_buf_whether_or_not_the_message_shares_input() {
    let inner = Inner {
        a: 3,
        b: "x".into(),
        ..Inner::default()
    };
    let bytes = inner.encode_to_vec();
    // `Inner` reads a contiguous buffer in place (it shares nothing);
    // `Kitchen` has a `Bytes` field and copies into `Bytes` first. Both
    // advance a borrowed buffer past everything they read.
    let mut buf = &bytes[..];
    assert_eq!(Inner::decode(&mut buf).unwrap(), inner);
    assert!(buf.is_empty(), "Inner::decode consumed its input");

    let kitchen_bytes = Kitchen {
        shared: Bytes::from_static(b"s"),
        ..Kitchen::default()
    }
    .encode_to_vec();
    let mut buf = &kitchen_bytes[..];
    Kitchen::decode(&mut buf).unwrap();
    assert!(buf.is_empty(), "Kitchen::decode consumed its input");

    // merge consumes too.
    let mut merged = Inner::default();
    let mut buf = &bytes[..];
    merged.merge(&mut buf).unwrap();
    assert!(buf.is_empty());
    assert_eq!(merged, inner);

    // A failing decode consumes its input as well, in both modes.
    let bad = cat(&[&key(1, 7)]);
    let mut buf = &bad[..];
    assert!(Inner::decode(&mut buf).is_err());
    assert!(buf.is_empty());
    let mut buf = &bad[..];
    assert!(Kitchen::decode(&mut buf).is_err());
    assert!(buf.is_empty());

    // Length-delimited: exactly the prefix and the message, leaving what
    // follows.
    let mut stream = inner.encode_length_delimited_to_vec();
    stream.extend(Chain::nested(2).encode_length_delimited_to_vec());
    let mut buf = &stream[..];
    assert_eq!(Inner::decode_length_delimited(&mut buf).unwrap(), inner);
    assert_eq!(Chain::decode_length_delimited(&mut buf).unwrap().len(), 2);
    assert!(!buf.has_remaining());
}

#[test]
fn varints_with_bits_beyond_64_are_refused_everywhere() {
    // The fuzzer's input: an unknown varint field (number 572) whose value
    // overflows 64 bits. It used to be kept verbatim and re-encoded into
    // bytes that prost and protobuf-go refuse.
    let input = [
        0xe0, 0x23, 0xe7, 0xff, 0xff, 0xff, 0xff, 0xea, 0xeb, 0xef, 0x8d, 0x0e,
    ];
    for error in [
        Kitchen::decode_from_slice(&input).unwrap_err(),
        Inner::decode_from_slice(&input).unwrap_err(),
        Kitchen::decode(&input[..]).unwrap_err(),
    ] {
        assert_eq!(error.kind(), &DecodeErrorKind::VarintOverflow);
        // Reported at the start of the varint, behind the two-byte key.
        assert_eq!(error.offset(), Some(2));
    }
    // Also in a known field and in a length prefix read from a `Buf`.
    let mut known = vec![0x08];
    known.extend(&input[2..]);
    assert_eq!(
        Inner::decode_from_slice(&known).unwrap_err().kind(),
        &DecodeErrorKind::VarintOverflow
    );
    assert_eq!(
        Inner::decode_length_delimited(&input[2..])
            .unwrap_err()
            .kind(),
        &DecodeErrorKind::VarintOverflow
    );
}

#[test]
#[cfg_attr(miri, ignore = "allocates gigabytes")]
fn a_buf_over_2_gib_is_refused_before_it_is_copied() {
    // Two zeroed halves chained: not contiguous, so decoding would first
    // copy them into one `Bytes`. The size check comes first.
    let half = Bytes::from(zeroed(MAX_MESSAGE_LEN / 2 + 1));
    let len = 2 * half.len();
    let mut chained = half.clone().chain(half.clone());
    let error = Kitchen::decode(&mut chained).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::MessageTooLarge { length: len as u64 }
    );
    assert!(!chained.has_remaining(), "consumed, as every decode is");
    let mut merged = Inner::default();
    let mut chained = half.clone().chain(half);
    assert_eq!(
        merged.merge(&mut chained).unwrap_err().kind(),
        &DecodeErrorKind::MessageTooLarge { length: len as u64 }
    );
}

#[test]
fn every_buf_entry_point_takes_options() {
    let input = cat(&[&ld(6, b"abcdef"), &ld(6, b"ghijkl")]);
    // Room for one repeated string element and its six bytes, not two.
    let limit = size_of::<String>() + 6 + 3;
    let tight = DecodeOptions::new().with_allocation_limit(Some(limit));
    let exceeded = DecodeErrorKind::AllocationLimitExceeded { limit };

    let mut kitchen = Kitchen::default();
    assert_eq!(
        kitchen
            .merge_with_options(&input[..], &tight)
            .unwrap_err()
            .kind(),
        &exceeded
    );
    // The first string fit the budget and stays merged.
    assert_eq!(kitchen.strings, ["abcdef"]);

    let mut framed = varint(input.len() as u64);
    framed.extend(&input);
    assert_eq!(
        Kitchen::decode_length_delimited_with_options(&framed[..], &tight)
            .unwrap_err()
            .kind(),
        &exceeded
    );
    let roomy = DecodeOptions::new().with_allocation_limit(Some(1000));
    let mut buf = &framed[..];
    let decoded = Kitchen::decode_length_delimited_with_options(&mut buf, &roomy).unwrap();
    assert_eq!(decoded.strings, ["abcdef", "ghijkl"]);
    assert!(buf.is_empty());

    // Encoding: length-delimited and sizing under options.
    let deterministic = EncodeOptions::new().with_deterministic(true);
    let message = Kitchen {
        str_to_int: HashMap::from([("b".into(), 2), ("a".into(), 1)]),
        ..Kitchen::default()
    };
    let body = map_entries(&[("a", 1), ("b", 2)]);
    let mut written = Vec::new();
    message
        .encode_length_delimited_with_options(&mut written, &deterministic)
        .unwrap();
    assert_eq!(written, cat(&[&varint(body.len() as u64), &body]));
    assert_eq!(
        message.encoded_len_with_options(&deterministic),
        Ok(body.len())
    );
}
