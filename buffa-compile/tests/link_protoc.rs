//! The whole compiler against protoc on real schemas (protobuf's own test
//! protos, the conformance protos, googleapis), measuring what the linker
//! owns: names resolved, types set, JSON names, defaults and `syntax` as
//! protoc writes them, the same files accepted and refused.
//!
//! Each unit is compiled by both. Sets are compared twice: byte for byte
//! (which needs option interpretation too), and with options and source
//! info cleared on both sides (the linker's part, which must agree on
//! every unit both accept).

mod support;

use std::path::Path;

use buffa::Message;
use buffa_compile::Compiler;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FileDescriptorProto, FileDescriptorSet,
};

/// How the units of a corpus compared.
#[derive(Default)]
struct Tally {
    units: usize,
    /// Both accept and write the same bytes, with and without source info.
    identical: usize,
    /// Both accept and agree once options and source info are cleared.
    linked_alike: usize,
    both_refuse: usize,
    /// Units both refuse with a different first error.
    error_differences: Vec<String>,
    /// Units both accept whose sets differ beyond options: linker bugs.
    link_differences: Vec<String>,
    /// Units one compiler accepts and the other refuses.
    verdict_differences: Vec<String>,
}

impl Tally {
    fn report(&self, corpus: &str) {
        let both_accept = self.units - self.both_refuse - self.verdict_differences.len();
        println!(
            "{corpus}: {} units; byte-identical on {} of {both_accept} both accept; linked alike \
             (options and source info aside) on {} of {both_accept}; {} refused by both ({} with \
             protoc's first error); {} accepted by one only",
            self.units,
            self.identical,
            self.linked_alike,
            self.both_refuse,
            self.both_refuse - self.error_differences.len(),
            self.verdict_differences.len()
        );
        for d in self
            .link_differences
            .iter()
            .chain(&self.verdict_differences)
            .chain(&self.error_differences)
        {
            println!("  {d}");
        }
    }
}

fn clear_message(m: &mut DescriptorProto) {
    m.options = Default::default();
    for f in m.field.iter_mut().chain(&mut m.extension) {
        f.options = Default::default();
    }
    for o in &mut m.oneof_decl {
        o.options = Default::default();
    }
    for r in &mut m.extension_range {
        r.options = Default::default();
    }
    m.enum_type.iter_mut().for_each(clear_enum);
    m.nested_type.iter_mut().for_each(clear_message);
}

fn clear_enum(e: &mut EnumDescriptorProto) {
    e.options = Default::default();
    for v in &mut e.value {
        v.options = Default::default();
    }
}

/// `file` without its options (at every level) and source info.
fn clear_options(file: &mut FileDescriptorProto) {
    file.options = Default::default();
    file.source_code_info = Default::default();
    file.message_type.iter_mut().for_each(clear_message);
    file.enum_type.iter_mut().for_each(clear_enum);
    for x in &mut file.extension {
        x.options = Default::default();
    }
    for s in &mut file.service {
        s.options = Default::default();
        for m in &mut s.method {
            m.options = Default::default();
        }
    }
}

/// Where two files first differ, as a short excerpt of each.
fn first_difference(ours: &FileDescriptorProto, theirs: &FileDescriptorProto) -> String {
    let (a, b) = (format!("{ours:?}"), format!("{theirs:?}"));
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let excerpt = |s: &str| {
        let from = s.floor_char_boundary(at.saturating_sub(120));
        let to = s.floor_char_boundary((at + 80).min(s.len()));
        s[from..to].to_owned()
    };
    format!("ours …{}… protoc …{}…", excerpt(&a), excerpt(&b))
}

