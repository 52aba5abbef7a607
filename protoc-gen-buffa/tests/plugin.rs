//! Runs protoc (the vendored 36.2) with the plugin and checks that it
//! writes exactly the files buffa-build writes for the same protos and
//! options, byte for byte, and that protoc reports the plugin's errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use buffa_build::{BytesRepr, Config, PointerRepr, StringRepr};
use protoc_runner::Protoc;

/// `tests/proto` of the workspace: the protos of the test battery.
fn battery() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/proto")
}

/// This crate's own test protos.
fn own_protos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proto")
}

/// The inputs of one comparison: include directories and the files under
/// them, named as protoc names them.
struct Protos {
    includes: Vec<PathBuf>,
    files: Vec<&'static str>,
}

impl Protos {
    fn new(include: PathBuf, files: &[&'static str]) -> Protos {
        Protos {
            includes: vec![include],
            files: files.to_vec(),
        }
    }
}

/// Every file in `dir`, by name and content.
fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}

/// Runs protoc with the plugin, one `--buffa_opt` per entry of `opts`,
/// and the well-known types after the includes of `protos`, as
/// buffa-build does; protoc's error output if it fails.
fn protoc_with_plugin(protos: &Protos, opts: &[&str], out: &Path) -> Result<(), String> {
    let mut args = vec![
        format!(
            "--plugin=protoc-gen-buffa={}",
            env!("CARGO_BIN_EXE_protoc-gen-buffa")
        ),
        format!("--buffa_out={}", out.display()),
    ];
    args.extend(opts.iter().map(|opt| format!("--buffa_opt={opt}")));
    args.extend(protos.files.iter().map(|file| (*file).to_owned()));
    Protoc::new(&protos.includes).run(&args, b"").map(drop)
}

/// What the plugin writes for `protos` under `opts`.
fn plugin_output(protos: &Protos, opts: &[&str]) -> BTreeMap<String, String> {
    let out = tempfile::tempdir().unwrap();
    protoc_with_plugin(protos, opts, out.path())
        .unwrap_or_else(|error| panic!("protoc with the plugin failed ({opts:?}):\n{error}"));
    read_tree(out.path())
}

/// What buffa-build writes for `protos`, configured by `configure`.
fn build_output(protos: &Protos, configure: impl FnOnce(&mut Config)) -> BTreeMap<String, String> {
    let out = tempfile::tempdir().unwrap();
    let mut config = Config::new();
    config
        .protoc_executable(protoc_runner::binary())
        .files(&protos.files)
        .includes(&protos.includes)
        .out_dir(out.path());
    configure(&mut config);
    config.compile().unwrap_or_else(|e| panic!("{e}"));
    read_tree(out.path())
}

/// Asserts that the plugin under `opts` and buffa-build under `configure`
/// write the same files, and returns them.
fn assert_same(
    protos: &Protos,
    opts: &[&str],
    configure: impl FnOnce(&mut Config),
) -> BTreeMap<String, String> {
    let plugin = plugin_output(protos, opts);
    let build = build_output(protos, configure);
    assert!(
        !build.is_empty(),
        "buffa-build wrote nothing for {:?}",
        protos.files
    );
    assert_eq!(
        plugin.keys().collect::<Vec<_>>(),
        build.keys().collect::<Vec<_>>(),
        "file names differ under {opts:?}"
    );
    for (name, content) in &build {
        assert!(
            plugin[name] == *content,
            "{name} differs under {opts:?}:\n--- plugin\n{}\n--- buffa-build\n{content}",
            plugin[name]
        );
    }
    plugin
}

/// proto2, proto3 and edition 2023 files in four packages, importing
/// each other and `google/protobuf/timestamp.proto`.
fn reflect_protos() -> Protos {
    Protos::new(
        battery().join("reflect"),
        &[
            "common.proto",
            "editions.proto",
            "proto2.proto",
            "proto3.proto",
        ],
    )
}

#[test]
fn default_options() {
    assert_same(&reflect_protos(), &[], |_| {});
}

#[test]
fn views_and_json() {
    let protos = Protos::new(battery().join("json"), &["json.proto", "json2.proto"]);
    assert_same(&protos, &["views", "json"], |c| {
        c.views().json();
    });
    assert_same(&protos, &["views_behind_feature=borrowed"], |c| {
        c.views_behind_feature("borrowed");
    });
    assert_same(
        &reflect_protos(),
        &[
            "lazy_views_in=.reflect.v3,eager_views_in=.reflect.v3.Rich.Nested",
            "json_behind_feature=serde",
        ],
        |c| {
            c.lazy_views_in(&[".reflect.v3"])
                .eager_views_in(&[".reflect.v3.Rich.Nested"])
                .json_behind_feature("serde");
        },
    );
}

