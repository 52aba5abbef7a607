//! Generates the code the test battery runs against:
//!
//! 1. protobuf's own unittest protos (`unittest*.proto`, `map_*unittest.proto`,
//!    `edition_unittest.proto`), read from the protobuf 27.1 sources that the
//!    `protobuf-sources` crate locates, with buffa-build, with views (lazy
//!    for `TestParsingMerge`);
//! 2. the hostile-naming protos under `proto/hostile` (with lazy views),
//!    the editions protos under `proto/editions` (with views), the
//!    allocation-budget protos under `proto/limits`, the string and bytes
//!    protos under `proto/strings` in three representations, and the
//!    `Eq`/`Hash` protos under `proto/eq_hash` (with a custom pointer),
//!    the extension protos under `proto/extensions` (with views; the
//!    descriptor types their custom options extend come from
//!    `buffa-types`), and the JSON protos under `proto/json` (with
//!    `json()`; their well-known types come from `buffa-types`), with
//!    buffa-build; and the reflection protos under `proto/reflect` and
//!    buffa-reflect's text format protos (`tests/proto/text` there), with
//!    `reflection()`; and the protos under `proto/unknown` with unknown
//!    fields discarded per path (with views and JSON; with reflection);
//!    and buffa-build's golden `service.proto` with
//!    `tonic()`; and the naming protos under `proto/naming` with every
//!    option (plain; views and JSON; lazy views, JSON, reflection and
//!    tonic), and `proto/naming/reader` against them as an extern package;
//! 3. the cross-check protos under `proto/crosscheck`, twice with
//!    buffa-build (boxed sub-messages, eager views and JSON; inline
//!    sub-messages and lazy views) and once with prost-build.
//!
//! Every run writes to its own directory under `OUT_DIR` (`unittest`,
//! `hostile`, `editions`, `shared`, `strings_owned`, `strings_shared`,
//! `strings_mixed`, `limits`, `eq_hash`, `extensions`, `json`, `reflect`,
//! `text`, `services`, `naming_plain`, `naming_views`, `naming_all`,
//! `naming_reader`, `crosscheck`, `crosscheck_lazy`, `prost`, `unknown`,
//! `unknown_reflect`), with an
//! include file `include.rs` that mounts its packages as modules. The runs in
//! `LAYOUT_REPORTS` also write a layout report (`layout.txt`), and
//! `layout_sizes.rs` tabulates each report's size estimates beside the
//! real `size_of` of the structs for `tests/layout_sizes.rs`.

use std::fs;
use std::path::{Path, PathBuf};

