//! Size-aware inlining (`inline_max_size`) and the layout report, on
//! `tests/protos/pointer/size.proto`.

mod common;

use buffa_build::{Config, PointerRepr};
use common::*;

// Size-aware inlining and the layout report, on `size.proto`: `Vec3` is
// 20 bytes, `Named` 32 and `Wide` 40 (see the comments there; the tests
// crate checks such estimates against `size_of`).

const SIZE: &str = "pointer.size";

fn size_config() -> Config {
    config(&["size.proto"])
}

/// Compiles `config` into a directory of its own with a layout report and
/// returns the report.
fn layout_report(config: &mut Config, name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pointer_layout")
        .join(name);
    config
        .out_dir(&dir)
        .layout_report("layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("compile failed: {e}"));
    std::fs::read_to_string(dir.join("layout.txt")).expect("report written")
}

/// The report row of `path` (a message or a field), with runs of spaces
/// collapsed.
fn report_row(report: &str, path: &str) -> String {
    report
        .lines()
        .find(|line| line.split_whitespace().next() == Some(path))
        .unwrap_or_else(|| panic!("no row {path} in\n{report}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn inline_max_size_boxes_messages_over_the_limit() {
    // Named is exactly 32 bytes: at the limit, it stays inline; Wide (40)
    // is over it.
    let files = generate(size_config().unbox_message_fields().inline_max_size(32));
    assert_eq!(field_type(&files, SIZE, "Holder", "vec"), inline("Vec3"));
    assert_eq!(field_type(&files, SIZE, "Holder", "named"), inline("Named"));
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), boxed("Wide"));

    // One byte less, and Named is over it too.
    let files = generate(size_config().unbox_message_fields().inline_max_size(31));
    assert_eq!(field_type(&files, SIZE, "Holder", "vec"), inline("Vec3"));
    assert_eq!(field_type(&files, SIZE, "Holder", "named"), boxed("Named"));
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), boxed("Wide"));
}

#[test]
fn inline_max_size_alone_inlines_nothing() {
    // A limit only ever boxes: without an inline rule every field keeps
    // the default.
    let files = generate(size_config().inline_max_size(1000));
    assert_eq!(field_type(&files, SIZE, "Holder", "vec"), boxed("Vec3"));
    assert_eq!(
        variant_type(&files, SIZE, "holder::Pick", "Small"),
        "::std::boxed::Box<super::Vec3>"
    );
}

#[test]
fn inline_max_size_per_path_last_rule_wins() {
    let files = generate(
        size_config()
            .unbox_message_fields()
            .inline_max_size(16)
            .inline_max_size_in(40, &[".pointer.size.Holder.wide"]),
    );
    assert_eq!(field_type(&files, SIZE, "Holder", "vec"), boxed("Vec3"));
    assert_eq!(field_type(&files, SIZE, "Holder", "named"), boxed("Named"));
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), inline("Wide"));

    // The broad limit added after the exception overrides it.
    let files = generate(
        size_config()
            .unbox_message_fields()
            .inline_max_size_in(40, &[".pointer.size.Holder.wide"])
            .inline_max_size(16),
    );
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), boxed("Wide"));
}

#[test]
fn exact_inline_rule_beats_the_limit() {
    let files = generate(
        size_config()
            .unbox_message_fields()
            .inline_max_size(8)
            .unbox_message_fields_in(&[".pointer.size.Holder.wide"]),
    );
    assert_eq!(field_type(&files, SIZE, "Holder", "vec"), boxed("Vec3"));
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), inline("Wide"));
    // Even when the limit is set after it: a limit never overrides a rule
    // naming the field.
    let files = generate(
        size_config()
            .unbox_message_fields_in(&[".pointer.size.Holder.wide"])
            .inline_max_size_in(8, &[".pointer.size.Holder.wide"]),
    );
    assert_eq!(field_type(&files, SIZE, "Holder", "wide"), inline("Wide"));
}

