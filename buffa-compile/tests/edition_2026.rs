//! Edition 2026 against protoc 36.2: files protoc accepts compile to its
//! bytes (with and without source info), and files it refuses for what
//! 2026 adds (`STYLE2026` collisions, `STRICT` visibility, the limits on
//! element counts) are refused with the same errors.

mod support;

use std::path::Path;

use buffa_compile::Compiler;

/// A case: the files written (the first is compiled), as a name and text.
type Case = Vec<(&'static str, String)>;

/// A 2026 file holding one message `M` whose body is `body`.
fn message(body: String) -> String {
    format!("edition = \"2026\";\npackage t;\nmessage M {{\n{body}}}\n")
}

/// `count` fields `f1 = 1` ... as lines, each in `oneof` when given.
fn fields(count: usize) -> String {
    (1..=count)
        .map(|i| format!("  int32 f{i} = {i};\n"))
        .collect()
}

/// The cases, each named for the report.
fn cases() -> Vec<(&'static str, Case)> {
    let values: String = (1..=1700).map(|i| format!("V{i} = {i}; ")).collect();
    let oneofs: String = (1..=1001)
        .map(|i| format!("  oneof o{i} {{ int32 f{i} = {i}; }}\n"))
        .collect();
    vec![
        (
            "every kind of element, accepted",
            vec![(
                "all.proto",
                "edition = \"2026\";\npackage t.v1;\nimport \"google/protobuf/descriptor.proto\";\n\
                 // A message.\nmessage Item {\n  int32 id = 1;\n  string name = 2;\n  \
                 repeated int32 tags = 3;\n  map<string, Item> children = 4;\n  \
                 oneof choice { int32 a = 5; string b = 6; }\n  Color color = 7;\n  \
                 local message Part { int32 x = 1; }\n  Part part = 8;\n  \
                 extensions 100 to 200;\n}\nenum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }\n\
                 extend Item { int32 item_ext = 100; }\n\
                 extend google.protobuf.FieldOptions { int32 weight = 50000; }\n\
                 message Weighted { int32 w = 1 [(weight) = 3]; }\n\
                 service ItemService { rpc GetItem(Item) returns (Item); }\n"
                    .to_owned(),
            )],
        ),
        (
            "a nested message and enum marked export under STRICT",
            vec![(
                "strict.proto",
                "edition = \"2026\";\npackage t;\nmessage Outer {\n  \
                 export message Inner { int32 x = 1; }\n  \
                 export enum Kind { KIND_UNSPECIFIED = 0; }\n  \
                 message Deeper { export message Deepest {} }\n  int32 y = 1;\n}\n"
                    .to_owned(),
            )],
        ),
        (
            "enums exported from namespace messages (local, by keyword or default)",
            vec![(
                "namespace.proto",
                "edition = \"2026\";\npackage t;\nlocal message Ns {\n  \
                 export enum Kind { KIND_UNSPECIFIED = 0; }\n  reserved 1 to max;\n}\n\
                 message DefaultNs {\n  export enum Other { OTHER_UNSPECIFIED = 0; }\n  \
                 reserved 1 to max;\n}\n"
                    .to_owned(),
            )],
        ),
        (
            "an enum exported from an exported message that reserves every number",
            vec![(
                "not_namespace.proto",
                "edition = \"2026\";\npackage t;\nexport message Exported {\n  \
                 export enum Kind { KIND_UNSPECIFIED = 0; }\n  reserved 1 to max;\n}\n"
                    .to_owned(),
            )],
        ),
        (
            "STRICT asked for in edition 2024",
            vec![(
                "strict2024.proto",
                "edition = \"2024\";\npackage t;\n\
                 option features.default_symbol_visibility = STRICT;\n\
                 message Outer { export message Inner {} }\n"
                    .to_owned(),
            )],
        ),
        (
            "types of a 2026 file are local to it",
            vec![
                (
                    "user.proto",
                    "edition = \"2026\";\npackage t;\nimport \"defs.proto\";\n\
                     message User { Top top = 1; Top.Nested nested = 2; Shared shared = 3; }\n"
                        .to_owned(),
                ),
                (
                    "defs.proto",
                    "edition = \"2026\";\npackage t;\n\
                     message Top { message Nested { int32 a = 1; } Nested n = 1; }\n\
                     export message Shared { int32 b = 1; }\n"
                        .to_owned(),
                ),
            ],
        ),
        (
            "an exported type used from another file",
            vec![
                (
                    "user_ok.proto",
                    "edition = \"2026\";\npackage t;\nimport \"defs_ok.proto\";\n\
                     message User { Shared shared = 1; }\n"
                        .to_owned(),
                ),
                (
                    "defs_ok.proto",
                    "edition = \"2026\";\npackage t;\nexport message Shared { int32 b = 1; }\n"
                        .to_owned(),
                ),
            ],
        ),
        (
            "STYLE2026 collisions by default",
            vec![(
                "collide.proto",
                "edition = \"2026\";\npackage t;\n\
                 message M { int32 x = 1; int32 has_x = 2; int32 descriptor = 3; }\n"
                    .to_owned(),
            )],
        ),
        (
            "1,501 fields",
            vec![("fields.proto", message(fields(1501)))],
        ),
        (
            "1,500 fields",
            vec![("fields_ok.proto", message(fields(1500)))],
        ),
        (
            "1,501 fields, opted out",
            vec![(
                "fields_opt_out.proto",
                message(format!(
                    "  option features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS;\n{}",
                    fields(1501)
                )),
            )],
        ),
        ("1,001 oneofs", vec![("oneofs.proto", message(oneofs))]),
        (
            "1,201 fields in a oneof",
            vec![(
                "oneof_fields.proto",
                message(format!("  oneof big {{\n{}  }}\n", fields(1201))),
            )],
        ),
        (
            "1,701 enum values, nested, and 1,701 at the top opted out",
            vec![(
                "values.proto",
                format!(
                    "edition = \"2026\";\npackage t;\n\
                     message M {{ enum Big {{ V0 = 0; {values} }} }}\n\
                     enum Top {{ option features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS; \
                     T0 = 0; {} }}\n",
                    values.replace('V', "T")
                ),
            )],
        ),
    ]
}

/// How one case compared: whether protoc refused it, and the difference
/// (`None` when both compilers agree: the same bytes, with and without
/// source info, or the same errors).
fn compare(dir: &Path, files: &Case) -> (bool, Option<String>) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let root = files[0].0;
    let mut refused = false;
    for source_info in [false, true] {
        let protoc = support::protoc_set(dir, &[root], source_info)
            .map_err(|stderr| stderr.replace(&format!("{}/", dir.display()), ""));
        let ours = Compiler::new()
            .include(dir)
            .include_source_info(source_info)
            .compile_to_bytes(&[root])
            .map_err(|e| e.to_string());
        refused = protoc.is_err();
        match (ours, protoc) {
            (Ok(ours), Ok(protoc)) if ours == protoc => {}
            (Err(ours), Err(protoc)) if ours.trim_end() == protoc.trim_end() => {}
            (Ok(_), Ok(_)) => return (refused, Some("different bytes".to_owned())),
            (ours, protoc) => {
                return (
                    refused,
                    Some(format!(
                        "ours:\n{:?}\nprotoc:\n{:?}",
                        ours.err(),
                        protoc.err()
                    )),
                );
            }
        }
    }
    (refused, None)
}

