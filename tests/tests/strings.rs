//! `string` and `bytes` fields in every representation (`proto/strings`,
//! generated three times by build.rs): as `String`/`Vec<u8>`
//! (`strings_owned`), as `BytesStr`/`Bytes` (`strings_shared`), and chosen
//! per path (`strings_mixed`).
//!
//! The reference is protoc: it encodes text-format messages, every
//! representation must decode them to the values the text states and
//! encode them back to protoc's bytes. Decoding from `Bytes` must slice
//! the input for `BytesStr` and `Bytes` fields and copy for the others;
//! invalid UTF-8 fails alike in `String` and `BytesStr` fields.
//! `strings_alloc.rs` counts the allocations.

mod common;

use std::fmt::Debug;
use std::hash::Hash;

use buffa::bytes::Bytes;
use buffa::{BytesStr, DecodeErrorKind, DecodeOptions, EncodeOptions, Message, MessageView};
use buffa_tests::{strings_mixed as mixed, strings_owned as owned, strings_shared as shared};
use common::{local_protos, protoc_encode_in};
use proptest::prelude::*;

const PROTO3: &str = "strings3.proto";
const PROTO2: &str = "strings2.proto";

/// Every string and bytes shape of `strings3.Fields` set, `choice` aside;
/// map keys in ascending order, as deterministic encoding writes them.
const FIELDS3: &str = r#"
s: "héllo" b: "\001\377" opt_s: "" opt_b: "\000"
rep_s: ["a", "", "ü€"] rep_b: ["\377", ""]
map_ss { key: "" value: "empty key" } map_ss { key: "k" value: "v" }
map_sb { key: "bin" value: "\000\001" }
map_is { key: -1 value: "minus one" } map_is { key: 5 value: "" }
map_si { key: "ten" value: 10 }
nested { name: "inner" data: "\002" }
nesteds { name: "first" } nesteds { data: "second" }
far: "far away"
"#;

/// The members of `strings3.Fields.choice`, as text.
const CHOICES3: [&str; 3] = [
    r#"one_s: "chosen""#,
    r#"one_b: "\377\000""#,
    r#"one_m { name: "m" data: "d" }"#,
];

/// `strings2.Fields` with the defaulted fields unset, then set.
const FIELDS2: [&str; 2] = [
    r#"
s: "ascii" b: "" req_s: "required é" req_b: "\000"
rep_s: ["x", "yz"] rep_b: ["", "\001"]
map_ss { key: "a" value: "b" }
map_ib { key: -5 value: "neg" } map_ib { key: 7 value: "" }
one_s: "oneof"
Grp { g: "in group" gb: ["\377"] }
"#,
    r#"
s_default: "set" b_default: "" req_s: "" req_b: ""
one_b: "\001\002"
"#,
];

fn protoc(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&local_protos().join("strings"), file, message_type, text)
}

fn deterministic<M: Message>(message: &M) -> Vec<u8> {
    message
        .encode_to_vec_with_options(&EncodeOptions::new().with_deterministic(true))
        .unwrap()
}

/// Asserts the values of [`FIELDS3`] with the `choice` member `choice`
/// (an index into [`CHOICES3`]) on a `strings3.Fields` of any
/// representation: the same assertions compile against `String`,
/// `BytesStr`, `Vec<u8>` and `Bytes`, which all compare with `&str` or
/// `&[u8]`.
macro_rules! assert_fields3 {
    ($message:expr, $choice:expr, $module:ident) => {{
        use $module::strings3::fields::Choice;
        let m = &$message;
        assert_eq!(m.s, "héllo");
        assert_eq!(m.b, &b"\x01\xff"[..]);
        assert_eq!(m.opt_s.as_deref(), Some(""));
        assert_eq!(m.opt_b.as_deref(), Some(&b"\0"[..]));
        assert_eq!(m.rep_s, ["a", "", "ü€"]);
        assert_eq!(m.rep_b, [&b"\xff"[..], &b""[..]]);
        assert_eq!(m.map_ss.len(), 2);
        assert_eq!(m.map_ss[""], "empty key");
        assert_eq!(m.map_ss["k"], "v");
        assert_eq!(m.map_sb.len(), 1);
        assert_eq!(m.map_sb["bin"], &b"\0\x01"[..]);
        assert_eq!(m.map_is.len(), 2);
        assert_eq!(m.map_is[&-1], "minus one");
        assert_eq!(m.map_is[&5], "");
        assert_eq!(m.map_si.len(), 1);
        assert_eq!(m.map_si["ten"], 10);
        assert_eq!(m.nested.name, "inner");
        assert_eq!(m.nested.data, &b"\x02"[..]);
        assert_eq!(m.nesteds.len(), 2);
        assert_eq!(m.nesteds[0].name, "first");
        assert_eq!(m.nesteds[0].data, &b""[..]);
        assert_eq!(m.nesteds[1].name, "");
        assert_eq!(m.nesteds[1].data, &b"second"[..]);
        assert_eq!(m.far, "far away");
        match (&m.choice, $choice) {
            (Some(Choice::OneS(value)), 0) => assert_eq!(value, "chosen"),
            (Some(Choice::OneB(value)), 1) => assert_eq!(value, &b"\xff\0"[..]),
            (Some(Choice::OneM(value)), 2) => {
                assert_eq!(value.name, "m");
                assert_eq!(value.data, &b"d"[..]);
            }
            (other, choice) => panic!("choice {choice}: {other:?}"),
        }
    }};
}

