//! Deep nesting: encoding is linear (one `compute_size` per message, thanks
//! to the size cache), decoding and encoding honour the same recursion
//! limit.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use buffa::{DecodeErrorKind, DecodeOptions, EncodeErrorKind, EncodeOptions, Message};
use std::collections::{BTreeMap, HashMap};

use buffa::MessageField;
use common::{Chain, Inner, Kitchen, chain_size_calls, reset_chain_size_calls, varint, varint_len};

const DEPTH: usize = 200;

/// Options that let the 200- and 400-deep chains of these tests encode.
const DEEP: EncodeOptions = EncodeOptions::new().with_recursion_limit(1000);

fn encode_deep(chain: &Chain) -> Vec<u8> {
    chain.encode_to_vec_with_options(&DEEP).unwrap()
}

/// A naive, obviously correct encoder for `Chain`, independent of the
/// runtime (quadratic, fine for 200 levels).
fn naive_encode(chain: &Chain) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(child) = chain.child.as_option() {
        let payload = naive_encode(child);
        out.push(0x0a);
        out.extend(varint(payload.len() as u64));
        out.extend(payload);
    }
    if chain.value != 0 {
        out.push(0x10);
        out.extend(varint(chain.value as i64 as u64));
    }
    out
}

/// The encoded length of `Chain::nested(n)`, from the innermost message out.
fn expected_len(n: usize) -> usize {
    let mut len = 1 + varint_len(n as u64);
    for depth in (0..n - 1).rev() {
        len = (1 + varint_len(len as u64) + len) + (1 + varint_len(depth as u64 + 1));
    }
    len
}

#[test]
fn encoding_200_deep_has_the_right_bytes() {
    let chain = Chain::nested(DEPTH);
    assert_eq!(chain.len(), DEPTH);
    let bytes = encode_deep(&chain);
    assert_eq!(bytes.len(), expected_len(DEPTH));
    assert_eq!(bytes, naive_encode(&chain));
    // The outermost length prefix covers everything but the root's own key,
    // prefix and value.
    let root_tail = 1 + varint_len(1);
    let prefix_len = varint_len((bytes.len() - 1 - root_tail) as u64);
    assert_eq!(bytes[0], 0x0a);
    assert_eq!(
        bytes[1..1 + prefix_len],
        varint((bytes.len() - 1 - prefix_len - root_tail) as u64)
    );
    assert_eq!(bytes[bytes.len() - 2..], [0x10, 0x01]);
}

#[test]
fn encoding_calls_compute_size_once_per_message() {
    let chain = Chain::nested(DEPTH);

    reset_chain_size_calls();
    let bytes = encode_deep(&chain);
    assert_eq!(chain_size_calls(), DEPTH, "encode_to_vec_with_options");

    reset_chain_size_calls();
    let mut vec = Vec::new();
    chain.encode_with_options(&mut vec, &DEEP).unwrap();
    assert_eq!(chain_size_calls(), DEPTH, "encode_with_options");
    assert_eq!(vec, bytes);

    // Within the default limit, the default entry points.
    let shallow = Chain::nested(DEPTH / 2);
    let shallow_bytes = shallow.encode_to_vec();
    reset_chain_size_calls();
    assert_eq!(shallow.encoded_len(), shallow_bytes.len());
    assert_eq!(chain_size_calls(), DEPTH / 2, "encoded_len");

    reset_chain_size_calls();
    let delimited = shallow.encode_length_delimited_to_vec();
    assert_eq!(
        chain_size_calls(),
        DEPTH / 2,
        "encode_length_delimited_to_vec"
    );
    assert_eq!(
        delimited[varint_len(shallow_bytes.len() as u64)..],
        shallow_bytes[..]
    );

    reset_chain_size_calls();
    let mut vec = Vec::new();
    shallow.encode_length_delimited(&mut vec).unwrap();
    assert_eq!(chain_size_calls(), DEPTH / 2, "encode_length_delimited");
    assert_eq!(vec, delimited);

    // Twice as deep, twice the calls: linear, not quadratic.
    let chain = Chain::nested(2 * DEPTH);
    reset_chain_size_calls();
    let bytes = encode_deep(&chain);
    assert_eq!(chain_size_calls(), 2 * DEPTH);
    assert_eq!(bytes.len(), expected_len(2 * DEPTH));
}

