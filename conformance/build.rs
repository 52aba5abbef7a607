//! Generates the conformance protocol and the test message types from the
//! protobuf 27.1 sources, read in place (see the `protobuf-sources` crate),
//! with a borrowed view beside every message for the testee's view mode,
//! and reflection (`buffa_reflect::ReflectMessage`, and the descriptor
//! pool of the files and their imports) for its text format and its
//! dynamic mode. The well-known types the test messages import (`Any`,
//! `Duration`, `Struct`, `Timestamp`, the wrappers, ...) are not
//! generated: the code names them in the `buffa-types` dependency, which
//! has views too.

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