/// Asserts the values of [`FIELDS2`]`[case]` on a `strings2.Fields`.
macro_rules! assert_fields2 {
    ($message:expr, $case:expr, $module:ident) => {{
        use $module::strings2::fields::Choice;
        let m = &$message;
        if $case == 0 {
            assert_eq!(m.s.as_deref(), Some("ascii"));
            assert_eq!(m.b.as_deref(), Some(&b""[..]));
            // Unset: the accessors give the declared defaults.
            assert_eq!(m.s_default, None);
            assert_eq!(m.s_default(), "héllo \"q\"\t\\");
            assert_eq!(m.b_default, None);
            assert_eq!(m.b_default(), b"\x01\xffx\"");
            assert_eq!(m.req_s(), "required é");
            assert_eq!(m.req_b(), b"\0");
            assert_eq!(m.rep_s, ["x", "yz"]);
            assert_eq!(m.rep_b, [&b""[..], &b"\x01"[..]]);
            assert_eq!(m.map_ss.len(), 1);
            assert_eq!(m.map_ss["a"], "b");
            assert_eq!(m.map_ib.len(), 2);
            assert_eq!(m.map_ib[&-5], &b"neg"[..]);
            assert_eq!(m.map_ib[&7], &b""[..]);
            assert!(matches!(&m.choice, Some(Choice::OneS(v)) if v == "oneof"));
            assert_eq!(m.grp.g(), "in group");
            assert_eq!(m.grp.gb, [&b"\xff"[..]]);
        } else {
            assert_eq!(m.s, None);
            assert_eq!(m.s(), "");
            assert_eq!(m.b(), b"");
            assert_eq!(m.s_default.as_deref(), Some("set"));
            assert_eq!(m.s_default(), "set");
            assert_eq!(m.b_default.as_deref(), Some(&b""[..]));
            assert_eq!(m.b_default(), b"");
            assert_eq!(m.req_s.as_deref(), Some(""));
            assert!(m.rep_s.is_empty() && m.map_ss.is_empty());
            assert!(matches!(&m.choice, Some(Choice::OneB(v)) if v == &b"\x01\x02"[..]));
            assert!(!m.grp.is_set());
        }
    }};
}

/// Decodes protoc's `bytes` as `M` from a slice and from `Bytes`, runs
/// `check` on both, and checks that both encode back to `bytes`.
fn round_trip<M: Message + PartialEq + Debug>(bytes: &[u8], check: impl Fn(&M)) -> M {
    let from_slice = M::decode_from_slice(bytes).unwrap();
    let input = Bytes::copy_from_slice(bytes);
    let from_bytes = M::decode_bytes(&input, &DecodeOptions::new()).unwrap();
    check(&from_slice);
    check(&from_bytes);
    assert_eq!(from_slice, from_bytes);
    assert_eq!(deterministic(&from_slice), bytes, "{}", M::NAME);
    assert_eq!(deterministic(&from_bytes), bytes, "{}", M::NAME);
    from_bytes
}

