//! The pointer layout chosen for singular message fields and message-typed
//! oneof variants: defaults, `unbox_*`, recursion and minimal boxing,
//! precedence, custom templates and configuration errors. Runs protoc on
//! the protos under `tests/protos/pointer` and inspects the generated struct
//! fields. Size-aware inlining and the layout report are in
//! `layout_size.rs`.

mod common;

use buffa_build::{GeneratedFile, PointerRepr};
use common::*;

#[test]
fn default_is_box() {
    let files = generate(&config(&["basic.proto", "recursion.proto"]));
    assert_eq!(field_type(&files, BASIC, "Outer", "a"), boxed("Inner"));
    assert_eq!(field_type(&files, BASIC, "Outer", "b"), boxed("Inner"));
    assert_eq!(field_type(&files, REC, "Tree", "leaf"), boxed("Leaf"));
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Literal"),
        "::std::boxed::Box<super::Leaf>"
    );
    // Repeated and map fields are never wrapped.
    assert_eq!(
        field_type(&files, BASIC, "Outer", "list"),
        "::std::vec::Vec<Inner>"
    );
    assert_eq!(
        field_type(&files, BASIC, "Outer", "by_name"),
        "::std::collections::HashMap<::std::string::String,Inner>"
    );
}

#[test]
fn unbox_message_fields_inlines() {
    let files = generate(config(&["basic.proto"]).unbox_message_fields());
    assert_eq!(field_type(&files, BASIC, "Outer", "a"), inline("Inner"));
    assert_eq!(field_type(&files, BASIC, "Outer", "b"), inline("Inner"));
    assert_eq!(
        field_type(&files, BASIC, "Outer", "list"),
        "::std::vec::Vec<Inner>"
    );
}

#[test]
fn box_type_inline_is_unbox_message_fields() {
    let a = generate(config(&["basic.proto", "recursion.proto"]).unbox_message_fields());
    let b = generate(config(&["basic.proto", "recursion.proto"]).box_type(PointerRepr::Inline));
    assert_eq!(a, b);
}

#[test]
fn self_recursion_stays_boxed() {
    let files = generate(config(&["recursion.proto"]).unbox_message_fields());
    assert_eq!(field_type(&files, REC, "Tree", "left"), boxed("Tree"));
    assert_eq!(field_type(&files, REC, "Tree", "right"), boxed("Tree"));
    assert_eq!(field_type(&files, REC, "Tree", "leaf"), inline("Leaf"));
}

#[test]
fn mutual_recursion_boxes_one_edge() {
    let files = generate(config(&["recursion.proto"]).unbox_message_fields());
    // Either field breaks the cycle; the first in canonical order (message
    // name, then field number) is boxed.
    assert_eq!(field_type(&files, REC, "A", "b"), boxed("B"));
    assert_eq!(field_type(&files, REC, "B", "a"), inline("A"));
    assert_eq!(field_type(&files, REC, "A", "leaf"), inline("Leaf"));
    assert_eq!(field_type(&files, REC, "B", "leaf"), inline("Leaf"));
}

#[test]
fn cycle_through_oneof_boxes_the_variant() {
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields()
            .unbox_oneof(),
    );
    // Expr -> Binary (a oneof variant) -> Expr twice (lhs, rhs): boxing
    // the variant breaks both cycles with one box.
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Binary"),
        "::std::boxed::Box<super::Binary>"
    );
    assert_eq!(field_type(&files, REC, "Binary", "lhs"), inline("Expr"));
    assert_eq!(field_type(&files, REC, "Binary", "rhs"), inline("Expr"));
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Literal"),
        "super::Leaf"
    );
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Name"),
        "::std::string::String"
    );
    assert_eq!(
        field_type(&files, REC, "Expr", "annotation"),
        inline("Leaf")
    );

    // With the variant named exactly, the two fields are boxed instead.
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields()
            .unbox_oneof_in(&[".pointer.rec.Expr.binary"]),
    );
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Binary"),
        "super::Binary"
    );
    assert_eq!(field_type(&files, REC, "Binary", "lhs"), boxed("Expr"));
    assert_eq!(field_type(&files, REC, "Binary", "rhs"), boxed("Expr"));
}

#[test]
fn unbox_oneof_alone_leaves_struct_fields_boxed() {
    let files = generate(config(&["recursion.proto"]).unbox_oneof());
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Literal"),
        "super::Leaf"
    );
    assert_eq!(field_type(&files, REC, "Expr", "annotation"), boxed("Leaf"));
}