/// Compiles `files` under `include` with both compilers and tallies the
/// outcome.
fn compare(include: &Path, files: &[String], tally: &mut Tally) {
    tally.units += 1;
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let unit = names.first().copied().unwrap_or_default();
    let mut identical = true;
    for source_info in [false, true] {
        let theirs = support::protoc_set(include, &names, source_info);
        let ours = Compiler::new()
            .include(include)
            .include_source_info(source_info)
            .compile(&names);
        let (ours, theirs) = match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => (ours, theirs),
            (Err(ours), Err(protoc)) => {
                tally.both_refuse += 1;
                // protoc names a file by its path on disk where it was given
                // one.
                let theirs = protoc
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .replace(&format!("{}/", include.display()), "");
                let ours = ours.diagnostics()[0].to_string();
                if ours != theirs {
                    tally
                        .error_differences
                        .push(format!("{unit}: refused with {ours}; protoc: {theirs}"));
                }
                return;
            }
            (Ok(_), Err(protoc)) => {
                let first = protoc.lines().next().unwrap_or_default().to_owned();
                tally
                    .verdict_differences
                    .push(format!("{unit}: accepted; protoc refuses: {first}"));
                return;
            }
            (Err(error), Ok(_)) => {
                tally.verdict_differences.push(format!(
                    "{unit}: refused ({}); protoc accepts",
                    error.diagnostics()[0]
                ));
                return;
            }
        };
        identical &= ours.encode_to_vec() == theirs;
        if source_info {
            continue;
        }
        let mut theirs = FileDescriptorSet::decode_from_slice(&theirs).unwrap().file;
        let mut ours = ours.file;
        ours.iter_mut().for_each(clear_options);
        theirs.iter_mut().for_each(clear_options);
        if ours == theirs {
            tally.linked_alike += 1;
        } else {
            let detail = ours
                .iter()
                .zip(&theirs)
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("{}: {}", a.name(), first_difference(a, b)))
                .unwrap_or_else(|| "a different number of files".to_owned());
            tally.link_differences.push(format!("{unit}: {detail}"));
        }
    }
    if identical {
        tally.identical += 1;
    }
}

/// The `.proto` files directly in `dir`, relative to `include`, sorted.
fn protos_in(include: &Path, dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "proto"))
        .filter_map(|p| Some(p.strip_prefix(include).ok()?.to_string_lossy().into_owned()))
        .collect();
    files.sort();
    files
}

#[test]
fn protobufs_test_protos_link_as_protoc_links_them() {
    let src = support::protobuf_src();
    let mut tally = Tally::default();
    for file in protos_in(&src, &src.join("google/protobuf")) {
        compare(&src, &[file], &mut tally);
    }
    tally.report("protobuf 27.1 test protos");
    assert!(tally.linked_alike >= 40, "too few units compiled");
    assert!(
        tally.link_differences.is_empty(),
        "{}",
        tally.link_differences.join("\n")
    );
}

#[test]
fn conformance_protos_link_as_protoc_links_them() {
    let root = support::corpus_cache::protobuf_33_include();
    let mut tally = Tally::default();
    for dir in ["conformance", "google/protobuf"] {
        for file in protos_in(&root, &root.join(dir)) {
            compare(&root, &[file], &mut tally);
        }
    }
    tally.report("protobuf 33.2 conformance and test protos");
    assert!(
        tally.link_differences.is_empty(),
        "{}",
        tally.link_differences.join("\n")
    );
}

#[test]
#[ignore = "slow (a minute): every googleapis package through both compilers"]
fn googleapis_links_as_protoc_links_it() {
    let root = support::corpus_cache::googleapis();
    let mut dirs = vec![root.join("google")];
    let mut tally = Tally::default();
    while let Some(dir) = dirs.pop() {
        let files = protos_in(&root, &dir);
        if !files.is_empty() {
            compare(&root, &files, &mut tally);
        }
        dirs.extend(
            std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir()),
        );
    }
    tally.report("googleapis");
    assert!(tally.units > 500, "googleapis is missing");
    assert!(
        tally.link_differences.is_empty(),
        "{}",
        tally.link_differences.join("\n")
    );
}