/// Files of the unittest family left out, with the reason.
const SKIPPED_UNITTEST_PROTOS: &[(&str, &str)] = &[
    // Defines test features for the 27.1 feature resolver; protoc 36 rejects
    // it ("pb.VALUE_FUTURE has been removed but does not specify a removal
    // error"), and it declares extensions of FeatureSet only, no messages.
    ("unittest_features.proto", "rejected by protoc 36"),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=proto");
    println!("cargo:rerun-if-env-changed=PROTOBUF_SRC_DIR");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");

    unittest(&out_dir, &protoc);

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&proto_files(Path::new("proto/hostile")))
        .includes(&["proto/hostile"])
        .lazy_views()
        .json()
        .out_dir(out_dir.join("hostile"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&proto_files(Path::new("proto/editions")))
        .includes(&["proto/editions"])
        .views()
        .json()
        .out_dir(out_dir.join("editions"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&["proto/shared/shared.proto"])
        .includes(&["proto/shared"])
        .bytes(&[".shared.Blob"])
        .out_dir(out_dir.join("shared"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    strings(&out_dir, &protoc);
    extern_views(&out_dir, &protoc);

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&proto_files(Path::new("proto/extensions")))
        .includes(&["proto/extensions"])
        .views()
        .out_dir(out_dir.join("extensions"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&["proto/limits/limits.proto"])
        .includes(&["proto/limits"])
        .out_dir(out_dir.join("limits"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&["proto/eq_hash/eq_hash.proto"])
        .includes(&["proto/eq_hash"])
        .box_type_custom_in("crate::Handle<*>", &[".eq_hash.Pointed.plain"])
        .out_dir(out_dir.join("eq_hash"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    // Mounted by tests/tests/json.rs itself (not by src/lib.rs).
    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&proto_files(Path::new("proto/json")))
        .includes(&["proto/json"])
        .json()
        .out_dir(out_dir.join("json"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    reflect(&out_dir, &protoc);
    unknown(&out_dir, &protoc);

    // buffa-build's golden service (compared there as text only), as real
    // code: mounted and called by tests/tests/services.rs.
    let golden = Path::new("../buffa-build/tests/golden");
    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&[golden.join("service.proto")])
        .includes(&[golden])
        .tonic()
        .out_dir(out_dir.join("services"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    naming(&out_dir, &protoc);

    let crosscheck = proto_files(Path::new("proto/crosscheck"));
    // BTreeMap on both sides: map entries are then written in key order and
    // the two encoders must agree byte for byte. With JSON, which
    // `dynamic_json.rs` checks dynamic messages' JSON against.
    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&crosscheck)
        .includes(&["proto/crosscheck"])
        .btree_map(&["."])
        .views()
        .json()
        .out_dir(out_dir.join("crosscheck"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    // The same protos with every owned message field inline (recursive
    // ones stay boxed) and every message-typed view field lazy: the views
    // test reads both layouts.
    buffa_build::Config::new()
        .protoc_executable(&protoc)
        .files(&crosscheck)
        .includes(&["proto/crosscheck"])
        .btree_map(&["."])
        .unbox_message_fields()
        .lazy_views()
        .out_dir(out_dir.join("crosscheck_lazy"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    layout_sizes(&out_dir);
    let prost_out = out_dir.join("prost");
    fs::create_dir_all(&prost_out).expect("create OUT_DIR/prost");
    prost_build::Config::new()
        .protoc_executable(&protoc)
        .out_dir(&prost_out)
        .btree_map(["."])
        .include_file("include.rs")
        .compile_protos(&crosscheck, &["proto/crosscheck"])
        .unwrap_or_else(|e| panic!("prost-build: {e}"));
}

/// `ext.base` generated with views, and `ext.user` generated with views
/// against it as an extern package (`crate::extern_base::ext::base`).
fn extern_views(out_dir: &Path, protoc: &Path) {
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&["proto/extern/base.proto"])
        .includes(&["proto/extern"])
        .views()
        .out_dir(out_dir.join("extern_base"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&["proto/extern/user.proto"])
        .includes(&["proto/extern"])
        .extern_path(".ext.base", "crate::extern_base::ext::base")
        .unbox_message_fields()
        .views()
        .out_dir(out_dir.join("extern_user"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The naming protos (names that views, oneof enums, nested-type modules,
/// services and extension constants would share), mounted by
/// tests/tests/naming.rs: with no option, with views and JSON, and with
/// lazy views, JSON, reflection and tonic, which must all generate and
/// compile; and `reader/reader.proto`, whose views hold `naming`'s views
/// as an extern package's.
fn naming(out_dir: &Path, protoc: &Path) {
    let files = proto_files(Path::new("proto/naming"));
    let config = || {
        let mut config = buffa_build::Config::new();
        config
            .protoc_executable(protoc)
            .files(&files)
            .includes(&["proto/naming"])
            .include_file("include.rs");
        config
    };
    config()
        .out_dir(out_dir.join("naming_plain"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    config()
        .views()
        .json()
        .out_dir(out_dir.join("naming_views"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    config()
        .lazy_views()
        .json()
        .reflection()
        .tonic()
        .out_dir(out_dir.join("naming_all"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&["proto/naming/reader/reader.proto"])
        .includes(&["proto/naming"])
        .extern_path(".naming", "crate::naming_views::naming")
        .views()
        .out_dir(out_dir.join("naming_reader"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The string and bytes protos in each representation: the defaults
/// (`String`, `Vec<u8>`), shared everywhere (`BytesStr`, `Bytes`, with
/// views), and a mix chosen per path where later rules override earlier
/// ones (each choice is asserted by type in tests/tests/strings.rs).
fn strings(out_dir: &Path, protoc: &Path) {
    use buffa_build::{BytesRepr, StringRepr};
    let files = proto_files(Path::new("proto/strings"));
    let config = || {
        let mut config = buffa_build::Config::new();
        config
            .protoc_executable(protoc)
            .files(&files)
            .includes(&["proto/strings"])
            .include_file("include.rs");
        config
    };
    config()
        .out_dir(out_dir.join("strings_owned"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    config()
        .string_type(StringRepr::BytesStr)
        .bytes_type(BytesRepr::Bytes)
        .views()
        .out_dir(out_dir.join("strings_shared"))
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    config()
        .string_type(StringRepr::BytesStr)
        // A oneof named by its own path, and a repeated field.
        .string_type_in(
            StringRepr::String,
            &[".strings3.Fields.choice", ".strings3.Fields.rep_s"],
        )
        .bytes(&[".strings3"])
        // Map values by the map field's path (its keys stay BytesStr).
        .bytes_type_in(
            BytesRepr::Vec,
            &[".strings3.Fields.map_sb", ".strings3.Nested"],
        )
        // `bytes` joins the same list: the later rule wins.
        .bytes(&[".strings3.Nested.data"])
        .string_type_in(StringRepr::String, &[".strings2"])
        .string_type_in(StringRepr::BytesStr, &[".strings2.Fields.s_default"])
        .out_dir(out_dir.join("strings_mixed"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The reflection protos under `proto/reflect` (four packages in one run,
/// so two package modules share one descriptor pool), with every pointer,
/// map and string representation reflection has to serve. Mounted by
/// tests/tests/reflect.rs itself.
fn reflect(out_dir: &Path, protoc: &Path) {
    use buffa_build::StringRepr;
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&proto_files(Path::new("proto/reflect")))
        .includes(&["proto/reflect"])
        .reflection()
        .btree_map(&[".reflect.v3.Rich.m_sorted"])
        .unbox_message_fields_in(&[".reflect.v3.Rich.inline_child"])
        .unbox_oneof_in(&[".reflect.v3.Rich.c_unboxed"])
        .string_type_in(
            StringRepr::BytesStr,
            &[
                ".reflect.v3.Rich.shared_text",
                ".reflect.v3.Rich.shared_map",
            ],
        )
        .bytes(&[".reflect.v3.Rich.shared_blob"])
        .out_dir(out_dir.join("reflect"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    // buffa-reflect's text format protos, whose fixtures `tests/text.rs`
    // prints and parses through the generated types.
    let text = Path::new("../buffa-reflect/tests/proto/text");
    println!("cargo:rerun-if-changed={}", text.display());
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&proto_files(text))
        .includes(&[text])
        .reflection()
        .out_dir(out_dir.join("text"))
        .include_file("include.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `proto/unknown` with unknown fields discarded for the package and kept
/// again for `Keeper` and `Outer.Inner` (and, regardless, for the message
/// with extension ranges), inline sub-messages (so the estimates meet
/// `Option`s of structs without a niche): once with views and JSON and a
/// layout report (`unknown`, mounted by src/lib.rs), once with
/// reflection (`unknown_reflect`, mounted by tests/unknown_fields.rs).
fn unknown(out_dir: &Path, protoc: &Path) {
    use buffa_build::UnknownFieldsRepr;
    let config = || {
        let mut config = buffa_build::Config::new();
        config
            .protoc_executable(protoc)
            .files(&[
                "proto/unknown/unknown.proto",
                "proto/unknown/unknown3.proto",
            ])
            .includes(&["proto/unknown"])
            .unknown_fields_in(UnknownFieldsRepr::Discard, &[".unknown"])
            .unknown_fields_in(
                UnknownFieldsRepr::Keep,
                &[".unknown.Keeper", ".unknown.Outer.Inner"],
            )
            .unbox_message_fields()
            .include_file("include.rs");
        config
    };
    config()
        .views()
        .json()
        .out_dir(out_dir.join("unknown"))
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    config()
        .reflection()
        .out_dir(out_dir.join("unknown_reflect"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The runs that write a layout report, by directory under `OUT_DIR`; each
/// is mounted as the module of the same name in `src/lib.rs`.
const LAYOUT_REPORTS: &[&str] = &[
    "unittest",
    "hostile",
    "editions",
    "shared",
    "limits",
    "eq_hash",
    "crosscheck",
    "crosscheck_lazy",
    "strings_shared",
    "unknown",
];

/// Writes `layout_sizes.rs`: a table with one `Layout` row per message of
/// the layout reports, holding the report's estimate and the real
/// `size_of` of the generated struct, for `tests/layout_sizes.rs`.
fn layout_sizes(out_dir: &Path) {
    let mut table = String::from("// @generated by build.rs from the layout reports.\n&[\n");
    for set in LAYOUT_REPORTS {
        let path = out_dir.join(set).join("layout.txt");
        let report =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Message rows: name, size (with its mark), `message`, Rust path,
        // then the note (`at least N` for an upper bound).
        for line in report.lines().filter(|line| line.starts_with('.')) {
            let columns: Vec<&str> = line.split_whitespace().collect();
            let [message, size, "message", rust, note @ ..] = &columns[..] else {
                panic!("{}: unexpected row {line:?}", path.display());
            };
            let (mark, estimate) = match size.strip_prefix("<=") {
                Some(rest) => ("<=", rest),
                None => match size.strip_prefix('~') {
                    Some(rest) => ("~", rest),
                    None => ("", *size),
                },
            };
            let min_size = match note {
                ["at", "least", min] => min,
                _ => estimate,
            };
            table.push_str(&format!(
                "    Layout {{ set: {set:?}, message: {message:?}, mark: {mark:?}, \
                 estimate: {estimate}, min_size: {min_size}, \
                 size_of: ::core::mem::size_of::<buffa_tests::{set}::{rust}>() }},\n"
            ));
        }
    }
    table.push_str("]\n");
    let path = out_dir.join("layout_sizes.rs");
    if fs::read_to_string(&path).ok().as_deref() != Some(table.as_str()) {
        fs::write(&path, table).expect("write layout_sizes.rs");
    }
}

/// Copies the unittest family to `OUT_DIR/unittest-protos` and compiles it.
///
/// protoc 36 rejects `[unverified_lazy = true]` on extensions ("Extensions
/// cannot be marked as unverified_lazy"), which the 27.1 `unittest.proto`,
/// `unittest_lite.proto` and `edition_unittest.proto` use; the option only
/// concerns C++ parsing, so the copies drop it.
fn unittest(out_dir: &Path, protoc: &Path) {
    let source = protobuf_sources::protobuf_source_dir()
        .unwrap_or_else(|e| panic!("{e}"))
        .join("src/google/protobuf");
    let include = out_dir.join("unittest-protos");
    let target = include.join("google/protobuf");
    fs::create_dir_all(&target).expect("create unittest-protos");
    let mut names: Vec<String> = fs::read_dir(&source)
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()))
        .map(|entry| entry.expect("read_dir").file_name().into_string().unwrap())
        .filter(|name| is_unittest_proto(name))
        .filter(|name| !SKIPPED_UNITTEST_PROTOS.iter().any(|(s, _)| s == name))
        .collect();
    names.sort();
    let mut files = Vec::new();
    for name in &names {
        let text = fs::read_to_string(source.join(name)).expect("read unittest proto");
        let text = text
            .replace("[unverified_lazy = true]", "")
            .replace("[unverified_lazy=true]", "");
        let path = target.join(name);
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            fs::write(&path, text).expect("write unittest proto");
        }
        files.push(format!("google/protobuf/{name}"));
    }
    buffa_build::Config::new()
        .protoc_executable(protoc)
        .files(&files)
        .includes(&[&include])
        .views()
        // Lazy views on one message with singular, repeated and group
        // fields of the largest test type; the rest stays eager.
        .lazy_views_in(&[".protobuf_unittest.TestParsingMerge"])
        // The well-known types the family imports are generated here, as
        // test subjects themselves, rather than taken from buffa-types.
        .compile_well_known_types()
        .out_dir(out_dir.join("unittest"))
        .include_file("include.rs")
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}

fn is_unittest_proto(name: &str) -> bool {
    name.ends_with(".proto")
        && (name.starts_with("unittest")
            || (name.starts_with("map_") && name.ends_with("unittest.proto"))
            || name == "edition_unittest.proto")
}

/// The `.proto` files directly in `dir`, sorted.
fn proto_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("read_dir").path())
        .filter(|path| path.extension().is_some_and(|e| e == "proto"))
        .collect();
    files.sort();
    files
}