#[test]
fn unbox_oneof_in_names_a_oneof() {
    let files = generate(config(&["recursion.proto"]).unbox_oneof_in(&[".pointer.rec.Expr.kind"]));
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Literal"),
        "super::Leaf"
    );
    // Binary's fields are boxed (the default), so they break the cycle
    // and the variant can be inline.
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Binary"),
        "super::Binary"
    );
    assert_eq!(field_type(&files, REC, "Binary", "lhs"), boxed("Expr"));
}

#[test]
fn recursion_through_repeated_and_map_only_is_inlined() {
    let files = generate(config(&["recursion.proto"]).unbox_message_fields());
    assert_eq!(field_type(&files, REC, "Dir", "meta"), inline("Meta"));
    assert_eq!(field_type(&files, REC, "Dir", "entry"), inline("Entry"));
    assert_eq!(
        field_type(&files, REC, "Dir", "children"),
        "::std::vec::Vec<Dir>"
    );
    assert_eq!(
        field_type(&files, REC, "Entry", "dir_map"),
        "::std::collections::HashMap<i32,Dir>"
    );
}

const CYCLES: &str = "pointer.cycles";

#[test]
fn cycles_sharing_a_field_box_only_that_field() {
    let files = generate(config(&["cycles.proto"]).unbox_message_fields());
    assert_eq!(field_type(&files, CYCLES, "Hub", "spoke"), boxed("Spoke"));
    assert_eq!(field_type(&files, CYCLES, "Left", "hub"), inline("Hub"));
    assert_eq!(field_type(&files, CYCLES, "Right", "hub"), inline("Hub"));
    assert_eq!(field_type(&files, CYCLES, "Spoke", "left"), inline("Left"));
    assert_eq!(
        field_type(&files, CYCLES, "Spoke", "right"),
        inline("Right")
    );
}

#[test]
fn three_cycle_boxes_one_field() {
    let files = generate(config(&["cycles.proto"]).unbox_message_fields());
    assert_eq!(field_type(&files, CYCLES, "P", "q"), boxed("Q"));
    assert_eq!(field_type(&files, CYCLES, "Q", "r"), inline("R"));
    assert_eq!(field_type(&files, CYCLES, "R", "p"), inline("P"));
}

#[test]
fn cycle_through_a_repeated_field_boxes_nothing() {
    let files = generate(config(&["cycles.proto"]).unbox_message_fields());
    assert_eq!(
        field_type(&files, CYCLES, "First", "second"),
        inline("Second")
    );
    assert_eq!(
        field_type(&files, CYCLES, "Second", "third"),
        inline("Third")
    );
    assert_eq!(
        field_type(&files, CYCLES, "Third", "firsts"),
        "::std::vec::Vec<First>"
    );
}

#[test]
fn cycle_broken_by_a_box_rule_inlines_the_rest() {
    // R.p boxed by a rule: P.q, the field canonical order would box,
    // stays inline.
    let files = generate(
        config(&["cycles.proto"])
            .unbox_message_fields()
            .box_type_in(PointerRepr::Box, &[".pointer.cycles.R.p"]),
    );
    assert_eq!(field_type(&files, CYCLES, "P", "q"), inline("Q"));
    assert_eq!(field_type(&files, CYCLES, "Q", "r"), inline("R"));
    assert_eq!(field_type(&files, CYCLES, "R", "p"), boxed("P"));

    // A custom pointer counts as an indirection too.
    let pointer = "crate::P<*>";
    let files = generate(
        config(&["cycles.proto"])
            .unbox_message_fields()
            .box_type_custom_in(pointer, &[".pointer.cycles.Q.r"]),
    );
    assert_eq!(field_type(&files, CYCLES, "P", "q"), inline("Q"));
    assert_eq!(field_type(&files, CYCLES, "Q", "r"), custom("R", pointer));
    assert_eq!(field_type(&files, CYCLES, "R", "p"), inline("P"));
}