/// Small files that exercise what linking writes (without options, which
/// are interpreted in a later stage): both compilers must write the same
/// bytes.
#[test]
fn small_files_compile_as_protoc_compiles_them() {
    let files = [
        (
            "proto2.proto",
            "syntax = \"proto2\";\npackage p;\nimport \"dep.proto\";\n\
             message M {\n  optional float f = 1 [default = 3.14159265358979];\n  \
             optional double d = 2 [default = -inf];\n  optional E e = 3 [default = B];\n  \
             optional bytes b = 4 [default = \"\\001\\377x\"];\n  optional q.D dep = 5;\n  \
             optional int32 renamed = 6 [json_name = \"other\"];\n  \
             optional group G = 7 { optional int32 x = 8; }\n  extensions 100 to max;\n}\n\
             enum E { A = 0; B = 1; }\nextend M { optional M ext = 100; }\n\
             service S { rpc Call(M) returns (q.D) {} rpc Stream(stream M) returns (stream M); }\n",
        ),
        (
            "dep.proto",
            "syntax = \"proto3\";\npackage q;\nmessage D { map<string, D> m = 1; optional int32 o = 2; }\n",
        ),
        (
            "editions.proto",
            "edition = \"2023\";\npackage e;\nmessage N { N inner = 1; int32 with_default = 2 [default = 7]; }\n",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("buffa-link-small-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let roots = ["proto2.proto", "editions.proto"];
    for source_info in [false, true] {
        let theirs = support::protoc_set(&dir, &roots, source_info).expect("protoc accepts");
        let ours = Compiler::new()
            .include(&dir)
            .include_source_info(source_info)
            .compile_to_bytes(&roots)
            .unwrap_or_else(|e| panic!("{e}"));
        if ours != theirs {
            let ours = FileDescriptorSet::decode_from_slice(&ours).unwrap();
            let theirs = FileDescriptorSet::decode_from_slice(&theirs).unwrap();
            let (a, b) = ours
                .file
                .iter()
                .zip(&theirs.file)
                .find(|(a, b)| a != b)
                .expect("a file differs");
            panic!("source info {source_info}: {}", first_difference(a, b));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files protoc refuses at link time: the compiler must refuse them with
/// protoc's first error, at protoc's position.
#[test]
fn bad_files_fail_as_protoc_fails_them() {
    let cases = [
        "syntax = \"proto3\";\nmessage M { int32 x = 1 [features.field_presence = EXPLICIT]; }\n",
        "syntax = \"proto2\";\nenum E { Z = 1; O = 0; }\nmessage M { map<int32, E> m = 1; }\n",
        "syntax = \"proto2\";\nmessage M { optional N n = 1; }\n",
        "syntax = \"proto2\";\npackage p;\nmessage M { optional int32 a = 1; optional int32 b = 1; }\n",
        "syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\nextend M { optional int32 x = 11; }\n",
        "syntax = \"proto3\";\nenum E { A = 1; }\n",
        "syntax = \"proto3\";\nmessage M { int32 a_b = 1; int32 aB = 2; }\n",
        "syntax = \"proto2\";\nmessage M { reserved 2; optional int32 x = 2; }\n",
        "syntax = \"proto2\";\nenum E { A = 0; }\nenum F { A = 1; }\n",
        "syntax = \"proto2\";\nmessage A { message B {} }\nmessage C { message A {} optional A.B b = 1; }\n",
        "syntax = \"proto2\";\nmessage M { repeated string s = 1 [packed = true]; }\n",
        "syntax = \"proto2\";\nservice S { rpc R(E) returns (E); }\nenum E { Z = 0; }\n",
        "syntax = \"proto2\";\nmessage M { map<E, int32> m = 1; }\nenum E { Z = 0; }\n",
        "syntax = \"proto2\";\nenum Color { COLOR_RED = 0; RED = 1; }\n",
        "edition = \"2023\";\nmessage M { required int32 x = 1; }\n",
        "edition = \"2023\";\nmessage M { enum E { A = 1; } }\n",
        "syntax = \"proto2\";\nmessage M { optional int32 x = 19999; }\n",
        "syntax = \"proto2\";\nmessage M { map<int32,int32> foo = 1; optional FooEntry x = 2; }\n",
        "syntax = \"proto2\";\nmessage M { map<int32,int32> foo = 1; }\n\
         message N { repeated M.FooEntry foo = 1; }\n",
        "syntax = \"proto2\";\nmessage M { extensions 18000 to 20000; }\n\
         extend M { optional int32 x = 19500; }\n",
        "edition = \"2023\";\noption features.enum_type = CLOSED;\nenum C { A = 1; }\n\
         message M { enum E { A = 0; B = 2; } enum F { option features.enum_type = OPEN; Q = 3; } }\n",
    ];
    let dir = std::env::temp_dir().join(format!("buffa-link-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut differences = Vec::new();
    for (i, text) in cases.iter().enumerate() {
        let name = format!("bad{i}.proto");
        std::fs::write(dir.join(&name), text).unwrap();
        let theirs = support::protoc_set(&dir, &[&name], false)
            .expect_err("protoc refuses")
            .lines()
            .next()
            .unwrap_or_default()
            .replace(&format!("{}/", dir.display()), "");
        let ours = match Compiler::new().include(&dir).compile(&[&name]) {
            Ok(_) => "accepted".to_owned(),
            Err(e) => e.diagnostics()[0].to_string(),
        };
        if ours != theirs {
            differences.push(format!("{text}  ours:   {ours}\n  protoc: {theirs}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// Extensions of one number in two files: protoc warns and writes both.
#[test]
fn extensions_sharing_a_number_across_files_are_accepted() {
    let dir = std::env::temp_dir().join(format!("buffa-link-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "t.proto",
            "syntax = \"proto2\";\nmessage T { extensions 1 to 10; }\n",
        ),
        (
            "e1.proto",
            "syntax = \"proto2\";\nimport \"t.proto\";\nextend T { optional int32 a = 5; }\n",
        ),
        (
            "e2.proto",
            "syntax = \"proto2\";\nimport \"t.proto\";\nextend T { optional int32 b = 5; }\n",
        ),
        (
            "u.proto",
            "syntax = \"proto2\";\nimport \"e1.proto\";\nimport \"e2.proto\";\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let theirs = support::protoc_set(&dir, &["u.proto"], true).expect("protoc accepts");
    let ours = Compiler::new()
        .include(&dir)
        .include_source_info(true)
        .compile_to_bytes(&["u.proto"])
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ours == theirs);
}

/// Edition 2024's symbol visibility: a type local to its file (by
/// `local`, or by the file's default) cannot be used from another.
#[test]
fn local_types_are_not_visible_from_other_files() {
    let dep = "edition = \"2024\";\npackage d;\nlocal message L {}\nexport message E { message N {} }\n\
               message D { enum K { Z = 0; } }\nlocal enum LE { Q = 0; }\n";
    let cases = [
        "edition = \"2024\";\nimport \"dep.proto\";\nmessage A { d.L l = 1; }\n",
        "edition = \"2024\";\nimport \"dep.proto\";\nmessage A { d.E.N n = 1; }\n",
        "edition = \"2024\";\nimport \"dep.proto\";\nmessage A { d.D.K k = 1; }\n",
        "edition = \"2024\";\nimport \"dep.proto\";\nmessage A { d.LE e = 1; }\n",
        "edition = \"2024\";\nimport \"dep.proto\";\nservice S { rpc R(d.L) returns (d.D); }\n",
        "edition = \"2024\";\nimport \"dep.proto\";\nextend d.L { int32 x = 1; }\n",
    ];
    let dir = std::env::temp_dir().join(format!("buffa-link-visibility-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dep.proto"), dep).unwrap();
    let mut differences = Vec::new();
    for (i, text) in cases.iter().enumerate() {
        let name = format!("use{i}.proto");
        std::fs::write(dir.join(&name), text).unwrap();
        let theirs = support::protoc_set(&dir, &[&name], false)
            .expect_err("protoc refuses")
            .lines()
            .next()
            .unwrap_or_default()
            .replace(&format!("{}/", dir.display()), "");
        let ours = match Compiler::new().include(&dir).compile(&[&name]) {
            Ok(_) => "accepted".to_owned(),
            Err(e) => e.diagnostics()[0].to_string(),
        };
        if ours != theirs {
            differences.push(format!("{text}  ours:   {ours}\n  protoc: {theirs}"));
        }
    }
    // What is exported may be used.
    std::fs::write(
        dir.join("ok.proto"),
        "edition = \"2024\";\nimport \"dep.proto\";\nmessage A { d.E e = 1; d.D d = 2; }\n",
    )
    .unwrap();
    let theirs = support::protoc_set(&dir, &["ok.proto"], false).expect("protoc accepts");
    let ours = Compiler::new()
        .include(&dir)
        .compile_to_bytes(&["ok.proto"])
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ours == theirs, "the accepted file differs");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
