//! What the integration tests share: the test schemas compiled by protoc
//! (the vendored one) into a descriptor pool.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::Message as _;
use buffa_reflect::DescriptorPool;
use buffa_types::google::protobuf::{FileDescriptorProto, FileDescriptorSet};

/// `tests/proto`.
pub fn proto_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proto")
}

/// The files `protoc --include_imports` writes for `file` (relative to
/// `include`).
fn compile(include: &Path, file: &str) -> Result<Vec<FileDescriptorProto>, String> {
    // One output per call: tests run in parallel threads of one process.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{}-{}-{}.pb",
        file.replace('/', "_"),
        std::process::id(),
        CALLS.fetch_add(1, Ordering::Relaxed)
    ));
    let output = Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg(format!("-I{}", include.display()))
        .arg(format!("-I{}", proto_dir().display()))
        .arg(format!("-I{}", buffa_http::PROTO_INCLUDE))
        .arg(format!(
            "-I{}",
            protoc_bin_vendored::include_path().unwrap().display()
        ))
        .arg(file)
        .output()
        .expect("run protoc");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    Ok(FileDescriptorSet::decode_from_slice(&bytes).unwrap().file)
}

/// The pool of `file` (relative to `include`) and its imports.
pub fn pool_of(include: &Path, file: &str) -> DescriptorPool {
    let mut pool = DescriptorPool::new();
    for file in compile(include, file).unwrap() {
        pool.add_file_descriptor_proto(file).unwrap();
    }
    pool
}
