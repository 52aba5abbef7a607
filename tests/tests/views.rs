//! Borrowed views (`FooView<'a>`) against independent references: the owned
//! decode of the same bytes, prost (random values of `proto/crosscheck`,
//! from `common::strategies`) and protoc (text format encoded by the C++
//! implementation). Every cross-check property runs on both layouts:
//! `crosscheck` (boxed sub-messages, eager views, module `e`) and
//! `crosscheck_lazy` (inline sub-messages, every message-typed view field a
//! `LazyField`/`LazyRepeated`, module `l`).
//!
//! This file holds the checks the parts share, the properties over random
//! values (field kinds, merging, unknown fields, maps) and hand-picked
//! merges; `views/` holds the rest: `pointers` (strings and bytes borrow
//! the input), `hostile` (mutated input), `limits` (recursion and
//! allocation) and `protoc` (protobuf's unittest messages).

mod common;

use std::fmt::Debug;
use std::path::Path;

use buffa::{
    DecodeError, DecodeErrorKind, DecodeOptions, EncodeOptions, HasView, LazyField, LazyRepeated,
    MapView, Message, MessageField, MessageView, ProtoBox, UnknownFields, UnknownFieldsView,
    view_of,
};
use buffa_tests::crosscheck::crosscheck as e;
use buffa_tests::crosscheck_lazy::crosscheck as l;
use buffa_tests::prost_crosscheck::crosscheck as p;
use common::mutate::{mutate, mutation};
use common::strategies::*;
use common::{local_protos, protoc_decode_in, protoc_encode_in, unittest_include};
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;

#[path = "views/hostile.rs"]
mod hostile;
#[path = "views/limits.rs"]
mod limits;
#[path = "views/pointers.rs"]
mod pointers;
#[path = "views/protoc.rs"]
mod protoc;

// ---------------------------------------------------------------------
// Checks shared by the tests.

/// The owned encoding, map entries in key order (as a view writes them).
fn owned_bytes<M: Message>(message: &M) -> Vec<u8> {
    let options = EncodeOptions::new().with_deterministic(true);
    message.encode_to_vec_with_options(&options).unwrap()
}

/// The view of `bytes` holds what the owned decode holds and encodes to
/// the owned message's bytes, through every encode entry point. Returns
/// those bytes.
fn view_agrees<M: HasView + PartialEq + Debug>(bytes: &[u8]) -> Vec<u8> {
    let owned = M::decode_from_slice(bytes).unwrap_or_else(|e| panic!("owned decode: {e}"));
    let view = view_of::<M>(bytes).unwrap_or_else(|e| panic!("view decode: {e}"));
    assert_eq!(view.to_owned_message().unwrap(), owned, "view != owned");
    let encoded = owned_bytes(&owned);
    assert_eq!(
        view.encode_to_vec(),
        encoded,
        "the view encodes differently"
    );
    assert_eq!(view.encoded_len(), encoded.len());
    let mut buf = Vec::new();
    view.encode(&mut buf).unwrap();
    assert_eq!(buf, encoded);
    common::check_encode_to_slice(&encoded, |buf| view.encode_to_slice(buf));
    let deterministic = EncodeOptions::new().with_deterministic(true);
    common::check_encode_to_slice(&encoded, |buf| {
        owned.encode_to_slice_with_options(buf, &deterministic)
    });
    encoded
}

/// [`view_agrees`] for the eager layout `E` and the lazy layout `L` of one
/// message, whose owned messages must also encode alike.
fn both_layouts<E, L>(bytes: &[u8]) -> Vec<u8>
where
    E: HasView + PartialEq + Debug,
    L: HasView + PartialEq + Debug,
{
    let eager = view_agrees::<E>(bytes);
    assert_eq!(view_agrees::<L>(bytes), eager, "the layouts encode apart");
    eager
}

/// prost encodes `value`; both views read it, encode what prost wrote
/// (`same_bytes`: where the encoders agree, i.e. without maps), and prost
/// reads the views' bytes as `value`.
fn from_prost<P, E, L>(value: &P, same_bytes: bool)
where
    P: prost::Message + Default + PartialEq + Debug,
    E: HasView + PartialEq + Debug,
    L: HasView + PartialEq + Debug,
{
    let bytes = prost::Message::encode_to_vec(value);
    let written = both_layouts::<E, L>(&bytes);
    if same_bytes {
        assert_eq!(written, bytes, "the views and prost encode {value:?} apart");
    }
    assert_eq!(&P::decode(&written[..]).unwrap(), value);
}