#[test]
fn recursion_across_files_and_packages() {
    let files = generate(config(&["upper/upper.proto"]).unbox_message_fields());
    let lower = "pointer.lower";
    let upper = "pointer.upper";
    // The imported file is generated too, with its own cycle kept boxed.
    assert_eq!(field_type(&files, lower, "Chain", "next"), boxed("Chain"));
    assert_eq!(
        field_type(&files, lower, "Chain", "payload"),
        inline("Payload")
    );
    // Pointing at a recursive type of another package is not recursion.
    let chain = "super::lower::Chain";
    assert_eq!(field_type(&files, upper, "Holder", "chain"), inline(chain));
    assert_eq!(
        field_type(&files, upper, "Holder", "payload"),
        inline("super::lower::Payload")
    );
    assert_eq!(field_type(&files, upper, "Local", "again"), boxed("Local"));
    assert_eq!(field_type(&files, upper, "Local", "chain"), inline(chain));
    // One field of lower's two-cycle is boxed; upper pointing into the
    // cycle is no part of it.
    assert_eq!(field_type(&files, lower, "Ping", "pong"), boxed("Pong"));
    assert_eq!(field_type(&files, lower, "Pong", "ping"), inline("Ping"));
    assert_eq!(
        field_type(&files, upper, "Holder", "pong"),
        inline("super::lower::Pong")
    );
    // Compiled alone, lower makes the same choices.
    let alone = generate(config(&["lower/lower.proto"]).unbox_message_fields());
    let lower_file = |files: &[GeneratedFile]| {
        files
            .iter()
            .find(|f| f.package == lower)
            .map(|f| f.content.clone())
    };
    assert_eq!(lower_file(&files), lower_file(&alone));
}

#[test]
fn scope_rules_apply_to_their_scope_only() {
    let files =
        generate(config(&["upper/upper.proto"]).unbox_message_fields_in(&["pointer.upper"]));
    assert_eq!(
        field_type(&files, "pointer.lower", "Chain", "payload"),
        boxed("Payload")
    );
    assert_eq!(
        field_type(&files, "pointer.upper", "Holder", "chain"),
        inline("super::lower::Chain")
    );
}

#[test]
fn last_matching_rule_wins() {
    // A package-wide rule, then an exception for one field: the exception
    // wins.
    let files = generate(
        config(&["basic.proto"])
            .box_type_in(PointerRepr::Inline, &[".pointer.basic"])
            .box_type_in(PointerRepr::Box, &[".pointer.basic.Outer.a"]),
    );
    assert_eq!(field_type(&files, BASIC, "Outer", "a"), boxed("Inner"));
    assert_eq!(field_type(&files, BASIC, "Outer", "b"), inline("Inner"));

    // The same rules in the other order: the package-wide rule, added
    // last, wins over the more specific one.
    let files = generate(
        config(&["basic.proto"])
            .box_type_in(PointerRepr::Box, &[".pointer.basic.Outer.a"])
            .box_type_in(PointerRepr::Inline, &[".pointer.basic"]),
    );
    assert_eq!(field_type(&files, BASIC, "Outer", "a"), inline("Inner"));
    assert_eq!(field_type(&files, BASIC, "Outer", "b"), inline("Inner"));

    // Paths without the leading dot mean the same.
    let files = generate(
        config(&["basic.proto"])
            .unbox_message_fields()
            .box_type_in(PointerRepr::Box, &["pointer.basic.Outer"]),
    );
    assert_eq!(field_type(&files, BASIC, "Outer", "a"), boxed("Inner"));
}

#[test]
fn custom_template() {
    let pointer = "crate::small_box::SmallBox<*>";
    let files = generate(
        config(&["basic.proto", "recursion.proto"])
            .unbox_message_fields()
            .box_type_custom_in(pointer, &[".pointer.basic.Outer.a", ".pointer.rec.Tree"]),
    );
    assert_eq!(
        field_type(&files, BASIC, "Outer", "a"),
        custom("Inner", pointer)
    );
    assert_eq!(field_type(&files, BASIC, "Outer", "b"), inline("Inner"));
    // A custom pointer may hold a recursive field.
    assert_eq!(
        field_type(&files, REC, "Tree", "left"),
        custom("Tree", pointer)
    );
    assert_eq!(
        field_type(&files, REC, "Tree", "leaf"),
        custom("Leaf", pointer)
    );

    // Every `*` is replaced, and everywhere: `box_type_custom` covers all.
    let files = generate(config(&["basic.proto"]).box_type_custom("my::Pair<*, ::std::rc::Rc<*>>"));
    assert_eq!(
        field_type(&files, BASIC, "Outer", "b"),
        "::buffa::MessageField<Inner,my::Pair<Inner,::std::rc::Rc<Inner>>>"
    );
}

