//! The parser against protoc: source info and structure on corpora of
//! real files, and protoc's first error on bad inputs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::Message;
use buffa_types::google::protobuf::{
    DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
};

use super::parse_file;

/// protoc's binary.
fn protoc() -> PathBuf {
    protoc_bin_vendored::protoc_bin_path().expect("vendored protoc")
}

/// A fresh path in the temporary directory.
fn temp_path(what: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("buffa-parse-{}-{n}-{what}", std::process::id()))
}

/// What protoc writes for `files` under `root` (with source info, without
/// imports), or its error output.
fn protoc_files(root: &Path, files: &[String]) -> Result<Vec<FileDescriptorProto>, String> {
    let out = temp_path("set.pb");
    let wkt = protoc_bin_vendored::include_path().expect("vendored includes");
    let output = Command::new(protoc())
        .current_dir(root)
        .arg(format!("--proto_path={}", root.display()))
        .arg(format!("--proto_path={}", wkt.display()))
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .args(files)
        .output()
        .expect("run protoc");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let bytes = std::fs::read(&out).expect("protoc's output");
    let _ = std::fs::remove_file(&out);
    Ok(FileDescriptorSet::decode_from_slice(&bytes)
        .expect("decode")
        .file)
}

/// The `.proto` files under `root/dir`, relative to `root`, sorted.
fn proto_files(root: &Path, dir: &str, recursive: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if recursive {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "proto") {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                found.push(relative);
            }
        }
    }
    found.sort();
    found
}

/// protoc's descriptors of those of `files` it accepts (all in one run
/// when it accepts them all, else file by file), and the others with
/// protoc's error output.
fn accepted(root: &Path, files: &[String]) -> (Vec<FileDescriptorProto>, Vec<(String, String)>) {
    if let Ok(all) = protoc_files(root, files) {
        return (all, Vec::new());
    }
    let mut ok = Vec::new();
    let mut rejected = Vec::new();
    for file in files {
        match protoc_files(root, std::slice::from_ref(file)) {
            Ok(set) => ok.extend(set),
            Err(stderr) => rejected.push((file.clone(), stderr)),
        }
    }
    (ok, rejected)
}

/// What linking fills in or changes, cleared, so that the rest can be
/// compared with the parser's output.
fn unlinked(mut file: FileDescriptorProto) -> FileDescriptorProto {
    fn field(f: &mut FieldDescriptorProto) {
        use buffa_types::google::protobuf::field_descriptor_proto::Type;
        // Linking rewrites integer and float defaults from their values
        // (`-0` becomes `0`, floats print as floats); the others stay.
        let kept_default = f.type_name.is_some()
            || matches!(
                f.r#type,
                Some(Type::String | Type::Bytes | Type::Bool | Type::Double)
            );
        if !kept_default {
            f.default_value = None;
        }
        if f.type_name.is_some() {
            f.r#type = None;
        }
        f.type_name = None;
        f.extendee = None;
        f.json_name = None;
        f.options = Default::default();
    }
    fn message(m: &mut DescriptorProto) {
        m.options = Default::default();
        m.field
            .iter_mut()
            .chain(m.extension.iter_mut())
            .for_each(field);
        m.nested_type.iter_mut().for_each(message);
        m.enum_type.iter_mut().for_each(|e| {
            e.options = Default::default();
            e.value
                .iter_mut()
                .for_each(|v| v.options = Default::default());
        });
        m.oneof_decl
            .iter_mut()
            .for_each(|o| o.options = Default::default());
        m.extension_range
            .iter_mut()
            .for_each(|r| r.options = Default::default());
    }
    file.syntax = None;
    file.edition = None;
    file.options = Default::default();
    file.source_code_info = Default::default();
    file.message_type.iter_mut().for_each(message);
    file.extension.iter_mut().for_each(field);
    file.enum_type.iter_mut().for_each(|e| {
        e.options = Default::default();
        e.value
            .iter_mut()
            .for_each(|v| v.options = Default::default());
    });
    for service in &mut file.service {
        service.options = Default::default();
        for method in &mut service.method {
            method.options = Default::default();
            method.input_type = None;
            method.output_type = None;
        }
    }
    file
}

