//! Generates the fuzzers' message types from `proto/` four times, each into
//! its own directory under `OUT_DIR` with an `include.rs` that mounts the
//! packages as modules:
//!
//! - `boxed/`: buffa's default layout: sub-messages in `Box`, maps as
//!   `HashMap`, `bytes` fields as `Vec<u8>`; with eager views;
//! - `inline/`: buffa with `unbox_message_fields` (recursive fields stay
//!   boxed), maps as `BTreeMap`, `bytes` fields as `bytes::Bytes` and
//!   `string` fields as `buffa::BytesStr` (so that decoding from `Bytes`
//!   slices both), so that two encodings of equal messages are equal
//!   bytes; with lazy views (every
//!   message-typed view field a `LazyField` or `LazyRepeated`);
//! - `prost/`: prost, with maps as `BTreeMap` for the same reason;
//! - `json/`: buffa with `json()`, maps as `BTreeMap`, for the `json`
//!   target: `proto/json.proto` with the two files above; its well-known
//!   types come from `buffa-types`.
//!
//! It also has protoc write the encoded `FileDescriptorSet` of
//! `proto/json.proto` and its imports to `OUT_DIR/descriptor_set.pb`, for
//! the `text` target's dynamic messages.
//!
//! protoc is the one `protoc-bin-vendored` ships; nothing is read from the
//! environment.

use std::fs;
use std::path::{Path, PathBuf};

const FILES: [&str; 2] = ["proto/sink.proto", "proto/three.proto"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=proto");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");

    buffa(&protoc, &out_dir.join("boxed"), |config| {
        config.views();
    });
    buffa(&protoc, &out_dir.join("inline"), |config| {
        config
            .lazy_views()
            .unbox_message_fields()
            .btree_map(&["."])
            .bytes(&["."])
            .string_type(buffa_build::StringRepr::BytesStr);
    });

    let mut json = FILES.to_vec();
    json.push("proto/json.proto");
    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&json)
        .includes(&["proto"])
        .btree_map(&["."])
        .json()
        .out_dir(out_dir.join("json"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("buffa-build (json): {e}"));

    descriptor_set(&protoc, &json, &out_dir.join("descriptor_set.pb"));

    let prost_out = out_dir.join("prost");
    fs::create_dir_all(&prost_out).expect("create OUT_DIR/prost");
    prost_build::Config::new()
        .protoc_executable(&protoc)
        .out_dir(&prost_out)
        .btree_map(["."])
        .include_file("include.rs")
        .compile_protos(&FILES, &["proto"])
        .unwrap_or_else(|e| panic!("prost-build: {e}"));
}

/// Generates the schema with buffa into `out`, after `options` has set the
/// layout.
fn buffa(protoc: &Path, out: &Path, options: impl FnOnce(&mut buffa_build::Config)) {
    let mut config = buffa_build::Config::new();
    config
        .protoc_executable(protoc)
        .files(&FILES)
        .includes(&["proto"])
        .out_dir(out)
        .include_file("include.rs");
    options(&mut config);
    config
        .compile()
        .unwrap_or_else(|e| panic!("buffa-build ({}): {e}", out.display()));
}

/// Has protoc write the descriptor set of `files` and their imports (the
/// well-known types included) to `out`.
fn descriptor_set(protoc: &Path, files: &[&str], out: &Path) {
    let well_known = protoc_bin_vendored::include_path().expect("vendored include path");
    let output = std::process::Command::new(protoc)
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg("--proto_path=proto")
        .arg(format!("--proto_path={}", well_known.display()))
        .args(files)
        .output()
        .expect("run protoc");
    assert!(
        output.status.success(),
        "protoc --descriptor_set_out: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