#[test]
fn edition_2026_compiles_as_protoc_compiles_it() {
    let dir = std::env::temp_dir().join(format!("buffa-compile-2026-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    let mut differences = Vec::new();
    let mut refused = 0;
    for (name, files) in &cases {
        let (protoc_refused, difference) = compare(&dir, files);
        refused += usize::from(protoc_refused);
        if let Some(difference) = difference {
            differences.push(format!("{name}:\n{difference}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!(
        "edition 2026: {} cases, {refused} refused by protoc, {} differ",
        cases.len(),
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
    // Both kinds of case are there: accepted and refused.
    assert!(
        refused >= 8 && refused + 4 <= cases.len(),
        "{refused} refused"
    );
}

/// The files of googleapis' copy of `google/protobuf` written in edition
/// 2026 (`edition = "2026";`).
fn googleapis_2026_files(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![root.join("google/protobuf")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if std::fs::read_to_string(&path)
                .is_ok_and(|text| text.contains("edition = \"2026\";"))
            {
                let name = path.strip_prefix(root).unwrap().to_string_lossy();
                found.push(name.replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn googleapis_edition_2026_files_compile_as_protoc_compiles_them() {
    let root = support::corpus_cache::googleapis();
    let files = googleapis_2026_files(&root);
    assert!(files.len() >= 5, "googleapis' 2026 files: {files:?}");
    for file in &files {
        for source_info in [false, true] {
            let protoc = support::protoc_set(&root, &[file], source_info).unwrap();
            let ours = Compiler::new()
                .include(&root)
                .include_source_info(source_info)
                .compile_to_bytes(&[file])
                .unwrap();
            assert!(ours == protoc, "{file} (source info: {source_info})");
        }
    }
}
