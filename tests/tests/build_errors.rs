//! Bad input to buffa-build returns a clear `Err`, never a panic: malformed
//! protos, missing files and directories, option paths that match nothing,
//! bad pointer templates, attributes and `buffa_path`s, a protoc that cannot
//! run, and what edition 2024 forbids. (Names never fail: clashing ones
//! resolve, as tests/naming.rs shows.)

use std::path::Path;

use buffa_build::{BytesRepr, Config, Error, PointerRepr, StringRepr};

/// A temporary directory holding `files` (name, content).
fn protos(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

const GOOD: &str = r#"
syntax = "proto3";
package good;
message Tree {
  string name = 1;
  Tree left = 2;
  map<string, int32> counts = 3;
  bytes data = 4;
  oneof pick {
    Tree subtree = 5;
    int32 leaf = 6;
  }
}
"#;

/// A configuration for `good.proto` in `dir`, writing to `dir/out`.
fn good(dir: &Path) -> Config {
    let mut config = Config::new();
    config
        .files(&["good.proto"])
        .includes(&[dir])
        .out_dir(dir.join("out"));
    config
}

fn expect_err(config: &Config) -> Error {
    match config.generate() {
        Ok(files) => panic!(
            "expected an error, generated {:?}",
            files.iter().map(|f| &f.name).collect::<Vec<_>>()
        ),
        Err(e) => e,
    }
}

#[test]
fn the_good_proto_compiles() {
    let dir = protos(&[("good.proto", GOOD)]);
    good(dir.path()).include_file("mod.rs").compile().unwrap();
    let out = dir.path().join("out");
    assert!(out.join("good.rs").is_file());
    assert!(
        std::fs::read_to_string(out.join("mod.rs"))
            .unwrap()
            .contains("include!(\"good.rs\")")
    );
}

#[test]
fn syntax_error_reports_protoc_file_and_line() {
    let dir = protos(&[(
        "bad.proto",
        "syntax = \"proto3\";\npackage bad;\nmessage M {\n  int32 x = ;\n}\n",
    )]);
    let e = expect_err(
        Config::new()
            .files(&["bad.proto"])
            .includes(&[dir.path()])
            .out_dir(dir.path().join("out")),
    );
    let message = compiler_message(&e);
    assert!(
        message.contains("bad.proto:4:13: Expected field number."),
        "{message}"
    );
    assert!(e.to_string().starts_with("buffa-build: "), "{e}");
    // Nothing was written.
    assert!(!dir.path().join("out").exists());
}

#[test]
fn semantic_errors_report_protoc_file_and_line() {
    let cases = [
        (
            "syntax = \"proto3\";\nmessage M {\n  Missing m = 1;\n}\n",
            "x.proto:3:",
        ),
        (
            "syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n  int32 b = 1;\n}\n",
            "x.proto:4:",
        ),
        (
            "syntax = \"proto3\";\nimport \"nowhere.proto\";\nmessage M {}\n",
            "nowhere.proto",
        ),
        ("syntax = \"proto4\";\n", "x.proto:1:"),
        (
            "syntax = \"proto2\";\nmessage M {\n  int32 a = 1;\n}\n",
            "x.proto:3:",
        ),
        (
            "syntax = \"proto3\";\nmessage M {\n  optional int32 a = 1 [default = 3];\n}\n",
            "x.proto:3:",
        ),
    ];
    for (source, location) in cases {
        let dir = protos(&[("x.proto", source)]);
        for protoc in [false, true] {
            let e = expect_err(&x_proto(dir.path(), protoc));
            assert!(compiler_message(&e).contains(location), "{source}: {e}");
        }
    }
}

#[test]
fn missing_file() {
    let dir = protos(&[("good.proto", GOOD)]);
    let e = expect_err(
        Config::new()
            .files(&["absent.proto"])
            .includes(&[dir.path()]),
    );
    assert!(
        matches!(&e, Error::Compile(_)) && compiler_message(&e) == "absent.proto: File not found.",
        "{e}"
    );
    let e = expect_err(
        Config::new()
            .files(&["absent.proto"])
            .includes(&[dir.path()])
            .protoc(),
    );
    assert!(
        matches!(&e, Error::Config(m) if m.contains("absent.proto") && m.contains("not found")),
        "{e}"
    );
    let e = expect_err(&Config::new());
    assert!(
        matches!(&e, Error::Config(m) if m.contains("no .proto files")),
        "{e}"
    );
}

#[test]
fn bad_include_directory() {
    let dir = protos(&[("good.proto", GOOD)]);
    let e = expect_err(good(dir.path()).includes(&[dir.path().join("does/not/exist")]));
    assert!(
        matches!(&e, Error::Config(m) if m.contains("does/not/exist") && m.contains("not a directory")),
        "{e}"
    );
    // A file where a directory is expected.
    let e = expect_err(good(dir.path()).includes(&[dir.path().join("good.proto")]));
    assert!(
        matches!(&e, Error::Config(m) if m.contains("not a directory")),
        "{e}"
    );
}

/// A path that names nothing in `good.proto`.
const TYPO: &str = ".nope.Missing";

/// Adds one option to a configuration.
type Configure = fn(&mut Config);

#[test]
fn option_paths_matching_nothing() {
    let dir = protos(&[("good.proto", GOOD)]);
    let configs: [(&str, Configure); 13] = [
        ("btree_map", |c| {
            c.btree_map(&[TYPO]);
        }),
        ("bytes_type", |c| {
            c.bytes(&[TYPO]);
        }),
        ("bytes_type", |c| {
            c.bytes_type_in(BytesRepr::Vec, &[TYPO]);
        }),
        ("string_type", |c| {
            c.string_type_in(StringRepr::BytesStr, &[TYPO]);
        }),
        ("pointer", |c| {
            c.box_type_in(PointerRepr::Box, &[TYPO]);
        }),
        ("pointer", |c| {
            c.unbox_message_fields_in(&[TYPO]);
        }),
        ("unbox_oneof", |c| {
            c.unbox_oneof_in(&[TYPO]);
        }),
        ("type_attribute", |c| {
            c.type_attribute(TYPO, "#[derive(Hash)]");
        }),
        ("message_attribute", |c| {
            c.message_attribute(TYPO, "#[derive(Hash)]");
        }),
        ("enum_attribute", |c| {
            c.enum_attribute(TYPO, "#[derive(Hash)]");
        }),
        ("field_attribute", |c| {
            c.field_attribute(TYPO, "#[allow(unused)]");
        }),
        // A near miss: a prefix of a real name is not a path segment.
        ("btree_map", |c| {
            c.btree_map(&[".good.Tre"]);
        }),
        ("btree_map", |c| {
            c.btree_map(&[".good.Tree.count"]);
        }),
    ];
    for (kind, configure) in configs {
        let mut config = good(dir.path());
        configure(&mut config);
        let e = expect_err(&config);
        assert!(
            matches!(&e, Error::Codegen(_))
                && e.to_string().contains(kind)
                && e.to_string().contains("matches no"),
            "{kind}: {e}"
        );
    }
    // Paths that exist are accepted, with or without the leading dot.
    good(dir.path())
        .btree_map(&["good.Tree.counts"])
        .bytes(&[".good.Tree.data"])
        .string_type_in(
            StringRepr::BytesStr,
            &["good.Tree.pick", ".good.Tree.counts"],
        )
        .unbox_oneof_in(&[".good.Tree.pick"])
        .field_attribute(".good.Tree.name", "#[allow(unused)]")
        .type_attribute("good", "#[derive(Eq)]")
        .generate()
        .unwrap();
}

#[test]
fn bad_pointer_templates() {
    let dir = protos(&[("good.proto", GOOD)]);
    let cases = [
        ("crate::ptr::SmallBox", "no `*`"),
        ("", "no `*`"),
        ("Box<*", "not a Rust type"),
        ("* *", "not a Rust type"),
        ("crate::ptr::SmallBox<*>>", "not a Rust type"),
        ("fn(*) ->", "not a Rust type"),
    ];
    for (template, expected) in cases {
        let e = expect_err(good(dir.path()).box_type_custom(template));
        assert!(
            matches!(&e, Error::Codegen(_)) && e.to_string().contains(expected),
            "{template:?}: {e}"
        );
        let e = expect_err(good(dir.path()).box_type_custom_in(template, &[".good.Tree.left"]));
        assert!(e.to_string().contains(expected), "{template:?}: {e}");
    }
    // A well-formed template is accepted.
    good(dir.path())
        .box_type_custom("::std::sync::Arc<*>")
        .generate()
        .unwrap();
}

#[test]
fn bad_buffa_paths() {
    let dir = protos(&[("good.proto", GOOD)]);
    let cases = [
        ("", "not a Rust path"),
        ("::", "not a Rust path"),
        ("buffa rt", "not a Rust path"),
        ("::buffa::", "not a Rust path"),
        ("::buffa<T>", "generic arguments"),
        ("super::buffa", "relative"),
        ("self::buffa", "relative"),
        // A relative crate name would be shadowed by a generated module of
        // the same name (the package `x.buffa_rt` is the module `buffa_rt`).
        (
            "buffa_rt",
            "must start with `::` or `crate::` (e.g. `::buffa_rt`)",
        ),
        ("buffa_rt::inner", "(e.g. `::buffa_rt::inner`)"),
    ];
    for (path, expected) in cases {
        let e = expect_err(good(dir.path()).buffa_path(path));
        assert!(
            matches!(&e, Error::Codegen(_))
                && e.to_string().contains("buffa_path")
                && e.to_string().contains(expected),
            "{path:?}: {e}"
        );
        // `compile` checks it before writing anything.
        let e = good(dir.path()).buffa_path(path).compile().unwrap_err();
        assert!(e.to_string().contains("buffa_path"), "{path:?}: {e}");
        assert!(!dir.path().join("out").exists());
    }
    // The path reaches every reference to the runtime.
    let files = good(dir.path()).buffa_path("crate::rt").generate().unwrap();
    let code = &files[0].content;
    assert!(
        code.contains("use crate::rt::__private::alias::*;"),
        "{code}"
    );
    assert!(code.contains("crate::rt::MessageField<Tree>"), "{code}");
    assert!(!code.contains("::buffa"), "{code}");
}

#[test]
fn inline_on_an_exact_recursive_field() {
    let dir = protos(&[("good.proto", GOOD)]);
    let e = expect_err(good(dir.path()).unbox_message_fields_in(&[".good.Tree.left"]));
    assert!(
        e.to_string().contains("recursive") && e.to_string().contains(".good.Tree.left"),
        "{e}"
    );
    let e = expect_err(good(dir.path()).unbox_oneof_in(&[".good.Tree.subtree"]));
    assert!(e.to_string().contains("recursive"), "{e}");
    // On a whole scope, recursive fields quietly stay boxed.
    good(dir.path())
        .unbox_message_fields()
        .unbox_oneof()
        .generate()
        .unwrap();
}

#[test]
fn bad_attributes() {
    let dir = protos(&[("good.proto", GOOD)]);
    for attribute in [
        "#[derive(Hash)",
        "derive(Hash)",
        "#[",
        "fn f() {}",
        "\"unterminated",
    ] {
        let e = expect_err(good(dir.path()).type_attribute(".good", attribute));
        assert!(
            matches!(&e, Error::Codegen(_)) && e.to_string().contains("type_attribute"),
            "{attribute:?}: {e}"
        );
    }
}

#[test]
fn protoc_that_cannot_run() {
    let dir = protos(&[("good.proto", GOOD)]);
    let e = expect_err(good(dir.path()).protoc_executable("/definitely/not/protoc"));
    assert!(
        matches!(&e, Error::Protoc(m) if m.contains("/definitely/not/protoc")),
        "{e}"
    );
    // An extra argument protoc rejects.
    let e = expect_err(good(dir.path()).protoc_arg("--no-such-flag"));
    assert!(
        matches!(&e, Error::Protoc(m) if m.contains("--no-such-flag")),
        "{e}"
    );
}

#[test]
fn bad_descriptor_sets() {
    let dir = protos(&[("garbage.pb", "\u{ff}\u{ff}\u{ff}not a descriptor set")]);
    let e = expect_err(Config::new().descriptor_set(dir.path().join("garbage.pb")));
    assert!(
        matches!(&e, Error::Codegen(_)) && e.to_string().contains("invalid FileDescriptorSet"),
        "{e}"
    );
    let missing = dir.path().join("missing.pb");
    let e = expect_err(Config::new().descriptor_set(&missing));
    assert!(matches!(&e, Error::Io(path, _) if *path == missing), "{e}");
}

#[test]
fn include_file_clashing_with_a_package_file() {
    let dir = protos(&[("good.proto", GOOD)]);
    let e = good(dir.path())
        .include_file("good.rs")
        .compile()
        .unwrap_err();
    assert!(
        matches!(&e, Error::Config(m) if m.contains("good.rs")),
        "{e}"
    );
    assert!(!dir.path().join("out/good.rs").exists());
}

#[test]
fn unwritable_output_directory() {
    let dir = protos(&[("good.proto", GOOD), ("out", "a file, not a directory")]);
    let e = good(dir.path()).compile().unwrap_err();
    assert!(
        matches!(&e, Error::Io(path, _) if path.starts_with(dir.path())),
        "{e}"
    );
}

#[test]
fn out_dir_is_required_outside_build_scripts() {
    // Integration tests run without OUT_DIR in the environment.
    if std::env::var_os("OUT_DIR").is_some() {
        return;
    }
    let dir = protos(&[("good.proto", GOOD)]);
    let e = Config::new()
        .files(&["good.proto"])
        .includes(&[dir.path()])
        .compile()
        .unwrap_err();
    assert!(
        matches!(&e, Error::Config(m) if m.contains("OUT_DIR")),
        "{e}"
    );
}

#[test]
fn edition_2024_rules_are_clear_errors() {
    // (file content, what the error must say, as protoc says it).
    let cases = [
        (
            "edition = \"2024\";\npackage t;\nmessage bad_name {\n  int32 a = 1;\n}\n",
            "x.proto:3:9: Message name bad_name should be TitleCase",
        ),
        (
            "edition = \"2024\";\npackage t;\nmessage M {\n  int32 badField = 1;\n}\n",
            "x.proto:4:9: Field name badField should be lower_snake_case",
        ),
        (
            "edition = \"2024\";\npackage t;\nenum E {\n  zero = 0;\n}\n",
            "x.proto:4:3: Enum value name zero should be UPPER_SNAKE_CASE",
        ),
        (
            "edition = \"2024\";\npackage t;\nmessage M {\n  string s = 1 [ctype = CORD];\n}\n",
            "x.proto:4:3: ctype option is not allowed under edition 2024",
        ),
        (
            "edition = \"2024\";\npackage t;\nimport weak \"google/protobuf/empty.proto\";\n",
            "x.proto:3:8: weak import is not supported in edition 2024",
        ),
        (
            "edition = \"2023\";\npackage t;\nexport message M {}\n",
            "x.proto:3:1:",
        ),
        (
            "edition = \"2023\";\npackage t;\nimport option \"google/protobuf/cpp_features.proto\";\n",
            "option import is not supported before edition 2024",
        ),
    ];
    for (source, expected) in cases {
        let dir = protos(&[("x.proto", source)]);
        for protoc in [false, true] {
            let e = expect_err(&x_proto(dir.path(), protoc));
            assert!(compiler_message(&e).contains(expected), "{source}: {e}");
        }
    }
    // Edition 2026 (protoc 36.2's newest) generates code from either
    // compiler's descriptors, the same code; its rules are protoc's.
    let dir = protos(&[(
        "x.proto",
        "edition = \"2026\";\npackage t;\nexport message M {\n  int32 id = 1;\n  \
         Kind kind = 2;\n  repeated int32 values = 3;\n  \
         enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }\n  message Part { string name = 1; }\n  \
         Part part = 4;\n  oneof choice { string a = 5; int32 b = 6; }\n}\n",
    )]);
    let generated = |protoc| {
        let files = x_proto(dir.path(), protoc).generate().unwrap();
        files
            .into_iter()
            .map(|f| (f.name, f.content))
            .collect::<Vec<_>>()
    };
    let ours = generated(false);
    assert!(
        ours.iter().any(|(_, code)| code.contains("pub struct M")),
        "{ours:?}"
    );
    assert_eq!(ours, generated(true));
    let dir = protos(&[(
        "x.proto",
        "edition = \"2026\";\npackage t;\nmessage M {\n  export message Inner {}\n}\n",
    )]);
    for protoc in [false, true] {
        let e = expect_err(&x_proto(dir.path(), protoc));
        assert!(
            compiler_message(&e).contains(
                "x.proto: \"t.M.Inner\" is a nested message and cannot be `export` with STRICT"
            ),
            "{e}"
        );
    }
    // A local type is not visible from another file.
    let dir = protos(&[
        (
            "a.proto",
            "edition = \"2024\";\npackage a;\nmessage Outer {\n  message Inner {}\n}\n\
             local message Hidden {}\n",
        ),
        (
            "b.proto",
            "edition = \"2024\";\npackage b;\nimport \"a.proto\";\nmessage M {\n  \
             a.Outer.Inner inner = 1;\n  a.Hidden hidden = 2;\n}\n",
        ),
    ]);
    for protoc in [false, true] {
        let mut config = Config::new();
        config.files(&["b.proto"]).includes(&[dir.path()]);
        if protoc {
            config.protoc();
        }
        let message = compiler_message(&expect_err(&config));
        assert!(
            message.contains("b.proto:5:3: Symbol \"a.Outer.Inner\"")
                && message.contains("is not visible from \"b.proto\""),
            "{message}"
        );
        assert!(message.contains("\"a.Hidden\""), "{message}");
    }
}

/// A compiler's error in protoc's one-line form (`file:line:column:
/// message`), whether buffa-compile or protoc reported it.
fn compiler_message(e: &Error) -> String {
    match e {
        Error::Compile(error) => error.to_string(),
        Error::Protoc(message) => message.clone(),
        other => panic!("expected a compiler's error, got {other:?}"),
    }
}

/// `x.proto` under `dir`, compiled by buffa-compile or by protoc.
fn x_proto(dir: &Path, protoc: bool) -> Config {
    let mut config = Config::new();
    config.files(&["x.proto"]).includes(&[dir]);
    if protoc {
        config.protoc();
    }
    config
}
