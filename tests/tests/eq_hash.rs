//! Generated messages and oneof enums derive `Eq` and `Hash` exactly when
//! every field allows it: no `float`, `double` or map field anywhere in
//! what they contain, recursion included. Whether a type implements the
//! traits is read from the compiler through autoref specialisation, so each
//! assertion fails if codegen derives too much or too little.

use std::collections::HashSet;
use std::hash::Hash;
use std::marker::PhantomData;

use buffa::{EnumValue, Message};
use buffa_tests::eq_hash::eq_hash::*;

struct Probe<T>(PhantomData<T>);

/// Picked for `&&Probe<T>` when `T: Eq + Hash`.
trait Implements {
    fn eq_hash(&self) -> bool {
        true
    }
}
impl<T: Eq + Hash> Implements for &Probe<T> {}

/// Reached through one auto-deref otherwise.
trait Lacks {
    fn eq_hash(&self) -> bool {
        false
    }
}
impl<T> Lacks for Probe<T> {}

/// Whether the type implements both `Eq` and `Hash`.
macro_rules! eq_hash {
    ($t:ty) => {
        (&&Probe::<$t>(PhantomData)).eq_hash()
    };
}

#[test]
fn the_probe_tells_the_difference() {
    assert!(eq_hash!(u32));
    assert!(!eq_hash!(f64));
    assert!(!eq_hash!(std::collections::HashMap<u32, u32>));
}

#[test]
fn plain_fields_derive() {
    assert!(eq_hash!(Plain));
}

#[test]
fn floats_and_maps_do_not() {
    assert!(!eq_hash!(WithDouble));
    assert!(!eq_hash!(WithFloat));
    assert!(!eq_hash!(WithMap));
}

#[test]
fn containers_of_floats_and_maps_do_not() {
    assert!(!eq_hash!(HoldsDouble));
    assert!(!eq_hash!(HoldsFloats));
    assert!(!eq_hash!(HoldsMap));
    assert!(!eq_hash!(holds_map::Choice));
    assert!(!eq_hash!(HoldsHoldsDouble));
}

#[test]
fn recursion_without_floats_or_maps_derives() {
    assert!(eq_hash!(Tree));
    assert!(eq_hash!(Forest));
    assert!(eq_hash!(forest::Pick));
    assert!(!eq_hash!(FloatCycle));
    assert!(!eq_hash!(FloatCycleBack));
}

#[test]
fn custom_pointers_need_neither_trait() {
    assert!(!eq_hash!(buffa_tests::Handle<Plain>));
    assert!(eq_hash!(Pointed));
}

#[test]
fn oneofs_are_judged_by_their_own_members() {
    // `Scored` has a double, its oneof does not.
    assert!(!eq_hash!(Scored));
    assert!(eq_hash!(scored::Kind));
}

fn leaf(value: i32) -> Tree {
    Tree {
        value,
        ..Default::default()
    }
}

#[test]
fn messages_work_in_a_hash_set() {
    let tree = Tree {
        value: 1,
        left: leaf(2).into(),
        forest: Forest {
            trees: vec![leaf(3), leaf(4)],
            pick: Some(forest::Pick::Tree(Box::new(leaf(5)))),
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    // The same value decoded from its encoding, and a copy that differs
    // only in an unknown field.
    let decoded = Tree::decode_from_slice(&tree.encode_to_vec()).unwrap();
    let mut bytes = tree.encode_to_vec();
    bytes.extend([0xa0, 0x06, 0x01]); // field 100, varint 1
    let with_unknown = Tree::decode_from_slice(&bytes).unwrap();
    assert!(!with_unknown.unknown_fields.is_empty());

    let mut set = HashSet::new();
    assert!(set.insert(tree.clone()));
    assert!(!set.insert(decoded));
    assert!(set.insert(with_unknown.clone()));
    assert!(set.insert(Tree::default()));
    assert!(set.insert(leaf(2)));
    assert_eq!(set.len(), 4);
    assert!(set.contains(&tree));
    assert!(set.contains(&with_unknown));
    assert!(!set.contains(&leaf(6)));

    let plains: HashSet<Plain> = [
        Plain {
            name: "a".into(),
            color: EnumValue::Unknown(7),
            ..Default::default()
        },
        Plain {
            name: "a".into(),
            color: EnumValue::Known(Color::Red),
            ..Default::default()
        },
        Plain {
            name: "a".into(),
            color: EnumValue::Known(Color::Red),
            ..Default::default()
        },
    ]
    .into();
    assert_eq!(plains.len(), 2);

    let kinds: HashSet<scored::Kind> = [
        scored::Kind::Text("x".into()),
        scored::Kind::Plain(Box::default()),
        scored::Kind::Text("x".into()),
    ]
    .into();
    assert_eq!(kinds.len(), 2);

    let pointed = |id| Pointed {
        plain: Plain {
            id,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    let set: HashSet<Pointed> = [pointed(1), pointed(1), pointed(2)].into();
    assert_eq!(set.len(), 2);
    assert!(set.contains(&pointed(2)));
}