#[test]
fn protoc_encodings_decode_and_re_encode_in_every_representation() {
    for (choice, member) in CHOICES3.iter().enumerate() {
        let text = format!("{FIELDS3} {member}");
        let bytes = protoc(PROTO3, "strings3.Fields", &text);
        round_trip::<owned::strings3::Fields>(&bytes, |m| assert_fields3!(m, choice, owned));
        round_trip::<shared::strings3::Fields>(&bytes, |m| assert_fields3!(m, choice, shared));
        round_trip::<mixed::strings3::Fields>(&bytes, |m| assert_fields3!(m, choice, mixed));
    }
    for (case, text) in FIELDS2.iter().enumerate() {
        let bytes = protoc(PROTO2, "strings2.Fields", text);
        round_trip::<owned::strings2::Fields>(&bytes, |m| assert_fields2!(m, case, owned));
        round_trip::<shared::strings2::Fields>(&bytes, |m| assert_fields2!(m, case, shared));
        round_trip::<mixed::strings2::Fields>(&bytes, |m| assert_fields2!(m, case, mixed));
    }
}

/// Whether `slice` lies within `input`.
fn inside(input: &Bytes, slice: &[u8]) -> bool {
    let range = input.as_ptr_range();
    range.contains(&slice.as_ptr()) && slice.as_ptr_range().end <= range.end
}

/// Every non-empty string and bytes value of a shared `strings3.Fields`,
/// named.
fn shared_values3(m: &shared::strings3::Fields) -> Vec<(String, &[u8])> {
    use shared::strings3::fields::Choice;
    let mut values: Vec<(String, &[u8])> = vec![
        ("s".into(), m.s.as_bytes()),
        ("b".into(), &m.b),
        ("far".into(), m.far.as_bytes()),
        ("nested.name".into(), m.nested.name.as_bytes()),
        ("nested.data".into(), &m.nested.data),
    ];
    values.extend(m.opt_s.iter().map(|v| ("opt_s".into(), v.as_bytes())));
    values.extend(m.opt_b.iter().map(|v| ("opt_b".into(), &v[..])));
    values.extend(m.rep_s.iter().map(|v| ("rep_s".into(), v.as_bytes())));
    values.extend(m.rep_b.iter().map(|v| ("rep_b".into(), &v[..])));
    for (k, v) in &m.map_ss {
        values.push((format!("map_ss key {k:?}"), k.as_bytes()));
        values.push((format!("map_ss value {v:?}"), v.as_bytes()));
    }
    for (k, v) in &m.map_sb {
        values.push((format!("map_sb key {k:?}"), k.as_bytes()));
        values.push((format!("map_sb value {v:?}"), v));
    }
    values.extend(
        m.map_is
            .values()
            .map(|v| ("map_is value".into(), v.as_bytes())),
    );
    values.extend(m.map_si.keys().map(|k| ("map_si key".into(), k.as_bytes())));
    for n in &m.nesteds {
        values.push(("nesteds.name".into(), n.name.as_bytes()));
        values.push(("nesteds.data".into(), &n.data));
    }
    match &m.choice {
        Some(Choice::OneS(v)) => values.push(("one_s".into(), v.as_bytes())),
        Some(Choice::OneB(v)) => values.push(("one_b".into(), v)),
        Some(Choice::OneM(v)) => {
            values.push(("one_m.name".into(), v.name.as_bytes()));
            values.push(("one_m.data".into(), &v.data));
        }
        None => {}
    }
    values.retain(|(_, v)| !v.is_empty());
    values
}

#[test]
fn decoding_from_bytes_slices_the_input_and_from_a_slice_copies() {
    for (choice, member) in CHOICES3.iter().enumerate() {
        let bytes = protoc(PROTO3, "strings3.Fields", &format!("{FIELDS3} {member}"));
        let input = Bytes::from(bytes.clone());
        let from_bytes =
            shared::strings3::Fields::decode_bytes(&input, &DecodeOptions::new()).unwrap();
        let values = shared_values3(&from_bytes);
        // Every non-empty value of `FIELDS3`, and one or two of `choice`.
        assert_eq!(values.len(), 18 + [1, 1, 2][choice], "{choice}");
        for (name, value) in &values {
            assert!(inside(&input, value), "{choice}: {name} was copied");
        }
        // `decode` of a `Bytes` shares it too.
        let decoded = shared::strings3::Fields::decode(input.clone()).unwrap();
        for (name, value) in shared_values3(&decoded) {
            assert!(inside(&input, value), "{choice}: decode: {name} was copied");
        }
        // The slices keep the buffer alive after every other handle is gone.
        drop((input, decoded));
        assert_fields3!(from_bytes, choice, shared);

        let slice = &bytes[..];
        let from_slice = shared::strings3::Fields::decode_from_slice(slice).unwrap();
        for (name, value) in shared_values3(&from_slice) {
            assert!(
                !slice.as_ptr_range().contains(&value.as_ptr()),
                "{choice}: {name} points into the slice"
            );
        }
    }
}

