//! Imports as protoc follows them: the order of the files in the set
//! (plain imports, then `import option`), and the errors of missing and
//! recursive imports, compared with protoc's output and stderr.

mod support;

use std::path::{Path, PathBuf};

use buffa::Message;
use buffa_compile::Compiler;

/// A directory holding `files`, removed when dropped.
struct Protos(PathBuf);

impl Protos {
    fn new(name: &str, files: &[(&str, &str)]) -> Protos {
        let dir = std::env::temp_dir().join(format!(
            "buffa-compile-imports-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        Protos(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Protos {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn compiler(dir: &Path) -> Compiler {
    let mut compiler = Compiler::new();
    compiler.include(dir);
    compiler
}

/// protoc's error lines with the directory prefix of disk paths removed.
fn protoc_errors(dir: &Path, file: &str) -> Vec<String> {
    let stderr = support::protoc_set(dir, &[file], false).unwrap_err();
    let prefix = format!("{}/", dir.display());
    stderr
        .lines()
        .map(|line| line.replace(&prefix, ""))
        .collect()
}

#[test]
fn option_imports_follow_plain_imports_in_the_set() {
    let protos = Protos::new(
        "order",
        &[
            (
                "a.proto",
                "edition = \"2024\";\npackage t;\nimport \"b.proto\";\nimport option \"opt.proto\";\n\
                 option (o.tag) = 3;\nmessage M { b.B x = 1; }\n",
            ),
            ("b.proto", "edition = \"2024\";\npackage b;\nmessage B {}\n"),
            (
                "opt.proto",
                "edition = \"2024\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n\
                 extend google.protobuf.FileOptions { int32 tag = 5000; }\n",
            ),
        ],
    );
    for source_info in [false, true] {
        let expected = support::protoc_set(protos.path(), &["a.proto"], source_info).unwrap();
        let actual = compiler(protos.path())
            .include_source_info(source_info)
            .compile(&["a.proto"])
            .unwrap();
        let names: Vec<_> = actual
            .file
            .iter()
            .map(|f| f.name.clone().unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            [
                "b.proto",
                "google/protobuf/descriptor.proto",
                "opt.proto",
                "a.proto"
            ]
        );
        assert!(
            actual.encode_to_vec() == expected,
            "source info {source_info}"
        );
    }
}

#[test]
fn a_recursive_import_is_reported_as_protoc_reports_it() {
    let protos = Protos::new(
        "cycle",
        &[
            ("r1.proto", "syntax = \"proto3\";\nimport \"r2.proto\";\n"),
            ("r2.proto", "syntax = \"proto3\";\nimport \"r1.proto\";\n"),
        ],
    );
    let error = compiler(protos.path()).compile(&["r1.proto"]).unwrap_err();
    let ours: Vec<String> = error
        .diagnostics()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(ours, protoc_errors(protos.path(), "r1.proto"));
    assert_eq!(
        ours[0],
        "r1.proto:2:1: File recursively imports itself: r1.proto -> r2.proto -> r1.proto"
    );
}

#[test]
fn a_missing_import_is_reported_as_protoc_reports_it() {
    let protos = Protos::new(
        "missing",
        &[(
            "m.proto",
            "syntax = \"proto3\";\n\nimport \"missing.proto\";\n",
        )],
    );
    let error = compiler(protos.path()).compile(&["m.proto"]).unwrap_err();
    let ours: Vec<String> = error
        .diagnostics()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(ours, protoc_errors(protos.path(), "m.proto"));
    assert_eq!(
        ours,
        [
            "missing.proto: File not found.",
            "m.proto:3:1: Import \"missing.proto\" was not found or had errors."
        ]
    );
}

#[test]
fn imports_nested_too_deep_are_an_error_not_a_stack_overflow() {
    // A chain of 2,000 files, each importing the next, compiled on a test
    // thread's small stack.
    let mut compiler = Compiler::new();
    for i in 0..2_000 {
        compiler.source(
            format!("c{i}.proto"),
            format!("syntax = \"proto3\";\nimport \"c{}.proto\";\n", i + 1),
        );
    }
    compiler.source("c2000.proto", "syntax = \"proto3\";\n");
    let error = compiler.compile(&["c0.proto"]).unwrap_err();
    let first = error.diagnostics()[0].to_string();
    assert_eq!(
        first,
        "c128.proto:2:1: Imports nest more than 128 files deep."
    );
    // A chain within the limit compiles, each file after its import.
    let mut compiler = Compiler::new();
    for i in 0..120 {
        compiler.source(
            format!("c{i}.proto"),
            format!("syntax = \"proto3\";\nimport \"c{}.proto\";\n", i + 1),
        );
    }
    compiler.source("c120.proto", "syntax = \"proto3\";\n");
    let set = compiler.compile(&["c0.proto"]).unwrap();
    assert_eq!(set.file.len(), 121);
    assert_eq!(set.file[0].name.as_deref(), Some("c120.proto"));
}
