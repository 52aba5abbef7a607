//! Generates the inventory proto twice: with prost-build (into
//! `OUT_DIR/prost`), as the crate did before the migration, and with
//! buffa-build (into `OUT_DIR`), as it does after.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=proto");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));

    // Before: prost-build. It needs a protoc; this one is vendored.
    let prost_out = out_dir.join("prost");
    std::fs::create_dir_all(&prost_out).expect("create OUT_DIR/prost");
    prost_build::Config::new()
        .protoc_executable(protoc_bin_vendored::protoc_bin_path().expect("vendored protoc"))
        .out_dir(&prost_out)
        .btree_map(["."])
        .compile_protos(&["proto/inventory/v1/inventory.proto"], &["proto"])
        .unwrap_or_else(|e| panic!("prost-build: {e}"));

    // After: buffa-build, which brings its own protoc.
    buffa_build::Config::new()
        .files(&["proto/inventory/v1/inventory.proto"])
        .includes(&["proto"])
        .btree_map(&["."])
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
