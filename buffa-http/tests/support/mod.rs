//! What the integration tests share: the test schemas compiled by protoc
//! (the vendored one) into a descriptor pool.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
pub fn protoc(include: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let includes = [
        include.to_path_buf(),
        proto_dir(),
        PathBuf::from(buffa_http::PROTO_INCLUDE),
        protoc_bin_vendored::include_path().expect("vendored includes"),
    ];
    let mut child = Command::new(protoc_bin_vendored::protoc_bin_path().expect("vendored protoc"))
        .args(includes.iter().map(|dir| format!("-I{}", dir.display())))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run protoc");
    child
        .stdin
        .take()
        .expect("protoc's stdin")
        .write_all(input)
        .expect("write to protoc");
    let output = child.wait_with_output().expect("wait for protoc");
    match output.status.success() {
        true => Ok(output.stdout),
        false => Err(String::from_utf8_lossy(&output.stderr).into_owned()),
    }
}

/// The files `protoc --include_imports` writes for `file` (relative to
/// `include`).
fn compile(include: &Path, file: &str) -> Result<Vec<FileDescriptorProto>, String> {
    let set = protoc(
        include,
        &[
            "--include_imports",
            "--descriptor_set_out=/dev/stdout",
            file,
        ],
        b"",
    )?;
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
