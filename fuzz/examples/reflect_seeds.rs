//! Writes what the buffa-reflect targets start from, with the vendored
//! protoc:
//!
//! - `proto/dynamic.pb`: the encoded `FileDescriptorSet` of
//!   `proto/dynamic.proto` and its imports, the `dynamic_message` target's
//!   schema (checked in, so that the target does not depend on build.rs);
//! - `seeds/descriptor_pool/set-<name>`: descriptor sets, with source info
//!   (comments), of small protos: buffa-reflect's descriptor test fixtures
//!   (proto2 with groups, extensions and defaults; proto3 with maps,
//!   oneofs and a service; editions 2023 and 2024; relative type names), a
//!   well-known type, and the `dynamic_message` schema without source info;
//! - `seeds/dynamic_message/sample-<name>`: the text-format samples in
//!   `samples/dynamic/` encoded by `protoc --encode=fuzzdyn.Root`, and
//!   `wire-<name>`: the hand-written encodings in [`WIRE`], for what text
//!   format cannot say, and nesting at the recursion limit and past it.
//!
//! Other files in those seed directories (minimised crashes kept as
//! regression inputs) are left alone. Run from `fuzz/` with
//! `cargo run --example reflect_seeds`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use buffa_reflect::{DescriptorPool, DynamicMessage};

/// Descriptor-set seeds: name, include directory (relative to the
/// repository root; `None` for the well-known types), files.
const SETS: &[(&str, Option<&str>, &[&str])] = &[
    (
        "proto2",
        Some("buffa-reflect/tests/proto/descriptor"),
        &["proto2.proto"],
    ),
    (
        "proto3",
        Some("buffa-reflect/tests/proto/descriptor"),
        &["proto3.proto"],
    ),
    (
        "editions",
        Some("buffa-reflect/tests/proto/descriptor"),
        &["editions.proto"],
    ),
    (
        "editions-file-features",
        Some("buffa-reflect/tests/proto/descriptor"),
        &["editions_file_features.proto", "edition2024.proto"],
    ),
    (
        "scoping",
        Some("buffa-reflect/tests/proto/descriptor"),
        &["scoping.proto"],
    ),
    ("struct", None, &["google/protobuf/struct.proto"]),
];

/// Hand-written encodings of `fuzzdyn.Root`: name, whether it decodes,
/// bytes in hex (spaces ignored).
const WIRE: &[(&str, bool, &str)] = &[
    // Unknown fields 200..204 of every wire type: varint, fixed64,
    // length-delimited, a group holding a varint, fixed32.
    (
        "unknown-wire-types",
        true,
        "c00c 01  c90c 0102030405060708  d20c 02 6162  db0c 0801 dc0c  e50c 01020304",
    ),
    // Undeclared closed-enum numbers: `f_closed` = 99,
    // `r_closed_packed` = [1, 5, -1], `m_closed` = {1: 9}.
    (
        "closed-unknown-values",
        true,
        "8001 63  ea01 0c 01 05 ffffffffffffffffff01  ca02 04 0801 1009",
    ),
    // Implicit-presence fields of `three` at their defaults on the wire,
    // and empty packed runs.
    (
        "implicit-defaults",
        true,
        "e203 0a 2800 4a00 a20100 800100  aa01 00",
    ),
    // `r_sint64` (packed) arriving as two varints, `r_int32` (expanded)
    // arriving packed.
    (
        "packed-as-expanded",
        true,
        "a801 02 a801 03  a201 03 010203",
    ),
    // The oneof set to an int32, a string, then a message twice (the two
    // merge).
    (
        "oneof-switch",
        true,
        "9003 01  9a03 01 61  a203 02 2805  a203 02 1807",
    ),
    // `child` twice: the two occurrences merge.
    ("merged-message", true, "8a01 02 2801  8a01 02 1802"),
    // `m_child`: an empty entry, an entry with an unknown field 3; `m_bool`
    // twice with the same key.
    (
        "map-entry-edges",
        true,
        "c202 00  c202 05 0a0161 1803  da02 02 0801  da02 02 0801",
    ),
    // `Group` closed by the end-group key of field 19 instead of 18.
    ("mismatched-end-group", false, "9301 0801 9c01"),
    // `editions.delimited` (group-encoded) arriving length-delimited.
    ("delimited-as-prefixed", false, "ea03 02 3a00"),
    // `three.f_string` holding invalid UTF-8.
    ("invalid-utf8", false, "e203 03 4a01ff"),
];

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = fuzz.parent().expect("fuzz/ is in the repository");
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let well_known = protoc_bin_vendored::include_path().expect("vendored include path");

    let schema = descriptor_set(&protoc, &fuzz.join("proto"), &["dynamic.proto"], false);
    fs::write(fuzz.join("proto/dynamic.pb"), &schema).expect("write proto/dynamic.pb");
    let root = DescriptorPool::decode(&schema)
        .expect("the schema is a valid pool")
        .get_message_by_name("fuzzdyn.Root")
        .expect("fuzzdyn.Root");

    let pool_seeds = fuzz.join("seeds/descriptor_pool");
    fs::create_dir_all(&pool_seeds).expect("create seeds/descriptor_pool");
    for (name, include, files) in SETS {
        let include = include.map_or(well_known.clone(), |dir| repo.join(dir));
        let bytes = descriptor_set(&protoc, &include, files, true);
        DescriptorPool::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        fs::write(pool_seeds.join(format!("set-{name}")), bytes).expect("write seed");
    }
    fs::write(pool_seeds.join("set-dynamic"), &schema).expect("write seed");

    let message_seeds = fuzz.join("seeds/dynamic_message");
    fs::create_dir_all(&message_seeds).expect("create seeds/dynamic_message");
    for sample in samples(&fuzz.join("samples/dynamic")) {
        let name = sample.file_stem().unwrap().to_str().unwrap();
        let bytes = encode(&protoc, fuzz, &sample);
        DynamicMessage::decode(root.clone(), &bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", sample.display()));
        fs::write(message_seeds.join(format!("sample-{name}")), bytes).expect("write seed");
    }
    for (name, decodes, hex) in WIRE {
        let bytes = from_hex(hex);
        assert_eq!(
            DynamicMessage::decode(root.clone(), &bytes).is_ok(),
            *decodes,
            "wire-{name}"
        );
        fs::write(message_seeds.join(format!("wire-{name}")), bytes).expect("write seed");
    }
    // `child` nested at the default recursion limit and one level past it.
    let limit = buffa::DEFAULT_RECURSION_LIMIT as usize;
    let (at, past) = (deep_child(limit), deep_child(limit + 1));
    assert!(DynamicMessage::decode(root.clone(), &at).is_ok());
    assert!(DynamicMessage::decode(root.clone(), &past).is_err());
    fs::write(message_seeds.join("wire-deep-child-at-limit"), at).expect("write seed");
    fs::write(message_seeds.join("wire-deep-child-past-limit"), past).expect("write seed");
}

