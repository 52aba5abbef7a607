//! The linker against protoc: protoc's own descriptor sets, with what
//! linking adds taken back out (resolved types, fully-qualified names,
//! JSON names, the `syntax` as written), must link back to exactly what
//! protoc wrote; and bad files must fail with protoc's message at protoc's
//! position.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use buffa::Message;
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::{
    DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
};
use protoc_runner::Protoc;

use super::Linker;

/// protoc's descriptor set for `files` under `include`, or its errors.
fn protoc(
    include: &Path,
    files: &[String],
    source_info: bool,
) -> Result<FileDescriptorSet, String> {
    let set = Protoc::new([include])
        .in_dir(include)
        .include_imports(true)
        .include_source_info(source_info)
        .descriptor_set(files)?;
    Ok(FileDescriptorSet::decode_from_slice(&set).expect("protoc's set decodes"))
}

/// `full` (a leading-dot full name) as a file in `package` would usually
/// write it: relative to the package when inside it, unless its first
/// component is also the name of a nested element (which could capture
/// the rest of the name), and fully qualified then.
fn as_written(full: &str, package: &str, nested: &HashSet<String>) -> String {
    let dotless = &full[1..];
    let relative = if package.is_empty() {
        Some(dotless)
    } else {
        dotless
            .strip_prefix(package)
            .and_then(|r| r.strip_prefix('.'))
    };
    match relative {
        Some(relative) => {
            let first = relative.split('.').next().unwrap_or_default();
            if nested.contains(first) {
                full.to_owned()
            } else {
                relative.to_owned()
            }
        }
        None => dotless.to_owned(),
    }
}

/// The names of the elements nested in `message`, at any depth.
fn nested_names(message: &DescriptorProto, names: &mut HashSet<String>) {
    for nested in &message.nested_type {
        names.insert(nested.name().to_owned());
        nested_names(nested, names);
    }
    for field in message.field.iter().chain(&message.extension) {
        names.insert(field.name().to_owned());
    }
    for e in &message.enum_type {
        names.insert(e.name().to_owned());
        names.extend(e.value.iter().map(|v| v.name().to_owned()));
    }
    names.extend(message.oneof_decl.iter().map(|o| o.name().to_owned()));
}

/// A field as the parser hands it over.
fn unlink_field(field: &mut FieldDescriptorProto, package: &str, nested: &HashSet<String>) {
    if let Some(name) = &field.type_name {
        field.type_name = Some(as_written(name, package, nested));
        if matches!(field.r#type, Some(Type::Message | Type::Enum)) {
            field.r#type = None;
        }
    }
    if let Some(name) = &field.extendee {
        field.extendee = Some(as_written(name, package, nested));
    }
    if field.json_name.as_deref() == Some(&buffa_descriptor::rules::json_name(field.name())) {
        field.json_name = None;
    }
}

/// A message as the parser hands it over.
fn unlink_message(message: &mut DescriptorProto, package: &str, names: &HashSet<String>) {
    for field in message.field.iter_mut().chain(&mut message.extension) {
        unlink_field(field, package, names);
    }
    for nested in &mut message.nested_type {
        unlink_message(nested, package, names);
    }
}

