//! Generates the googleapis packages the crosscheck uses twice, with
//! prost-build and with buffa-build, into `OUT_DIR/prost` and
//! `OUT_DIR/buffa`. Maps are `BTreeMap` in both, so both write map
//! entries in key order and their encodings can be compared byte for
//! byte.

use std::path::PathBuf;

/// The files, under `GOOGLEAPIS_DIR`; their imports are generated too.
const FILES: &[&str] = &[
    "google/pubsub/v1/pubsub.proto",
    "google/rpc/status.proto",
    "google/rpc/error_details.proto",
    "google/longrunning/operations.proto",
    "google/api/http.proto",
    "google/type/money.proto",
    "google/type/date.proto",
];

fn main() {
    println!("cargo:rerun-if-env-changed=GOOGLEAPIS_DIR");
    let root = std::env::var_os("GOOGLEAPIS_DIR").map(PathBuf::from).unwrap_or_else(|| {
        panic!("GOOGLEAPIS_DIR is not set: run this crate through `bash corpus/googleapis.sh --crosscheck`")
    });
    // The tests run protoc on the same files.
    println!("cargo:rustc-env=GOOGLEAPIS_DIR={}", root.display());
    println!("cargo:rustc-env=GOOGLEAPIS_FILES={}", FILES.join(" "));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for dir in ["prost", "buffa"] {
        std::fs::create_dir_all(out.join(dir)).expect("OUT_DIR is writable");
    }

    let protoc = protoc_bin_vendored::protoc_bin_path().expect("the vendored protoc");
    let mut prost = prost_build::Config::new();
    prost
        .protoc_executable(protoc)
        .btree_map(["."])
        // `prost::Name`, for `prost_types::Any::from_msg`.
        .enable_type_names()
        .out_dir(out.join("prost"))
        .include_file("mod.rs")
        .compile_protos(FILES, &[&root])
        .unwrap_or_else(|e| panic!("prost-build: {e}"));

    buffa_build::Config::new()
        .files(FILES)
        .includes(&[&root])
        .btree_map(&["."])
        .out_dir(out.join("buffa"))
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("buffa-build: {e}"));
}
