//! Writes the seed corpus into `seeds/<target>/`:
//!
//! - `sample-<name>`: the text-format samples under `samples/`, encoded by
//!   protoc's `--encode` (an encoder buffa did not write). Samples in
//!   `samples/portable/` are `sink.Portable` messages and seed every target;
//!   those in `samples/sink/` are `sink.KitchenSink` messages, which use
//!   closed enums, and seed the buffa-only targets.
//! - `wire-<name>`: the hand-written encodings in [`WIRE`], for what text
//!   format cannot say: unknown fields, packed fields arriving expanded and
//!   the reverse, overlong varints, repeated and merged fields, errors
//!   inside sub-messages; and `wire-deep-node-*`, nesting at the recursion
//!   limit and past it.
//!
//! Other files in `seeds/` (minimised crashes kept as regression inputs)
//! are left alone. Run from `fuzz/` with `cargo run --example seeds`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use buffa::Message;
use buffa_fuzz::inline::sink::KitchenSink;

/// The targets that decode `sink.KitchenSink`, which accepts every
/// `sink.Portable` encoding too.
const SINK_TARGETS: &[&str] = &["decode_owned", "roundtrip", "decode_view"];

/// Every target; `differential_prost` decodes `sink.Portable`.
const ALL_TARGETS: &[&str] = &[
    "decode_owned",
    "roundtrip",
    "decode_view",
    "differential_prost",
];

/// Hand-written encodings: name, targets, bytes in hex (spaces ignored).
const WIRE: &[(&str, &[&str], &str)] = &[
    // Unknown fields 100..104 of every wire type on the root: varint,
    // fixed64, length-delimited, a group holding a varint, fixed32.
    (
        "unknown-wire-types",
        ALL_TARGETS,
        "a006 01  a906 0102030405060708  b206 02 6162  bb06 0801 bc06  c506 01020304",
    ),
    // `values` (12, packed sint32) arriving as two varints, and
    // `repeated.p_int32` (2.18) arriving as one.
    ("packed-as-expanded", ALL_TARGETS, "6002 6003  1203 900105"),
    // `repeated.e_int32` (2.3, expanded) arriving packed.
    ("expanded-as-packed", ALL_TARGETS, "1204 1a020102"),
    // `id` = 1 as a ten-byte varint, `name` behind a two-byte length.
    (
        "overlong-varint",
        ALL_TARGETS,
        "50 81808080808080808000  5a 8100 78",
    ),
    // `id` = -1: negative int32 values take ten bytes.
    ("negative-int32", ALL_TARGETS, "50 ffffffffffffffffff01"),
    // `scalars` twice: the two occurrences merge.
    ("merged-message", ALL_TARGETS, "0a02 1801  0a02 2002"),
    // `oneofs.choice` set to an int32, a string, then a message twice (the
    // two merge), then `after`.
    (
        "oneof-switch",
        ALL_TARGETS,
        "320f 0801 120161 2202 1805 2202 2806 5001",
    ),
    // `maps.int32_int32` entries: empty, value only, a repeated key and an
    // unknown field 3 inside the entry.
    (
        "map-entry-edges",
        ALL_TARGETS,
        "2a0e 1200 12021005 1206 0801 0802 1803",
    ),
    // `groups.Single` closed by the end-group key of field 4 instead of 1.
    ("mismatched-end-group", ALL_TARGETS, "2204 0b 1001 24"),
    // Undeclared closed-enum numbers: `color` = 99, `closed.packed` = [1, 5],
    // `closed.int32_color` = {1: 9}.
    (
        "closed-unknown-values",
        SINK_TARGETS,
        "b001 63  a201 0a 2202 0105 2a04 0801 1009",
    ),
    // `scalars.f_string` holding invalid UTF-8: a lazy view accepts the
    // input and fails only when `scalars` is read.
    ("utf8-in-submessage", SINK_TARGETS, "0a03 7201ff"),
    // `groups.Single.a` (varint) arriving length-delimited: the group is
    // well formed, so a lazy view skips it and fails when it is read.
    ("group-wire-type-mismatch", SINK_TARGETS, "2204 0b 1200 0c"),
    // `three.point` (9.48) as a fixed record (x = 1.0, y = 2.0, z = 3),
    // then `three.points` (9.49) once as a record and once as two of its
    // fields in reverse order, which the field loop reads, then
    // `three.segments` (9.50) once as a record of two point records.
    (
        "fixed-records",
        ALL_TARGETS,
        "4a66  8203 13 0d0000803f 110000000000000040 1d03000000  \
         8a03 13 0d0000803f 110000000000000040 1d03000000  8a03 0a 1d03000000 0d0000803f  \
         9203 2a  0a 13 0d0000803f 110000000000000040 1d03000000  \
                  12 13 0d0000803f 110000000000000040 1d03000000",
    ),
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    for (dir, message, targets) in [
        ("portable", "sink.Portable", ALL_TARGETS),
        ("sink", "sink.KitchenSink", SINK_TARGETS),
    ] {
        for sample in samples(&root.join("samples").join(dir)) {
            let name = sample.file_stem().unwrap().to_str().unwrap();
            let bytes = encode(&protoc, root, message, &sample);
            write(root, targets, &format!("sample-{name}"), &bytes);
        }
    }
    for (name, targets, hex) in WIRE {
        write(root, targets, &format!("wire-{name}"), &from_hex(hex));
    }
    // Nesting at the default recursion limit and one level past it.
    let limit = buffa::DEFAULT_RECURSION_LIMIT as usize;
    let (at, past) = (deep_node(limit), deep_node(limit + 1));
    assert!(KitchenSink::decode_from_slice(&at).is_ok());
    assert!(KitchenSink::decode_from_slice(&past).is_err());
    write(root, SINK_TARGETS, "wire-deep-node-at-limit", &at);
    write(root, SINK_TARGETS, "wire-deep-node-past-limit", &past);
}

/// `node` holding `levels - 1` nested `child` fields: `levels` messages
/// below the root.
fn deep_node(levels: usize) -> Vec<u8> {
    let mut payload = Vec::new();
    for level in (0..levels).rev() {
        // `node` is field 7 of the root, `child` field 2 of `Node`.
        let key = if level == 0 { 0x3a } else { 0x12 };
        let mut outer = vec![key];
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

/// Encodes the text-format `sample` as `message` with `protoc --encode`.
fn encode(protoc: &Path, root: &Path, message: &str, sample: &Path) -> Vec<u8> {
    let output = Command::new(protoc)
        .arg(format!("--encode={message}"))
        .arg(format!("-I{}", root.join("proto").display()))
        .arg("sink.proto")
        .stdin(fs::File::open(sample).expect("open sample"))
        .stderr(Stdio::inherit())
        .output()
        .expect("run protoc");
    assert!(
        output.status.success(),
        "protoc --encode failed on {}",
        sample.display()
    );
    output.stdout
}

/// Writes `bytes` as `seeds/<target>/<name>` for each of `targets`.
fn write(root: &Path, targets: &[&str], name: &str, bytes: &[u8]) {
    for target in targets {
        let dir = root.join("seeds").join(target);
        fs::create_dir_all(&dir).expect("create seeds dir");
        fs::write(dir.join(name), bytes).expect("write seed");
    }
}

/// Parses hex digits, skipping spaces.
fn from_hex(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).expect("hex"))
        .collect()
}