#[test]
fn per_path_rules_choose_each_field_and_only_those_share() {
    // Types, asserted at compile time; see `strings` in build.rs for the
    // rules.
    let bytes = protoc(
        PROTO3,
        "strings3.Fields",
        &format!("{FIELDS3} {}", CHOICES3[0]),
    );
    let input = Bytes::from(bytes);
    let m = mixed::strings3::Fields::decode_bytes(&input, &DecodeOptions::new()).unwrap();
    let s: &BytesStr = &m.s;
    let b: &Bytes = &m.b;
    let rep_s: &Vec<String> = &m.rep_s;
    let map_sb: &std::collections::HashMap<BytesStr, Vec<u8>> = &m.map_sb;
    let map_is: &std::collections::HashMap<i32, BytesStr> = &m.map_is;
    let nested_name: &BytesStr = &m.nested.name;
    let nested_data: &Bytes = &m.nested.data;
    let Some(mixed::strings3::fields::Choice::OneS(one_s)) = &m.choice else {
        panic!("{:?}", m.choice)
    };
    let one_s: &String = one_s;
    assert!(inside(&input, s.as_bytes()) && inside(&input, b));
    assert!(inside(&input, nested_name.as_bytes()) && inside(&input, nested_data));
    assert!(inside(&input, map_is[&-1].as_bytes()));
    assert!(inside(&input, map_sb.keys().next().unwrap().as_bytes()));
    assert!(!inside(&input, map_sb["bin"].as_slice()));
    assert!(!inside(&input, rep_s[0].as_bytes()));
    assert!(!inside(&input, one_s.as_bytes()));

    let bytes = protoc(PROTO2, "strings2.Fields", FIELDS2[1]);
    let m = mixed::strings2::Fields::decode_from_slice(&bytes).unwrap();
    let s_default: &Option<BytesStr> = &m.s_default;
    let req_s: &Option<String> = &m.req_s;
    let b_default: &Option<Vec<u8>> = &m.b_default;
    assert_eq!(
        (s_default, req_s, b_default),
        (&Some("set".into()), &Some("".into()), &Some(vec![]))
    );

    // Input is shared exactly when a message reaches such a field.
    const { assert!(!owned::strings3::Fields::SHARES_INPUT) };
    const { assert!(!owned::strings2::Fields::SHARES_INPUT) };
    const { assert!(shared::strings3::Hashable::SHARES_INPUT) };
    const { assert!(shared::strings2::Fields::SHARES_INPUT) };
    const { assert!(mixed::strings2::Fields::SHARES_INPUT) };
    const { assert!(mixed::strings3::Nested::SHARES_INPUT) };
}

#[test]
fn owned_messages_stay_send_sync_static_clone_eq_and_hash() {
    fn owned_message<M: Message + Send + Sync + Clone + 'static>() {}
    fn eq_hash<M: Eq + Hash>() {}
    owned_message::<shared::strings3::Fields>();
    owned_message::<shared::strings2::Fields>();
    owned_message::<mixed::strings3::Fields>();
    eq_hash::<shared::strings3::Hashable>();
    eq_hash::<shared::strings3::Nested>();
    eq_hash::<shared::strings3::hashable::Choice>();
    eq_hash::<owned::strings3::Hashable>();

    // Hashes and equality follow the values, not where they live.
    let text = r#"s: "x" b: ["\001", ""] one_s: "y""#;
    let bytes = protoc(PROTO3, "strings3.Hashable", text);
    let input = Bytes::from(bytes.clone());
    let a = shared::strings3::Hashable::decode_bytes(&input, &DecodeOptions::new()).unwrap();
    let b = shared::strings3::Hashable::decode_from_slice(&bytes).unwrap();
    assert_eq!(a, b);
    let set: std::collections::HashSet<_> = [a, b].into_iter().collect();
    assert_eq!(set.len(), 1);
}

