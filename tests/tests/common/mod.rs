//! Helpers shared by the integration tests: protoc as an independent
//! encoder and decoder (its `--encode` and `--decode` modes run the C++
//! implementation on text format), random prost values of the cross-check
//! protos ([`strategies`]) and random mutations of encodings ([`mutate`]).

#![allow(dead_code)]

pub mod mutate;
pub mod strategies;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The copy of the unittest protos that build.rs compiled.
pub fn unittest_include() -> PathBuf {
    PathBuf::from(env!("OUT_DIR")).join("unittest-protos")
}

/// The directory of this crate's own protos (`hostile`, `editions`, ...).
pub fn local_protos() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("proto")
}

fn protoc(includes: &[PathBuf], args: &[String], input: &[u8]) -> Vec<u8> {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let wkt = protoc_bin_vendored::include_path().expect("vendored include path");
    let mut child = Command::new(protoc)
        .args(
            includes
                .iter()
                .chain([&wkt])
                .map(|include| format!("--proto_path={}", include.display())),
        )
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run protoc");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "protoc {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Encodes the text-format `text` as message `message_type` of `file` (a
/// path under the unittest include directory) with protoc.
pub fn protoc_encode(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&unittest_include(), file, message_type, text)
}

/// [`protoc_encode`] for a file under `include`.
pub fn protoc_encode_in(include: &PathBuf, file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc(
        std::slice::from_ref(include),
        &[format!("--encode={message_type}"), file.to_owned()],
        text.as_bytes(),
    )
}

/// Decodes `bytes` as message `message_type` of `file` with protoc, to text
/// format.
pub fn protoc_decode(file: &str, message_type: &str, bytes: &[u8]) -> String {
    protoc_decode_in(&unittest_include(), file, message_type, bytes)
}

/// [`protoc_decode`] for a file under `include`.
pub fn protoc_decode_in(include: &PathBuf, file: &str, message_type: &str, bytes: &[u8]) -> String {
    String::from_utf8(protoc(
        std::slice::from_ref(include),
        &[format!("--decode={message_type}"), file.to_owned()],
        bytes,
    ))
    .unwrap()
}

/// Decodes `bytes` with protoc without a schema: field numbers and wire
/// types only (groups show as `N { ... }`, length-delimited as `N: "..."`
/// or a nested block).
pub fn protoc_decode_raw(bytes: &[u8]) -> String {
    String::from_utf8(protoc(&[], &["--decode_raw".to_owned()], bytes)).unwrap()
}

/// The `FileDescriptorSet` protoc builds for `files` under `include`, their
/// imports and source info included.
pub fn protoc_descriptor_set(include: &PathBuf, files: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set.pb");
    let mut args = vec![
        "--include_imports".to_owned(),
        "--include_source_info".to_owned(),
        format!("--descriptor_set_out={}", out.display()),
    ];
    args.extend(files.iter().map(|file| (*file).to_owned()));
    protoc(std::slice::from_ref(include), &args, &[]);
    std::fs::read(out).unwrap()
}
