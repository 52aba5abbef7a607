//! The parser against protoc: source info and structure on corpora of
//! real files, and protoc's first error on bad inputs.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::Message;
use buffa_types::google::protobuf::{
    DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
};
use protoc_runner::Protoc;

use super::parse_file;

/// A fresh path in the temporary directory.
pub(super) fn temp_path(what: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("buffa-parse-{}-{n}-{what}", std::process::id()))
}

/// What protoc writes for `files` under `root` (with source info, without
/// imports), or its error output.
pub(super) fn protoc_files(
    root: &Path,
    files: &[String],
) -> Result<Vec<FileDescriptorProto>, String> {
    let set = Protoc::new([root])
        .in_dir(root)
        .include_source_info(true)
        .descriptor_set(files)?;
    Ok(FileDescriptorSet::decode_from_slice(&set)
        .expect("decode")
        .file)
}

/// The `.proto` files under `root/dir`, relative to `root`, sorted.
pub(super) fn proto_files(root: &Path, dir: &str, recursive: bool) -> Vec<String> {
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
pub(super) fn unlinked(mut file: FileDescriptorProto) -> FileDescriptorProto {
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
pub(super) fn first_difference(
    ours: &FileDescriptorProto,
    theirs: &FileDescriptorProto,
) -> Option<String> {
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

#[test]
fn conformance_protos_match_protoc() {
    let root = crate::corpus_cache::protobuf_33_include();
    let mut files = proto_files(&root, "google/protobuf", false);
    files.extend(proto_files(&root, "conformance", false));
    compare_corpus(&root, &files);
}

#[test]
fn googleapis_sample_matches_protoc() {
    let root = crate::corpus_cache::googleapis();
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
    let root = crate::corpus_cache::googleapis();
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
