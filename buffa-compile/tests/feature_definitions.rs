//! Checks protoc makes once options are interpreted, compared with
//! protoc's own errors (message, line and column, every line of them):
//! the `feature_support` windows of fields and enum values (custom feature
//! definitions among them), features set to their `*_UNKNOWN` value, and
//! extension declarations.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use buffa_compile::Compiler;

/// The start of an editions file that defines options or features.
const EDITIONS: &str =
    "edition = \"2023\";\nimport \"google/protobuf/descriptor.proto\";\npackage p;\n";

/// The start of a proto2 file.
const PROTO2: &str = "syntax = \"proto2\";\npackage p;\n";

/// Each case: a name, and the file's text (`a.proto`, alone). Every case
/// is refused by protoc but the last few, which it accepts.
const CASES: &[(&str, &str, &str)] = &[
    // feature_support on a field: its window must be consistent.
    (
        "deprecated before introduced",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { edition_introduced: EDITION_2024 \
         edition_deprecated: EDITION_2023 }]; }",
    ),
    (
        "deprecated without a warning",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { edition_deprecated: EDITION_2023 }]; }",
    ),
    (
        "a warning, not deprecated",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { deprecation_warning: \"w\" }]; }",
    ),
    (
        "deprecated after removed",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { edition_deprecated: EDITION_2024 \
         deprecation_warning: \"w\" edition_removed: EDITION_2024 removal_error: \"r\" }]; }",
    ),
    (
        "removed before introduced",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { edition_introduced: EDITION_2024 \
         edition_removed: EDITION_2023 removal_error: \"r\" }]; }",
    ),
    (
        "a removal error, not removed",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { removal_error: \"r\" }]; }",
    ),
    (
        "an extension's window",
        EDITIONS,
        "extend google.protobuf.FieldOptions { int32 y = 5000 [feature_support = { \
         removal_error: \"r\" }]; }",
    ),
    (
        "nested fields and extensions",
        EDITIONS,
        "message M { message N { int32 x = 1 [feature_support = { removal_error: \"r\" }]; \
         extensions 2 to 3; } extend N { int32 y = 2 [feature_support = { removal_error: \"r\" \
         }]; } }",
    ),
    // feature_support on an enum value, alone and within its field's.
    (
        "a value removed without an error",
        EDITIONS,
        "enum E { A = 0 [feature_support = { edition_removed: EDITION_2024 }]; }",
    ),
    (
        "a value introduced before its field",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { edition_introduced: EDITION_2023 }]; }\n\
         message M { E e = 1 [feature_support = { edition_introduced: EDITION_2024 }]; }",
    ),
    (
        "a value removed after its field",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { edition_removed: EDITION_2024 \
         removal_error: \"x\" }]; }\nmessage M { E e = 1 [feature_support = { \
         edition_introduced: EDITION_2023 edition_removed: EDITION_2023 }]; }",
    ),
    (
        "a value deprecated after its field",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { edition_deprecated: EDITION_2024 \
         deprecation_warning: \"x\" }]; }\nmessage M { E e = 1 [feature_support = { \
         edition_introduced: EDITION_2023 edition_deprecated: EDITION_2023 \
         deprecation_warning: \"y\" }]; }",
    ),
    (
        "a custom feature's value, through its field and alone",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { edition_removed: EDITION_2024 }]; }\n\
         message M { E e = 1 [targets = TARGET_TYPE_FIELD, feature_support = { \
         edition_introduced: EDITION_2023 }, edition_defaults = { edition: EDITION_LEGACY, \
         value: \"A\" }]; }\nextend google.protobuf.FeatureSet { M m = 9995; }",
    ),
    (
        "a nested enum's value through an imported field's scope",
        EDITIONS,
        "message M { enum E { A = 0; B = 1 [feature_support = { edition_deprecated: \
         EDITION_2024 }]; } E e = 1 [feature_support = { edition_introduced: EDITION_2023 }]; \
         }",
    ),
    (
        "the field's error, not its values'",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { }]; }\nmessage M { E e = 1 \
         [feature_support = { edition_introduced: EDITION_2023 edition_deprecated: \
         EDITION_2023 }]; }",
    ),
    // Features set to their unknown value.
    (
        "an unknown field presence",
        EDITIONS,
        "message M {\n  int32 x = 1 [features.field_presence = FIELD_PRESENCE_UNKNOWN];\n}",
    ),
    (
        "an unknown enum type",
        "edition = \"2023\";\n",
        "enum E { option features.enum_type = ENUM_TYPE_UNKNOWN; A = 0; }",
    ),
    (
        "unknown at the file, the first in protoc's order",
        "edition = \"2023\";\n",
        "option features.utf8_validation = UTF8_VALIDATION_UNKNOWN;\noption \
         features.field_presence = FIELD_PRESENCE_UNKNOWN;\nmessage M { int32 a = 1 \
         [features.utf8_validation = NONE]; }",
    ),
    (
        "unknown visibility",
        "edition = \"2024\";\n",
        "option features.default_symbol_visibility = DEFAULT_SYMBOL_VISIBILITY_UNKNOWN;\n\
         message M {}",
    ),
    (
        "unknown in a message, a oneof, a range, a service, a method and a value",
        "edition = \"2024\";\n",
        "message M { option features.enforce_naming_style = ENFORCE_NAMING_STYLE_UNKNOWN; oneof \
         o { option features.json_format = JSON_FORMAT_UNKNOWN; int32 a = 1; } extensions 5 to \
         9 [features.utf8_validation = UTF8_VALIDATION_UNKNOWN]; }\nservice S { option \
         features.message_encoding = MESSAGE_ENCODING_UNKNOWN; rpc R(M) returns (M) { option \
         features.repeated_field_encoding = REPEATED_FIELD_ENCODING_UNKNOWN; } }\nenum E { A = \
         0 [features.enum_type = ENUM_TYPE_UNKNOWN]; }",
    ),
    (
        "features of a proto2 oneof and range",
        PROTO2,
        "message M { oneof o { option features.json_format = ALLOW; int32 a = 1; } extensions 5 \
         to 9 [features.utf8_validation = NONE]; }",
    ),
    (
        "unknown in a proto2 file",
        PROTO2,
        "message M { optional int32 a = 1 [features.field_presence = FIELD_PRESENCE_UNKNOWN]; }",
    ),
    (
        "unknown in a nested message",
        "edition = \"2023\";\n",
        "message M { int32 a = 1 [features.field_presence = FIELD_PRESENCE_UNKNOWN, \
         features.enum_type = ENUM_TYPE_UNKNOWN]; message N { option features.field_presence = \
         FIELD_PRESENCE_UNKNOWN; } }",
    ),
    (
        "unknown at a proto2 file",
        PROTO2,
        "option features.field_presence = FIELD_PRESENCE_UNKNOWN;\nmessage M {}",
    ),
    (
        "a custom feature used where it is defined",
        EDITIONS,
        "extend google.protobuf.FeatureSet { F f = 9995; }\nmessage F { bool b = 1 [retention \
         = RETENTION_SOURCE]; }\nmessage M { option features.(f).b = true; int32 x = 1 \
         [features.(f).b = true]; }",
    ),
    // Extension declarations: well formed, at the range.
    (
        "a declaration outside its range",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 0 full_name: \".p.a\" \
         type: \"int32\"}];\n}",
    ),
    (
        "a number declared twice",
        PROTO2,
        "message M {\n  extensions 100 to 200 [\n    declaration = {number: 100 full_name: \
         \".p.a\" type: \"int32\"},\n    declaration = {number: 100 full_name: \".p.b\" type: \
         \"int32\"}\n  ];\n}",
    ),
    (
        "a name without a type",
        PROTO2,
        "message M { extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\"}]; }",
    ),
    (
        "reserved, with a type and no name",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 reserved: true}];\n  \
         extensions 300 to 400 [declaration = {number: 300 type: \"int32\" reserved: true}];\n}",
    ),
    (
        "a name declared in two ranges",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \"int32\"}];\n  extensions 300 to 400 [declaration = {number: 300 full_name: \
         \".p.a\" type: \"int32\"}];\n}",
    ),
    (
        "names without a leading dot",
        PROTO2,
        "message M { extensions 100 to 200 [declaration = {number: 100 full_name: \"p.a\" type: \
         \"p.M\"}]; }",
    ),
    (
        "invalid identifiers",
        PROTO2,
        "message M { extensions 100 to 200 [declaration = {number: 100 full_name: \".p.1a\" \
         type: \".p..M\"}]; }",
    ),
    (
        "unverified with declarations",
        PROTO2,
        "message M { extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \"int32\"}, verification = UNVERIFIED]; }",
    ),
    (
        "declarations shared by two ranges",
        PROTO2,
        "message M {\n  extensions 100, 150 to 200 [declaration = {number: 100 full_name: \
         \".p.a\" type: \"int32\"}, declaration = {number: 101 full_name: \".p.b\" type: \
         \"int32\"}, declaration = {number: 100 full_name: \".p.c\" type: \"int32\"}];\n}",
    ),
    (
        "outside on both sides, then a name twice",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 99 full_name: \".p.a\" \
         type: \"int32\"}, declaration = {number: 201 full_name: \".p.a\" type: \"bogus\"}];\n}",
    ),
    (
        "a range past the largest field number",
        PROTO2,
        "message M {\n  extensions 5 to 536870912;\n}",
    ),
    // Extensions against their declarations, at the extendee.
    (
        "an extension of another type",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \"int32\"}];\n}\nextend M { optional string a = 100; }",
    ),
    (
        "an undeclared number",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \"int32\"}];\n}\nextend M { optional int32 b = 101; }",
    ),
    (
        "a reserved number",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 reserved: true}];\n}\n\
         extend M { optional int32 b = 100; }",
    ),
    (
        "type, name and label all wrong",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \".p.M\" repeated: true}];\n}\nextend M { optional int32 b = 100; }",
    ),
    (
        "a type compared only in a file without errors",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.b\" \
         type: \".p.M\"}, declaration = {number: 300 full_name: \".p.c\" type: \"int32\"}];\n}\n\
         extend M { optional int32 b = 100; }",
    ),
    (
        "a range that must declare",
        PROTO2,
        "message M {\n  extensions 100 to 200 [verification = DECLARATION];\n}\nextend M { \
         optional int32 a = 100; }",
    ),
    (
        "a nested extension of another type",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.N.a\" \
         type: \".p.M\"}];\n}\nmessage N {\n  extend M { optional M a = 100; optional int32 b = \
         101; }\n}",
    ),
    (
        "an enum where any enum is declared, a group where a message is",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.e\" \
         type: \"enum\"}, declaration = {number: 101 full_name: \".p.g\" type: \".p.M\"}];\n}\n\
         enum E { Z = 0; }\nextend M {\n  optional E e = 100;\n}\nextend M {\n  optional group G \
         = 101 {}\n}",
    ),
    // Accepted by protoc.
    (
        "introduced and removed at once, no removal error",
        EDITIONS,
        "message M { int32 x = 1 [feature_support = { edition_introduced: EDITION_2024 \
         edition_removed: EDITION_2024 }]; }",
    ),
    (
        "a value's window without its field's",
        EDITIONS,
        "enum E { A = 0; B = 1 [feature_support = { edition_deprecated: EDITION_2024 \
         deprecation_warning: \"d\" }]; }\nmessage M { E e = 1; }",
    ),
    (
        "declared extensions that match",
        PROTO2,
        "message M {\n  extensions 100 to 200 [declaration = {number: 100 full_name: \".p.a\" \
         type: \"int32\" repeated: true}, declaration = {number: 101 full_name: \".p.e\" type: \
         \".p.E\"}, declaration = {number: 102 reserved: true}];\n}\nenum E { Z = 0; }\nextend \
         M { repeated int32 a = 100; optional E e = 101; }",
    ),
    (
        // protoc checks the definitions of custom features (singular
        // enums or bools, targets, a default for EDITION_LEGACY, no
        // oneofs) only when it compiles a generator's feature defaults,
        // not for a descriptor set.
        "malformed feature definitions",
        EDITIONS,
        "extend google.protobuf.FeatureSet { F f = 9995; repeated int32 r = 9996; }\nmessage \
         F { repeated int32 x = 1; string s = 2; oneof o { bool b = 3; } int32 n = 4 \
         [edition_defaults = { edition: EDITION_2024, value: \"1\" }, edition_defaults = { \
         edition: EDITION_LEGACY, value: \"zz\" }]; }",
    ),
    (
        "a MessageSet's range to the largest int32",
        PROTO2,
        "message M {\n  option message_set_wire_format = true;\n  extensions 4 to max;\n}",
    ),
    (
        "an extension of a custom feature set",
        EDITIONS,
        "extend google.protobuf.FeatureSet { int32 a = 1000; }",
    ),
];

