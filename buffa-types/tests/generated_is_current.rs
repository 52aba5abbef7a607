//! The checked-in `src/generated/google.protobuf.rs` is what buffa-codegen
//! generates today from the well-known type files of the vendored protoc.
//! Run with `BUFFA_BLESS=1` to regenerate it after a codegen change.

use std::path::Path;

/// The files buffa-types holds: the well-known types and `descriptor.proto`.
const WELL_KNOWN_TYPES: &[&str] = &[
    "google/protobuf/descriptor.proto",
    "google/protobuf/any.proto",
    "google/protobuf/api.proto",
    "google/protobuf/duration.proto",
    "google/protobuf/empty.proto",
    "google/protobuf/field_mask.proto",
    "google/protobuf/source_context.proto",
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/type.proto",
    "google/protobuf/wrappers.proto",
];

#[test]
fn generated_code_is_current() {
    let files = buffa_build::Config::new()
        .files(WELL_KNOWN_TYPES)
        .compile_well_known_types()
        .views()
        .json_behind_feature("json")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["google.protobuf.rs"]);
    let generated = &files[0].content;

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generated/google.protobuf.rs");
    if std::env::var_os("BUFFA_BLESS").is_some() {
        std::fs::write(&path, generated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with BUFFA_BLESS=1 to create it)",
            path.display()
        )
    });
    if checked_in != *generated {
        let first_difference = checked_in
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "in length".to_owned(),
                |line| format!("at line {}", line + 1),
            );
        panic!(
            "{} is stale: it differs from what buffa-codegen generates {first_difference}; \
             review the change and run with BUFFA_BLESS=1 to regenerate it",
            path.display()
        );
    }
}

/// Without `compile_well_known_types`, every type of the ten files maps
/// to buffa-types, so none is generated: the default mapping names
/// exactly what this crate holds.
#[test]
fn default_mapping_covers_every_well_known_type() {
    let files = buffa_build::Config::new()
        .files(WELL_KNOWN_TYPES)
        .views()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert!(names.is_empty(), "generated {names:?}");
}

/// A sub-package of `google.protobuf` is not in buffa-types, so the
/// default mapping leaves it to be generated, and names the types it uses
/// from `descriptor.proto` in buffa-types.
#[test]
fn default_mapping_leaves_plugin_proto_generated() {
    let files = buffa_build::Config::new()
        .files(&["google/protobuf/compiler/plugin.proto"])
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["google.protobuf.compiler.rs"]);
    let content = &files[0].content;
    assert!(content.contains("pub struct CodeGeneratorRequest {"));
    assert!(content.contains("::buffa_types::google::protobuf::FileDescriptorProto"));
    assert!(!content.contains("pub struct FileDescriptorProto {"));
}