/// protoc's output for a file, with what linking adds taken out.
pub(super) fn unlink(file: &FileDescriptorProto) -> FileDescriptorProto {
    let mut file = file.clone();
    let package = file.package().to_owned();
    if file.syntax.is_none() {
        file.syntax = Some("proto2".to_owned());
    }
    let mut names = HashSet::new();
    for message in &file.message_type {
        nested_names(message, &mut names);
    }
    for message in &mut file.message_type {
        unlink_message(message, &package, &names);
    }
    for extension in &mut file.extension {
        unlink_field(extension, &package, &names);
    }
    for service in &mut file.service {
        for method in &mut service.method {
            method.input_type = Some(as_written(method.input_type(), &package, &names));
            method.output_type = Some(as_written(method.output_type(), &package, &names));
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
                .filter_map(|p| Some(p.strip_prefix(include).ok()?.to_string_lossy().into_owned()))
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
fn relinks_protobuf_33_conformance_and_bundled_protos_as_protoc_wrote_them() {
    let root = crate::corpus_cache::protobuf_33_include();
    let mut batches: Vec<Vec<String>> = ["conformance", "google/protobuf"]
        .iter()
        .flat_map(|dir| protos_in(&root, &root.join(dir)))
        .map(|f| vec![f])
        .collect();
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let (compared, differences) = relink(&root, &batches);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    batches = ["google/protobuf", "google/protobuf/compiler"]
        .iter()
        .flat_map(|dir| protos_in(&bundled, &bundled.join(dir)))
        .map(|f| vec![f])
        .collect();
    let (bundled_compared, differences) = relink(&bundled, &batches);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    println!("protobuf 33.2: {compared} identical, bundled: {bundled_compared} identical");
    assert!(compared >= 6 && bundled_compared >= 20);
}

#[test]
#[ignore = "slow: every googleapis directory through protoc (run with --ignored)"]
fn relinks_googleapis_as_protoc_wrote_them() {
    let root = crate::corpus_cache::googleapis();
    let mut dirs = vec![root.join("google")];
    let mut batches = Vec::new();
    while let Some(dir) = dirs.pop() {
        let files = protos_in(&root, &dir);
        if !files.is_empty() {
            batches.push(files);
        }
        if let Ok(entries) = std::fs::read_dir(&dir) {
            dirs.extend(
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.is_dir()),
            );
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

/// Links `bad` as the parser would hand it over and checks that the first
/// error is protoc's, at protoc's position.
///
/// The parser is not at hand, so `bad` is obtained from `good`, a file
/// protoc accepts that differs from `bad` only in same-length names:
/// protoc's output for `good` (with source info), unlinked, then changed
/// by `mutate` into what parsing `bad` gives. `others` are files both
/// import.
fn assert_protoc_error(
    others: &[(&str, &str)],
    good: &str,
    bad: &str,
    mutate: impl FnOnce(&mut FileDescriptorProto),
) {
    assert_eq!(good.len(), bad.len(), "positions must not move");
    let dir = std::env::temp_dir().join(format!(
        "buffa-link-{}-{:x}",
        std::process::id(),
        bad.bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in others {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::write(dir.join("a.proto"), good).unwrap();
    let set = protoc(&dir, &["a.proto".to_owned()], true).expect("protoc accepts the good file");
    let mut linker = Linker::new();
    let (last, imports) = set.file.split_last().unwrap();
    for file in imports {
        linker.add(unlink(file)).expect("imports link");
    }
    let mut file = unlink(last);
    mutate(&mut file);
    std::fs::write(dir.join("a.proto"), bad).unwrap();
    let expected = protoc(&dir, &["a.proto".to_owned()], false)
        .expect_err("protoc rejects")
        .replace(&format!("{}/", dir.display()), "");
    let _ = std::fs::remove_dir_all(&dir);
    let errors = linker.add(file).expect_err("the linker rejects");
    let expected_first = expected.lines().next().unwrap_or_default();
    assert_eq!(
        errors[0].to_string(),
        expected_first,
        "protoc said:\n{expected}"
    );
}

#[test]
fn an_undefined_type() {
    assert_protoc_error(
        &[],
        "syntax = \"proto2\";\nmessage A { optional B b = 1; }\nmessage B {}\n",
        "syntax = \"proto2\";\nmessage A { optional C b = 1; }\nmessage B {}\n",
        |f| f.message_type[0].field[0].type_name = Some("C".into()),
    );
}

#[test]
fn a_type_defined_in_a_file_not_imported() {
    assert_protoc_error(
        &[
            ("dep.proto", "package p;\nmessage D {}\n"),
            (
                "de2.proto",
                "import \"dep.proto\";\nimport \"de3.proto\";\n",
            ),
            ("de3.proto", "package q;\n"),
        ],
        "import \"dep.proto\";\nimport \"de2.proto\";\nmessage A { optional p.D d = 1; }\n",
        "import \"de3.proto\";\nimport \"de2.proto\";\nmessage A { optional p.D d = 1; }\n",
        |f| f.dependency[0] = "de3.proto".into(),
    );
}

#[test]
fn a_name_resolved_in_the_innermost_scope() {
    assert_protoc_error(
        &[],
        "message Bar { message Baz {} }\nmessage Foo { message Bax {} optional Bar.Baz baz = 1; }\n",
        "message Bar { message Baz {} }\nmessage Foo { message Bar {} optional Bar.Baz baz = 1; }\n",
        |f| f.message_type[1].nested_type[0].name = Some("Bar".into()),
    );
}

#[test]
fn a_name_defined_twice() {
    assert_protoc_error(
        &[],
        "package p;\nmessage A {}\nmessage B {}\n",
        "package p;\nmessage A {}\nmessage A {}\n",
        |f| f.message_type[1].name = Some("A".into()),
    );
}

#[test]
fn a_name_defined_in_another_file() {
    assert_protoc_error(
        &[("dep.proto", "package p;\nmessage D {}\n")],
        "import \"dep.proto\";\npackage p;\nmessage E {}\n",
        "import \"dep.proto\";\npackage p;\nmessage D {}\n",
        |f| f.message_type[0].name = Some("D".into()),
    );
}

#[test]
fn enum_values_are_siblings_of_their_enum() {
    assert_protoc_error(
        &[],
        "package p;\nenum E { X = 0; }\nenum F { Y = 0; }\n",
        "package p;\nenum E { X = 0; }\nenum F { X = 0; }\n",
        |f| f.enum_type[1].value[0].name = Some("X".into()),
    );
}

#[test]
fn a_field_number_used_twice() {
    assert_protoc_error(
        &[],
        "package p;\nmessage A { optional int32 a = 1; optional int32 b = 2; }\n",
        "package p;\nmessage A { optional int32 a = 1; optional int32 b = 1; }\n",
        |f| f.message_type[0].field[1].number = Some(1),
    );
}

#[test]
fn a_package_is_not_a_type() {
    assert_protoc_error(
        &[],
        "package p;\nmessage A { optional A g = 1; }\n",
        "package p;\nmessage A { optional p g = 1; }\n",
        |f| f.message_type[0].field[0].type_name = Some("p".into()),
    );
}

#[test]
fn an_extendee_that_is_not_a_message() {
    assert_protoc_error(
        &[],
        "package p;\nenum E { Z = 0; }\nmessage M { extensions 1 to 9; }\nextend M { optional int32 x = 1; }\n",
        "package p;\nenum E { Z = 0; }\nmessage M { extensions 1 to 9; }\nextend E { optional int32 x = 1; }\n",
        |f| f.extension[0].extendee = Some("E".into()),
    );
}

#[test]
fn a_method_type_that_is_not_a_message() {
    assert_protoc_error(
        &[],
        "package p;\nenum E { Z = 0; }\nmessage M {}\nservice S { rpc R(M) returns (M); }\n",
        "package p;\nenum E { Z = 0; }\nmessage M {}\nservice S { rpc R(E) returns (M); }\n",
        |f| f.service[0].method[0].input_type = Some("E".into()),
    );
}

#[test]
fn an_enum_default_that_is_not_a_value() {
    assert_protoc_error(
        &[],
        "package p;\nenum E { Z = 0; Y = 1; }\nmessage M { optional E e = 1 [default = Y]; }\n",
        "package p;\nenum E { Z = 0; Y = 1; }\nmessage M { optional E e = 1 [default = W]; }\n",
        |f| f.message_type[0].field[0].default_value = Some("W".into()),
    );
}

#[test]
fn an_extension_outside_the_extendees_ranges() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { extensions 1 to 8; }\nextend M { optional int32 x = 1; }\n",
        "package p;\nmessage M { extensions 1 to 8; }\nextend M { optional int32 x = 9; }\n",
        |f| f.extension[0].number = Some(9),
    );
}

#[test]
fn a_reserved_number_used() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { reserved 5; optional int32 x = 1; }\n",
        "package p;\nmessage M { reserved 5; optional int32 x = 5; }\n",
        |f| f.message_type[0].field[0].number = Some(5),
    );
}

#[test]
fn a_reserved_name_used() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { reserved \"y\"; optional int32 x = 1; }\n",
        "package p;\nmessage M { reserved \"x\"; optional int32 x = 1; }\n",
        |f| f.message_type[0].reserved_name[0] = "x".into(),
    );
}

#[test]
fn an_extension_range_that_includes_a_field() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { extensions 5 to 9; optional int32 x = 1; }\n",
        "package p;\nmessage M { extensions 1 to 9; optional int32 x = 1; }\n",
        |f| f.message_type[0].extension_range[0].start = Some(1),
    );
}

#[test]
fn overlapping_extension_ranges() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { extensions 1 to 4; extensions 5 to 9; }\n",
        "package p;\nmessage M { extensions 1 to 5; extensions 5 to 9; }\n",
        |f| f.message_type[0].extension_range[0].end = Some(6),
    );
}

