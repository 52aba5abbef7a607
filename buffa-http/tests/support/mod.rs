//! What the integration tests share: the test schemas compiled by protoc
//! (the vendored one) into a descriptor pool.

use std::path::{Path, PathBuf};

use protoc_runner::Protoc;

use buffa::Message as _;
use buffa_reflect::DescriptorPool;
use buffa_types::google::protobuf::{FileDescriptorProto, FileDescriptorSet};

/// `tests/proto`.
pub fn proto_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proto")
}

/// Runs protoc with `args` and `input` on its stdin, over `include`,
/// `tests/proto`, the bundled google/api files and protoc's own includes:
/// its stdout, or its stderr when it fails.
// Not every test binary that includes this module runs protoc directly.
#[allow(dead_code)]
pub fn protoc(include: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    protoc_over(include).run(args, input)
}

/// protoc over `include`, `tests/proto` and the bundled google/api files.
fn protoc_over(include: &Path) -> Protoc {
    Protoc::new([
        include.to_path_buf(),
        proto_dir(),
        PathBuf::from(buffa_http::PROTO_INCLUDE),
    ])
}

/// The files `protoc --include_imports` writes for `file` (relative to
/// `include`).
fn compile(include: &Path, file: &str) -> Result<Vec<FileDescriptorProto>, String> {
    let set = protoc_over(include)
        .include_imports(true)
        .descriptor_set(&[file])?;
    Ok(FileDescriptorSet::decode_from_slice(&set)
        .expect("protoc writes a descriptor set")
        .file)
}

/// The pool of `file` (relative to `include`) and its imports.
pub fn pool_of(include: &Path, file: &str) -> DescriptorPool {
    let mut pool = DescriptorPool::new();
    for file in compile(include, file).unwrap() {
        pool.add_file_descriptor_proto(file).unwrap();
    }
    pool
}