#[test]
fn views_borrow_and_convert_to_shared_values() {
    for (choice, member) in CHOICES3.iter().enumerate() {
        let bytes = protoc(PROTO3, "strings3.Fields", &format!("{FIELDS3} {member}"));
        let view = shared::strings3::FieldsView::decode_view(&bytes).unwrap();
        let s: &str = view.s;
        assert!(bytes.as_ptr_range().contains(&s.as_ptr()));
        let converted: shared::strings3::Fields = view.to_owned_message().unwrap();
        assert_fields3!(converted, choice, shared);
        assert_eq!(deterministic(&converted), bytes);
    }
    for (case, text) in FIELDS2.iter().enumerate() {
        let bytes = protoc(PROTO2, "strings2.Fields", text);
        let view = shared::strings2::FieldsView::decode_view(&bytes).unwrap();
        let converted = view.to_owned_message().unwrap();
        assert_fields2!(converted, case, shared);
        // The view's accessors give the declared default too.
        if case == 0 {
            assert_eq!(view.s_default(), "héllo \"q\"\t\\");
        }
    }
}

/// A placeholder written where a string goes, then made invalid UTF-8
/// in the encoding (same length, first byte replaced).
const PLACEHOLDER: &str = "INVALID!";

/// Encodes `text` (which holds [`PLACEHOLDER`] once) with protoc and breaks
/// the placeholder's UTF-8; returns the bytes and the offset of the
/// placeholder's length prefix, where decoders report the error.
fn invalid_utf8(file: &str, message_type: &str, text: &str) -> (Vec<u8>, usize) {
    let mut bytes = protoc(file, message_type, text);
    let at = bytes
        .windows(PLACEHOLDER.len())
        .position(|w| w == PLACEHOLDER.as_bytes())
        .expect("placeholder in the encoding");
    bytes[at] = 0xff;
    assert_eq!(usize::from(bytes[at - 1]), PLACEHOLDER.len());
    (bytes, at - 1)
}