#[test]
fn pointer_rules_maps_bytes_and_attributes() {
    let protos = Protos::new(
        battery().join("crosscheck"),
        &["proto2.proto", "proto3.proto"],
    );
    let opts = [
        "unbox_message_fields,inline_max_size=96",
        "box_type_in=.crosscheck.two=box",
        "unbox_oneof",
        "btree_map=.",
        "bytes=.crosscheck",
        "string_type_in=.crosscheck.two=bytes_str",
        r"type_attribute=.crosscheck=#[derive(::core::default::Default\, )]",
        "message_attribute=.crosscheck.two=#[allow(dead_code)]",
        "field_attribute=.crosscheck.two=#[doc = \"a=b\"]",
        "disable_comments",
        "buffa_path=::buffa_rt",
        "layout_report=reports/layout.txt",
    ];
    assert_same(&protos, &opts, |c| {
        c.unbox_message_fields()
            .inline_max_size(96)
            .box_type_in(PointerRepr::Box, &[".crosscheck.two"])
            .unbox_oneof()
            .btree_map(&["."])
            .bytes(&[".crosscheck"])
            .string_type_in(StringRepr::BytesStr, &[".crosscheck.two"])
            .type_attribute(".crosscheck", "#[derive(::core::default::Default, )]")
            .message_attribute(".crosscheck.two", "#[allow(dead_code)]")
            .field_attribute(".crosscheck.two", "#[doc = \"a=b\"]")
            .disable_comments()
            .buffa_path("::buffa_rt")
            .layout_report("reports/layout.txt");
    });
    let files = assert_same(
        &protos,
        &[
            "box_type_custom=crate::Ptr<*>,box_type_custom_in=.crosscheck.two=crate::Other<*>,bytes_type=bytes,bytes_type_in=.crosscheck.two=vec,string_type=bytes_str",
            "no_std",
        ],
        |c| {
            c.box_type_custom("crate::Ptr<*>")
                .box_type_custom_in("crate::Other<*>", &[".crosscheck.two"])
                .bytes_type(BytesRepr::Bytes)
                .bytes_type_in(BytesRepr::Vec, &[".crosscheck.two"])
                .string_type(StringRepr::BytesStr)
                .no_std();
        },
    );
    assert!(files["crosscheck.rs"].contains("::alloc::"));
}

#[test]
fn reflection() {
    let files = assert_same(&reflect_protos(), &["reflection"], |c| {
        c.reflection();
    });
    // The embedded descriptor set is the request's, byte for byte.
    assert!(
        files
            .values()
            .any(|content| content.contains("pub const FILE_DESCRIPTOR_SET"))
    );
    assert_same(
        &reflect_protos(),
        &["reflection_behind_feature=reflect,strip_source_info,buffa_reflect_path=::reflect_rt"],
        |c| {
            c.reflection_behind_feature("reflect")
                .strip_source_info()
                .buffa_reflect_path("::reflect_rt");
        },
    );
}

#[test]
fn reflection_strips_source_retention_options_of_imports() {
    // b.proto imports a.proto and naming.proto of its package: the plugin
    // generates and embeds them too, but protoc strips source-retention
    // options (custom ones, and `enforce_naming_style`) only from the
    // files it names, while the set buffa-build reads has them stripped
    // from every file (descriptor.proto's extension declarations
    // included).
    let dir = own_protos().join("retention");
    let imported = Protos::new(dir.clone(), &["b.proto"]);
    let files = assert_same(&imported, &["reflection"], |c| {
        c.reflection();
    });
    let named = Protos::new(dir, &["a.proto", "b.proto", "naming.proto", "opts.proto"]);
    assert_eq!(plugin_output(&named, &["reflection"]), files);
    assert_same(&imported, &["reflection", "strip_source_info"], |c| {
        c.reflection().strip_source_info();
    });
}

#[test]
fn include_file_over_many_packages() {
    // Fifteen packages, one without a package, packages whose names
    // differ only in case, keywords as package segments.
    let dir = battery().join("hostile");
    let mut files: Vec<&'static str> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".proto") {
            files.push(Box::leak(name.into_boxed_str()));
        }
    }
    files.sort();
    assert!(files.len() > 10);
    let protos = Protos::new(dir, &files);
    assert_same(&protos, &["include_file=mod.rs,lazy_views,json"], |c| {
        c.include_file("mod.rs").lazy_views().json();
    });
}