/// The encoded `FileDescriptorSet` of `files` in `include` and their
/// imports, with source info (comments) if `source_info`.
fn descriptor_set(protoc: &Path, include: &Path, files: &[&str], source_info: bool) -> Vec<u8> {
    let out = std::env::temp_dir().join(format!("reflect-seeds-{}.pb", std::process::id()));
    let well_known = protoc_bin_vendored::include_path().expect("vendored include path");
    let mut command = Command::new(protoc);
    command
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg(format!("--proto_path={}", include.display()))
        .arg(format!("--proto_path={}", well_known.display()));
    if source_info {
        command.arg("--include_source_info");
    }
    let output = command.args(files).output().expect("run protoc");
    assert!(
        output.status.success(),
        "protoc --descriptor_set_out {files:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = fs::read(&out).expect("read the descriptor set");
    fs::remove_file(&out).expect("remove the descriptor set");
    bytes
}

/// `child` holding `levels - 1` nested `child` fields: `levels` messages
/// below the root.
fn deep_child(levels: usize) -> Vec<u8> {
    let mut payload = Vec::new();
    for _ in 0..levels {
        // `child` is field 17: key 0x8a 0x01.
        let mut outer = vec![0x8a, 0x01];
        let mut len = payload.len();
        while len >= 0x80 {
            outer.push(len as u8 | 0x80);
            len >>= 7;
        }
        outer.push(len as u8);
        outer.extend_from_slice(&payload);
        payload = outer;
    }
    payload
}

/// The `.txtpb` files in `dir`, sorted.
fn samples(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("read_dir").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txtpb"))
        .collect();
    files.sort();
    files
}

/// Encodes the text-format `sample` as `fuzzdyn.Root` with
/// `protoc --encode` (which warns about unset required fields; the
/// samples leave some unset on purpose).
fn encode(protoc: &Path, fuzz: &Path, sample: &Path) -> Vec<u8> {
    let output = Command::new(protoc)
        .arg("--encode=fuzzdyn.Root")
        .arg(format!("-I{}", fuzz.join("proto").display()))
        .arg("dynamic.proto")
        .stdin(fs::File::open(sample).expect("open sample"))
        .output()
        .expect("run protoc");
    assert!(
        output.status.success(),
        "protoc --encode failed on {}: {}",
        sample.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Parses hex digits, skipping spaces.
fn from_hex(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).expect("hex"))
        .collect()
}