#[test]
fn custom_template_in_another_package_uses_relative_path() {
    let pointer = "crate::P<*>";
    let files = generate(config(&["upper/upper.proto"]).box_type_custom(pointer));
    assert_eq!(
        field_type(&files, "pointer.upper", "Holder", "chain"),
        custom("super::lower::Chain", pointer)
    );
}

fn assert_names_field_and_cycle(error: &str, field: &str, cycle: &str) {
    assert!(error.contains(field), "{error:?} does not name {field}");
    assert!(error.contains(cycle), "{error:?} does not show {cycle}");
}

#[test]
fn inline_on_exact_recursive_field_is_an_error() {
    let error = generate_err(
        config(&["recursion.proto"]).unbox_message_fields_in(&[".pointer.rec.Tree.left"]),
    );
    assert_names_field_and_cycle(
        &error,
        ".pointer.rec.Tree.left",
        ".pointer.rec.Tree -> .pointer.rec.Tree",
    );

    // Every field of a cycle named exactly: none can be boxed.
    let error = generate_err(
        config(&["recursion.proto"])
            .box_type_in(PointerRepr::Inline, &["pointer.rec.A.b", "pointer.rec.B.a"]),
    );
    assert_names_field_and_cycle(
        &error,
        ".pointer.rec.A.b",
        ".pointer.rec.A -> .pointer.rec.B -> .pointer.rec.A",
    );
}

#[test]
fn exact_inline_rule_moves_the_box_to_another_field() {
    // Canonical order would box A.b; naming it exactly boxes B.a instead.
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields()
            .box_type_in(PointerRepr::Inline, &["pointer.rec.A.b"]),
    );
    assert_eq!(field_type(&files, REC, "A", "b"), inline("B"));
    assert_eq!(field_type(&files, REC, "B", "a"), boxed("A"));

    // Only B.a named, A.b boxed by default: the cycle is broken already.
    let files = generate(
        config(&["recursion.proto"]).box_type_in(PointerRepr::Inline, &["pointer.rec.B.a"]),
    );
    assert_eq!(field_type(&files, REC, "A", "b"), boxed("B"));
    assert_eq!(field_type(&files, REC, "B", "a"), inline("A"));
}

#[test]
fn unbox_oneof_on_exact_recursive_variant_is_an_error() {
    let error = generate_err(
        config(&["recursion.proto"])
            .unbox_oneof_in(&[".pointer.rec.Expr.binary"])
            .unbox_message_fields_in(&[".pointer.rec.Binary.lhs"]),
    );
    assert_names_field_and_cycle(
        &error,
        ".pointer.rec.Expr.binary",
        ".pointer.rec.Expr -> .pointer.rec.Binary -> .pointer.rec.Expr",
    );
}

#[test]
fn scope_rule_on_recursive_message_is_not_an_error() {
    let files =
        generate(config(&["recursion.proto"]).unbox_message_fields_in(&[".pointer.rec.Tree"]));
    assert_eq!(field_type(&files, REC, "Tree", "left"), boxed("Tree"));
    assert_eq!(field_type(&files, REC, "Tree", "leaf"), inline("Leaf"));
}

#[test]
fn template_without_placeholder_is_an_error() {
    let error = generate_err(
        config(&["basic.proto"]).box_type_custom_in("crate::Arena", &[".pointer.basic.Outer.a"]),
    );
    assert!(error.contains("crate::Arena"), "{error}");
    assert!(error.contains('*'), "{error}");
}

#[test]
fn unparsable_template_is_an_error() {
    let error = generate_err(config(&["basic.proto"]).box_type_custom("crate::Ptr<*"));
    assert!(error.contains("crate::Ptr<*"), "{error}");
    assert!(error.contains("not a Rust type"), "{error}");
}

#[test]
fn path_matching_nothing_is_an_error() {
    for config in [
        config(&["basic.proto"])
            .unbox_message_fields_in(&[".pointer.basic.Outer.c"])
            .clone(),
        config(&["basic.proto"])
            .box_type_in(PointerRepr::Box, &[".pointer.bas"])
            .clone(),
        config(&["basic.proto"])
            .box_type_custom_in("crate::P<*>", &[".nope"])
            .clone(),
        config(&["basic.proto"])
            .unbox_oneof_in(&[".pointer.basic.Outer.kind"])
            .clone(),
    ] {
        let error = generate_err(&config);
        assert!(error.contains("matches no"), "{error}");
    }
}