/// Where the parser's source info first differs from protoc's.
///
/// Linking rewrites one kind of location: an option's (path ending in
/// `uninterpreted_option` (999) and its index) takes the path of the
/// option it interprets, and the locations inside it (name, value) are
/// dropped. So such a location is compared by span and comments only,
/// protoc's path must start with the options' path, and its children are
/// skipped.
fn first_difference(ours: &FileDescriptorProto, theirs: &FileDescriptorProto) -> Option<String> {
    let ours = &ours.source_code_info.as_option()?.location;
    let theirs = &theirs.source_code_info.as_option()?.location;
    let (mut i, mut j) = (0, 0);
    while i < ours.len() {
        let a = &ours[i];
        let is_option = a.path.len() >= 2 && a.path[a.path.len() - 2] == 999;
        let same = theirs.get(j).is_some_and(|b| {
            if is_option {
                let prefix = &a.path[..a.path.len() - 2];
                b.path.starts_with(prefix)
                    && b.path.len() > prefix.len()
                    && a.span == b.span
                    && a.leading_comments == b.leading_comments
                    && a.trailing_comments == b.trailing_comments
                    && a.leading_detached_comments == b.leading_detached_comments
            } else {
                a == b
            }
        });
        if !same {
            // protoc strips options of source retention (and the
            // locations of options left empty) when it writes the set.
            let opens_options = ours.get(i + 1).is_some_and(|n| {
                n.path.len() > a.path.len()
                    && n.path.starts_with(&a.path)
                    && n.path[a.path.len()] == 999
            });
            if is_option || opens_options {
                let prefix = a.path.clone();
                i += 1;
                while i < ours.len() && ours[i].path.starts_with(&prefix) {
                    i += 1;
                }
                continue;
            }
            return Some(format!(
                "location {i}: ours {a:?}\n protoc's {:?}",
                theirs.get(j)
            ));
        }
        i += 1;
        j += 1;
        if is_option {
            while i < ours.len()
                && ours[i].path.len() > a.path.len()
                && ours[i].path.starts_with(&a.path)
            {
                i += 1;
            }
        }
    }
    (j != theirs.len()).then(|| format!("protoc has {} more locations", theirs.len() - j))
}

/// Parses each file protoc accepts and compares source info and
/// structure; the number compared.
fn compare_corpus(root: &Path, files: &[String]) -> usize {
    let (expected, rejected) = accepted(root, files);
    let mut failures = Vec::new();
    // A file protoc rejects: when the parser rejects it too, it reports
    // protoc's first error for it (else protoc's errors come from linking).
    let mut parse_rejected = 0;
    for (name, stderr) in &rejected {
        let text = std::fs::read_to_string(root.join(name)).expect("read");
        if let Err(errors) = parse_file(name, &text) {
            parse_rejected += 1;
            let theirs = stderr
                .lines()
                .find(|l| l.starts_with(&format!("{name}:")) && !l.contains(": warning:"));
            let ours = errors[0].to_string();
            if theirs != Some(ours.as_str()) {
                failures.push(format!("{name}: ours {ours:?}, protoc {theirs:?}"));
            }
        }
    }
    if !rejected.is_empty() {
        eprintln!(
            "{}: protoc rejects {} files, {parse_rejected} of them in the parser",
            root.display(),
            rejected.len()
        );
    }
    for theirs in &expected {
        let name = theirs.name().to_owned();
        let text = std::fs::read_to_string(root.join(&name)).expect("read");
        let ours = match parse_file(&name, &text) {
            Ok(ours) => ours,
            Err(e) => {
                failures.push(format!("{name}: rejected: {}", e[0]));
                continue;
            }
        };
        if let Some(difference) = first_difference(&ours, theirs) {
            failures.push(format!("{name}: source info differs at {difference}"));
            continue;
        }
        if unlinked(ours.clone()) != unlinked(theirs.clone()) {
            failures.push(format!("{name}: structure differs"));
        }
    }
    let total = expected.len();
    eprintln!(
        "{}: identical to protoc on {} of {total} files",
        root.display(),
        total - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total > 0, "no files under {}", root.display());
    total
}

