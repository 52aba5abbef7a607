//! protoc's own encoder (`protoc --encode`, the C++ implementation reading
//! text format) as the reference for the no_std library's bytes.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// This crate's protos (`telemetry.proto`, `config.proto`).
pub fn local_protos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("proto")
}

/// buffa-build's golden protos (`no_std.proto`).
pub fn golden_protos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../buffa-build/tests/golden")
}

/// `text` (text format) encoded by protoc as `message_type` of `file`, a
/// file under `include`.
pub fn protoc_encode(include: &Path, file: &str, message_type: &str, text: &str) -> Vec<u8> {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let mut child = Command::new(protoc)
        .arg(format!("--proto_path={}", include.display()))
        .arg(format!("--encode={message_type}"))
        .arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run protoc");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "protoc --encode={message_type}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}