#[test]
fn extern_paths_and_well_known_types() {
    let protos = Protos::new(battery().join("json"), &["json.proto", "json2.proto"]);
    assert_same(
        &protos,
        &["extern_path=.google.protobuf.Timestamp=::my_types::Timestamp"],
        |c| {
            c.extern_path(".google.protobuf.Timestamp", "::my_types::Timestamp");
        },
    );
    // With compile_well_known_types the imported well-known files are
    // generated only when named (buffa-build generates every import).
    let mut with_wkt = Protos::new(battery().join("json"), &["json.proto"]);
    with_wkt.files.extend([
        "google/protobuf/any.proto",
        "google/protobuf/duration.proto",
        "google/protobuf/empty.proto",
        "google/protobuf/field_mask.proto",
        "google/protobuf/struct.proto",
        "google/protobuf/timestamp.proto",
        "google/protobuf/wrappers.proto",
    ]);
    assert_same(&with_wkt, &["compile_well_known_types", "json"], |c| {
        c.compile_well_known_types().json();
    });
}

#[test]
fn protobuf_unittest_protos() {
    // protobuf 27.1's test protos, copied as the test battery's build
    // script copies them: protoc 36 rejects their `unverified_lazy` on
    // extensions.
    let source = protobuf_sources::protobuf_source_dir()
        .unwrap_or_else(|e| panic!("{e}"))
        .join("src/google/protobuf");
    let include = tempfile::tempdir().unwrap();
    let target = include.path().join("google/protobuf");
    std::fs::create_dir_all(&target).unwrap();
    let files = [
        "unittest.proto",
        "unittest_import.proto",
        "unittest_import_public.proto",
        "unittest_proto3.proto",
        "map_unittest.proto",
        "edition_unittest.proto",
    ];
    for name in files {
        let text = std::fs::read_to_string(source.join(name)).unwrap();
        let text = text
            .replace("[unverified_lazy = true]", "")
            .replace("[unverified_lazy=true]", "");
        std::fs::write(target.join(name), text).unwrap();
    }
    let mut protos = Protos {
        includes: vec![include.path().to_owned()],
        files: files
            .iter()
            .map(|name| &*Box::leak(format!("google/protobuf/{name}").into_boxed_str()))
            .collect(),
    };
    // Imported by edition_unittest.proto (packages `pb` and
    // `google.protobuf`), from protoc's include directory: buffa-build
    // generates them as imports, the plugin when they are named.
    protos.files.extend([
        "google/protobuf/cpp_features.proto",
        "google/protobuf/descriptor.proto",
    ]);
    assert_same(
        &protos,
        &["views,compile_well_known_types,include_file=mod.rs"],
        |c| {
            c.views().compile_well_known_types().include_file("mod.rs");
        },
    );
}

#[test]
fn tonic_services() {
    let protos = Protos::new(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../buffa-build/tests/golden"),
        &["service.proto"],
    );
    let files = assert_same(&protos, &["tonic"], |c| {
        c.tonic();
    });
    assert!(files["golden.service.rs"].contains("pub mod tally_client"));
    let files = assert_same(
        &protos,
        &["tonic_client=false,tonic_codec_path=crate::grpc::StrictCodec"],
        |c| {
            c.tonic_client(false)
                .tonic_codec_path("crate::grpc::StrictCodec");
        },
    );
    let services = &files["golden.service.rs"];
    assert!(services.contains("pub mod tally_server") && !services.contains("tally_client"));
}

#[test]
fn edition_2024() {
    let protos = Protos::new(own_protos(), &["edition2024.proto"]);
    assert_same(&protos, &["views"], |c| {
        c.views();
    });
    // Option imports, `local` symbols, a second package using the first.
    let protos = Protos::new(
        battery().join("editions"),
        &["edition2024.proto", "edition2024_user.proto"],
    );
    assert_same(&protos, &["views"], |c| {
        c.views();
    });
}

#[test]
fn edition_2026() {
    let protos = Protos::new(own_protos(), &["edition2026.proto"]);
    assert_same(&protos, &["views"], |c| {
        c.views();
    });
}

