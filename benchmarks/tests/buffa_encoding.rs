//! Checks that both buffa configurations encode every dataset to exactly
//! the bytes prost produces (whose SHA-256 `prost_encoding.rs` checks), that
//! decode + convert gives back the native data, and that every harness
//! operation agrees.
//!
//! Run with `cargo test -p benchmarks --release` (debug builds work too, just
//! slower).

use benchmarks::harness::Prepared;
use benchmarks::{
    BuffaBox, BuffaInline, BuffaShared, Codec, Dataset, Logs, Mesh, Players, Prost, Updates,
};

/// The offset of the first differing byte, if `a` and `b` differ.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// `C`'s encoding of `native` equals `expected` (prost's); decode + convert
/// round-trips (asserted by `Prepared::new`); encode and populate + encode
/// give the same bytes again.
fn check_library<D: Dataset, C: Codec<D>>(native: &D, expected: &[u8]) {
    let mut prepared = Prepared::<D, C>::new(native.clone());
    let encoded = prepared.encoded().to_vec();
    if let Some(offset) = first_difference(&encoded, expected) {
        let window =
            |bytes: &[u8]| bytes[offset.saturating_sub(16)..bytes.len().min(offset + 16)].to_vec();
        panic!(
            "{}/{}: encoding differs from prost's at byte {offset} (lengths {} vs {})\n\
             {}: {:02x?}\nprost: {:02x?}",
            D::NAME,
            C::NAME,
            encoded.len(),
            expected.len(),
            C::NAME,
            window(&encoded),
            window(expected),
        );
    }
    assert!(
        prepared.encode() == encoded,
        "{}/{}: encode",
        D::NAME,
        C::NAME
    );
    assert!(
        prepared.populate_encode() == encoded,
        "{}/{}: populate + encode",
        D::NAME,
        C::NAME
    );
    assert!(
        prepared.decode_convert() == *native,
        "{}/{}: decode + convert",
        D::NAME,
        C::NAME
    );
    // Each configuration also decodes the other's bytes (here: prost's).
    assert!(
        C::convert(C::decode(&bytes::Bytes::copy_from_slice(expected))) == *native,
        "{}/{}: decode + convert of prost's encoding",
        D::NAME,
        C::NAME
    );
}

fn check<D: Dataset>()
where
    BuffaBox: Codec<D>,
    BuffaInline: Codec<D>,
    BuffaShared: Codec<D>,
    Prost: Codec<D>,
{
    let native = D::generate();
    let prost = Prepared::<D, Prost>::new(native.clone());
    check_library::<D, BuffaBox>(&native, prost.encoded());
    check_library::<D, BuffaInline>(&native, prost.encoded());
    check_library::<D, BuffaShared>(&native, prost.encoded());
}

#[test]
fn log() {
    check::<Logs>();
}

#[test]
fn mesh() {
    check::<Mesh>();
}

#[test]
fn minecraft_savedata() {
    check::<Players>();
}

#[test]
fn mk48() {
    check::<Updates>();
}
