//! The checked-in `src/generated/` is what buffa-codegen generates today
//! from the well-known type files buffa-compile bundles (protoc's own):
//! `google.protobuf.rs` from the well-known types, `descriptor.rs` from
//! `descriptor.proto` (the `descriptor` feature). Run with `BUFFA_BLESS=1`
//! to regenerate them after a codegen change.

use std::path::Path;

/// `descriptor.proto`, generated into a file of its own.
const DESCRIPTOR: &str = "google/protobuf/descriptor.proto";

/// The other files buffa-types holds: the well-known types.
const WELL_KNOWN_TYPES: &[&str] = &[
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

/// The code buffa-types checks in for `files`: views and JSON behind the
/// crate's features of those names.
fn generate(files: &[&str]) -> String {
    let files = buffa_build::Config::new()
        .files(files)
        .compile_well_known_types()
        .views_behind_feature("views")
        .json_behind_feature("json")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["google.protobuf.rs"]);
    files.into_iter().next().expect("one file").content
}

fn generated_path(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/generated")
        .join(name)
}

fn check(name: &str, generated: &str) {
    let path = generated_path(name);
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
    if checked_in != generated {
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

#[test]
fn generated_code_is_current() {
    check("google.protobuf.rs", &generate(WELL_KNOWN_TYPES));
    check("descriptor.rs", &generate(&[DESCRIPTOR]));
}

/// `src/lib.rs` re-exports the items of `descriptor.rs` one by one (so
/// that rustc, when a user's code names one without the `descriptor`
/// feature, says which feature it needs): the lists name every public
/// item of the file, the views in the list behind `views`.
#[test]
fn descriptor_items_are_reexported() {
    let generated = std::fs::read_to_string(generated_path("descriptor.rs")).unwrap();
    let (mut owned, mut views) = (Vec::new(), Vec::new());
    let mut behind_views = false;
    for line in generated.lines() {
        if line == "#[cfg(feature = \"views\")]" {
            behind_views = true;
            continue;
        }
        // Attributes (a derive spans lines) and doc comments come between
        // the `cfg` and its item.
        if line.starts_with([' ', '#', ')', '/']) {
            continue;
        }
        let mut words = line.split(|c: char| !c.is_alphanumeric() && c != '_');
        if let (Some("pub"), Some("struct" | "enum" | "mod"), Some(name)) =
            (words.next(), words.next(), words.next())
        {
            if behind_views { &mut views } else { &mut owned }.push(name.to_owned());
        }
        behind_views = false;
    }
    assert!(owned.contains(&"FieldOptions".to_owned()), "{owned:?}");
    assert!(views.contains(&"FieldOptionsView".to_owned()), "{views:?}");

    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let list = |cfg: &str| -> Vec<String> {
        let block = lib
            .split_once(&format!("{cfg}\n        pub use descriptor::{{"))
            .unwrap_or_else(|| panic!("no re-exports behind {cfg} in src/lib.rs"))
            .1;
        let block = &block[..block.find('}').expect("closing brace")];
        block
            .split([',', ' ', '\n'])
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let sorted = |mut names: Vec<String>| {
        names.sort();
        names
    };
    assert_eq!(
        sorted(list("#[cfg(feature = \"descriptor\")]")),
        sorted(owned)
    );
    assert_eq!(
        sorted(list(
            "#[cfg(all(feature = \"descriptor\", feature = \"views\"))]"
        )),
        sorted(views)
    );
}

/// Without `compile_well_known_types`, every type of the eleven files
/// maps to buffa-types, so none is generated: the default mapping names
/// exactly what this crate holds.
#[test]
fn default_mapping_covers_every_well_known_type() {
    let files = buffa_build::Config::new()
        .files(&[&[DESCRIPTOR], WELL_KNOWN_TYPES].concat())
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
