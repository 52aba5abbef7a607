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

/// The allocation budget charges a view's repeated fields, map entries and
/// lazy elements per element (a slice or a scalar; string contents are
/// borrowed, not charged): decoding fits in exactly that many bytes and
/// fails one byte short.
#[test]
fn allocation_limit_applies_to_view_containers() {
    use std::mem::size_of;
    const N: usize = 500;
    fn exact<'a, V: MessageView<'a>>(bytes: &'a [u8], cost: usize) {
        let options = |limit| DecodeOptions::new().with_allocation_limit(Some(limit));
        V::decode_view_with_options(bytes, &options(cost)).unwrap();
        let error = V::decode_view_with_options(bytes, &options(cost - 1)).unwrap_err();
        assert_eq!(
            error.kind(),
            &DecodeErrorKind::AllocationLimitExceeded { limit: cost - 1 }
        );
    }
    let ints = prost::Message::encode_to_vec(&p::Packed {
        f_int32: (0..N as i32).collect(),
        ..Default::default()
    });
    exact::<e::PackedView>(&ints, N * size_of::<i32>());
    exact::<l::PackedView>(&ints, N * size_of::<i32>());
    let strings = vec!["some text".to_owned(); N];
    let strings = prost::Message::encode_to_vec(&p::Packed {
        f_string: strings,
        ..Default::default()
    });
    exact::<e::PackedView>(&strings, N * size_of::<&str>());
    let map = (0..N as i32).map(|k| (k, -k)).collect();
    let map = prost::Message::encode_to_vec(&p::Maps {
        int32_int32: map,
        ..Default::default()
    });
    exact::<e::MapsView>(&map, N * 2 * size_of::<i32>());
    let children = vec![p::Nested::default(); N];
    let children = prost::Message::encode_to_vec(&p::Nested {
        children,
        ..Default::default()
    });
    exact::<e::NestedView>(&children, N * size_of::<e::NestedView>());
    exact::<l::NestedView>(&children, N * size_of::<&[u8]>());
}