#[test]
fn bundled_files_match_protoc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let files = proto_files(&root, "google/protobuf", true);
    assert_eq!(compare_corpus(&root, &files), 20);
}

#[test]
fn protobuf_test_protos_match_protoc() {
    let root = protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src");
    let files = proto_files(&root, "google/protobuf", true);
    compare_corpus(&root, &files);
}

/// A directory of the local cache of downloaded corpora, if present.
fn cached(dir: &str) -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let path = Path::new(&home).join(".cache/buffa").join(dir);
    path.is_dir().then_some(path)
}

#[test]
fn conformance_protos_match_protoc() {
    let Some(root) = cached("protobuf-33.2/package/include") else {
        eprintln!("protobuf 33.2 not cached; skipped");
        return;
    };
    let mut files = proto_files(&root, "google/protobuf", false);
    files.extend(proto_files(&root, "conformance", false));
    compare_corpus(&root, &files);
}

#[test]
fn googleapis_sample_matches_protoc() {
    let Some(root) = cached("google-proto-files-6.0.1") else {
        eprintln!("googleapis not cached; skipped");
        return;
    };
    for dir in [
        "google/api",
        "google/rpc",
        "google/type",
        "google/longrunning",
        "google/pubsub/v1",
        "google/cloud/secretmanager/v1",
        "google/cloud/aiplatform/v1",
        "google/storage/v2",
        "google/spanner/v1",
        "google/firestore/v1",
        "google/cloud/bigquery/storage/v1",
        "google/logging/v2",
    ] {
        let files = proto_files(&root, dir, false);
        compare_corpus(&root, &files);
    }
}

/// Prints both location lists of `$PARSE_DEBUG_FILE` under
/// `$PARSE_DEBUG_ROOT`, for investigating a difference.
#[test]
#[ignore]
fn debug_print_locations() {
    let root = PathBuf::from(std::env::var("PARSE_DEBUG_ROOT").unwrap());
    let name = std::env::var("PARSE_DEBUG_FILE").unwrap();
    let theirs = protoc_files(&root, std::slice::from_ref(&name));
    let text = std::fs::read_to_string(root.join(&name)).unwrap();
    let ours = parse_file(&name, &text);
    match ours {
        Ok(ours) => {
            for l in &ours.source_code_info.as_option().unwrap().location {
                eprintln!(
                    "ours   {:?} {:?} {:?} {:?} {:?}",
                    l.path,
                    l.span,
                    l.leading_comments,
                    l.trailing_comments,
                    l.leading_detached_comments
                );
            }
        }
        Err(e) => eprintln!("ours: {}", e[0]),
    }
    match theirs {
        Ok(theirs) => {
            for l in &theirs[0].source_code_info.as_option().unwrap().location {
                eprintln!(
                    "protoc {:?} {:?} {:?} {:?} {:?}",
                    l.path,
                    l.span,
                    l.leading_comments,
                    l.trailing_comments,
                    l.leading_detached_comments
                );
            }
        }
        Err(e) => eprintln!("protoc: {e}"),
    }
}

/// Every googleapis file, directory by directory (slow: run by hand with
/// `--ignored`).
#[test]
#[ignore]
fn all_of_googleapis_matches_protoc() {
    let Some(root) = cached("google-proto-files-6.0.1") else {
        return;
    };
    let mut dirs = vec![root.join("google")];
    let mut total = 0;
    while let Some(dir) = dirs.pop() {
        let mut has_protos = false;
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "proto") {
                has_protos = true;
            }
        }
        if has_protos {
            let relative = dir
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let files = proto_files(&root, &relative, false);
            total += compare_corpus_lenient(&root, &files);
        }
    }
    eprintln!("googleapis: {total} files compared");
}

