//! The linker against protoc: protoc's own descriptor sets, with what
//! linking adds taken back out (resolved types, fully-qualified names,
//! JSON names, the `syntax` as written), must link back to exactly what
//! protoc wrote; and bad files must fail with protoc's message at protoc's
//! position.

use std::path::{Path, PathBuf};
use std::process::Command;

use buffa::Message;
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::{
    DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
};

use super::Linker;

/// protoc's descriptor set for `files` under `include`, or its errors.
fn protoc(include: &Path, files: &[String], source_info: bool) -> Result<FileDescriptorSet, String> {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let wkt = protoc_bin_vendored::include_path().expect("vendored includes");
    let mut command = Command::new(protoc);
    command
        .arg("--include_imports")
        .arg("--descriptor_set_out=/dev/stdout")
        .arg(format!("--proto_path={}", include.display()))
        .arg(format!("--proto_path={}", wkt.display()));
    if source_info {
        command.arg("--include_source_info");
    }
    command.args(files);
    let output = command.output().expect("run protoc");
    if output.status.success() {
        Ok(FileDescriptorSet::decode_from_slice(&output.stdout).expect("protoc's set decodes"))
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// `full` (a leading-dot full name) as a file in `package` would usually
/// write it: relative to the package when inside it.
fn as_written(full: &str, package: &str) -> String {
    let full = &full[1..];
    if package.is_empty() {
        return full.to_owned();
    }
    match full.strip_prefix(package).and_then(|r| r.strip_prefix('.')) {
        Some(relative) => relative.to_owned(),
        None => full.to_owned(),
    }
}

/// A field as the parser hands it over.
fn unlink_field(field: &mut FieldDescriptorProto, package: &str) {
    if let Some(name) = &field.type_name {
        field.type_name = Some(as_written(name, package));
        if matches!(field.r#type, Some(Type::Message | Type::Enum)) {
            field.r#type = None;
        }
    }
    if let Some(name) = &field.extendee {
        field.extendee = Some(as_written(name, package));
    }
    if field.json_name.as_deref() == Some(&buffa_descriptor::rules::json_name(field.name())) {
        field.json_name = None;
    }
}

/// A message as the parser hands it over.
fn unlink_message(message: &mut DescriptorProto, package: &str) {
    for field in message.field.iter_mut().chain(&mut message.extension) {
        unlink_field(field, package);
    }
    for nested in &mut message.nested_type {
        unlink_message(nested, package);
    }
}

/// protoc's output for a file, with what linking adds taken out.
pub(super) fn unlink(file: &FileDescriptorProto) -> FileDescriptorProto {
    let mut file = file.clone();
    let package = file.package().to_owned();
    if file.syntax.is_none() {
        file.syntax = Some("proto2".to_owned());
    }
    for message in &mut file.message_type {
        unlink_message(message, &package);
    }
    for extension in &mut file.extension {
        unlink_field(extension, &package);
    }
    for service in &mut file.service {
        for method in &mut service.method {
            method.input_type = Some(as_written(method.input_type(), &package));
            method.output_type = Some(as_written(method.output_type(), &package));
        }
    }
    file
}

/// Links every file of protoc's set for each batch of `batches` and
/// compares it with what protoc wrote; returns the files compared and the
/// differences, one line each.
fn relink(include: &Path, batches: &[Vec<String>]) -> (usize, Vec<String>) {
    let mut compared = std::collections::HashSet::new();
    let mut differences = Vec::new();
    for batch in batches {
        let Ok(set) = protoc(include, batch, false) else {
            continue;
        };
        let mut linker = Linker::new();
        for expected in &set.file {
            let linked = linker.add(unlink(expected));
            if !compared.insert(expected.name().to_owned()) {
                if linked.is_err() {
                    break;
                }
                continue;
            }
            match linked {
                Ok(linked) if linked == *expected => {}
                Ok(linked) => differences.push(format!(
                    "{}: differs: {}",
                    expected.name(),
                    first_difference(&linked, expected)
                )),
                Err(errors) => {
                    differences.push(format!("{}: refused: {}", expected.name(), errors[0]));
                    break;
                }
            }
        }
    }
    (compared.len(), differences)
}

/// A short account of where two files differ.
fn first_difference(linked: &FileDescriptorProto, expected: &FileDescriptorProto) -> String {
    let a = format!("{linked:?}");
    let b = format!("{expected:?}");
    let start = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = start.saturating_sub(150);
    format!(
        "linked …{}… protoc …{}…",
        &a[from..(start + 100).min(a.len())],
        &b[from..(start + 100).min(b.len())]
    )
}

/// The `.proto` files directly in `dir`, as names relative to `include`.
fn protos_in(include: &Path, dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "proto"))
                .filter_map(|p| {
                    Some(
                        p.strip_prefix(include)
                            .ok()?
                            .to_string_lossy()
                            .into_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// protobuf 27.1's source tree.
fn protobuf_src() -> PathBuf {
    protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src")
}

#[test]
fn relinks_protobufs_test_protos_as_protoc_wrote_them() {
    let src = protobuf_src();
    let batches: Vec<Vec<String>> = protos_in(&src, &src.join("google/protobuf"))
        .into_iter()
        .map(|f| vec![f])
        .collect();
    let (compared, differences) = relink(&src, &batches);
    println!(
        "protobuf test protos: identical on {} of {compared}",
        compared - differences.len()
    );
    assert!(compared > 50, "only {compared} files compiled");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
#[ignore = "slow: every googleapis directory through protoc (run with --ignored)"]
fn relinks_googleapis_as_protoc_wrote_them() {
    let root = PathBuf::from(std::env::var("HOME").unwrap_or_default())
        .join(".cache/buffa/google-proto-files-6.0.1");
    let mut dirs = vec![root.join("google")];
    let mut batches = Vec::new();
    while let Some(dir) = dirs.pop() {
        let files = protos_in(&root, &dir);
        if !files.is_empty() {
            batches.push(files);
        }
        if let Ok(entries) = std::fs::read_dir(&dir) {
            dirs.extend(entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()));
        }
    }
    let (compared, differences) = relink(&root, &batches);
    println!(
        "googleapis: identical on {} of {compared}",
        compared - differences.len()
    );
    for d in differences.iter().take(30) {
        println!("{d}");
    }
    assert!(differences.is_empty(), "{} differ", differences.len());
}