/// The encodings of `a` and `b` concatenated: both views decode it as the
/// owned decode does, `merge_view` of the second into a view of the first
/// is the same, and prost reads the views' bytes as prost's own merge.
fn merged<P, E, L>(a: &P, b: &P)
where
    P: prost::Message + Default + PartialEq + Debug + Clone,
    E: HasView + PartialEq + Debug,
    L: HasView + PartialEq + Debug,
{
    let first = prost::Message::encode_to_vec(a);
    let second = prost::Message::encode_to_vec(b);
    let joined = [&first[..], &second[..]].concat();
    let written = both_layouts::<E, L>(&joined);
    let mut expected = a.clone();
    prost::Message::merge(&mut expected, &second[..]).unwrap();
    assert_eq!(P::decode(&written[..]).unwrap(), expected);
    let mut eager = view_of::<E>(&first).unwrap();
    eager.merge_view(&second).unwrap();
    assert_eq!(eager.encode_to_vec(), written, "merge_view (eager)");
    let mut lazy = view_of::<L>(&first).unwrap();
    lazy.merge_view(&second).unwrap();
    assert_eq!(lazy.encode_to_vec(), written, "merge_view (lazy)");
}

/// Whether `part` lies within `whole`'s memory.
fn inside(whole: &[u8], part: &[u8]) -> bool {
    let (whole, part) = (whole.as_ptr_range(), part.as_ptr_range());
    whole.start <= part.start && part.end <= whole.end
}

/// The unknown fields of a view and of the owned message iterate alike;
/// returns how many there are.
fn unknown_agree(view: &UnknownFieldsView<'_>, owned: &UnknownFields) -> usize {
    assert!(
        view.iter().eq(owned.iter()),
        "{view:?} != {:?}",
        owned.iter().collect::<Vec<_>>()
    );
    view.iter().count()
}

// ---------------------------------------------------------------------
// Random values.

/// Closed-enum numbers, declared or not.
fn any_closed() -> impl Strategy<Value = i32> {
    prop_oneof![closed_enum(), any::<i32>()]
}

fn declared(n: &i32) -> bool {
    [1, 2, -5].contains(n)
}

prop_compose! {
    /// Closed enums in every position: singular, expanded, packed, map
    /// value (`ClosedZero`) and oneof member.
    fn closed_enums()(
        f_enum in option::of(any_closed()),
        d_enum in option::of(any_closed()),
        e_enum in vec(any_closed(), 0..5),
        p_enum in vec(any_closed(), 0..5),
        string_enum in btree_map(strings(), prop_oneof![closed_zero(), any::<i32>()], 0..4),
        c_enum in option::of(any_closed()),
    ) -> p::two::Everything2 {
        p::two::Everything2 {
            scalars: Some(p::two::Scalars { f_enum, d_enum, ..Default::default() }),
            repeated: Some(p::two::Repeated { e_enum, p_enum, ..Default::default() }),
            closed_maps: Some(p::two::ClosedMaps { string_enum, ..Default::default() }),
            oneofs: Some(p::two::Oneofs2 { choice: c_enum.map(p::two::oneofs2::Choice::CEnum) }),
            ..Default::default()
        }
    }
}