/// [`compare_corpus`] that tolerates directories protoc rejects entirely.
fn compare_corpus_lenient(root: &Path, files: &[String]) -> usize {
    if accepted(root, files).0.is_empty() {
        return 0;
    }
    compare_corpus(root, files)
}

/// Bad inputs, each checked against protoc's first error (wording, line
/// and column).
const BAD: &[&str] = &[
    "syntax = \"proto2\"\nmessage A {}\n",
    "syntax = \"proto3\";\nfoo\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = ; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 99999999999; }\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"abc]; }\n",
    "syntax = \"proto2\";\n/* unterminated\nmessage A {}\n",
    "syntax = \"proto2\";\noption java_package = \"\\q\";\n",
    "syntax = \"proto4\";\n",
    "edition = \"2025\";\n",
    "syntax = \"proto2\";\nmessage A { required int32 x = 1; } }\n",
    "syntax = \"proto3\";\nmessage A { int32 x = 1;\n",
    "syntax = \"proto2\";\nmessage A { optional group foo = 1 {} }\n",
    "syntax = \"proto2\";\nmessage A { oneof o { map<int32,int32> m = 1; } }\n",
    "syntax = \"proto2\";\nmessage A { int32 x = 1; }\n",
    "syntax = \"proto2\";\nenum E { A = 1; option allow_alias = false; }\n",
    "syntax = \"proto2\";\nenum E { A = 1; B = 2; option allow_alias = true; }\n",
    "syntax = \"proto2\";\nmessage A { optional uint32 x = 1 [default = -1]; }\n",
    "syntax = \"proto2\";\nmessage A { reserved foo; }\n",
    "edition = \"2023\";\nmessage A { reserved \"foo\"; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 2147483647; }\n",
    "syntax = \"proto2\";\n\tmessage A {\n\t\toptional int32 x = 1\n\t}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 0x; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 08; }\n",
    "syntax = \"proto2\";\noption java_package = -\"a\";\n",
    "syntax = \"proto2\";\noption java_package = -foo;\n",
    "syntax = \"proto2\";\noption java_package = { a: 1 \n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [json_name = \"a\", json_name = \"b\"]; }\n",
    "syntax = \"proto2\";\nmessage \u{e9} {}\n",
    "syntax = \"proto2\";\u{1}\n",
    "syntax = \"proto2\";\nimport weak;\n",
    "edition = \"2023\";\nimport option \"a.proto\";\n",
    "edition = \"2024\";\nimport option \"a.proto\";\nimport \"b.proto\";\n",
    "edition = \"2024\";\nimport weak \"a.proto\";\n",
    "edition = \"2024\";\nmessage A { export int32 x = 1; }\n",
    "syntax = \"proto3\";\nexport message A {}\n",
    "edition = \"2023\";\nlocal message A {}\n",
    "edition = \"2024\";\nexport service S {}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 1x = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional double d = 1 [default = 1.5.3]; }\n",
    "syntax = \"proto3\";\nservice S { rpc M(A) returns (B) }\n",
    "syntax = \"proto2\";\nmessage B { extensions max; }\n",
    "syntax = \"proto2\";\npackage a.b;\npackage c;\n",
    "syntax = \"proto2\";\nmessage A { optional int32 a = 1 [default = 1, default = 2]; }\n",
    "syntax = \"proto2\";\nmessage A { optional group G = 1; }\n",
    "syntax = \"proto2\";\nmessage A {\n  option map_entry = true;\n}\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"\\u12\"]; }\n",
    "syntax = \"proto2\";\n/* a /* b */\nmessage A {}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [(foo.) = 1]; }\n",
    "edition = \"2023\";\nmessage A { optional int32 x = 1; }\n",
    "edition = \"2023\";\nmessage A { group G = 1 {} }\n",
    "syntax = \"proto2\";\nmessage A { reserved 5 to max, \"a\"; }\n",
    "syntax = \"proto2\";\nenum E { reserved -5 to foo; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 y = 2 [default = 9223372036854775808]; }\n",
    "syntax = \"proto2\";\nmessage A { repeated map<int32, int32> m = 1; }\n",
    "syntax = \"proto2\";\nextend A { map<int32,int32> m = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional bool b = 1 [default = yes]; }\n",
    "syntax = \"proto2\";\noption java_package = \"abc\ndef\";\n",
    "syntax = \"proto2\";\nmessage A { optional A a = 1 [default = 1]; optional int32 b = 2 [default = x]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = 1.5]; }\n",
    "syntax = \"proto2\";\nservice S { rpc M(int32) returns (A); }\n",
    "syntax = \"proto2\";\nservice S { rpc M(stream A) returns (stream B) { option deprecated = true } }\n",
    "syntax = \"proto2\";\nmessage A { oneof o { optional int32 x = 1; } }\n",
    "syntax = \"proto2\";\nmessage A { reserved 5, 2147483647; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [packed = true, (a.b).c = 1, d = ]; }\n",
    "syntax = \"proto2\";\nmessage A { optional string x = 1 [default = \"\\U00110000\"]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1e5; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; }\nmessage A.B {}\n",
    "syntax = \"proto2\";\nimport public \"a.proto\" \n",
    "",
    "// only a comment\n}",
    "syntax = \"proto2\";\nenum E { A = 1 [deprecated = true; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 5 [declaration = { number: 1 }; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 }\nmessage B { foo bar baz; optional int32 y = ; }\nenum E { X; Y = ; }\nservice S { rpc ; }\n",
    "syntax = \"proto2\";\nmessage A {\n  optional int32 x = 1;\n  }\n}\n}\nmessage B {}\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"\\xZ\"]; optional string t = 2 [default = \"\\U0020ffff\"]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; }\n/* unterminated /* nested\n",
    "syntax = \"proto2\";\nmessage A { optional double x = 1 [default = 1e]; optional double y = 2 [default = 0x1.5]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 0xFFFFFFFFFFFFFFFFFF; optional int32 y = 2147483648; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = -2147483649]; optional int64 y = 2 [default = 9223372036854775808]; }\n",
    "syntax = \"proto2\";\nmessage A { optional uint32 x = 1 [default = 4294967296]; optional uint64 y = 2 [default = 18446744073709551616]; }\n",
    "syntax = \"proto2\";\nmessage A { optional float x = 1 [default = abc]; optional float y = 2 [default = 0777777777777777777777777]; }\n",
    "syntax = \"proto2\";\nmessage A { reserved 1 to; reserved to 5; reserved \"a\" \"b\", c; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 10 [; extensions; }\n",
    "syntax = \"proto2\";\nenum E { A = -2147483649; B = 2147483648; C = 0x80000000; }\n",
    "syntax = \"proto2\";\nmessage A { oneof { int32 x = 1; } oneof o { } oneof p { option foo; } }\n",
    "syntax = \"proto2\";\nmessage A { map<int32> m = 1; map<int32, int32 m2 = 2; map<,> m3 = 3; }\n",
    "syntax = \"proto2\";\nimport \"a.proto\"\nimport public;\nimport weak 5;\n",
    "syntax = \"proto2\";\npackage ;\npackage a..b;\npackage .a;\n",
    "syntax = \"proto2\";\noption = 1;\noption a;\noption (a = 1;\noption a.(b = 1;\noption a = ;\n",
    "syntax = \"proto2\";\nmessage A { optional group g = 1 { optional int32 a = 2; } optional group H = 2 { optional int32 b = 3 } }\n",
    "syntax = \"proto2\";\nservice S { rpc M(.A) returns (B.C) { option a = 1 } rpc N(A) returns B; rpc O returns (B); }\n",
    "syntax = \"proto2\";\nextend { optional int32 x = 1; }\nextend A { }\nextend A.B { required int32 y = 2 }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = 1 2]; optional A y = 2 [json_name = 5]; }\n",
    "edition = \"2024\";\nimport option \"a.proto\";\nimport option b.proto;\n",
    "edition = \"2023\";\nmessage A { reserved \"foo\", bar; reserved 1, foo; }\n",
    "edition = \"UNSTABLE\";\nmessage A { sint32 x = 1; fixed64 y = 2; zigzag32 z = 3; }\n",
    "edition = \"2024\";\nlocal export message A {}\nexport local enum E {}\nexport extend A {}\n",
    "syntax = \"proto2\";\n\u{1}\u{2}message A {}\u{7f}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x\u{0} = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"a\n\"]; }\n",
    "syntax = \"proto2\";\nmessage A {\n\toptional\tint32\tx\t=\t1\t[\tdefault\t=\t\"\\q\"\t];\n}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; optional int32 y = 2 [default = 1.2.3]; optional int32 z = 3abc; }\n",
    "syntax = \"proto2\";\noption java_package = 1.x;\noption java_package = a.5;\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [a = {]; }\n",
    "syntax = \"proto2\" \"x\";\n",
    "syntax = proto2;\n",
    "syntax;\n",
    "edition = 2023;\n",
    "package a;\nsyntax = \"proto2\";\n",
];