#[test]
fn inline_max_size_applies_to_oneof_variants() {
    let small = "super::Vec3";
    let big_boxed = "::std::boxed::Box<super::Wide>";
    let files = generate(size_config().unbox_oneof().inline_max_size(32));
    assert_eq!(variant_type(&files, SIZE, "holder::Pick", "Small"), small);
    assert_eq!(variant_type(&files, SIZE, "holder::Pick", "Big"), big_boxed);

    // Naming the oneof is a scope; a limit naming the oneof covers its
    // variants.
    let files = generate(
        size_config()
            .unbox_oneof_in(&[".pointer.size.Holder.pick"])
            .inline_max_size_in(16, &[".pointer.size.Holder.pick"]),
    );
    assert_eq!(
        variant_type(&files, SIZE, "holder::Pick", "Small"),
        "::std::boxed::Box<super::Vec3>"
    );

    // Naming the variant's field keeps it inline.
    let files = generate(
        size_config()
            .unbox_oneof()
            .inline_max_size(32)
            .unbox_oneof_in(&[".pointer.size.Holder.big"]),
    );
    assert_eq!(
        variant_type(&files, SIZE, "holder::Pick", "Big"),
        "super::Wide"
    );
}

#[test]
fn inline_max_size_path_must_exist() {
    let error = generate_err(size_config().inline_max_size_in(8, &[".pointer.size.Nope"]));
    assert!(
        error.contains("inline_max_size") && error.contains(".pointer.size.Nope"),
        "{error}"
    );
}

#[test]
fn layout_report_rows() {
    let report = layout_report(
        size_config()
            .unbox_message_fields()
            .unbox_oneof()
            .inline_max_size(32),
        "report_rows",
    );
    // Holder: vec 20 + named 32 + wide (boxed) 8 + list 24 + by_name 48 +
    // unknown fields 8, and the oneof: the 20-byte Vec3, whose never-null
    // unknown-fields pointer leaves room for the tag of the boxed Wide
    // (8 bytes), rounded up to the alignment of 8: 168, exact.
    let expected = "\
# buffa layout report: the estimated size_of of each generated struct in bytes
# on 64-bit targets, exact unless marked \"<=\" (an upper bound) or \"~\" (assumes
# custom pointers are one word and extern messages are laid out as generated
# here), where each message-typed field keeps its value, and, where a rule
# covers the message, whether it keeps unknown fields (it does by default).
# message / field               size  kind        storage                why
.pointer.size.Holder             168  message     pointer::size::Holder
  .pointer.size.Holder.vec            field       Inline                 rule .
  .pointer.size.Holder.named          field       Inline                 rule .
  .pointer.size.Holder.wide           field       Box                    size 40 > 32
  .pointer.size.Holder.small          oneof pick  Inline                 rule .
  .pointer.size.Holder.big            oneof pick  Box                    size 40 > 32
  .pointer.size.Holder.list           repeated    Vec                    heap container
  .pointer.size.Holder.by_name        map         HashMap                heap container
.pointer.size.Named               32  message     pointer::size::Named
.pointer.size.Vec3                20  message     pointer::size::Vec3
.pointer.size.Wide                40  message     pointer::size::Wide
";
    assert_eq!(report, expected);
}

#[test]
fn layout_report_reasons() {
    let pointer = "crate::ptr::SmallBox<*>";
    let report = layout_report(
        config(&["recursion.proto", "size.proto"])
            .unbox_message_fields_in(&[".pointer.rec"])
            .box_type_custom_in(pointer, &[".pointer.rec.A.leaf"])
            .box_type_in(PointerRepr::Box, &[".pointer.rec.B.leaf"])
            .unbox_message_fields_in(&[".pointer.size.Holder.wide"])
            .inline_max_size(8),
        "report_reasons",
    );
    let row = |path| report_row(&report, path);
    assert_eq!(
        row(".pointer.rec.Tree.left"),
        ".pointer.rec.Tree.left field Box recursion"
    );
    // A custom pointer is assumed to be one word, like a box; the report
    // names types from the root of the generated module tree.
    assert_eq!(
        row(".pointer.rec.A.leaf"),
        ".pointer.rec.A.leaf field crate::ptr::SmallBox<pointer::rec::Leaf> rule .pointer.rec.A.leaf"
    );
    assert!(
        row(".pointer.rec.A").starts_with(".pointer.rec.A ~"),
        "{report}"
    );
    assert_eq!(
        row(".pointer.rec.B.leaf"),
        ".pointer.rec.B.leaf field Box rule .pointer.rec.B.leaf"
    );
    // Leaf is 12 bytes: over the limit of 8 under a scope rule.
    assert_eq!(
        row(".pointer.rec.Tree.leaf"),
        ".pointer.rec.Tree.leaf field Box size 12 > 8"
    );
    // No rule for the oneof variants of Expr, nor for Holder's vec.
    assert_eq!(
        row(".pointer.rec.Expr.literal"),
        ".pointer.rec.Expr.literal oneof kind Box default"
    );
    assert_eq!(
        row(".pointer.size.Holder.vec"),
        ".pointer.size.Holder.vec field Box default"
    );
    // The rule naming the field wins over the limit.
    assert_eq!(
        row(".pointer.size.Holder.wide"),
        ".pointer.size.Holder.wide field Inline rule .pointer.size.Holder.wide"
    );
    // Repeated and map message fields are heap containers.
    assert_eq!(
        row(".pointer.rec.Dir.children"),
        ".pointer.rec.Dir.children repeated Vec heap container"
    );
    assert_eq!(
        row(".pointer.rec.Entry.dir_map"),
        ".pointer.rec.Entry.dir_map map HashMap heap container"
    );
}

