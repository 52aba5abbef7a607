//! The `unknown_fields` rule (`Config::unknown_fields_in`): what it covers,
//! its errors, its plugin key and its rows in the layout report, on the
//! golden `unknown.proto` (whose generated shape `golden.rs` keeps). The
//! behaviour of the generated code is tested in the tests crate
//! (`tests/tests/unknown_fields.rs`).

mod common;

use buffa_build::{Config, Options, UnknownFieldsRepr};
use common::generate_err;

fn config() -> Config {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut config = Config::new();
    config
        .files(&[format!("{dir}/unknown.proto")])
        .includes(&[dir]);
    config
}

fn generate(config: &Config) -> String {
    let files = config.generate().unwrap_or_else(|e| panic!("{e}"));
    files.into_iter().map(|file| file.content).collect()
}

/// The struct `name`'s text, from its `pub struct` line to its `}`.
fn struct_text(code: &str, name: &str) -> String {
    let start = code
        .find(&format!("pub struct {name} "))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let end = start + code[start..].find('}').unwrap();
    code[start..=end].to_owned()
}

#[test]
fn keep_everywhere_is_the_default() {
    let default = generate(&config());
    let kept = generate(config().unknown_fields(UnknownFieldsRepr::Keep));
    assert_eq!(default, kept);
    assert!(struct_text(&default, "Point").contains("unknown_fields"));
}

#[test]
fn the_last_rule_covering_a_message_wins() {
    let code = generate(
        config()
            .unknown_fields(UnknownFieldsRepr::Discard)
            .unknown_fields_in(UnknownFieldsRepr::Keep, &[".golden.unknown.Keeper"]),
    );
    assert!(!struct_text(&code, "Point").contains("unknown_fields"));
    assert!(struct_text(&code, "Keeper").contains("unknown_fields"));
    // A message with extension ranges keeps them under a scope rule.
    assert!(struct_text(&code, "Extendable").contains("unknown_fields"));

    let code = generate(
        config()
            .unknown_fields_in(UnknownFieldsRepr::Keep, &[".golden.unknown.Keeper"])
            .unknown_fields(UnknownFieldsRepr::Discard),
    );
    assert!(!struct_text(&code, "Keeper").contains("unknown_fields"));
}

#[test]
fn a_path_covering_no_message_is_an_error() {
    for path in [
        ".golden.nowhere",
        ".golden.unknown.Point.z",
        ".golden.unknown.Point.x",
        ".golden.unknown.Kind",
    ] {
        let error = generate_err(config().unknown_fields_in(UnknownFieldsRepr::Discard, &[path]));
        assert!(
            error.contains(&format!("unknown_fields rule names {path}")),
            "{path}: {error}"
        );
    }
}

#[test]
fn discarding_a_message_with_extension_ranges_by_name_is_an_error() {
    let error = generate_err(
        config().unknown_fields_in(UnknownFieldsRepr::Discard, &[".golden.unknown.Extendable"]),
    );
    assert_eq!(
        error,
        "buffa-build: cannot discard the unknown fields of .golden.unknown.Extendable: it has extension \
         ranges, and its extensions are kept among its unknown fields"
    );
    // A later rule keeping them again decides instead.
    generate(
        config()
            .unknown_fields_in(UnknownFieldsRepr::Discard, &[".golden.unknown.Extendable"])
            .unknown_fields_in(UnknownFieldsRepr::Keep, &[".golden.unknown"]),
    );
}

#[test]
fn plugin_keys_set_the_same_rules() {
    let mut applied = Options::default();
    applied
        .apply("unknown_fields_in", Some(".golden.unknown=discard"))
        .unwrap();
    applied.apply("unknown_fields", Some("keep")).unwrap();
    let mut built = Options::default();
    built
        .unknown_fields_in(UnknownFieldsRepr::Discard, &[".golden.unknown"])
        .unknown_fields(UnknownFieldsRepr::Keep);
    assert_eq!(format!("{applied:?}"), format!("{built:?}"));
    let error = Options::default()
        .apply("unknown_fields", Some("drop"))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "option `unknown_fields=drop`: unknown unknown-fields choice `drop` (expected keep \
         or discard)"
    );
}

#[test]
fn the_layout_report_says_which_messages_keep_them() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("unknown_fields_report");
    config()
        .unknown_fields_in(UnknownFieldsRepr::Discard, &[".golden.unknown"])
        .unknown_fields_in(UnknownFieldsRepr::Keep, &[".golden.unknown.Keeper"])
        .unbox_message_fields()
        .out_dir(&dir)
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    let report = std::fs::read_to_string(dir.join("layout.txt")).unwrap();
    let rows: Vec<String> = report
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let expected = [
        ".golden.unknown.Extendable 16 message golden::unknown::Extendable",
        "unknown fields unknown kept extension ranges (over rule .golden.unknown)",
        // The inline Point (16: its `Option<f32>`s lend it a niche) and
        // the unknown-fields pointer.
        ".golden.unknown.Keeper 24 message golden::unknown::Keeper",
        "unknown fields unknown kept rule .golden.unknown.Keeper",
        ".golden.unknown.Keeper.point field Inline rule .",
        ".golden.unknown.Nothing 0 message golden::unknown::Nothing",
        "unknown fields unknown discarded rule .golden.unknown",
        // Two `Option<f32>`: 16 bytes, no unknown-fields pointer.
        ".golden.unknown.Point 16 message golden::unknown::Point",
        "unknown fields unknown discarded rule .golden.unknown",
    ];
    for row in expected {
        assert!(rows.iter().any(|r| r == row), "no row {row:?} in\n{report}");
    }
}