#[test]
fn imports_of_other_packages_are_not_generated() {
    // proto3.proto (package reflect.v3) imports common.proto (package
    // reflect.common): only the package asked for is generated, the same
    // as buffa-build's file for it.
    let protos = Protos::new(battery().join("reflect"), &["proto3.proto"]);
    let plugin = plugin_output(&protos, &[]);
    let build = build_output(&protos, |_| {});
    assert_eq!(plugin.keys().collect::<Vec<_>>(), ["reflect.v3.rs"]);
    assert!(build.contains_key("reflect.common.rs"));
    assert_eq!(plugin["reflect.v3.rs"], build["reflect.v3.rs"]);
}

#[test]
fn imports_of_the_same_package_are_generated() {
    // extended.proto imports base.proto; both are in package `same`, whose
    // one Rust file must hold the types of both.
    let protos = Protos::new(own_protos(), &["same/extended.proto"]);
    let plugin = plugin_output(&protos, &[]);
    assert_eq!(plugin.keys().collect::<Vec<_>>(), ["same.rs"]);
    assert!(
        plugin["same.rs"].contains("pub struct Base"),
        "{}",
        plugin["same.rs"]
    );
    assert!(plugin["same.rs"].contains("pub struct Extended"));
    assert_same(&protos, &[], |_| {});
}

fn protoc_error(protos: &Protos, opts: &[&str]) -> String {
    let out = tempfile::tempdir().unwrap();
    let error = protoc_with_plugin(protos, opts, out.path())
        .expect_err(&format!("protoc accepted {opts:?}"));
    assert!(
        read_tree(out.path()).is_empty(),
        "files written despite the error"
    );
    error
}

#[test]
fn bad_options_fail_with_the_plugins_message() {
    let protos = reflect_protos();
    let stderr = protoc_error(&protos, &["views", "box_type=heap"]);
    assert!(
        stderr.contains(
            "--buffa_out: option `box_type=heap`: unknown pointer `heap` (expected box or inline"
        ),
        "{stderr}"
    );
    let stderr = protoc_error(&protos, &["jsno"]);
    assert!(
        stderr.contains("--buffa_out: option `jsno`: unknown option (known: "),
        "{stderr}"
    );
    // Errors of buffa-codegen come through the same way.
    let stderr = protoc_error(&protos, &["btree_map=.nowhere"]);
    assert!(
        stderr.contains("--buffa_out: btree_map rule names .nowhere, which matches no package"),
        "{stderr}"
    );
    let stderr = protoc_error(&protos, &["include_file=reflect.v3.rs"]);
    assert!(
        stderr.contains("--buffa_out: option include_file=reflect.v3.rs: another generated file"),
        "{stderr}"
    );
}

/// The fields of `CodeGeneratorRequest` the malformed request sets.
#[derive(Clone, PartialEq, prost::Message)]
struct Request {
    #[prost(string, repeated, tag = "1")]
    file_to_generate: Vec<String>,
    #[prost(message, repeated, tag = "15")]
    proto_file: Vec<prost_types::FileDescriptorProto>,
}

/// `CodeGeneratorResponse.error`.
#[derive(Clone, PartialEq, prost::Message)]
struct Response {
    #[prost(string, optional, tag = "1")]
    error: Option<String>,
}

#[test]
fn malformed_request_gets_an_error_response() {
    // Field `x` names oneof 3 of a message that declares none: not
    // something protoc writes, but a request (or a user's descriptor set)
    // can hold it. The plugin answers with an error and exits with 0, as
    // protoc expects.
    let file = prost_types::FileDescriptorProto {
        name: Some("a.proto".into()),
        package: Some("a".into()),
        syntax: Some("proto3".into()),
        message_type: vec![prost_types::DescriptorProto {
            name: Some("M".into()),
            field: vec![prost_types::FieldDescriptorProto {
                name: Some("x".into()),
                number: Some(1),
                label: Some(1),
                r#type: Some(5),
                oneof_index: Some(3),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let request = Request {
        file_to_generate: vec!["a.proto".into()],
        proto_file: vec![file],
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_protoc-gen-buffa"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        &prost::Message::encode_to_vec(&request),
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let response: Response = prost::Message::decode(&output.stdout[..]).unwrap();
    assert_eq!(
        response.error.as_deref(),
        Some("invalid descriptor set: a.proto: field a.M.x: oneof index 3 is out of range")
    );
}

#[test]
fn version_and_stray_arguments() {
    let binary = env!("CARGO_BIN_EXE_protoc-gen-buffa");
    let output = Command::new(binary).arg("--version").output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("protoc-gen-buffa {}\n", env!("CARGO_PKG_VERSION"))
    );
    let output = Command::new(binary).arg("views").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("takes no arguments"));
}
