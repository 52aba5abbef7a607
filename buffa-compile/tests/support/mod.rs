//! protoc as the reference: the descriptor sets it writes for the files
//! the tests compile.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpora fetched into the scripts' cache: the library's own test
/// module, shared rather than copied.
#[path = "../../src/corpus_cache.rs"]
pub mod corpus_cache;

/// The bytes `protoc --include_imports --descriptor_set_out` writes for
/// `files` under `include` (with `--include_source_info` when asked), or
/// protoc's error output when it rejects them.
pub fn protoc_set(include: &Path, files: &[&str], source_info: bool) -> Result<Vec<u8>, String> {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let wkt = protoc_bin_vendored::include_path().expect("vendored includes");
    let mut command = Command::new(protoc);
    command
        .arg("--include_imports")
        .arg("--descriptor_set_out=/dev/stdout")
        .arg(format!("--proto_path={}", include.display()))
        .arg(format!("--proto_path={}", wkt.display()));
    if source_info {
        command.arg("--include_source_info");
    }
    command.args(files);
    let output = command.output().expect("run protoc");
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// protobuf's own source tree (`src/` holds `google/protobuf/*.proto`).
pub fn protobuf_src() -> PathBuf {
    protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src")
}