/// Cases of two files: `b.proto`, which `a.proto` imports, declares what
/// `a.proto` uses. protoc refuses all but the last.
const IMPORTED: &[(&str, &str, &str)] = &[
    (
        "an imported enum's value within a field's window",
        "edition = \"2023\";\npackage q;\nenum E { A = 0; B = 1 [feature_support = { \
         edition_introduced: EDITION_2023 }]; }\n",
        "edition = \"2023\";\nimport \"google/protobuf/descriptor.proto\";\nimport \
         \"b.proto\";\npackage p;\nmessage M { q.E e = 1 [feature_support = { \
         edition_introduced: EDITION_2024 }]; }\n",
    ),
    (
        "an extension of an imported range's declarations",
        "syntax = \"proto2\";\npackage q;\nmessage M {\n  extensions 100 to 200 [declaration \
         = {number: 100 full_name: \".p.a\" type: \"int32\"}];\n}\n",
        "syntax = \"proto2\";\nimport \"b.proto\";\npackage p;\nextend q.M {\n  optional \
         string a = 100;\n  optional int32 b = 101;\n}\n",
    ),
    (
        "an extension matching an imported declaration",
        "syntax = \"proto2\";\npackage q;\nmessage M {\n  extensions 100 to 200 [declaration \
         = {number: 100 full_name: \".p.a\" type: \".q.M\"}];\n}\n",
        "syntax = \"proto2\";\nimport \"b.proto\";\npackage p;\nextend q.M { optional q.M \
         a = 100; }\n",
    ),
];

