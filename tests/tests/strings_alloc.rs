//! Counts heap allocations while decoding `strings3.Fields` (see
//! `strings.rs`) in its `String`/`Vec<u8>` and `BytesStr`/`Bytes`
//! representations, from `Bytes` and from a slice. Decoded from `Bytes`,
//! a shared string or bytes value is a slice of the input: no allocation
//! per value, so singular fields cost nothing and repeated and map fields
//! only their containers' growth. The owned representation, and the shared
//! one decoded from a slice, allocate once per non-empty value.
//!
//! One test in its own binary, so no other test allocates while it counts.

use buffa::Message;
use buffa::bytes::Bytes;
use buffa_tests::{strings_owned as owned, strings_shared as shared};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

use alloc_count::counted;

/// A `Bytes` over `bytes` whose first shared slice has been taken: a
/// `Bytes` made from a `Vec` allocates its reference count once, at that
/// first slice, which is then not charged to the decode being counted.
fn shared_buffer(bytes: Vec<u8>) -> Bytes {
    let input = Bytes::from(bytes);
    drop(input.slice(..1));
    input
}

/// Six singular values, none empty, in fields that hold no container or
/// box of their own.
fn singular() -> owned::strings3::Fields {
    owned::strings3::Fields {
        s: "a string".into(),
        b: b"some bytes".to_vec(),
        opt_s: Some("optional".into()),
        opt_b: Some(vec![0xff]),
        choice: Some(owned::strings3::fields::Choice::OneS("in a oneof".into())),
        far: "field 2047".into(),
        ..Default::default()
    }
}

/// `n` values in each repeated field and `n` entries in each string map.
fn repeated(n: usize) -> owned::strings3::Fields {
    owned::strings3::Fields {
        rep_s: (0..n).map(|i| format!("string {i}")).collect(),
        rep_b: (0..n).map(|i| format!("bytes {i}").into_bytes()).collect(),
        map_ss: (0..n)
            .map(|i| (format!("key {i}"), format!("value {i}")))
            .collect(),
        ..Default::default()
    }
}

#[test]
fn shared_values_cost_no_allocation_each() {
    const VALUES: usize = 6;
    let bytes = singular().encode_to_vec();
    let options = Default::default();

    let input = shared_buffer(bytes.clone());
    let (decoded, shared_allocations) =
        counted(|| shared::strings3::Fields::decode_bytes(&input, &options).unwrap());
    assert_eq!(decoded.encode_to_vec(), bytes);
    drop(decoded);
    let fresh = Bytes::from(bytes.clone());
    let (decoded, fresh_allocations) =
        counted(|| shared::strings3::Fields::decode_bytes(&fresh, &options).unwrap());
    drop(decoded);
    let (decoded, slice_allocations) =
        counted(|| shared::strings3::Fields::decode_from_slice(&bytes).unwrap());
    drop(decoded);
    let (decoded, owned_allocations) =
        counted(|| owned::strings3::Fields::decode_bytes(&input, &options).unwrap());
    drop(decoded);
    println!(
        "{VALUES} singular values: shared from Bytes {shared_allocations} allocations \
         ({fresh_allocations} from a Bytes never sliced before), shared from a slice \
         {slice_allocations}, owned {owned_allocations}"
    );
    assert_eq!(shared_allocations, 0);
    assert_eq!(
        fresh_allocations, 1,
        "the reference count of a Vec-backed Bytes"
    );
    assert_eq!(slice_allocations, VALUES);
    assert_eq!(owned_allocations, VALUES);

    const N: usize = 10_000;
    let bytes = repeated(N).encode_to_vec();
    let input = shared_buffer(bytes.clone());
    let (decoded, shared_allocations) =
        counted(|| shared::strings3::Fields::decode_bytes(&input, &options).unwrap());
    assert_eq!(decoded.rep_s.len(), N);
    assert_eq!(decoded.map_ss.len(), N);
    drop(decoded);
    let (decoded, owned_allocations) =
        counted(|| owned::strings3::Fields::decode_bytes(&input, &options).unwrap());
    drop(decoded);
    let (decoded, slice_allocations) =
        counted(|| shared::strings3::Fields::decode_from_slice(&bytes).unwrap());
    drop(decoded);
    println!(
        "{N} repeated strings, {N} repeated bytes, {N} map entries: shared from Bytes \
         {shared_allocations} allocations, shared from a slice {slice_allocations}, \
         owned {owned_allocations}"
    );
    // Only the two vectors and the map grow: a few dozen steps in all.
    assert!(shared_allocations < 64, "{shared_allocations}");
    assert!(slice_allocations >= 4 * N, "{slice_allocations}");
    assert!(owned_allocations >= 4 * N, "{owned_allocations}");
}