#[test]
fn decoding_200_deep_needs_a_raised_recursion_limit() {
    let chain = Chain::nested(DEPTH);
    let bytes = encode_deep(&chain);

    let options = DecodeOptions::new().with_recursion_limit(300);
    assert_eq!(options.recursion_limit(), 300);
    let back = Chain::decode_with_options(&bytes, &options).unwrap();
    assert_eq!(back.len(), DEPTH);
    assert_eq!(back, chain);
    assert_eq!(encode_deep(&back), bytes);

    assert_eq!(DecodeOptions::default().recursion_limit(), 100);
    let error = Chain::decode_from_slice(&bytes).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );
    // The path runs through field 1 of every message that was entered.
    let path: Vec<_> = error.field_path().collect();
    assert_eq!(path.len(), 101);
    assert!(path.iter().all(|&entry| entry == ("test.Chain", 1)));
    // The error is at the length prefix of the 101st nested message: after
    // 101 keys and the 100 length prefixes before it.
    let mut offset = 0;
    for level in 0..101 {
        assert_eq!(bytes[offset], 0x0a);
        offset += 1;
        if level == 100 {
            break;
        }
        while bytes[offset] & 0x80 != 0 {
            offset += 1;
        }
        offset += 1;
    }
    assert_eq!(error.offset(), Some(offset));
    assert!(error.to_string().contains("recursion limit 100"), "{error}");
}

#[test]
fn recursion_limit_counts_nested_levels_exactly() {
    // The default limit admits 100 nested messages below the root.
    let ok = Chain::nested(101).encode_to_vec();
    assert_eq!(Chain::decode_from_slice(&ok).unwrap().len(), 101);
    let too_deep = encode_deep(&Chain::nested(102));
    assert_eq!(
        Chain::decode_from_slice(&too_deep).unwrap_err().kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );

    for limit in [0u32, 1, 5, 150] {
        let options = DecodeOptions::new().with_recursion_limit(limit);
        let n = limit as usize + 1;
        let ok = encode_deep(&Chain::nested(n));
        assert_eq!(
            Chain::decode_with_options(&ok, &options).unwrap().len(),
            n,
            "limit {limit}"
        );
        let too_deep = encode_deep(&Chain::nested(n + 1));
        assert_eq!(
            Chain::decode_with_options(&too_deep, &options)
                .unwrap_err()
                .kind(),
            &DecodeErrorKind::RecursionLimitExceeded { limit },
            "limit {limit}"
        );
    }
}

#[test]
fn unknown_groups_count_towards_the_recursion_limit() {
    // 101 nested unknown groups (field 9) inside a Chain.
    let error = Chain::decode_from_slice(&nested_groups(101)).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );
    assert_eq!(error.offset(), Some(101));

    let ok = nested_groups(100);
    let chain = Chain::decode_from_slice(&ok).unwrap();
    assert_eq!(chain.unknown_fields.as_bytes(), &ok[..]);
    assert_eq!(chain.encode_to_vec(), ok);

    let options = DecodeOptions::new().with_recursion_limit(1000);
    let deep = nested_groups(500);
    let chain = Chain::decode_with_options(&deep, &options).unwrap();
    assert_eq!(encode_deep(&chain), deep);
}

/// `n` unknown groups (field 9), each inside the previous one.
fn nested_groups(n: usize) -> Vec<u8> {
    let mut bytes = vec![0x4b; n];
    bytes.extend(vec![0x4c; n]);
    bytes
}

#[test]
fn unknown_groups_count_towards_the_encode_limit_too() {
    // Decoded under a raised limit, 500 nested unknown groups must not be
    // written under the default one, which the default decoder refuses.
    let options = DecodeOptions::new().with_recursion_limit(1000);
    let deep = Chain::decode_with_options(&nested_groups(500), &options).unwrap();
    let error = deep
        .encode_to_vec_with_options(&EncodeOptions::new())
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );
    assert!(Chain::decode_from_slice(&encode_deep(&deep)).is_err());

    // At the top level 100 groups fit and 101 do not; one level down, 99
    // and 100. The groups arrive through `push_raw` here, and decoding
    // agrees with encoding at every boundary.
    for (levels_above, groups, fits) in [
        (0, 100, true),
        (0, 101, false),
        (1, 99, true),
        (1, 100, false),
    ] {
        let mut leaf = Chain::default();
        leaf.unknown_fields
            .push_raw(&nested_groups(groups))
            .unwrap();
        let message = if levels_above == 0 {
            leaf
        } else {
            let mut parent = Chain::default();
            parent.child.set(leaf);
            parent
        };
        let encoded = message.encode_to_vec_with_options(&EncodeOptions::new());
        assert_eq!(
            encoded.is_ok(),
            fits,
            "{levels_above} above, {groups} groups"
        );
        assert_eq!(
            Chain::decode_from_slice(&encode_deep(&message)).is_ok(),
            fits,
            "{levels_above} above, {groups} groups"
        );
        assert_eq!(
            message
                .encoded_len_with_options(&EncodeOptions::new())
                .is_ok(),
            fits
        );
    }
}

