//! The recursion limit and the allocation budget.

use super::*;

/// `depth` `Nested` messages below the top one, each the `child` of the
/// one above.
fn chain(depth: usize) -> Vec<u8> {
    let mut value = p::Nested::default();
    for _ in 0..depth {
        value = node(0, "", Some(value));
    }
    prost::Message::encode_to_vec(&value)
}

/// Reads a lazy `Nested` chain down to its end under `options`; returns
/// its depth.
fn read_chain(view: &l::NestedView<'_>, options: &DecodeOptions) -> Result<usize, DecodeError> {
    let mut depth = 0;
    let mut current = view.clone();
    while current.child.is_set() {
        current = current.child.get_with_options(options)?;
        depth += 1;
    }
    Ok(depth)
}

/// A chain of sub-messages around the recursion limit (the default, a
/// tighter one and a looser one) and 200 deep: eager views fail exactly where the owned
/// decode fails, with the same error; lazy views decode, and reading down
/// the chain (or `to_owned_message`, which reads under the limit the view
/// was decoded with) fails at the same depth.
#[test]
fn recursion_limit_for_eager_and_lazy_views() {
    for limit in [buffa::DEFAULT_RECURSION_LIMIT, 30, 250] {
        let options = DecodeOptions::new().with_recursion_limit(limit);
        let (mut accepted, mut refused) = (0, 0);
        for depth in (limit as usize - 3..limit as usize + 3).chain([200]) {
            let bytes = chain(depth);
            let owned = e::Nested::decode_with_options(&bytes, &options);
            let eager = e::NestedView::decode_view_with_options(&bytes, &options);
            assert_eq!(eager.as_ref().err(), owned.as_ref().err(), "depth {depth}");
            let lazy = l::NestedView::decode_view_with_options(&bytes, &options).unwrap();
            let read = read_chain(&lazy, &options);
            match &owned {
                Ok(owned) => {
                    accepted += 1;
                    assert_eq!(eager.unwrap().to_owned_message().unwrap(), *owned);
                    assert_eq!(read, Ok(depth));
                }
                Err(error) => {
                    refused += 1;
                    assert_eq!(
                        error.kind(),
                        &DecodeErrorKind::RecursionLimitExceeded { limit }
                    );
                    assert_eq!(read.unwrap_err().kind(), error.kind(), "depth {depth}");
                }
            }
            let copy = lazy.to_owned_message();
            assert_eq!(copy.is_ok(), owned.is_ok(), "depth {depth}");
            if let (Err(copy), Err(owned)) = (copy, owned) {
                assert_eq!(copy.kind(), owned.kind(), "depth {depth}");
            }
        }
        assert!(
            accepted > 0 && refused > 0,
            "limit {limit}: the depths miss it"
        );
    }
}

/// Groups count like messages: a chain of `Groups` (each a group holding a
/// message) and a chain of unknown groups fail in eager views where the
/// owned decode fails; a lazy view fails at decode (unknown groups) or
/// when read (lazy groups).
#[test]
fn recursion_limit_for_groups() {
    let mut groups = p::two::Groups::default();
    let mut chains = Vec::new();
    for _ in 0..60 {
        let repgroup = vec![p::two::groups::RepGroup {
            c: Some(1),
            inner: vec![groups],
        }];
        groups = p::two::Groups {
            repgroup,
            ..Default::default()
        };
        chains.push(prost::Message::encode_to_vec(&groups));
    }
    let unknown = |depth: usize| [vec![0x2b; depth], vec![0x2c; depth]].concat();
    let (mut accepted, mut refused) = (0, 0);
    for limit in [buffa::DEFAULT_RECURSION_LIMIT, 31] {
        let options = DecodeOptions::new().with_recursion_limit(limit);
        for bytes in chains.iter().cloned().chain((90..110).map(unknown)) {
            let owned = e::two::Groups::decode_with_options(&bytes, &options);
            let eager = e::two::GroupsView::decode_view_with_options(&bytes, &options);
            assert_eq!(eager.as_ref().err(), owned.as_ref().err());
            let lazy = l::two::GroupsView::decode_view_with_options(&bytes, &options)
                .and_then(|view| view.to_owned_message());
            assert_eq!(lazy.is_ok(), owned.is_ok());
            match owned {
                Ok(owned) => {
                    accepted += 1;
                    assert_eq!(owned_bytes(&owned), bytes);
                }
                Err(error) => {
                    refused += 1;
                    assert!(matches!(
                        error.kind(),
                        DecodeErrorKind::RecursionLimitExceeded { .. }
                    ));
                    assert_eq!(lazy.unwrap_err().kind(), error.kind());
                }
            }
        }
    }
    assert!(accepted > 0 && refused > 0);
}