/// Decodes `bytes` as `M` from a slice and from `Bytes`; both must fail
/// with invalid UTF-8 at `offset`. Returns the error as displayed and its
/// field path.
fn utf8_error<M: Message + Debug>(bytes: &[u8], offset: usize) -> (String, Vec<(String, u32)>) {
    let from_slice = M::decode_from_slice(bytes).unwrap_err();
    let input = Bytes::copy_from_slice(bytes);
    let from_bytes = M::decode_bytes(&input, &DecodeOptions::new()).unwrap_err();
    assert_eq!(from_slice, from_bytes);
    assert_eq!(from_slice.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(from_slice.offset(), Some(offset), "{from_slice}");
    let path = from_slice
        .field_path()
        .map(|(message, number)| (message.to_owned(), number))
        .collect();
    (from_slice.to_string(), path)
}

#[test]
fn invalid_utf8_fails_alike_in_string_and_bytes_str_fields() {
    let cases3: [(&str, &[(&str, u32)]); 8] = [
        (r#"s: "INVALID!""#, &[("strings3.Fields", 1)]),
        (r#"opt_s: "INVALID!""#, &[("strings3.Fields", 3)]),
        (r#"rep_s: ["ok", "INVALID!"]"#, &[("strings3.Fields", 5)]),
        (
            r#"map_ss { key: "INVALID!" value: "v" }"#,
            &[("strings3.Fields", 7)],
        ),
        (
            r#"map_is { key: 1 value: "INVALID!" }"#,
            &[("strings3.Fields", 9)],
        ),
        (r#"one_s: "INVALID!""#, &[("strings3.Fields", 11)]),
        (
            r#"nesteds { name: "INVALID!" }"#,
            &[("strings3.Fields", 15), ("strings3.Nested", 1)],
        ),
        (r#"s: "ok" far: "INVALID!""#, &[("strings3.Fields", 2047)]),
    ];
    for (text, path) in cases3 {
        let (bytes, offset) = invalid_utf8(PROTO3, "strings3.Fields", text);
        let owned = utf8_error::<owned::strings3::Fields>(&bytes, offset);
        let owned_path: Vec<(&str, u32)> = owned.1.iter().map(|(m, n)| (m.as_str(), *n)).collect();
        assert_eq!(owned_path, path, "{text}");
        assert_eq!(
            utf8_error::<shared::strings3::Fields>(&bytes, offset),
            owned,
            "{text}"
        );
        assert_eq!(
            utf8_error::<mixed::strings3::Fields>(&bytes, offset),
            owned,
            "{text}"
        );
    }
    let cases2: [(&str, &[(&str, u32)]); 3] = [
        (r#"s_default: "INVALID!""#, &[("strings2.Fields", 3)]),
        (
            r#"map_ss { key: "k" value: "INVALID!" }"#,
            &[("strings2.Fields", 9)],
        ),
        (
            r#"Grp { g: "INVALID!" }"#,
            &[("strings2.Fields", 13), ("strings2.Fields.Grp", 14)],
        ),
    ];
    for (text, path) in cases2 {
        let (bytes, offset) = invalid_utf8(PROTO2, "strings2.Fields", text);
        let owned = utf8_error::<owned::strings2::Fields>(&bytes, offset);
        let owned_path: Vec<(&str, u32)> = owned.1.iter().map(|(m, n)| (m.as_str(), *n)).collect();
        assert_eq!(owned_path, path, "{text}");
        assert!(owned.0.contains("not valid UTF-8"), "{}", owned.0);
        assert_eq!(
            utf8_error::<shared::strings2::Fields>(&bytes, offset),
            owned,
            "{text}"
        );
        assert_eq!(
            utf8_error::<mixed::strings2::Fields>(&bytes, offset),
            owned,
            "{text}"
        );
    }
}

#[test]
fn allocation_budget_charges_copies_but_not_slices() {
    use buffa::DecodeOptions;
    // Fifteen bytes of text against a budget of fourteen.
    let bytes = protoc(PROTO3, "strings3.Hashable", r#"s: "fifteen bytes!!""#);
    let tight = DecodeOptions::new().with_allocation_limit(Some(14));
    let error = shared::strings3::Hashable::decode_with_options(&bytes[..], &tight).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::AllocationLimitExceeded { limit: 14 }
    );
    assert_eq!(
        owned::strings3::Hashable::decode_with_options(&bytes[..], &tight).unwrap_err(),
        error
    );
    // From `Bytes` the string is a slice: nothing to charge.
    let input = Bytes::from(bytes);
    let m = shared::strings3::Hashable::decode_bytes(&input, &tight).unwrap();
    assert_eq!(m.s, "fifteen bytes!!");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random values through `String`/`Vec<u8>` into `BytesStr`/`Bytes`
    /// and back: the values and the bytes survive, and every non-empty
    /// value decoded from `Bytes` is a slice of it.
    #[test]
    fn random_values_round_trip_between_representations(
        s in common::strategies::strings(),
        b in common::strategies::bytes(),
        rep_s in proptest::collection::vec(common::strategies::strings(), 0..4),
        rep_b in proptest::collection::vec(common::strategies::bytes(), 0..4),
        map in proptest::collection::btree_map(common::strategies::strings(), common::strategies::strings(), 0..4),
        far in common::strategies::strings(),
    ) {
        let message = owned::strings3::Fields {
            s: s.clone(),
            b,
            opt_s: Some(far.clone()),
            rep_s,
            rep_b,
            map_ss: map.into_iter().collect(),
            nested: owned::strings3::Nested { name: s, ..Default::default() }.into(),
            far,
            ..Default::default()
        };
        let bytes = deterministic(&message);
        let input = Bytes::from(bytes.clone());
        let decoded = shared::strings3::Fields::decode_bytes(&input, &DecodeOptions::new()).unwrap();
        prop_assert_eq!(&deterministic(&decoded), &bytes);
        prop_assert_eq!(&decoded.s, message.s.as_str());
        prop_assert_eq!(&decoded.b[..], &message.b[..]);
        prop_assert_eq!(&decoded.rep_s, &message.rep_s);
        prop_assert_eq!(decoded.map_ss.len(), message.map_ss.len());
        for (key, value) in &message.map_ss {
            prop_assert_eq!(&decoded.map_ss[key.as_str()], value);
        }
        for (name, value) in shared_values3(&decoded) {
            prop_assert!(inside(&input, value), "{} was copied", name);
        }
        let back = owned::strings3::Fields::decode_bytes(&input, &DecodeOptions::new()).unwrap();
        prop_assert_eq!(back, message);
    }
}