#[test]
fn only_the_winning_rule_decides_about_recursive_fields() {
    // An exact inline rule overridden by a later box rule: no error.
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields_in(&[".pointer.rec.Tree.left"])
            .box_type_in(PointerRepr::Box, &[".pointer.rec.Tree.left"]),
    );
    assert_eq!(field_type(&files, REC, "Tree", "left"), boxed("Tree"));

    // An exact inline rule overridden by a later scope rule: the scope
    // rule wins, and a scope rule keeps recursive fields boxed silently.
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields_in(&[".pointer.rec.Tree.left"])
            .unbox_message_fields(),
    );
    assert_eq!(field_type(&files, REC, "Tree", "left"), boxed("Tree"));
    assert_eq!(field_type(&files, REC, "Tree", "leaf"), inline("Leaf"));
    let files = generate(
        config(&["recursion.proto"])
            .unbox_message_fields()
            .unbox_oneof_in(&[".pointer.rec.Expr.binary"])
            .unbox_oneof(),
    );
    assert_eq!(
        variant_type(&files, REC, "expr::Kind", "Binary"),
        "::std::boxed::Box<super::Binary>"
    );
    assert_eq!(field_type(&files, REC, "Binary", "lhs"), inline("Expr"));

    // A scope rule followed by the exact rule: the exact rule wins and
    // fails.
    let error = generate_err(
        config(&["recursion.proto"])
            .unbox_message_fields()
            .unbox_message_fields_in(&[".pointer.rec.Tree.left"]),
    );
    assert_names_field_and_cycle(
        &error,
        ".pointer.rec.Tree.left",
        ".pointer.rec.Tree -> .pointer.rec.Tree",
    );
}

/// Views get their own boxing plan, with every singular sub-message and
/// message-typed oneof variant a candidate for holding in place.
#[test]
fn views_box_one_field_per_cycle() {
    let files = generate(config(&["recursion.proto", "cycles.proto"]).views());
    let view = |name: &str| format!("{name}View<'a>");
    assert_eq!(
        field_type(&files, REC, "TreeView", "left"),
        boxed(&view("Tree"))
    );
    assert_eq!(field_type(&files, REC, "AView", "b"), boxed(&view("B")));
    assert_eq!(field_type(&files, REC, "BView", "a"), inline(&view("A")));
    assert_eq!(
        variant_type(&files, REC, "expr::KindView", "Binary"),
        format!("::std::boxed::Box<super::{}>", view("Binary"))
    );
    assert_eq!(
        field_type(&files, REC, "BinaryView", "lhs"),
        inline(&view("Expr"))
    );
    assert_eq!(
        field_type(&files, CYCLES, "HubView", "spoke"),
        boxed(&view("Spoke"))
    );
    assert_eq!(
        field_type(&files, CYCLES, "LeftView", "hub"),
        inline(&view("Hub"))
    );
    assert_eq!(
        field_type(&files, CYCLES, "SecondView", "third"),
        inline(&view("Third"))
    );
}

/// Views hold sub-views in place until a sub-view would be larger than
/// the limit (about 1 KB); larger ones are boxed, so a view's size grows
/// with its own fields, not with the product of the widths down a deep
/// schema. Recursive fields (here a oneof member) stay boxed.
#[test]
fn views_box_large_sub_views() {
    let files = generate(config(&["wide.proto"]).views());
    let package = "pointer.wide";
    let view = |name: &str| format!("{name}View<'a>");
    // D4View is small: in place in D3View. D3View holds four of them
    // (about 300 bytes): in place in D2View. D2View (four D3Views, about
    // 1.2 KB) is over the limit: boxed in D1View, and D1View, holding
    // boxes, is small again.
    assert_eq!(
        field_type(&files, package, "D3View", "a"),
        inline(&view("D4"))
    );
    assert_eq!(
        field_type(&files, package, "D2View", "a"),
        inline(&view("D3"))
    );
    assert_eq!(
        field_type(&files, package, "D1View", "a"),
        boxed(&view("D2"))
    );
    assert_eq!(
        field_type(&files, package, "D0View", "a"),
        inline(&view("D1"))
    );
    // D4 holding a D4 is recursive: boxed; D5 is small: in place.
    assert_eq!(
        variant_type(&files, package, "d4::PickView", "Again"),
        format!("::std::boxed::Box<super::{}>", view("D4"))
    );
    assert_eq!(
        variant_type(&files, package, "d4::PickView", "Down"),
        format!("super::{}", view("D5"))
    );
}