#[test]
fn layout_report_keeps_the_lower_bound_of_an_assumed_size() {
    // Holder holds a custom pointer (an assumption) and a oneof whose
    // largest variant, an inline Wide, leaves rustc room for the tag (an
    // upper bound): the custom pointer 8 + named and wide boxed 16 + list
    // 24 + by_name 48 + unknown fields 8, and the oneof 48 as tagged, 40 if
    // rustc hides the tag. `~` alone would claim 152 exact.
    let report = layout_report(
        size_config()
            .unbox_oneof()
            .box_type_custom_in("::std::boxed::Box<*>", &[".pointer.size.Holder.vec"]),
        "report_assumed_bound",
    );
    assert_eq!(
        report_row(&report, ".pointer.size.Holder"),
        ".pointer.size.Holder ~152 message pointer::size::Holder at least 144"
    );
    // With both variants boxed the oneof is exactly 16 bytes: `~` keeps
    // its note.
    let report = layout_report(
        size_config().box_type_custom_in("::std::boxed::Box<*>", &[".pointer.size.Holder.vec"]),
        "report_assumed_exact",
    );
    assert_eq!(
        report_row(&report, ".pointer.size.Holder"),
        ".pointer.size.Holder ~120 message pointer::size::Holder assumed: custom pointer or extern message"
    );
}

#[test]
fn layout_report_path_may_name_a_new_directory() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pointer_layout")
        .join("report_subdir");
    let _ = std::fs::remove_dir_all(&dir);
    size_config()
        .out_dir(&dir)
        .layout_report("reports/layout.txt")
        .compile()
        .unwrap_or_else(|e| panic!("compile failed: {e}"));
    let report = std::fs::read_to_string(dir.join("reports/layout.txt")).expect("report written");
    assert!(report.starts_with("# buffa layout report"), "{report}");
}

/// A message estimated only as an upper bound is boxed by a limit it may
/// fit; its size reason says so with `<=`, as its own row does.
#[test]
fn size_reason_marks_an_upper_bound() {
    let report = layout_report(
        config(&["bound.proto"])
            .unbox_message_fields()
            .inline_max_size(32),
        "size_reason_upper_bound",
    );
    assert_eq!(
        report_row(&report, ".pointer.bound.Picker.choice"),
        ".pointer.bound.Picker.choice field Box size <=40 > 32"
    );
    assert_eq!(
        report_row(&report, ".pointer.bound.Choice"),
        ".pointer.bound.Choice <=40 message pointer::bound::Choice at least 32"
    );
}

/// A closed enum of another build is assumed to be laid out as this run
/// would generate it, like an extern message: the estimate is marked `~`.
#[test]
fn extern_closed_enums_are_assumed() {
    let local = layout_report(&mut config(&["extern_enum.proto"]), "extern_enum_local");
    assert_eq!(
        report_row(&local, ".pointer.extenum.Gauge"),
        ".pointer.extenum.Gauge 12 message pointer::extenum::Gauge"
    );
    let report = layout_report(
        config(&["extern_enum.proto"]).extern_path(".pointer.extenum.Level", "crate::Level"),
        "extern_enum",
    );
    assert!(
        report_row(&report, ".pointer.extenum.Gauge").starts_with(".pointer.extenum.Gauge ~12 "),
        "{report}"
    );
}