/// A message nested `depth` times.
fn nested(depth: usize) -> String {
    let mut text = String::from("syntax = \"proto2\";\n");
    for i in 0..depth {
        text.push_str(&format!("message M{i} {{\n"));
    }
    text.push_str(&"}\n".repeat(depth));
    text
}

/// protoc's errors (not warnings) for `text` as `bad.proto`, in order.
fn protoc_errors(text: &str) -> Vec<String> {
    let dir = temp_path("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.proto"), text).unwrap();
    let output = Command::new(protoc())
        .current_dir(&dir)
        .arg("--proto_path=.")
        .arg(format!(
            "--proto_path={}",
            protoc_bin_vendored::include_path().unwrap().display()
        ))
        .arg("--descriptor_set_out=out.pb")
        .arg("bad.proto")
        .output()
        .expect("run protoc");
    let errors = match output.status.success() {
        true => Vec::new(),
        false => String::from_utf8_lossy(&output.stderr)
            .lines()
            .filter(|l| l.starts_with("bad.proto") && !l.contains(": warning:"))
            .map(str::to_owned)
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    errors
}

#[test]
fn first_errors_match_protoc() {
    let mut cases: Vec<String> = BAD.iter().map(|s| s.to_string()).collect();
    cases.push(nested(31));
    cases.push(nested(32));
    cases.push(nested(200));
    let mut failures = Vec::new();
    let (mut first_matches, mut all_match, mut rejected) = (0, 0, 0);
    for text in &cases {
        let theirs = protoc_errors(text);
        let ours: Vec<String> = match parse_file("bad.proto", text) {
            Ok(_) => Vec::new(),
            Err(diagnostics) => diagnostics.iter().map(|d| d.to_string()).collect(),
        };
        if theirs.is_empty() {
            if !ours.is_empty() {
                failures.push(format!(
                    "{text:?}\n  ours: {:?}\n  protoc accepts it",
                    ours[0]
                ));
            }
            continue;
        }
        rejected += 1;
        if ours.first() == theirs.first() {
            first_matches += 1;
            if ours == theirs {
                all_match += 1;
            } else {
                eprintln!(
                    "{text:?}: later errors differ\n  ours:   {ours:?}\n  protoc: {theirs:?}"
                );
            }
        } else {
            failures.push(format!(
                "{text:?}\n  ours:   {:?}\n  protoc: {:?}",
                ours.first(),
                theirs.first()
            ));
        }
    }
    eprintln!(
        "first error as protoc's on {first_matches} of {rejected} bad inputs (all errors on {all_match})"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(rejected > 50);
}

#[test]
fn edge_cases_match_protoc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/parse/testdata");
    let mut files = proto_files(&root, "", false);
    files.extend(proto_files(&root, "edge", false));
    let files: Vec<String> = files
        .into_iter()
        .map(|f| f.trim_start_matches('/').to_owned())
        .collect();
    let compared = compare_corpus(&root, &files);
    assert_eq!(compared, files.len(), "protoc rejects some of {files:?}");
}

