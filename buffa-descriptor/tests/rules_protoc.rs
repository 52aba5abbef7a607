//! The shared rules of `buffa_descriptor::rules` checked against protoc:
//! the two escape dialects through `[default = ...]` (protoc reads the
//! `.proto` literal with the tokenizer its text format uses, and writes the
//! bytes back into `default_value` with `CEscape`), and each edition's
//! feature defaults against `protoc --edition_defaults_out`.

#[path = "proto/descriptor/fixtures.rs"]
mod fixtures;

use std::path::Path;
use std::process::Command;

use buffa::Message;
use buffa_descriptor::rules::{Escapes, ResolvedFeatures, unescape};
use buffa_descriptor::{DefaultValue, DescriptorPool};
use buffa_types::google::protobuf::{Edition, FeatureSetDefaults};
use fixtures::{compile, protoc};

/// String literals as a `.proto` file (or a text-format message) writes
/// them, between double quotes.
const LITERALS: &[&str] = &[
    r#"plain"#,
    r#"\a\b\f\n\r\t\v\\\'\"\?"#,
    r#"\0\12\101\1011\377"#,
    // Octal above \377 keeps its low eight bits.
    r#"\400\777"#,
    r#"\x4\x41\x414\xfF\X41"#,
    r#"\u00e9\U0001F600\u0041"#,
    "é raw UTF-8 €",
];

#[test]
fn escapes_read_as_protoc_reads_and_writes_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rules-escapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut proto = String::from("syntax = \"proto2\";\npackage esc;\nmessage M {\n");
    for (i, literal) in LITERALS.iter().enumerate() {
        proto.push_str(&format!(
            "  optional bytes f{i} = {} [default = \"{literal}\"];\n",
            i + 1
        ));
    }
    proto.push_str("}\n");
    std::fs::write(dir.join("escapes.proto"), proto).unwrap();
    let set = compile(&dir, None, &["escapes.proto"], "escapes").expect("protoc accepts");
    let pool = DescriptorPool::decode(&set).unwrap();
    let message = pool.get_message_by_name("esc.M").unwrap();
    for (i, literal) in LITERALS.iter().enumerate() {
        let field = message.get_field_by_name(&format!("f{i}")).unwrap();
        // What protoc read the literal as, in the text-format dialect ...
        let read = unescape(literal, Escapes::TextFormat).unwrap();
        // ... is what its `default_value` (CEscape output) reads back as in
        // the descriptor dialect, and the pool's default.
        let written = field.field_descriptor_proto().default_value();
        assert_eq!(
            unescape(written, Escapes::DefaultValue).unwrap(),
            read,
            "{literal} (protoc wrote {written})"
        );
        assert_eq!(
            field.default_value(),
            DefaultValue::Bytes(read),
            "{literal}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn edition_defaults_match_protoc() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("edition-defaults-{}.pb", std::process::id()));
    let wkt = protoc_bin_vendored::include_path().expect("vendored includes");
    let status = Command::new(protoc())
        .arg(format!("--edition_defaults_out={}", out.display()))
        .arg("--edition_defaults_minimum=PROTO2")
        .arg("--edition_defaults_maximum=2024")
        .arg(format!("--proto_path={}", wkt.display()))
        .arg("google/protobuf/descriptor.proto")
        .status()
        .expect("run protoc");
    assert!(status.success());
    let defaults = FeatureSetDefaults::decode_from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let _ = std::fs::remove_file(&out);

    for edition in [
        Edition::Proto2,
        Edition::Proto3,
        Edition::Edition2023,
        Edition::Edition2024,
    ] {
        // protoc lists the editions where defaults change: the one in
        // force is the last at or before `edition`.
        let entry = defaults
            .defaults
            .iter()
            .rfind(|d| d.edition() as i32 <= edition as i32)
            .expect("an entry at or before the edition");
        let (fixed, overridable) = (
            entry
                .fixed_features
                .as_option()
                .cloned()
                .unwrap_or_default(),
            entry
                .overridable_features
                .as_option()
                .cloned()
                .unwrap_or_default(),
        );
        let protoc = ResolvedFeatures {
            field_presence: pick(edition, overridable.field_presence, fixed.field_presence),
            enum_type: pick(edition, overridable.enum_type, fixed.enum_type),
            repeated_field_encoding: pick(
                edition,
                overridable.repeated_field_encoding,
                fixed.repeated_field_encoding,
            ),
            utf8_validation: pick(edition, overridable.utf8_validation, fixed.utf8_validation),
            message_encoding: pick(
                edition,
                overridable.message_encoding,
                fixed.message_encoding,
            ),
            json_format: pick(edition, overridable.json_format, fixed.json_format),
        };
        assert_eq!(
            ResolvedFeatures::for_edition(edition),
            Some(protoc),
            "{edition:?}"
        );
    }
}

/// The overridable value where protoc sets one, else the fixed one; protoc
/// sets every feature in one or the other.
fn pick<T>(edition: Edition, overridable: Option<T>, fixed: Option<T>) -> T {
    overridable
        .or(fixed)
        .unwrap_or_else(|| panic!("{edition:?}: protoc left a feature unset"))
}