#[test]
fn proto3_forbids_default_values() {
    assert_protoc_error(
        &[],
        "syntax = \"proto3\";\nmessage M { int32 x = 1 [deprecated = true]; }\n",
        "syntax = \"proto3\";\nmessage M { int32 x = 1 [default    =    7]; }\n",
        |f| {
            let field = &mut f.message_type[0].field[0];
            field.options = Default::default();
            field.default_value = Some("7".into());
            // The parser records the default's location at its value.
            if let Some(info) = f.source_code_info.as_option_mut() {
                info.location
                    .retain(|l| !l.path.starts_with(&[4, 0, 2, 0, 8]));
                info.location
                    .push(buffa_types::google::protobuf::source_code_info::Location {
                        path: vec![4, 0, 2, 0, 7],
                        span: vec![1, 41, 42],
                        ..Default::default()
                    });
            }
        },
    );
}

#[test]
fn proto3_enums_start_at_zero() {
    assert_protoc_error(
        &[],
        "syntax = \"proto3\";\nenum E { A = 0; B = 1; }\n",
        "syntax = \"proto3\";\nenum E { A = 2; B = 1; }\n",
        |f| f.enum_type[0].value[0].number = Some(2),
    );
}

#[test]
fn json_names_that_conflict() {
    assert_protoc_error(
        &[],
        "syntax = \"proto3\";\nmessage M { int32 a_b = 1; int32 aBc = 2; }\n",
        "syntax = \"proto3\";\nmessage M { int32 a_b = 1; int32 aB = 2;  }\n",
        |f| f.message_type[0].field[1].name = Some("aB".into()),
    );
}