/// How many unknown fields buffa makes of the undeclared closed-enum
/// numbers in `value` (one per number, one per map entry).
fn undeclared(value: &p::two::Everything2) -> usize {
    let scalars = value.scalars.as_ref().unwrap();
    let repeated = value.repeated.as_ref().unwrap();
    let maps = value.closed_maps.as_ref().unwrap();
    let c_enum = match value.oneofs.as_ref().unwrap().choice {
        Some(p::two::oneofs2::Choice::CEnum(n)) => Some(n),
        _ => None,
    };
    [scalars.f_enum, scalars.d_enum, c_enum]
        .iter()
        .flatten()
        .chain(&repeated.e_enum)
        .chain(&repeated.p_enum)
        .filter(|n| !declared(n))
        .count()
        + maps
            .string_enum
            .values()
            .filter(|n| ![0, 3, 7].contains(*n))
            .count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// proto3: every field kind (implicit and explicit presence, packed,
    /// expanded, maps, oneofs, recursion, open enums with any number).
    #[test]
    fn proto3_values_read_like_prost(value in everything()) {
        let same_bytes = value.maps.is_none();
        from_prost::<p::Everything, e::Everything, l::Everything>(&value, same_bytes);
    }

    /// proto2: defaults, required fields, groups (lazy groups in `l`),
    /// closed enums, closed maps, oneofs.
    #[test]
    fn proto2_values_read_like_prost(value in everything2()) {
        let same_bytes = value.closed_maps.is_none();
        from_prost::<p::two::Everything2, e::two::Everything2, l::two::Everything2>(
            &value, same_bytes,
        );
    }

    /// Two encodings concatenated read as prost merges them: last scalar
    /// wins, repeated fields append, sub-messages (singular, lazy, oneof
    /// members, groups) merge, map keys keep their last entry.
    #[test]
    fn concatenations_merge_like_prost(a in everything(), b in everything()) {
        merged::<p::Everything, e::Everything, l::Everything>(&a, &b);
    }

    #[test]
    fn proto2_concatenations_merge_like_prost(a in everything2(), b in everything2()) {
        merged::<p::two::Everything2, e::two::Everything2, l::two::Everything2>(&a, &b);
    }

    /// Undeclared closed-enum numbers (singular, expanded, packed, map
    /// value, oneof member) land in the views' unknown fields exactly as in
    /// the owned messages', and prost reads them back (a repeated field's
    /// undeclared numbers after its declared ones).
    #[test]
    fn undeclared_closed_enum_values_become_unknown_fields(value in closed_enums()) {
        let bytes = prost::Message::encode_to_vec(&value);
        let written = both_layouts::<e::two::Everything2, l::two::Everything2>(&bytes);
        let mut expected = value.clone();
        let repeated = expected.repeated.as_mut().unwrap();
        for list in [&mut repeated.e_enum, &mut repeated.p_enum] {
            let (known, unknown): (Vec<i32>, Vec<i32>) = list.iter().partition(|n| declared(n));
            *list = [known, unknown].concat();
        }
        let read = <p::two::Everything2 as prost::Message>::decode(&written[..]).unwrap();
        prop_assert_eq!(read, expected);

        let owned = e::two::Everything2::decode_from_slice(&bytes).unwrap();
        let eager = view_of::<e::two::Everything2>(&bytes).unwrap();
        let lazy = view_of::<l::two::Everything2>(&bytes).unwrap();
        let scalars = lazy.scalars.get().unwrap();
        let repeated = lazy.repeated.get().unwrap();
        let maps = lazy.closed_maps.get().unwrap();
        let oneofs = lazy.oneofs.get().unwrap();
        let mut count = 0;
        let (ev, ov) = (&eager, &owned);
        for (eager, lazy, owned) in [
            (&ev.scalars.unknown_fields, &scalars.unknown_fields, &ov.scalars.unknown_fields),
            (&ev.repeated.unknown_fields, &repeated.unknown_fields, &ov.repeated.unknown_fields),
            (&ev.closed_maps.unknown_fields, &maps.unknown_fields, &ov.closed_maps.unknown_fields),
            (&ev.oneofs.unknown_fields, &oneofs.unknown_fields, &ov.oneofs.unknown_fields),
        ] {
            prop_assert_eq!(unknown_agree(lazy, owned), unknown_agree(eager, owned));
            count += unknown_agree(eager, owned);
        }
        prop_assert_eq!(count, undeclared(&value));
    }

    /// Fields of a newer schema (scalars, packed, a group, a sub-message,
    /// a field number near the maximum) are the views' unknown fields:
    /// spans of the input, iterated like the owned message's, written
    /// back unchanged.
    #[test]
    fn newer_fields_are_unknown_fields_of_the_input(value in new_version()) {
        from_prost::<p::two::NewVersion, e::two::NewVersion, l::two::NewVersion>(
            &value, true,
        );
        let bytes = prost::Message::encode_to_vec(&value);
        let written = both_layouts::<e::two::OldVersion, l::two::OldVersion>(&bytes);
        prop_assert_eq!(&written, &bytes);
        let owned = e::two::OldVersion::decode_from_slice(&bytes).unwrap();
        let eager = view_of::<e::two::OldVersion>(&bytes).unwrap();
        let lazy = view_of::<l::two::OldVersion>(&bytes).unwrap();
        let known = prost::Message::encode_to_vec(&p::two::OldVersion { a: value.a }).len();
        for unknown in [&eager.unknown_fields, &lazy.unknown_fields] {
            unknown_agree(unknown, &owned.unknown_fields);
            prop_assert!(unknown.spans().all(|span| inside(&bytes, span)));
            let covered: usize = unknown.spans().map(<[u8]>::len).sum();
            prop_assert_eq!(covered, bytes.len() - known);
        }
    }

    /// Keys written twice: `MapView::get` gives the last entry's value,
    /// `iter` one entry per key in key order, as a `BTreeMap` filled in
    /// wire order holds them, `raw_entries` every entry read; message
    /// values read as the owned map's.
    #[test]
    fn map_views_keep_the_last_entry_of_a_key(a in maps(), b in maps()) {
        let mut joined = prost::Message::encode_to_vec(&a);
        joined.extend(prost::Message::encode_to_vec(&b));
        let eager = view_of::<e::Maps>(&joined).unwrap();
        let lazy = view_of::<l::Maps>(&joined).unwrap();
        let mut strings = a.string_string.clone();
        strings.extend(b.string_string.clone());
        let mut ints = a.int32_int32.clone();
        ints.extend(b.int32_int32.clone());
        for (map, int_map) in [
            (&eager.string_string, &eager.int32_int32),
            (&lazy.string_string, &lazy.int32_int32),
        ] {
            let wire = a.string_string.len() + b.string_string.len();
            prop_assert_eq!(map.raw_entries().count(), wire);
            prop_assert_eq!(map.len(), strings.len());
            prop_assert!(map.iter().eq(
                strings.iter().map(|(k, v)| (k.as_str(), v.as_str()))
            ));
            for (key, value) in &strings {
                prop_assert_eq!(map.get(&key.as_str()), Some(value.as_str()));
            }
            prop_assert!(int_map.iter().eq(ints.iter().map(|(k, v)| (*k, *v))));
        }
        let owned = e::Maps::decode_from_slice(&joined).unwrap();
        let eager_values: Vec<_> = eager.uint64_message.iter()
            .map(|(k, v)| (k, v.to_owned_message().unwrap()))
            .collect();
        let owned_values: Vec<_> = owned.uint64_message.into_iter().collect();
        prop_assert_eq!(eager_values, owned_values);
        // A lazy layout's value against the owned message, by encoding.
        let owned = l::Maps::decode_from_slice(&joined).unwrap();
        prop_assert!(lazy.uint64_message.iter().map(|(k, v)| (k, v.encode_to_vec()))
            .eq(owned.uint64_message.iter().map(|(k, v)| (*k, v.encode_to_vec()))));
    }
}