#[test]
fn maps_and_groups_count_levels_exactly_as_decoding_does() {
    // A map entry is a nested message on the wire, and a message value is
    // one more level inside it; a group is one level.
    let with_map = Kitchen {
        str_to_int: HashMap::from([("a".to_string(), 1)]),
        ..Kitchen::default()
    };
    let with_message_map = Kitchen {
        int_to_msg: BTreeMap::from([(1, Inner::default())]),
        ..Kitchen::default()
    };
    let with_group = Kitchen {
        group: MessageField::some(Inner::default()),
        ..Kitchen::default()
    };
    for (name, message, levels) in [
        ("map<string, int32>", &with_map, 1),
        ("map<sint32, Inner>", &with_message_map, 2),
        ("group", &with_group, 1),
    ] {
        let bytes = message.encode_to_vec_with_options(&DEEP).unwrap();
        for limit in 0..=3 {
            let fits = levels <= limit;
            let encode = EncodeOptions::new().with_recursion_limit(limit);
            let decode = DecodeOptions::new().with_recursion_limit(limit);
            assert_eq!(
                message.encode_to_vec_with_options(&encode).is_ok(),
                fits,
                "encode {name} under limit {limit}"
            );
            assert_eq!(
                Kitchen::decode_with_options(&bytes, &decode).is_ok(),
                fits,
                "decode {name} under limit {limit}"
            );
        }
    }
}

#[test]
fn encoding_honours_the_recursion_limit_decoding_has() {
    // The default limits: 100 nested levels encode, 101 do not, and the
    // error names the message and the limit instead of writing bytes the
    // decoder would refuse.
    assert!(
        Chain::nested(101)
            .encode_to_vec_with_options(&EncodeOptions::new())
            .is_ok()
    );
    let too_deep = Chain::nested(102);
    let error = too_deep
        .encode_to_vec_with_options(&EncodeOptions::new())
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );
    assert_eq!(error.message_name(), "test.Chain");
    assert_eq!(
        error.to_string(),
        "failed to encode protobuf message test.Chain: messages nested deeper than the \
         recursion limit 100"
    );
    let mut buf = Vec::new();
    assert_eq!(too_deep.encode(&mut buf).unwrap_err(), error);
    assert!(buf.is_empty(), "nothing written");
    assert_eq!(
        too_deep.encode_length_delimited(&mut buf).unwrap_err(),
        error
    );
    assert!(buf.is_empty(), "nothing written");

    // For every limit, what encodes under it decodes under it.
    for limit in [0u32, 1, 5, 150] {
        let encode = EncodeOptions::new().with_recursion_limit(limit);
        let decode = DecodeOptions::new().with_recursion_limit(limit);
        let n = limit as usize + 1;
        let bytes = Chain::nested(n)
            .encode_to_vec_with_options(&encode)
            .unwrap();
        assert_eq!(
            Chain::decode_with_options(&bytes, &decode).unwrap().len(),
            n
        );
        assert_eq!(
            Chain::nested(n + 1)
                .encode_to_vec_with_options(&encode)
                .unwrap_err()
                .kind(),
            &EncodeErrorKind::RecursionLimitExceeded { limit }
        );
    }
}

#[test]
#[should_panic(expected = "messages nested deeper than the recursion limit 100")]
fn encode_to_vec_panics_beyond_the_limit() {
    let _ = Chain::nested(102).encode_to_vec();
}

#[test]
fn a_very_deep_message_is_refused_without_overflowing_the_stack() {
    // Far deeper than any stack could recurse through: sizing stops at the
    // limit, so encoding returns an error instead of overflowing. Under
    // Miri, 1,000 levels (ten times the limit) take seconds; a million take
    // many minutes.
    let depth = if cfg!(miri) { 1_000 } else { 1_000_000 };
    let mut chain = Chain::default();
    for _ in 0..depth {
        let mut parent = Chain::default();
        parent.child.set(chain);
        chain = parent;
    }
    let error = chain
        .encode_to_vec_with_options(&EncodeOptions::new())
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::RecursionLimitExceeded { limit: 100 }
    );
    // Dropping recursively would overflow the stack; unlink level by level.
    let mut next = chain.child.take();
    while let Some(mut level) = next {
        next = level.child.take();
    }
}