/// A view's repeated and map fields allocate nothing, so the allocation
/// budget charges them nothing: an eager view of 500 numbers, strings,
/// map entries or sub-messages decodes under a budget of zero bytes. A
/// lazy repeated field keeps a slice per element, which the budget
/// charges exactly: decoding fits in that many bytes and fails one byte
/// short.
#[test]
fn allocation_limit_charges_what_views_allocate() {
    use std::mem::size_of;
    const N: usize = 500;
    let options = |limit| DecodeOptions::new().with_allocation_limit(Some(limit));
    fn free<'a, V: MessageView<'a>>(bytes: &'a [u8]) {
        let nothing = DecodeOptions::new().with_allocation_limit(Some(0));
        V::decode_view_with_options(bytes, &nothing).unwrap();
    }
    let ints = prost::Message::encode_to_vec(&p::Packed {
        f_int32: (0..N as i32).collect(),
        ..Default::default()
    });
    free::<e::PackedView>(&ints);
    free::<l::PackedView>(&ints);
    let strings = vec!["some text".to_owned(); N];
    let strings = prost::Message::encode_to_vec(&p::Packed {
        f_string: strings,
        ..Default::default()
    });
    free::<e::PackedView>(&strings);
    let map = (0..N as i32).map(|k| (k, -k)).collect();
    let map = prost::Message::encode_to_vec(&p::Maps {
        int32_int32: map,
        ..Default::default()
    });
    free::<e::MapsView>(&map);
    let children = vec![p::Nested::default(); N];
    let children = prost::Message::encode_to_vec(&p::Nested {
        children,
        ..Default::default()
    });
    free::<e::NestedView>(&children);
    let cost = N * size_of::<&[u8]>();
    l::NestedView::decode_view_with_options(&children, &options(cost)).unwrap();
    let error = l::NestedView::decode_view_with_options(&children, &options(cost - 1)).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::AllocationLimitExceeded { limit: cost - 1 }
    );
}

/// A lazy field read later (directly, by `to_owned_message` or by an
/// encode) is held to the allocation budget the view was decoded under,
/// which the owned decode of the same bytes exceeds.
#[test]
fn lazy_reads_keep_the_allocation_budget() {
    let value = p::Everything {
        nested: Some(p::Nested {
            children: vec![p::Nested::default(); 100_000],
            ..Default::default()
        }),
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    let budget = DecodeOptions::new().with_allocation_limit(Some(10_000));
    let exceeded = |error: DecodeError| {
        matches!(
            error.kind(),
            DecodeErrorKind::AllocationLimitExceeded { .. }
        )
    };
    assert!(exceeded(
        e::Everything::decode_with_options(&bytes, &budget).unwrap_err()
    ));
    let view = l::EverythingView::decode_view_with_options(&bytes, &budget).unwrap();
    assert!(exceeded(view.nested.get().unwrap_err()));
    assert!(exceeded(view.to_owned_message().unwrap_err()));
    // Without a budget the same view reads in full.
    let view = l::EverythingView::decode_view(&bytes).unwrap();
    assert_eq!(view.nested.get().unwrap().children.len(), 100_000);
}

/// Merging more input into a lazy view under looser limits does not
/// loosen them for what was read before: each lazy field keeps the
/// tightest limits of its occurrences.
#[test]
fn merged_views_keep_the_tightest_limits() {
    let tight = DecodeOptions::new().with_recursion_limit(4);
    let bytes = chain(8);
    assert!(e::Nested::decode_with_options(&bytes, &tight).is_err());
    let mut view = l::NestedView::decode_view_with_options(&bytes, &tight).unwrap();
    view.merge_view(&[0x12, 0x00]).unwrap();
    let error = read_chain(&view, &DecodeOptions::new()).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 4 }
    );
    assert!(view.to_owned_message().is_err());
}