// ---------------------------------------------------------------------
// Merging, hand-picked.

fn enc<P: prost::Message>(values: &[P]) -> Vec<u8> {
    values
        .iter()
        .flat_map(prost::Message::encode_to_vec)
        .collect()
}

/// The last scalar wins (its string pointing into its own occurrence), and
/// repeated fields append across packed and expanded chunks, in both
/// directions (a packed field read expanded and the reverse).
#[test]
fn last_scalar_wins_and_repeated_fields_append_across_chunks() {
    let optional = enc(&[
        p::Optional {
            f_int32: Some(1),
            f_string: Some("first".into()),
            ..Default::default()
        },
        p::Optional {
            f_int32: Some(2),
            f_string: Some("second".into()),
            ..Default::default()
        },
    ]);
    let view = view_of::<e::Optional>(&optional).unwrap();
    assert_eq!((view.f_int32, view.f_string), (Some(2), Some("second")));
    assert!(inside(
        &optional[optional.len() / 2..],
        view.f_string.unwrap().as_bytes()
    ));
    view_agrees::<e::Optional>(&optional);

    let packed = |v: Vec<i32>| p::Packed {
        f_int32: v,
        ..Default::default()
    };
    let expanded = |v: Vec<i32>| p::Expanded {
        f_int32: v,
        ..Default::default()
    };
    let chunks = [
        prost::Message::encode_to_vec(&packed(vec![1, 2])),
        prost::Message::encode_to_vec(&expanded(vec![3, 4])),
        prost::Message::encode_to_vec(&packed(vec![5])),
    ]
    .concat();
    assert_eq!(
        view_of::<e::Packed>(&chunks).unwrap().f_int32,
        [1, 2, 3, 4, 5]
    );
    assert_eq!(
        view_of::<l::Packed>(&chunks).unwrap().f_int32,
        [1, 2, 3, 4, 5]
    );
    assert_eq!(
        view_of::<e::Expanded>(&chunks).unwrap().f_int32,
        [1, 2, 3, 4, 5]
    );
    let written = both_layouts::<e::Packed, l::Packed>(&chunks);
    assert_eq!(
        written,
        prost::Message::encode_to_vec(&packed(vec![1, 2, 3, 4, 5]))
    );
    both_layouts::<e::Expanded, l::Expanded>(&chunks);
}

fn node(value: i32, label: &str, child: Option<p::Nested>) -> p::Nested {
    p::Nested {
        value,
        label: label.into(),
        child: child.map(Box::new),
        children: vec![],
    }
}

