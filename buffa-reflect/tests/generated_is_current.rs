//! The checked-in `src/generated/google.protobuf.rs` (the reflection impls
//! of buffa-types' messages and closed enums, with their descriptors) is
//! what buffa-codegen generates today from the files buffa-types holds.
//! Run with `BUFFA_BLESS=1` to regenerate it after a codegen change.

use std::path::Path;

/// The files buffa-types holds, as its own `generated_is_current.rs`
/// lists them.
const BUFFA_TYPES_FILES: &[&str] = &[
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
    // The types map to buffa-types by default, so only their reflection
    // impls are generated; this crate reaches itself as `crate`. Every
    // binary that uses buffa-reflect carries the descriptors, so they come
    // without their comments (which would make them four times larger).
    let files = buffa_build::Config::new()
        .files(BUFFA_TYPES_FILES)
        .reflection_for_extern_types()
        .strip_source_info()
        .buffa_reflect_path("crate")
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
