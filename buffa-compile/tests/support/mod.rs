//! protoc as the reference: the descriptor sets it writes for the files
//! the tests compile.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpora fetched into the scripts' cache: the library's own test
/// module, shared rather than copied.
#[path = "../../src/corpus_cache.rs"]
pub mod corpus_cache;

/// The bytes `protoc --include_imports --descriptor_set_out` writes for
/// `files` under `include` (with `--include_source_info` when asked), or
/// protoc's error output when it rejects them.
pub fn protoc_set(include: &Path, files: &[&str], source_info: bool) -> Result<Vec<u8>, String> {
    protoc_runner::Protoc::new([include])
        .include_imports(true)
        .include_source_info(source_info)
        .descriptor_set(files)
}

/// protobuf's own source tree (`src/` holds `google/protobuf/*.proto`).
pub fn protobuf_src() -> PathBuf {
    protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src")
}
