//! protoc's own encoder (`protoc --encode`, the C++ implementation reading
//! text format) as the reference for the no_std library's bytes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

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
    protoc_runner::Protoc::new([include])
        .run(
            &[format!("--encode={message_type}"), file.to_owned()],
            text.as_bytes(),
        )
        .unwrap_or_else(|error| panic!("protoc --encode={message_type}: {error}"))
}