#[test]
fn enum_values_that_conflict_without_their_prefix() {
    assert_protoc_error(
        &[],
        "syntax = \"proto3\";\nenum Color { COLOR_RED = 0; BLUE = 1; }\n",
        "syntax = \"proto3\";\nenum Color { COLOR_RED = 0; RED_ = 1; }\n",
        |f| f.enum_type[0].value[1].name = Some("RED_".into()),
    );
}

#[test]
fn an_import_listed_twice() {
    assert_protoc_error(
        &[("dep.proto", "package d;\n"), ("de2.proto", "package e;\n")],
        "import \"dep.proto\";\nimport \"de2.proto\";\n",
        "import \"dep.proto\";\nimport \"dep.proto\";\n",
        |f| f.dependency[1] = "dep.proto".into(),
    );
}

#[test]
fn a_map_keyed_by_an_enum() {
    assert_protoc_error(
        &[],
        "syntax = \"proto3\";\nenum E { Z = 0; }\nmessage M { map<int32, E> m = 1; }\n",
        "syntax = \"proto3\";\nenum E { Z = 0; }\nmessage M { map<E, int32> m = 1; }\n",
        |f| {
            let entry = &mut f.message_type[0].nested_type[0];
            entry.field[0].r#type = None;
            entry.field[0].type_name = Some("E".into());
            entry.field[1].r#type = Some(Type::Int32);
            entry.field[1].type_name = None;
        },
    );
}

#[test]
fn a_json_name_on_an_extension() {
    let text = |option: &str| {
        format!(
            "package p;\nmessage M {{ extensions 1 to 9; }}\nextend M {{ optional int32 x = 1 [{option}]; }}\n"
        )
    };
    assert_protoc_error(
        &[],
        &text("deprecated=true"),
        &text("json_name=\"yyy\""),
        |f| {
            let extension = &mut f.extension[0];
            extension.options = Default::default();
            extension.json_name = Some("yyy".into());
            // The parser records `json_name` where the option was.
            if let Some(info) = f.source_code_info.as_option_mut() {
                info.location.retain(|l| !l.path.starts_with(&[7, 0, 8]));
                info.location
                    .push(buffa_types::google::protobuf::source_code_info::Location {
                        path: vec![7, 0, 10],
                        span: vec![2, 33, 47],
                        ..Default::default()
                    });
            }
        },
    );
}

#[test]
fn packed_on_a_field_that_cannot_pack() {
    assert_protoc_error(
        &[],
        "package p;\nmessage M { repeated string s = 1 [deprecated = true]; }\n",
        "package p;\nmessage M { repeated string s = 1 [packed     = true]; }\n",
        |f| {
            let options = f.message_type[0].field[0].options.get_or_insert_default();
            options.deprecated = None;
            options.packed = Some(true);
        },
    );
}

#[test]
fn a_file_that_is_not_lite_importing_one_that_is() {
    assert_protoc_error(
        &[(
            "dep.proto",
            "package d;\noption optimize_for = LITE_RUNTIME;\n",
        )],
        "import \"dep.proto\";\noption optimize_for = LITE_RUNTIME;\n",
        "import \"dep.proto\";\noption optimize_for = SPEED       ;\n",
        |f| {
            f.options.get_or_insert_default().optimize_for =
                Some(buffa_types::google::protobuf::file_options::OptimizeMode::Speed);
        },
    );
}

#[test]
fn a_map_of_an_enum_that_does_not_start_at_zero() {
    assert_protoc_error(
        &[],
        "syntax = \"proto2\";\nenum E { Z = 0; O = 1; }\nmessage M { map<int32, E> m = 1; }\n",
        "syntax = \"proto2\";\nenum E { Z = 1; O = 0; }\nmessage M { map<int32, E> m = 1; }\n",
        |f| {
            f.enum_type[0].value[0].number = Some(1);
            f.enum_type[0].value[1].number = Some(0);
        },
    );
}