/// A map entry with an undeclared closed-enum value is copied whole into
/// the unknown fields by views too, and charged for it: under a budget
/// the owned decode exceeds, the view decode fails alike.
#[test]
fn unknown_map_entries_are_charged_in_views() {
    // string_enum = {"k": 5}, with a 100 KB unknown field inside the entry.
    let mut entry = vec![0x0a, 0x01, b'k', 0x10, 0x05, 0x1a];
    let mut padding = Vec::new();
    let mut len = 100_000u64;
    while len >= 0x80 {
        padding.push(len as u8 | 0x80);
        len >>= 7;
    }
    padding.push(len as u8);
    entry.extend(padding);
    entry.extend(vec![0u8; 100_000]);
    let mut bytes = vec![0x0a];
    let mut len = entry.len() as u64;
    while len >= 0x80 {
        bytes.push(len as u8 | 0x80);
        len >>= 7;
    }
    bytes.push(len as u8);
    bytes.extend(entry);
    let owned = e::two::ClosedMaps::decode_from_slice(&bytes).unwrap();
    assert!(owned.string_enum.is_empty() && !owned.unknown_fields.is_empty());
    let budget = DecodeOptions::new().with_allocation_limit(Some(1_000));
    let owned = e::two::ClosedMaps::decode_with_options(&bytes, &budget).unwrap_err();
    let view = e::two::ClosedMapsView::decode_view_with_options(&bytes, &budget).unwrap_err();
    assert_eq!(view.kind(), owned.kind());
}

/// Unknown fields that follow each other in the input share one span, so
/// a run of small unknown fields costs a view one span, not one per field.
#[test]
fn adjacent_unknown_fields_share_a_span() {
    // 1,000 unknown varint fields (number 99) behind a known one.
    let mut bytes = vec![0x08, 0x01];
    for _ in 0..1_000 {
        bytes.extend([0x98, 0x06, 0x01]);
    }
    let view = e::NestedView::decode_view(&bytes).unwrap();
    assert_eq!(view.unknown_fields.spans().count(), 1);
    assert_eq!(view.unknown_fields.iter().count(), 1_000);
    assert_eq!(view.unknown_fields.spans().next(), Some(&bytes[2..]));
    // Under a budget too small for the owned copy, the view still fits.
    let budget = DecodeOptions::new().with_allocation_limit(Some(200));
    assert!(e::Nested::decode_with_options(&bytes, &budget).is_err());
    assert!(e::NestedView::decode_view_with_options(&bytes, &budget).is_ok());
}

/// Views compare like the messages they hold: an unset lazy field differs
/// from a set, empty one, and a map repeating a key on the wire equals
/// one holding only its last entry.
#[test]
fn views_compare_like_their_messages() {
    let unset = l::NestedView::decode_view(&[]).unwrap();
    let empty_child = l::NestedView::decode_view(&[0x12, 0x00]).unwrap();
    assert_ne!(unset, empty_child);
    assert_ne!(
        unset.to_owned_message().unwrap(),
        empty_child.to_owned_message().unwrap()
    );
    // int32_int32 = {1: 1} then {1: 2}, against {1: 2} alone.
    let repeated = [
        0x0a, 0x04, 0x08, 0x01, 0x10, 0x01, 0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,
    ];
    let twice = e::MapsView::decode_view(&repeated).unwrap();
    let once = e::MapsView::decode_view(&repeated[6..]).unwrap();
    assert_eq!(twice, once);
    assert_eq!(twice.int32_int32.raw_len(), 2);
}
