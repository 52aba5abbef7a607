//! Interpretation checked against protoc: each case is a `.proto` file
//! compiled by protoc, and the same file as protoc's parser leaves it
//! (every options message replaced by the uninterpreted options the test
//! lists), interpreted here; the two must encode to the same bytes, or
//! fail with protoc's words.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use buffa::Message;
use buffa_descriptor::DescriptorPool;
use buffa_types::google::protobuf::{
    FileDescriptorProto, FileDescriptorSet, UninterpretedOption, uninterpreted_option::NamePart,
};
use protoc_runner::Protoc;

use super::slot::{Which, walk};
use super::wire::put_len;
use super::{interpret, strip_source_retention};

/// An option's value as protoc's parser records it.
#[derive(Clone, Copy)]
enum V<'a> {
    /// `identifier_value`.
    Id(&'a str),
    /// `positive_int_value`.
    Pos(u64),
    /// `negative_int_value`.
    Neg(i64),
    /// `double_value`.
    Dbl(f64),
    /// `string_value`.
    Str(&'a [u8]),
    /// `aggregate_value`: the text between the braces.
    Agg(&'a str),
}

/// The uninterpreted option `name = value` (`name` as written:
/// `(my.ext).sub`, `features.(pb.cpp).x`).
fn opt(name: &str, value: V<'_>) -> UninterpretedOption {
    let mut parts = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let (part, is_extension, next) = if let Some(inner) = rest.strip_prefix('(') {
            let close = inner.find(')').expect("closing parenthesis");
            (&inner[..close], true, &inner[close + 1..])
        } else {
            let end = rest.find('.').unwrap_or(rest.len());
            (&rest[..end], false, &rest[end..])
        };
        parts.push(NamePart {
            name_part: Some(part.to_owned()),
            is_extension: Some(is_extension),
            ..Default::default()
        });
        rest = next.strip_prefix('.').unwrap_or(next);
    }
    let mut option = UninterpretedOption {
        name: parts,
        ..Default::default()
    };
    match value {
        V::Id(s) => option.identifier_value = Some(s.to_owned()),
        V::Pos(n) => option.positive_int_value = Some(n),
        V::Neg(n) => option.negative_int_value = Some(n),
        V::Dbl(d) => option.double_value = Some(d),
        V::Str(s) => option.string_value = Some(s.to_vec()),
        V::Agg(s) => option.aggregate_value = Some(s.to_owned()),
    }
    option
}

/// Runs protoc on `files` (name, text) with `root` last, with the
/// googleapis include root after them; the descriptor set or stderr.
fn protoc(files: &[(&str, &str)]) -> Result<FileDescriptorSet, String> {
    protoc_with(files, false)
}

/// [`protoc`], with `--include_source_info` when `source_info`.
fn protoc_with(files: &[(&str, &str)], source_info: bool) -> Result<FileDescriptorSet, String> {
    static RUN: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "buffa-compile-options-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    // The well-known types before googleapis, which has its own copies.
    let set = Protoc::new([dir.clone(), protoc_runner::well_known_types(), googleapis()])
        .include_imports(true)
        .include_source_info(source_info)
        .descriptor_set(&[files.last().unwrap().0]);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(FileDescriptorSet::decode_from_slice(&set?).unwrap())
}

/// googleapis' include root, fetched into the cache when missing.
fn googleapis() -> PathBuf {
    crate::corpus_cache::googleapis()
}

/// The last file of `set` with every options message replaced by the
/// uninterpreted options `options` lists for its path.
fn uninterpreted(
    file: &FileDescriptorProto,
    options: &[(&[i32], Vec<UninterpretedOption>)],
) -> FileDescriptorProto {
    let mut file = file.clone();
    walk(&mut file, Which::Every, &mut |element, slot| {
        slot.clear();
        if let Some((_, list)) = options.iter().find(|(p, _)| *p == element.options_path) {
            let mut bytes = Vec::new();
            for option in list {
                put_len(&mut bytes, 999, &option.encode_to_vec());
            }
            slot.replace(&bytes).unwrap();
        }
    });
    file
}

/// The pool of `deps` and `file`.
fn pool(deps: &[FileDescriptorProto], file: &FileDescriptorProto) -> DescriptorPool {
    let mut pool = DescriptorPool::new();
    for dep in deps {
        pool.add_file_descriptor_proto(dep.clone()).unwrap();
    }
    pool.add_file_descriptor_proto(file.clone()).unwrap();
    pool
}

/// Interprets the last of `files` with `options` and returns the result
/// as written (source-retention options stripped), with protoc's file.
fn run(
    files: &[(&str, &str)],
    options: &[(&[i32], Vec<UninterpretedOption>)],
) -> (
    Result<FileDescriptorProto, Vec<String>>,
    FileDescriptorProto,
) {
    let set = protoc(files).unwrap_or_else(|e| panic!("protoc rejects the case: {e}"));
    let (expected, deps) = set.file.split_last().unwrap();
    let mut file = uninterpreted(expected, options);
    let linked = pool(deps, &file);
    if let Err(errors) = interpret(&mut file, &linked) {
        let messages = errors.into_iter().map(|d| d.message).collect();
        return (Err(messages), expected.clone());
    }
    let final_pool = pool(deps, &file);
    strip_source_retention(&mut file, &final_pool);
    (Ok(file), expected.clone())
}

/// Asserts that interpreting gives protoc's file, byte for byte.
fn assert_same(files: &[(&str, &str)], options: &[(&[i32], Vec<UninterpretedOption>)]) {
    let (ours, expected) = run(files, options);
    let ours = ours.unwrap_or_else(|e| panic!("interpretation failed: {e:?}"));
    assert_eq!(
        ours.encode_to_vec(),
        expected.encode_to_vec(),
        "\nours:   {ours:?}\nprotoc: {expected:?}"
    );
}

/// Asserts that protoc rejects the last of `files` and interpretation of
/// `options` fails with the same message.
fn assert_error(
    files: &[(&str, &str)],
    accepted: &[(&str, &str)],
    options: &[(&[i32], Vec<UninterpretedOption>)],
) {
    let stderr = protoc(files).expect_err("protoc accepts the case");
    let message = stderr
        .lines()
        .next()
        .and_then(|line| line.splitn(4, ':').nth(3))
        .unwrap()
        .trim()
        .to_owned();
    let (ours, _) = run(accepted, options);
    let ours = ours.expect_err("interpretation accepts the case");
    assert_eq!(ours[0], message);
}

const CUSTOM: &str = r#"syntax = "proto2";
package my;
import "google/protobuf/descriptor.proto";
enum Color { RED = 0; GREEN = 1; BLUE = -2; }
enum Other { PURPLE = 5; }
message Sub {
  optional int32 a = 1;
  optional int32 b = 2;
  repeated int32 r = 3;
  optional Sub nested = 4;
  optional string s = 5 [retention = RETENTION_SOURCE];
  optional group G = 6 { optional int32 x = 7; }
  extensions 100 to 200;
}
extend Sub { optional string sub_ext = 100; }
extend google.protobuf.FileOptions {
  optional int32 i32 = 50001;
  optional int64 i64 = 50002;
  optional uint32 u32 = 50003;
  optional uint64 u64 = 50004;
  optional sint32 s32 = 50005;
  optional sint64 s64 = 50006;
  optional fixed32 f32 = 50007;
  optional fixed64 f64 = 50008;
  optional sfixed32 sf32 = 50009;
  optional sfixed64 sf64 = 50010;
  optional float fl = 50011;
  optional double db = 50012;
  optional bool bl = 50013;
  optional string st = 50014;
  optional bytes by = 50015;
  optional Color color = 50016;
  optional Sub sub = 50017;
  repeated int32 rep = 50018;
  repeated int32 packed_rep = 50019 [packed = true];
  optional int32 src = 50020 [retention = RETENTION_SOURCE];
  repeated Sub subs = 50021;
  optional group Grp = 50022 { optional int32 y = 1; }
}
extend google.protobuf.MessageOptions { optional Sub msub = 50100; optional int32 mi = 50101; }
extend google.protobuf.FieldOptions { optional Color fcolor = 50200; }
extend google.protobuf.EnumValueOptions { optional bool vb = 50300; }
extend google.protobuf.ServiceOptions { optional string svc = 50400; }
extend google.protobuf.MethodOptions { optional Sub msub2 = 50500; }
"#;

#[test]
fn builtin_options_of_every_element() {
    let text = r#"syntax = "proto2";
package b;
option java_package = "com.b";
option optimize_for = CODE_SIZE;
option cc_enable_arenas = false;
option java_multiple_files = true;
message M {
  option deprecated = true;
  repeated int32 r = 1 [packed = true, deprecated = true];
  optional string s = 2 [ctype = CORD, jstype = JS_NORMAL];
  oneof o { int32 x = 3; }
  extensions 10 to 20;
}
enum E { option deprecated = true; A = 0; B = 1 [deprecated = true]; }
service S {
  option deprecated = true;
  rpc Get(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }
}
"#;
    assert_same(
        &[("b.proto", text)],
        &[
            (
                &[8],
                vec![
                    opt("java_package", V::Str(b"com.b")),
                    opt("optimize_for", V::Id("CODE_SIZE")),
                    opt("cc_enable_arenas", V::Id("false")),
                    opt("java_multiple_files", V::Id("true")),
                ],
            ),
            (&[4, 0, 7], vec![opt("deprecated", V::Id("true"))]),
            (
                &[4, 0, 2, 0, 8],
                vec![
                    opt("packed", V::Id("true")),
                    opt("deprecated", V::Id("true")),
                ],
            ),
            (
                &[4, 0, 2, 1, 8],
                vec![
                    opt("ctype", V::Id("CORD")),
                    opt("jstype", V::Id("JS_NORMAL")),
                ],
            ),
            (&[5, 0, 3], vec![opt("deprecated", V::Id("true"))]),
            (&[5, 0, 2, 1, 3], vec![opt("deprecated", V::Id("true"))]),
            (&[6, 0, 3], vec![opt("deprecated", V::Id("true"))]),
            (
                &[6, 0, 2, 0, 4],
                vec![opt("idempotency_level", V::Id("NO_SIDE_EFFECTS"))],
            ),
        ],
    );
}

#[test]
fn custom_scalar_options_are_encoded_as_protoc_encodes_them() {
    let text = r#"syntax = "proto2";
package u;
import "custom.proto";
option (my.st) = "hello";
option (my.i32) = -5;
option (my.i64) = -9223372036854775808;
option (my.u32) = 4294967295;
option (my.u64) = 18446744073709551615;
option (my.s32) = -3;
option (my.s64) = -4;
option (my.f32) = 7;
option (my.f64) = 8;
option (my.sf32) = -9;
option (my.sf64) = -10;
option (my.fl) = 1.5;
option (my.db) = -inf;
option (my.bl) = true;
option (my.by) = "\001\377";
option (my.color) = BLUE;
option (my.rep) = 3;
option (my.rep) = 1;
option (my.packed_rep) = 4;
option (my.packed_rep) = 5;
option (my.src) = 1;
"#;
    assert_same(
        &[("custom.proto", CUSTOM), ("u.proto", text)],
        &[(
            &[8],
            vec![
                opt("(my.st)", V::Str(b"hello")),
                opt("(my.i32)", V::Neg(-5)),
                opt("(my.i64)", V::Neg(i64::MIN)),
                opt("(my.u32)", V::Pos(4294967295)),
                opt("(my.u64)", V::Pos(u64::MAX)),
                opt("(my.s32)", V::Neg(-3)),
                opt("(my.s64)", V::Neg(-4)),
                opt("(my.f32)", V::Pos(7)),
                opt("(my.f64)", V::Pos(8)),
                opt("(my.sf32)", V::Neg(-9)),
                opt("(my.sf64)", V::Neg(-10)),
                opt("(my.fl)", V::Dbl(1.5)),
                opt("(my.db)", V::Dbl(f64::NEG_INFINITY)),
                opt("(my.bl)", V::Id("true")),
                opt("(my.by)", V::Str(b"\x01\xff")),
                opt("(my.color)", V::Id("BLUE")),
                opt("(my.rep)", V::Pos(3)),
                opt("(my.rep)", V::Pos(1)),
                opt("(my.packed_rep)", V::Pos(4)),
                opt("(my.packed_rep)", V::Pos(5)),
                opt("(my.src)", V::Pos(1)),
            ],
        )],
    );
}

#[test]
fn sub_fields_and_aggregates_are_merged_in_field_order() {
    let text = r#"syntax = "proto3";
package u;
import "custom.proto";
option (my.sub).b = 2;
option (my.sub).nested.a = 1;
option (my.sub).a = 3;
option (my.subs) = { a: 1 s: "dropped" };
option (my.subs) = { b: 2 r: [1, 2] r: 3 [my.sub_ext]: "a" };
option (my.grp).y = 4;
message M {
  option (my.msub) = { nested { a: 1 nested { b: 2 } } a: 5 G { x: 1 } [my.sub_ext]: "e" };
  option (my.mi) = 1;
  int32 f = 1 [(my.fcolor) = GREEN];
}
enum E { A = 0 [(my.vb) = false]; }
service S {
  option (my.svc) = "s";
  rpc Get(M) returns (M) { option (my.msub2).r = 1; option (my.msub2).r = 2; }
}
"#;
    assert_same(
        &[("custom.proto", CUSTOM), ("u.proto", text)],
        &[
            (
                &[8],
                vec![
                    opt("(my.sub).b", V::Pos(2)),
                    opt("(my.sub).nested.a", V::Pos(1)),
                    opt("(my.sub).a", V::Pos(3)),
                    opt("(my.subs)", V::Agg("a: 1 s: \"dropped\"")),
                    opt(
                        "(my.subs)",
                        V::Agg("b: 2 r: [1, 2] r: 3 [my.sub_ext]: \"a\""),
                    ),
                    opt("(my.grp).y", V::Pos(4)),
                ],
            ),
            (
                &[4, 0, 7],
                vec![
                    opt(
                        "(my.msub)",
                        V::Agg(
                            "nested { a: 1 nested { b: 2 } } a: 5 G { x: 1 } [my.sub_ext]: \"e\"",
                        ),
                    ),
                    opt("(my.mi)", V::Pos(1)),
                ],
            ),
            (&[4, 0, 2, 0, 8], vec![opt("(my.fcolor)", V::Id("GREEN"))]),
            (&[5, 0, 2, 0, 3], vec![opt("(my.vb)", V::Id("false"))]),
            (&[6, 0, 3], vec![opt("(my.svc)", V::Str(b"s"))]),
            (
                &[6, 0, 2, 0, 4],
                vec![
                    opt("(my.msub2).r", V::Pos(1)),
                    opt("(my.msub2).r", V::Pos(2)),
                ],
            ),
        ],
    );
}

#[test]
fn features_are_written_as_set() {
    let text = r#"edition = "2023";
package f;
import "google/protobuf/cpp_features.proto";
import "google/protobuf/java_features.proto";
option features.(pb.java).legacy_closed_enum = true;
option java_package = "f";
option features.field_presence = IMPLICIT;
option features.(pb.cpp).legacy_closed_enum = true;
option features.(pb.java).utf8_validation = VERIFY;
message M {
  int32 a = 1 [features.field_presence = EXPLICIT];
  repeated int32 r = 2 [features.repeated_field_encoding = EXPANDED];
}
enum E { option features.enum_type = CLOSED; A = 0; }
"#;
    assert_same(
        &[("f.proto", text)],
        &[
            (
                &[8],
                vec![
                    opt("features.(pb.java).legacy_closed_enum", V::Id("true")),
                    opt("java_package", V::Str(b"f")),
                    opt("features.field_presence", V::Id("IMPLICIT")),
                    opt("features.(pb.cpp).legacy_closed_enum", V::Id("true")),
                    opt("features.(pb.java).utf8_validation", V::Id("VERIFY")),
                ],
            ),
            (
                &[4, 0, 2, 0, 8],
                vec![opt("features.field_presence", V::Id("EXPLICIT"))],
            ),
            (
                &[4, 0, 2, 1, 8],
                vec![opt("features.repeated_field_encoding", V::Id("EXPANDED"))],
            ),
            (&[5, 0, 3], vec![opt("features.enum_type", V::Id("CLOSED"))]),
        ],
    );
}

#[test]
fn googleapis_annotations() {
    let text = r#"syntax = "proto3";
package g.v1;
import "google/api/annotations.proto";
import "google/api/client.proto";
import "google/api/field_behavior.proto";
import "google/api/resource.proto";
option (google.api.resource_definition) = { type: "g.googleapis.com/Shelf" pattern: "shelves/{shelf}" };
message Book {
  option (google.api.resource) = { type: "g.googleapis.com/Book" pattern: "shelves/{shelf}/books/{book}" };
  string name = 1 [(google.api.field_behavior) = IDENTIFIER];
  string title = 2 [(google.api.field_behavior) = REQUIRED, (google.api.field_behavior) = IMMUTABLE];
  string parent = 3 [(google.api.resource_reference).type = "g.googleapis.com/Shelf"];
}
service Library {
  option (google.api.default_host) = "g.googleapis.com";
  option (google.api.oauth_scopes) = "https://www.googleapis.com/auth/cloud-platform";
  rpc GetBook(Book) returns (Book) {
    option (google.api.http) = { get: "/v1/{name=shelves/*/books/*}" additional_bindings { post: "/v1/x" body: "*" } };
    option (google.api.method_signature) = "name";
    option (google.api.method_signature) = "name,title";
  }
}
"#;
    assert_same(
        &[("g.proto", text)],
        &[
            (
                &[8],
                vec![opt(
                    "(google.api.resource_definition)",
                    V::Agg("type: \"g.googleapis.com/Shelf\" pattern: \"shelves/{shelf}\""),
                )],
            ),
            (
                &[4, 0, 7],
                vec![opt(
                    "(google.api.resource)",
                    V::Agg(
                        "type: \"g.googleapis.com/Book\" pattern: \"shelves/{shelf}/books/{book}\"",
                    ),
                )],
            ),
            (
                &[4, 0, 2, 0, 8],
                vec![opt("(google.api.field_behavior)", V::Id("IDENTIFIER"))],
            ),
            (
                &[4, 0, 2, 1, 8],
                vec![
                    opt("(google.api.field_behavior)", V::Id("REQUIRED")),
                    opt("(google.api.field_behavior)", V::Id("IMMUTABLE")),
                ],
            ),
            (
                &[4, 0, 2, 2, 8],
                vec![opt(
                    "(google.api.resource_reference).type",
                    V::Str(b"g.googleapis.com/Shelf"),
                )],
            ),
            (
                &[6, 0, 3],
                vec![
                    opt("(google.api.default_host)", V::Str(b"g.googleapis.com")),
                    opt(
                        "(google.api.oauth_scopes)",
                        V::Str(b"https://www.googleapis.com/auth/cloud-platform"),
                    ),
                ],
            ),
            (
                &[6, 0, 2, 0, 4],
                vec![
                    opt(
                        "(google.api.http)",
                        V::Agg(
                            "get: \"/v1/{name=shelves/*/books/*}\" additional_bindings { post: \"/v1/x\" body: \"*\" }",
                        ),
                    ),
                    opt("(google.api.method_signature)", V::Str(b"name")),
                    opt("(google.api.method_signature)", V::Str(b"name,title")),
                ],
            ),
        ],
    );
}

#[test]
fn relative_extension_names_resolve_from_the_element_scope() {
    let text = r#"syntax = "proto2";
package my.inner;
import "custom.proto";
import "google/protobuf/descriptor.proto";
message M {
  extend google.protobuf.MessageOptions { optional int32 local = 51000; }
  message N { option (M.local) = 7; option (mi) = 2; }
}
"#;
    assert_same(
        &[("custom.proto", CUSTOM), ("r.proto", text)],
        &[(
            &[4, 0, 3, 0, 7],
            vec![opt("(M.local)", V::Pos(7)), opt("(mi)", V::Pos(2))],
        )],
    );
}

/// One bad option: the file protoc rejects (`bad` replaces `OPTION` in
/// `template`), the file without it, and the option.
fn bad(template: &str, bad: &str, options_path: &[i32], option: UninterpretedOption) {
    let rejected = template.replace("OPTION", bad);
    let accepted = template.replace("OPTION", "");
    assert_error(
        &[("custom.proto", CUSTOM), ("bad.proto", &rejected)],
        &[("custom.proto", CUSTOM), ("bad.proto", &accepted)],
        &[(options_path, vec![option])],
    );
}

const BAD_FILE: &str = "syntax = \"proto2\";\npackage bad;\nimport \"custom.proto\";\nOPTION\nmessage M { optional int32 f = 1; }\n";

#[test]
fn errors_are_protoc_errors() {
    let file = &[8][..];
    let cases: &[(&str, UninterpretedOption)] = &[
        (
            "option (my.i32) = 2147483648;",
            opt("(my.i32)", V::Pos(2147483648)),
        ),
        (
            "option (my.i32) = -2147483649;",
            opt("(my.i32)", V::Neg(-2147483649)),
        ),
        ("option (my.i32) = \"x\";", opt("(my.i32)", V::Str(b"x"))),
        (
            "option (my.i64) = 9223372036854775808;",
            opt("(my.i64)", V::Pos(9223372036854775808)),
        ),
        ("option (my.u32) = -1;", opt("(my.u32)", V::Neg(-1))),
        (
            "option (my.u32) = 4294967296;",
            opt("(my.u32)", V::Pos(4294967296)),
        ),
        ("option (my.u64) = 1.5;", opt("(my.u64)", V::Dbl(1.5))),
        ("option (my.fl) = foo;", opt("(my.fl)", V::Id("foo"))),
        ("option (my.bl) = 1;", opt("(my.bl)", V::Pos(1))),
        ("option (my.bl) = yes;", opt("(my.bl)", V::Id("yes"))),
        ("option (my.color) = 1;", opt("(my.color)", V::Pos(1))),
        (
            "option (my.color) = YELLOW;",
            opt("(my.color)", V::Id("YELLOW")),
        ),
        (
            "option (my.color) = PURPLE;",
            opt("(my.color)", V::Id("PURPLE")),
        ),
        ("option (my.st) = 1;", opt("(my.st)", V::Pos(1))),
        ("option (my.by) = x;", opt("(my.by)", V::Id("x"))),
        ("option (my.sub) = 1;", opt("(my.sub)", V::Pos(1))),
        ("option (my.i32).a = 1;", opt("(my.i32).a", V::Pos(1))),
        ("option (my.subs).a = 1;", opt("(my.subs).a", V::Pos(1))),
        ("option (my.nope) = 1;", opt("(my.nope)", V::Pos(1))),
        ("option (my.mi) = 1;", opt("(my.mi)", V::Pos(1))),
        ("option nope = 1;", opt("nope", V::Pos(1))),
        ("option java_package = 1;", opt("java_package", V::Pos(1))),
        (
            "option optimize_for = FAST;",
            opt("optimize_for", V::Id("FAST")),
        ),
        ("option (my.sub).nope = 1;", opt("(my.sub).nope", V::Pos(1))),
    ];
    for (text, option) in cases {
        bad(BAD_FILE, text, file, option.clone());
    }
}

#[test]
fn an_option_set_twice_is_an_error() {
    let rejected = BAD_FILE.replace("OPTION", "option (my.sub).a = 1; option (my.sub).a = 2;");
    let accepted = BAD_FILE.replace("OPTION", "");
    assert_error(
        &[("custom.proto", CUSTOM), ("bad.proto", &rejected)],
        &[("custom.proto", CUSTOM), ("bad.proto", &accepted)],
        &[(
            &[8],
            vec![opt("(my.sub).a", V::Pos(1)), opt("(my.sub).a", V::Pos(2))],
        )],
    );
}

#[test]
fn a_partly_resolved_name_is_reported_as_protoc_reports_it() {
    let text =
        "syntax = \"proto2\";\npackage my.x;\nimport \"custom.proto\";\nmessage my { OPTION }\n";
    let rejected = text.replace("OPTION", "option (my.mi) = 1;");
    let accepted = text.replace("OPTION", "");
    assert_error(
        &[("custom.proto", CUSTOM), ("bad.proto", &rejected)],
        &[("custom.proto", CUSTOM), ("bad.proto", &accepted)],
        &[(&[4, 0, 7], vec![opt("(my.mi)", V::Pos(1))])],
    );
}

#[test]
fn aggregate_errors_are_worded_as_protoc_words_them() {
    let cases = [
        "zz: 1",
        "a: \"x\"",
        "a: 1 a: 2",
        "nested: 1",
        "[my.nope]: 1",
        "r: [1, x]",
        "a: 99999999999",
        "a 1",
        "r: [1 2]",
        "s: 1",
        "a: -",
        "[my.sub_ext]: 1",
    ];
    let required = "syntax = \"proto2\";\npackage r;\nimport \"google/protobuf/descriptor.proto\";\nmessage Inner { required int32 x = 1; }\nmessage R { required int32 a = 1; optional Inner inner = 2; repeated Inner list = 3; required Inner b = 4; }\nextend google.protobuf.FileOptions { optional R r = 50000; }\nOPTION\n";
    let rejected = required.replace(
        "OPTION",
        "option (r) = { inner { } list { } list { x: 1 } };",
    );
    let stderr = protoc(&[("req.proto", &rejected)]).unwrap_err();
    let (ours, _) = run(
        &[("req.proto", &required.replace("OPTION", ""))],
        &[(
            &[8],
            vec![opt("(r)", V::Agg("inner { } list { } list { x: 1 }"))],
        )],
    );
    assert_eq!(
        ours.unwrap_err()[0],
        stderr.splitn(4, ':').nth(3).unwrap().trim()
    );
    // protoc's `Expected integer, got: x` (an identifier) and buffa's differ
    // only in quoting a string token, which both keep as written.
    for value in cases {
        let rejected = BAD_FILE.replace("OPTION", &format!("option (my.sub) = {{ {value} }};"));
        let accepted = BAD_FILE.replace("OPTION", "");
        let stderr = protoc(&[("custom.proto", CUSTOM), ("bad.proto", &rejected)]).unwrap_err();
        let (ours, _) = run(
            &[("custom.proto", CUSTOM), ("bad.proto", &accepted)],
            &[(&[8], vec![opt("(my.sub)", V::Agg(value))])],
        );
        let message = stderr.splitn(4, ':').nth(3).unwrap().trim();
        assert_eq!(ours.unwrap_err()[0].trim(), message, "{value}");
    }
}

#[test]
fn aggregate_extension_names_and_any() {
    let text = r#"syntax = "proto2";
package my;
import "custom.proto";
import "google/protobuf/any.proto";
import "google/protobuf/descriptor.proto";
extend google.protobuf.FileOptions { optional google.protobuf.Any any = 51000; }
option (sub) = { [sub_ext]: "relative" };
option (any) = { [type.googleapis.com/my.Sub] { a: 1 } };
"#;
    assert_same(
        &[("custom.proto", CUSTOM), ("x.proto", text)],
        &[(
            &[8],
            vec![
                opt("(sub)", V::Agg("[sub_ext]: \"relative\"")),
                opt("(any)", V::Agg("[type.googleapis.com/my.Sub] { a: 1 }")),
            ],
        )],
    );
}

#[test]
fn a_long_sub_field_name_costs_linear_time_and_no_stack() {
    let depth = 20_000;
    let name = format!("(my.sub){}.a", ".nested".repeat(depth));
    let text = "syntax = \"proto2\";\npackage l;\nimport \"custom.proto\";\n";
    let set = protoc(&[("custom.proto", CUSTOM), ("l.proto", text)]).unwrap();
    let (file, deps) = set.file.split_last().unwrap();
    let options = vec![opt(&name, V::Pos(1)), opt(&name, V::Pos(2))];
    let mut file = uninterpreted(file, &[(&[8], options)]);
    let linked = pool(deps, &file);
    let errors = interpret(&mut file, &linked).unwrap_err();
    assert!(errors[0].message.ends_with(".a\" was already set."));
}

/// The first line protoc prints for `files` (the last compiled), without
/// the directory it was given.
fn protoc_first_error(files: &[(&str, &str)]) -> String {
    let stderr = protoc(files).expect_err("protoc accepts the case");
    let line = stderr.lines().next().unwrap();
    let start = line.find(files.last().unwrap().0).unwrap_or(0);
    line[start..].to_owned()
}

/// The first error of the whole compiler on `files`, as protoc prints it.
fn our_first_error(files: &[(&str, &str)]) -> String {
    let mut compiler = crate::Compiler::new();
    for (name, text) in files {
        compiler.source(*name, *text);
    }
    let error = compiler
        .compile(&[files.last().unwrap().0])
        .expect_err("buffa-compile accepts the case");
    error.diagnostics()[0].to_string()
}

#[test]
fn errors_are_located_where_protoc_locates_them() {
    let statements = [
        "option (my.i32) = 2147483648;",
        "option (my.i32) = -2147483649;",
        "option (my.u32) = -1;",
        "option (my.bl) = yes;",
        "option (my.color) = YELLOW;",
        "option (my.sub) = 1;",
        "option (my.sub) = { zz: 1 };",
        "option (my.i32).a = 1;",
        "option (my.nope) = 1;",
        "option  java_package = 1;",
        "option (my.sub).a = 1;\noption (my.sub).a = 2;",
        "option (my.st) = -inf;",
    ];
    for statement in statements {
        let files = [
            ("custom.proto", CUSTOM),
            ("bad.proto", &*BAD_FILE.replace("OPTION", statement)),
        ];
        assert_eq!(
            our_first_error(&files),
            protoc_first_error(&files),
            "{statement}"
        );
    }
    let field_option = BAD_FILE.replace(
        "optional int32 f = 1;",
        "optional int32 f = 1 [deprecated = true, (my.fcolor) = 7];",
    );
    let files = [("custom.proto", CUSTOM), ("bad.proto", &*field_option)];
    assert_eq!(our_first_error(&files), protoc_first_error(&files));
}

#[test]
fn every_error_is_reported_in_protoc_order() {
    let text = r#"syntax = "proto2";
package bad;
import "custom.proto";
option (my.i32) = "x";
option java_package = 1;
message M {
  option (my.mi) = "y";
  optional int32 f = 1 [(my.fcolor) = 7, deprecated = 2];
  message N { option deprecated = 3; }
}
enum E { A = 0 [(my.vb) = 1]; }
service S { option (my.svc) = 1; rpc R(M) returns (M) { option deprecated = 4; } }
"#;
    let files = [("custom.proto", CUSTOM), ("bad.proto", text)];
    let stderr = protoc(&files).unwrap_err();
    let theirs: Vec<&str> = stderr
        .lines()
        .map(|l| &l[l.find("bad.proto").unwrap_or(0)..])
        .collect();
    let mut compiler = crate::Compiler::new();
    for (name, text) in files {
        compiler.source(name, text);
    }
    let error = compiler.compile(&["bad.proto"]).unwrap_err();
    let ours: Vec<String> = error.diagnostics().iter().map(|d| d.to_string()).collect();
    assert_eq!(ours, theirs);
}

#[test]
fn source_info_follows_interpreted_and_stripped_options() {
    let text = r#"syntax = "proto2";
package s;
import "custom.proto";
// The file's options.
option java_package = "s";
option (my.src) = 1; // stripped
option (my.sub).s = "stripped";
option (my.sub).a = 1;
option (my.rep) = 1;
option (my.rep) = 2;
option (my.subs) = { s: "x" a: 2 };
message M {
  option (my.msub).s = "only this";
  optional int32 f = 1 [(my.fcolor) = GREEN, deprecated = true];
}
"#;
    let files = [("custom.proto", CUSTOM), ("s.proto", text)];
    let expected = protoc_with(&files, true).unwrap();
    let mut compiler = crate::Compiler::new();
    compiler.include_source_info(true);
    for (name, text) in files {
        compiler.source(name, text);
    }
    let ours = compiler.compile(&["s.proto"]).unwrap();
    let (ours, theirs) = (ours.file.last().unwrap(), expected.file.last().unwrap());
    assert_eq!(
        ours.encode_to_vec(),
        theirs.encode_to_vec(),
        "\nours:   {ours:?}\nprotoc: {theirs:?}"
    );
}

#[test]
fn options_used_outside_their_editions_are_errors() {
    let cases = [
        "edition = \"2023\";\npackage l;\nimport \"google/protobuf/java_features.proto\";\noption features.(pb.java).nest_in_file_class = YES;\n",
        "edition = \"2024\";\npackage l;\noption java_multiple_files = true;\nmessage M { int32 a = 1; }\n",
        "edition = \"2023\";\npackage l;\nmessage M { option features.enforce_naming_style = STYLE2024; int32 a = 1; }\n",
    ];
    for text in cases {
        let files = [("l.proto", text)];
        let stderr = protoc(&files).unwrap_err();
        let theirs: Vec<&str> = stderr
            .lines()
            .map(|l| &l[l.find("l.proto").unwrap_or(0)..])
            .collect();
        let mut compiler = crate::Compiler::new();
        compiler.source("l.proto", text);
        let error = compiler.compile(&["l.proto"]).unwrap_err();
        let ours: Vec<String> = error.diagnostics().iter().map(|d| d.to_string()).collect();
        assert_eq!(ours, theirs, "{text}");
    }
}

#[test]
fn tricky_values_end_to_end() {
    let statements = [
        "option (my.fl) = 1e40;",
        "option (my.fl) = -1e-50;",
        "option (my.db) = nan;",
        "option (my.db) = -nan;",
        "option (my.fl) = inf;",
        "option (my.i64) = -0;",
        "option (my.u64) = 0x10;",
        "option (my.i32) = 010;",
        "option (my.db) = 18446744073709551616;",
        "option (my.by) = \"\\x00\\377\" 'a';",
        "option (my.sub) = { };",
        "option (my.sub) = { nested < a: 1 >, r: 1; r: 2 };",
        "option (my.subs) = { };\noption (my.subs) = { a: 1 };",
        "option (my.sub).nested.nested.a = 1;\noption (my.sub).nested.b = 2;",
        "option (.my.st) = \"dot\";",
        "option (my.grp) = { y: 9 };",
    ];
    for statement in statements {
        let text = BAD_FILE.replace("OPTION", statement);
        let files = [("custom.proto", CUSTOM), ("t.proto", text.as_str())];
        let theirs = protoc(&files).unwrap_or_else(|e| panic!("{statement}: {e}"));
        let mut compiler = crate::Compiler::new();
        for (name, text) in files {
            compiler.source(name, text);
        }
        let ours = compiler
            .compile(&["t.proto"])
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        assert_eq!(
            ours.encode_to_vec(),
            theirs.encode_to_vec(),
            "{statement}\nours:   {:?}\nprotoc: {:?}",
            ours.file.last().unwrap().options,
            theirs.file.last().unwrap().options
        );
    }
}

#[test]
fn reserved_names_and_same_file_features_are_errors() {
    let same_file_feature = r#"edition = "2023";
package sf;
import "google/protobuf/descriptor.proto";
message MyFeatures {
  enum V { V_UNKNOWN = 0; A = 1; B = 2; }
  V v = 1 [
    targets = TARGET_TYPE_FILE,
    feature_support = { edition_introduced: EDITION_2023 },
    edition_defaults = { edition: EDITION_LEGACY, value: "A" }
  ];
}
extend google.protobuf.FeatureSet { MyFeatures my = 9999; }
option features.(my).v = B;
"#;
    let reserved = "syntax = \"proto2\";\npackage u;\noption uninterpreted_option = 1;\n";
    for text in [same_file_feature, reserved] {
        let files = [("e.proto", text)];
        let mut compiler = crate::Compiler::new();
        compiler.source("e.proto", text);
        let error = compiler.compile(&["e.proto"]).unwrap_err();
        assert_eq!(
            error.diagnostics()[0].to_string(),
            protoc_first_error(&files)
        );
    }
}

#[test]
#[ignore]
fn print_aggregate_errors() {
    let values = std::env::var("BUFFA_OPTIONS_VALUES").unwrap();
    for value in values.split('|') {
        let rejected = BAD_FILE.replace("OPTION", &format!("option (my.sub) = {{ {value} }};"));
        let accepted = BAD_FILE.replace("OPTION", "");
        let stderr = protoc(&[("custom.proto", CUSTOM), ("bad.proto", &rejected)]).err();
        let (ours, _) = run(
            &[("custom.proto", CUSTOM), ("bad.proto", &accepted)],
            &[(&[8], vec![opt("(my.sub)", V::Agg(value))])],
        );
        eprintln!(
            "{value}\n  protoc: {:?}\n  ours:   {:?}",
            stderr.map(|s| s
                .splitn(4, ':')
                .nth(3)
                .unwrap_or_default()
                .trim()
                .to_owned()),
            ours.err()
        );
    }
}

#[test]
#[ignore]
fn print_protoc_and_ours() {
    let name = std::env::var("BUFFA_OPTIONS_CASE").unwrap();
    let text = std::fs::read_to_string(&name).unwrap();
    let base = std::path::Path::new(&name)
        .file_name()
        .unwrap()
        .to_str()
        .unwrap();
    let files = [(base, text.as_str())];
    eprintln!("protoc: {:?}", protoc(&files).err());
    let mut compiler = crate::Compiler::new();
    compiler.source(base, text.as_str());
    eprintln!(
        "ours:   {:?}",
        compiler.compile(&[base]).err().map(|e| e.to_string())
    );
}
