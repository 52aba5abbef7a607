//! Generates the conformance protocol and the test message types from the
//! protobuf 27.1 sources, read in place (see the `protobuf-sources` crate),
//! with a borrowed view beside every message for the testee's view mode.
//! The well-known types the test messages import (`Any`, `Duration`,
//! `Struct`, `Timestamp`, the wrappers, ...) are not generated: the code
//! names them in the `buffa-types` dependency, which has views too.
//!
//! The same files, with everything they import, are also written to
//! `OUT_DIR/descriptor_set.pb` as an encoded `FileDescriptorSet`: the
//! testee's text format works over dynamic messages of those descriptors.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PROTOBUF_SRC_DIR");
    let root = protobuf_sources::protobuf_source_dir().unwrap_or_else(|e| panic!("{e}"));
    // Each file is named relative to the include directory that holds it,
    // as protoc requires.
    let includes = [
        root.join("src"),
        root.join("conformance"),
        root.join("editions/golden"),
        root.join("conformance/test_protos"),
    ];
    let files = [
        "conformance.proto",
        "google/protobuf/test_messages_proto2.proto",
        "google/protobuf/test_messages_proto3.proto",
        "test_messages_proto2_editions.proto",
        "test_messages_proto3_editions.proto",
        "test_messages_edition2023.proto",
    ];
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    write_descriptor_set(&includes, &files, &out_dir.join("descriptor_set.pb"));
    buffa_build::Config::new()
        .files(&files)
        .includes(&includes)
        .include_file("protos.rs")
        .views()
        .json()
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Runs protoc (`PROTOC`, else the vendored one, as buffa-build chooses)
/// to write the descriptor set of `files` and their imports to `out`.
fn write_descriptor_set(includes: &[PathBuf], files: &[&str], out: &Path) {
    println!("cargo:rerun-if-env-changed=PROTOC");
    let protoc = std::env::var_os("PROTOC").map_or_else(
        || protoc_bin_vendored::protoc_bin_path().expect("vendored protoc"),
        PathBuf::from,
    );
    let well_known = protoc_bin_vendored::include_path().expect("vendored include path");
    let output = Command::new(&protoc)
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .args(
            includes
                .iter()
                .chain([&well_known])
                .map(|include| format!("--proto_path={}", include.display())),
        )
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run protoc at {}: {e}", protoc.display()));
    assert!(
        output.status.success(),
        "protoc --descriptor_set_out failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