/// A sub-message seen twice merges, in the eager view and when a lazy
/// field is read (which decodes every occurrence), and so does a oneof's
/// message member seen twice in a row; a member that another member
/// interrupted starts afresh.
#[test]
fn sub_messages_seen_twice_merge() {
    use p::oneofs::Choice;
    let with = |nested, choice| p::Everything {
        nested,
        oneofs: Some(p::Oneofs {
            choice,
            ..Default::default()
        }),
        ..Default::default()
    };
    let bytes = enc(&[
        with(
            Some(node(1, "a", None)),
            Some(Choice::CMessage(node(3, "", None))),
        ),
        with(
            Some(node(0, "", Some(node(2, "b", None)))),
            Some(Choice::CMessage(node(0, "x", None))),
        ),
    ]);
    let merged = node(1, "a", Some(node(2, "b", None)));
    let eager = view_of::<e::Everything>(&bytes).unwrap();
    assert_eq!(
        eager.nested.to_owned_message().unwrap().encode_to_vec(),
        prost::Message::encode_to_vec(&merged)
    );
    let Some(e::oneofs::ChoiceView::CMessage(member)) = &eager.oneofs.choice else {
        panic!()
    };
    assert_eq!((member.value, member.label), (3, "x"));

    let lazy = view_of::<l::Everything>(&bytes).unwrap();
    assert_eq!(lazy.nested.payloads().count(), 2);
    let read = lazy.nested.get().unwrap();
    assert_eq!(
        (read.value, read.label, read.child.get().unwrap().label),
        (1, "a", "b")
    );
    let oneofs = lazy.oneofs.get().unwrap();
    let Some(l::oneofs::ChoiceView::CMessage(member)) = &oneofs.choice else {
        panic!()
    };
    assert_eq!((member.value, member.label), (3, "x"));
    let written = both_layouts::<e::Everything, l::Everything>(&bytes);
    let mut expected = p::Everything::default();
    prost::Message::merge(&mut expected, &bytes[..]).unwrap();
    assert_eq!(
        <p::Everything as prost::Message>::decode(&written[..]).unwrap(),
        expected
    );

    // c_message, c_int32, c_message: the second message does not merge
    // into the first.
    let oneofs = |choice| p::Oneofs {
        choice: Some(choice),
        ..Default::default()
    };
    let bytes = enc(&[
        oneofs(Choice::CMessage(node(1, "a", None))),
        oneofs(Choice::CInt32(5)),
        oneofs(Choice::CMessage(node(0, "b", None))),
    ]);
    let expected = prost::Message::encode_to_vec(&oneofs(Choice::CMessage(node(0, "b", None))));
    assert_eq!(both_layouts::<e::Oneofs, l::Oneofs>(&bytes), expected);
}

// ---------------------------------------------------------------------
// Entry points.

/// The owned type decodes its view (`HasView::decode_view`), in generic
/// code and by name, with `MessageView` in scope too (its `decode_view` is
/// the view type's, so the two do not clash): the same view as the view
/// type's own decode, under the same options.
#[test]
fn owned_types_decode_their_views() {
    fn generic<M: HasView>(bytes: &[u8]) -> Result<M::View<'_>, DecodeError> {
        M::decode_view(bytes)
    }
    let bytes = enc(&[node(1, "a", Some(node(2, "b", Some(node(3, "c", None)))))]);
    let eager = e::NestedView::decode_view(&bytes).unwrap();
    assert_eq!(eager.child.child.label, "c");
    assert_eq!(e::Nested::decode_view(&bytes).unwrap(), eager);
    assert_eq!(generic::<e::Nested>(&bytes).unwrap(), eager);
    let lazy = l::NestedView::decode_view(&bytes).unwrap();
    assert_eq!(generic::<l::Nested>(&bytes).unwrap(), lazy);

    // Options reach the view's decode: two levels below the top one fail
    // under a limit of 1, as the view type's own decode does.
    let tight = DecodeOptions::new().with_recursion_limit(1);
    let refused = e::Nested::decode_view_with_options(&bytes, &tight).unwrap_err();
    assert_eq!(
        refused.kind(),
        &DecodeErrorKind::RecursionLimitExceeded { limit: 1 }
    );
    assert_eq!(
        e::NestedView::decode_view_with_options(&bytes, &tight).unwrap_err(),
        refused
    );
    let loose = DecodeOptions::new().with_recursion_limit(2);
    assert_eq!(
        e::Nested::decode_view_with_options(&bytes, &loose).unwrap(),
        eager
    );
}