/// What buffa-compile and protoc say of `text`, as protoc prints it.
fn both(text: &str) -> (Result<(), String>, Result<(), String>) {
    both_with(text, None)
}

/// [`both`], with `imported` as `b.proto` when given.
fn both_with(text: &str, imported: Option<&str>) -> (Result<(), String>, Result<(), String>) {
    // A directory of its own: the tests run in parallel.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "buffa-compile-feature-definitions-{}-{}",
        std::process::id(),
        CALLS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.proto"), text).unwrap();
    if let Some(imported) = imported {
        std::fs::write(dir.join("b.proto"), imported).unwrap();
    }
    // protoc names the file by its path on disk.
    let prefix = format!("{}/", dir.display());
    let protoc = support::protoc_set(&dir, &["a.proto"], false)
        .map(|_| ())
        .map_err(|e| e.trim_end().replace(&prefix, ""));
    let mut compiler = Compiler::new();
    compiler.include(&dir);
    let ours = compiler
        .compile(&["a.proto"])
        .map(|_| ())
        .map_err(|e| e.to_string());
    std::fs::remove_dir_all(&dir).unwrap();
    (ours, protoc)
}

#[test]
fn refused_and_accepted_as_protoc_refuses_and_accepts() {
    let mut differences = Vec::new();
    let mut accepted = 0;
    for (name, head, body) in CASES {
        let text = format!("{head}{body}\n");
        let (ours, protoc) = both(&text);
        accepted += usize::from(protoc.is_ok());
        if ours != protoc {
            differences.push(format!(
                "{name}:\n  ours:   {ours:?}\n  protoc: {protoc:?}\n{text}"
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // The cases under "Accepted by protoc", and only those.
    assert_eq!(accepted, 6);
}

#[test]
fn checks_across_imports_as_protoc_makes_them() {
    let mut differences = Vec::new();
    let mut accepted = 0;
    for (name, imported, text) in IMPORTED {
        let (ours, protoc) = both_with(text, Some(imported));
        accepted += usize::from(protoc.is_ok());
        if ours != protoc {
            differences.push(format!(
                "{name}:\n  ours:   {ours:?}\n  protoc: {protoc:?}\n{imported}{text}"
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // The last case only.
    assert_eq!(accepted, 1);
}

#[test]
fn protobufs_custom_features_are_refused_as_protoc_refuses_them() {
    let src = support::protobuf_src();
    let name = "google/protobuf/unittest_features.proto";
    let protoc = support::protoc_set(&src, &[name], false).unwrap_err();
    let mut compiler = Compiler::new();
    compiler.include(&src);
    let ours = compiler.compile(&[name]).unwrap_err().to_string();
    // protoc names the file by its path on disk: compare line by line
    // from the file's name on.
    let theirs: Vec<&str> = protoc
        .lines()
        .map(|l| &l[l.find(name).unwrap_or(0)..])
        .collect();
    assert_eq!(ours.lines().collect::<Vec<_>>(), theirs);
    assert!(ours.starts_with(&format!(
        "{name}: pb.VALUE_FUTURE has been removed but does not specify a removal error."
    )));
}