/// Random edits of the edge-case files, each parsed by both: when protoc
/// accepts, source info and structure are protoc's; when the parser
/// rejects, its first error is protoc's. (`PARSE_MUTANTS` sets how many,
/// `PARSE_MUTANTS_SEED` the generator's seed;
/// when only protoc rejects, the error may be linking's and is not
/// checked.)
#[test]
fn mutants_parse_as_protoc_parses_them() {
    use super::robustness_tests::{Rng, mutate};
    let count: usize = std::env::var("PARSE_MUTANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/parse/testdata");
    let root = temp_path("mutants");
    std::fs::create_dir_all(root.join("edge")).unwrap();
    let mut seeds = Vec::new();
    for dir in ["", "edge"] {
        for name in proto_files(&testdata, dir, false) {
            let name = name.trim_start_matches('/').to_owned();
            let text = std::fs::read_to_string(testdata.join(&name)).unwrap();
            std::fs::write(root.join(&name), &text).unwrap();
            if dir.is_empty() {
                seeds.push(text);
            }
        }
    }
    // Some of protobuf's test protos too (options and aggregates, maps,
    // proto3), with what they import.
    let protobuf = protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src");
    std::fs::create_dir_all(root.join("google/protobuf")).unwrap();
    for name in [
        "unittest_custom_options.proto",
        "unittest_proto3.proto",
        "map_unittest.proto",
        "unittest_import.proto",
        "unittest_import_public.proto",
        "unittest_proto3_optional.proto",
    ] {
        let relative = format!("google/protobuf/{name}");
        let text = std::fs::read_to_string(protobuf.join(&relative)).unwrap();
        std::fs::write(root.join(&relative), &text).unwrap();
        seeds.push(text);
    }
    let name = "mutant.proto".to_owned();
    let seed = std::env::var("PARSE_MUTANTS_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let (mut both_accept, mut both_reject, mut protoc_only) = (0, 0, 0);
    for _ in 0..count {
        let seed = &seeds[rng.below(seeds.len())];
        let text = mutate(seed, &mut rng);
        std::fs::write(root.join(&name), &text).unwrap();
        let theirs = protoc_files(&root, std::slice::from_ref(&name));
        let ours = parse_file(&name, &text);
        match (theirs, ours) {
            (Ok(theirs), Ok(ours)) => {
                both_accept += 1;
                if let Some(difference) = first_difference(&ours, &theirs[0]) {
                    failures.push(format!("{text:?}\n  source info differs at {difference}"));
                } else if unlinked(ours) != unlinked(theirs[0].clone()) {
                    failures.push(format!("{text:?}\n  structure differs"));
                }
            }
            (Err(stderr), Err(errors)) => {
                both_reject += 1;
                // protoc names the file by its path on disk here.
                let theirs = stderr
                    .lines()
                    .find(|l| l.contains("mutant.proto") && !l.contains(": warning:"));
                let ours = errors[0].to_string();
                if !theirs.is_some_and(|t| t == ours || t.ends_with(&format!("/{ours}"))) {
                    failures.push(format!(
                        "{text:?}\n  ours:   {ours:?}\n  protoc: {theirs:?}"
                    ));
                }
            }
            (Err(stderr), Ok(_)) => {
                protoc_only += 1;
                if std::env::var_os("PARSE_MUTANTS_VERBOSE").is_some() {
                    eprintln!("protoc only: {}", stderr.lines().next().unwrap_or_default());
                }
            }
            (Ok(_), Err(errors)) => failures.push(format!(
                "{text:?}\n  ours: {:?}, protoc accepts",
                errors[0].to_string()
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    eprintln!(
        "{count} mutants: {both_accept} accepted by both, {both_reject} rejected by both, \
         {protoc_only} rejected by protoc only (linking), {} differ",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
