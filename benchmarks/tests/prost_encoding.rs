//! Checks that the generated datasets, encoded with prost, match the lengths
//! and SHA-256 hashes given in
//! `shared/datasets/rust_serialization_benchmark/GENERATION.md`, and that
//! decode + convert gives back the native data.
//!
//! Run with `cargo test -p benchmarks --release` (debug builds work too, just
//! slower).

use benchmarks::harness::Prepared;
use benchmarks::{Dataset, Logs, Mesh, Players, Prost, Updates};
use sha2::{Digest, Sha256};

fn check<D: Dataset>(expected_len: usize, expected_sha256: &str)
where
    Prost: benchmarks::Codec<D>,
{
    let native = D::generate();
    // `Prepared::new` asserts that decode + convert gives back `native`.
    let prepared = Prepared::<D, Prost>::new(native.clone());
    assert!(*prepared.native() == native);
    let encoded = prepared.encoded();
    assert_eq!(encoded.len(), expected_len, "{}: encoded length", D::NAME);
    let sha256: String = Sha256::digest(encoded)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(
        sha256,
        expected_sha256,
        "{}: SHA-256 of the encoding",
        D::NAME
    );
}

#[test]
fn log() {
    check::<Logs>(
        884628,
        "903579505ab29319bdfd9e11f4525c7f0ed550400afc454a96d2761c78320860",
    );
}

#[test]
fn mesh() {
    check::<Mesh>(
        8750000,
        "5bc0f249f8844b2762a090e76dfe8fdcae380c0dac0325b510ea6bd14e98a9e5",
    );
}

#[test]
fn minecraft_savedata() {
    check::<Players>(
        596811,
        "cd5dcf3b4cd1e15739fb24dd07d994ffdeaf6d8c4737bb2b78aec403997579bc",
    );
}

#[test]
fn mk48() {
    check::<Updates>(
        1859886,
        "7ed1bde7cf98856cad5e3f4200227f300ad68ca668bf6d639892ec957e36c243",
    );
}

/// Every operation of the harness produces the prepared encoding again.
#[test]
fn harness_operations_agree() {
    let mut prepared = Prepared::<Logs, Prost>::new(Logs::generate());
    let encoded = prepared.encoded().to_vec();
    assert_eq!(prepared.encode(), encoded);
    assert_eq!(prepared.populate_encode(), encoded);
    assert!(prepared.decode_convert() == *prepared.native());
}
