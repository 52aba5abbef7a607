//! Generates the message types for the four rust_serialization_benchmark
//! datasets: prost's into `OUT_DIR`, with pbjson-build's proto3 JSON serde
//! impls for them beside (`prost.<dataset>.serde.rs`), and buffa's three
//! times, with the default (boxed) sub-message layout into
//! `OUT_DIR/buffa_box/`, with `unbox_message_fields` into
//! `OUT_DIR/buffa_inline/`, and with `unbox_message_fields` plus `BytesStr`
//! strings and `Bytes` bytes into `OUT_DIR/buffa_shared/`. Each directory
//! holds one file per package (`prost.<dataset>.rs`). The inline layout also
//! gets borrowed views (`Config::views`).
//!
//! The lazy-view case, `proto/lazy.proto` (package `bench.lazy`), is
//! generated twice with views and inline sub-messages: with
//! `Envelope.payload` lazy into `OUT_DIR/lazy/`, and all eager into
//! `OUT_DIR/eager/`.
//!
//! `BUFFA_BENCH_UNKNOWN_FIELDS=discard` generates the three buffa
//! configurations with `unknown_fields(UnknownFieldsRepr::Discard)`, to
//! measure what keeping unknown fields costs; unset (the default), they
//! keep them, as every buffa user's messages do unless they ask.
//!
//! The `.proto` schemas are read from the shared datasets directory that sits
//! beside the workspace (`<workspace>/../shared/datasets/rust_serialization_benchmark/`),
//! so they are not duplicated in the repository. `BENCHMARK_PROTO_DIR` can point
//! elsewhere. protoc comes from the `protoc-bin-vendored` crate; no system
//! protoc is needed.

use std::env;
use std::path::PathBuf;

/// The dataset schemas, in the order the benchmark runs them.
const PROTOS: [&str; 4] = [
    "log.proto",
    "mesh.proto",
    "minecraft_savedata.proto",
    "mk48.proto",
];

fn main() {
    println!("cargo:rerun-if-env-changed=BENCHMARK_PROTO_DIR");
    println!("cargo:rerun-if-env-changed=BUFFA_BENCH_UNKNOWN_FIELDS");
    let unknown_fields = match env::var("BUFFA_BENCH_UNKNOWN_FIELDS").as_deref() {
        Err(_) | Ok("keep") => buffa_build::UnknownFieldsRepr::Keep,
        Ok("discard") => buffa_build::UnknownFieldsRepr::Discard,
        Ok(other) => panic!("BUFFA_BENCH_UNKNOWN_FIELDS={other}: expected keep or discard"),
    };
    let proto_dir = match env::var_os("BENCHMARK_PROTO_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
            manifest_dir.join("../../shared/datasets/rust_serialization_benchmark")
        }
    };
    let files: Vec<PathBuf> = PROTOS.iter().map(|name| proto_dir.join(name)).collect();
    for file in &files {
        if !file.is_file() {
            panic!(
                "benchmark schema {} not found. The benchmarks crate reads the \
                 rust_serialization_benchmark .proto files from \
                 shared/datasets/rust_serialization_benchmark/ next to the \
                 workspace checkout; make sure shared/ is present there, or set \
                 BENCHMARK_PROTO_DIR to a directory holding {}.",
                file.display(),
                PROTOS.join(", "),
            );
        }
        println!("cargo:rerun-if-changed={}", file.display());
    }

    let protoc = protoc_bin_vendored::protoc_bin_path()
        .expect("protoc-bin-vendored has no protoc binary for this platform");

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap());

    // prost's types, and pbjson-build's serde impls for them, set up as
    // pbjson-build's documentation says: prost-build writes the file
    // descriptor set, well-known types come from pbjson-types (the dataset
    // schemas use none; this keeps the setup the one prost users have).
    let descriptor_path = out_dir.join("prost_descriptor_set.bin");
    let mut config = prost_build::Config::new();
    config
        .protoc_executable(&protoc)
        .protoc_arg("--experimental_allow_proto3_optional")
        .file_descriptor_set_path(&descriptor_path)
        .compile_well_known_types()
        .extern_path(".google.protobuf", "::pbjson_types");
    config
        .compile_protos(&files, &[&proto_dir])
        .expect("prost-build failed to compile the benchmark schemas");
    let descriptor_set = std::fs::read(&descriptor_path).expect("reading the descriptor set");
    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_set)
        .expect("pbjson-build: invalid descriptor set")
        .build(&[".prost"])
        .expect("pbjson-build failed to generate the serde impls");

    for subdir in ["buffa_box", "buffa_inline", "buffa_shared"] {
        let mut config = buffa_build::Config::new();
        config
            .protoc_executable(&protoc)
            .protoc_arg("--experimental_allow_proto3_optional")
            .files(&files)
            .includes(&[&proto_dir])
            .out_dir(out_dir.join(subdir))
            .unknown_fields(unknown_fields);
        match subdir {
            // Views are generated for one layout only, to keep build times
            // down: the inline one, whose owned decode they are compared with.
            "buffa_inline" => {
                // With JSON, for the JSON rows of `compare`.
                config.unbox_message_fields().views().json();
            }
            "buffa_shared" => {
                config
                    .unbox_message_fields()
                    .string_type(buffa_build::StringRepr::BytesStr)
                    .bytes_type(buffa_build::BytesRepr::Bytes);
            }
            _ => {}
        }
        config
            .compile()
            .unwrap_or_else(|e| panic!("{subdir}: failed to compile the benchmark schemas: {e}"));
    }

    let lazy_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("proto");
    let lazy_proto = lazy_dir.join("lazy.proto");
    println!("cargo:rerun-if-changed={}", lazy_proto.display());
    for (subdir, lazy) in [("lazy", true), ("eager", false)] {
        let mut config = buffa_build::Config::new();
        config
            .protoc_executable(&protoc)
            .files(&[&lazy_proto])
            .includes(&[&lazy_dir])
            .out_dir(out_dir.join(subdir))
            .unbox_message_fields()
            .views();
        if lazy {
            config.lazy_views_in(&[".bench.lazy.Envelope.payload"]);
        }
        config
            .compile()
            .unwrap_or_else(|e| panic!("{subdir}: failed to compile lazy.proto: {e}"));
    }
}
