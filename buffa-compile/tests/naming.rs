//! Edition 2024's naming style against protoc: for good and bad names of
//! every kind of element, with the opt-outs at each level, both compilers
//! accept, or both refuse with the same errors (every line protoc prints:
//! message, line and column).

mod support;

use std::path::Path;

use buffa_compile::Compiler;

/// A case: the files written (the first is compiled), as a name and text.
type Case = &'static [(&'static str, &'static str)];

/// The cases, each named for the report.
const CASES: &[(&str, Case)] = &[
    (
        "good names of every kind",
        &[(
            "good.proto",
            "edition = \"2024\";\npackage acme.shop_v2.items;\nmessage Item2 {\n  int32 id = 1;\n  string display_name2 = 2;\n  oneof choice_a { int32 b = 3; }\n  map<string, int32> counts_by_name = 4;\n  enum Kind { KIND_UNSPECIFIED = 0; KIND_A2 = 1; }\n  message Part { repeated Item2 items = 1; }\n  extensions 100 to 200;\n  extend Item2 { int32 nested_ext = 101; }\n}\nenum Color { COLOR_UNSPECIFIED = 0; RED = 1; }\nextend Item2 { int32 file_ext = 100; }\nservice ItemService { rpc GetItem(Item2) returns (Item2); }\n",
        )],
    ),
    (
        "no package",
        &[(
            "nopkg.proto",
            "edition = \"2024\";\nmessage A { int32 a = 1; }\n",
        )],
    ),
    (
        "message names",
        &[(
            "messages.proto",
            "edition = \"2024\";\npackage t;\nmessage bad_name { int32 a = 1; }\nmessage Foo_Bar {}\nmessage _Foo {}\nmessage FOO {}\nmessage Outer { message inner {} }\n",
        )],
    ),
    (
        "field names",
        &[(
            "fields.proto",
            "edition = \"2024\";\npackage t;\nmessage M {\n  int32 badField = 1;\n  int32 _foo = 2;\n  int32 foo_ = 3;\n  int32 foo__bar = 4;\n  int32 foo_1 = 5;\n  int32 FOO = 6;\n  int32 foo1_bar = 7;\n  map<string, int32> Map_A = 8;\n}\n",
        )],
    ),
    (
        "oneof names, which protoc reports without position",
        &[(
            "oneofs.proto",
            "edition = \"2024\";\npackage t;\nmessage M {\n  oneof BadOneof { int32 a = 1; }\n  oneof bad__oneof { int32 b = 2; }\n  oneof good_one { int32 c = 3; }\n}\n",
        )],
    ),
    (
        "enum and enum value names",
        &[(
            "enums.proto",
            "edition = \"2024\";\npackage t;\nenum bad_enum { zero = 0; Bad_X = 1; _A = 2; A_1 = 3; A__B = 4; A_ = 5; GOOD_2 = 6; }\nenum e { E_OK = 0; }\nmessage M { enum inner { V = 0; } }\n",
        )],
    ),
    (
        "extension names, at file and message scope",
        &[(
            "extensions.proto",
            "edition = \"2024\";\npackage t;\nmessage M {\n  extensions 100 to 200;\n  extend M { int32 nestedExt = 101; }\n}\nextend M { int32 ext_Bar = 100; }\n",
        )],
    ),
    (
        "service and method names",
        &[(
            "services.proto",
            "edition = \"2024\";\npackage t;\nmessage M {}\nservice s { rpc m(M) returns (M); rpc Get_Foo(M) returns (M); }\nservice Bad_Service { rpc Ok(M) returns (M); }\n",
        )],
    ),
    (
        "a package with capitals",
        &[(
            "pkg1.proto",
            "edition = \"2024\";\npackage t.Bad_pkg;\nmessage A {}\n",
        )],
    ),
    (
        "a package with an underscore before a dot",
        &[(
            "pkg2.proto",
            "edition = \"2024\";\npackage t_.x;\nmessage A {}\n",
        )],
    ),
    (
        "a package with an underscore before a digit",
        &[(
            "pkg3.proto",
            "edition = \"2024\";\npackage t.x_1;\nmessage A {}\n",
        )],
    ),
    (
        "a package in capitals",
        &[(
            "pkg4.proto",
            "edition = \"2024\";\npackage T;\nmessage A {}\n",
        )],
    ),
    (
        "every kind at once, in protoc's order",
        &[(
            "order.proto",
            "edition = \"2024\";\npackage t.Bad_pkg;\nmessage bad_name { int32 badField = 1; oneof BadOneof { int32 x = 2; } enum e { zero = 0; Bad_X = 1; } map<string,int32> Map_A = 3;\n  message Inner { option features.enforce_naming_style = STYLE_LEGACY; int32 okFoo = 1; message N { int32 stillOk = 1; } }\n  extend bad_name { int32 extFoo = 100; }\n  extensions 100 to 200;\n}\nenum e2 { v = 0; }\nservice s { rpc m(bad_name) returns (bad_name); }\nextend bad_name { int32 ext_Bar = 101; }\n",
        )],
    ),
    (
        "tabs before a name",
        &[(
            "tabs.proto",
            "edition = \"2024\";\npackage t;\nmessage M {\n\tint32\tbadName = 1;\n}\n",
        )],
    ),
    (
        "opt-out for the file",
        &[(
            "optout_file.proto",
            "edition = \"2024\";\npackage t.Bad_pkg;\noption features.enforce_naming_style = STYLE_LEGACY;\nmessage bad_name { int32 badField = 1; oneof BadOneof { int32 x = 2; } enum e { zero = 0; } }\nservice s { rpc m(bad_name) returns (bad_name); }\n",
        )],
    ),
    (
        "opt-out for a message, inherited by what it encloses",
        &[(
            "optout_message.proto",
            "edition = \"2024\";\npackage t;\nmessage bad_name {\n  option features.enforce_naming_style = STYLE_LEGACY;\n  int32 badField = 1;\n  oneof BadOneof { int32 x = 2; }\n  enum e { zero = 0; }\n  message inner { int32 alsoBad = 1; }\n  extensions 100 to 200;\n  extend bad_name { int32 extBad = 100; }\n}\nmessage Checked { int32 badField = 1; }\n",
        )],
    ),
    (
        "opt-out for a field, a oneof (and its fields), an enum and a value",
        &[(
            "optout_elements.proto",
            "edition = \"2024\";\npackage t;\nmessage M {\n  oneof bad_One { option features.enforce_naming_style = STYLE_LEGACY; int32 badA = 1; }\n  oneof ok { int32 badB = 2; }\n  int32 badC = 3 [features.enforce_naming_style = STYLE_LEGACY];\n  int32 badD = 4;\n}\nenum E { option features.enforce_naming_style = STYLE_LEGACY; zero = 0; }\nenum F { ONE = 0; two = 1 [features.enforce_naming_style = STYLE_LEGACY]; three = 2; }\n",
        )],
    ),
    (
        "opt-out for a service and a method",
        &[(
            "optout_services.proto",
            "edition = \"2024\";\npackage t;\nmessage M {}\nservice s { option features.enforce_naming_style = STYLE_LEGACY; rpc m(M) returns (M); }\nservice T { rpc m(M) returns (M) { option features.enforce_naming_style = STYLE_LEGACY; } rpc n(M) returns (M); }\n",
        )],
    ),
    (
        "opted back in below an opt-out",
        &[(
            "optin.proto",
            "edition = \"2024\";\npackage t;\noption features.enforce_naming_style = STYLE_LEGACY;\nmessage bad_name {\n  int32 okHere = 1;\n  int32 badHere = 2 [features.enforce_naming_style = STYLE2024];\n  message Checked { option features.enforce_naming_style = STYLE2024; int32 alsoBad = 1; }\n}\n",
        )],
    ),
    (
        "edition 2023 does not check",
        &[(
            "e2023.proto",
            "edition = \"2023\";\npackage t.Bad;\nmessage bad_name { int32 badField = 1; enum e { zero = 0; } }\n",
        )],
    ),
    (
        "proto3 does not check",
        &[(
            "p3.proto",
            "syntax = \"proto3\";\npackage t.Bad;\nmessage bad_name { int32 badField = 1; oneof BadOneof { int32 x = 2; } }\nenum e { zero = 0; }\nservice s { rpc m(bad_name) returns (bad_name); }\n",
        )],
    ),
    (
        "proto2 does not check",
        &[(
            "p2.proto",
            "syntax = \"proto2\";\npackage t.Bad;\nmessage bad_name { optional int32 badField = 1; }\n",
        )],
    ),
    (
        "another error first: the style is not checked",
        &[(
            "other_error.proto",
            "edition = \"2024\";\npackage t;\nmessage bad_name { Undefined badField = 1; }\n",
        )],
    ),
    (
        "a pool error first: the style is not checked",
        &[(
            "pool_error.proto",
            "edition = \"2024\";\npackage t;\nmessage bad_name { int32 badField = 1; int32 other = 1; }\n",
        )],
    ),
    (
        "collisions under STYLE2026",
        &[(
            "collisions.proto",
            "edition = \"2024\";\npackage t;\nmessage Coll {\n  option features.enforce_naming_style = STYLE2026;\n  int32 foo = 1;\n  int32 has_foo = 2;\n  int32 get_foo = 3;\n  int32 set_foo = 4;\n  int32 clear_foo = 5;\n  int32 foo_value = 6;\n  int32 descriptor = 7;\n  int32 has_bar = 8;\n  int32 has_foo_value = 9;\n  oneof has_choice { int32 x = 10; }\n  oneof choice { int32 y = 11; }\n  int32 choice_value = 12;\n  oneof clear_y { int32 z = 13; }\n  int32 badName = 14;\n}\n",
        )],
    ),
    (
        "collisions opted out back to STYLE2024",
        &[(
            "collisions_optout.proto",
            "edition = \"2024\";\npackage t;\noption features.enforce_naming_style = STYLE2026;\nmessage Coll {\n  int32 foo = 1;\n  int32 has_foo = 2 [features.enforce_naming_style = STYLE2024];\n  int32 foo_value = 3;\n}\n",
        )],
    ),
    (
        "an extension colliding with its extendee's fields",
        &[
            (
                "ext_collisions.proto",
                "edition = \"2024\";\npackage t;\nimport \"ext_base.proto\";\noption features.enforce_naming_style = STYLE2026;\nmessage Local { int32 foo = 1; extensions 100 to 200; }\nextend Local { int32 has_foo = 100; int32 has_bar = 101; }\nextend base.Base { int32 base_field_value = 100; int32 get_choice = 101; }\n",
            ),
            (
                "ext_base.proto",
                "edition = \"2024\";\npackage base;\nmessage Base { int32 base_field = 1; oneof choice { int32 c = 2; } extensions 100 to 200; }\n",
            ),
        ],
    ),
    (
        "edition 2023 opted in to STYLE2024: the style before the feature's lifetime",
        &[(
            "e2023_optin.proto",
            "edition = \"2023\";\npackage t;\noption features.enforce_naming_style = STYLE2024;\nmessage bad_name { int32 a = 1; }\n",
        )],
    ),
    (
        "a removed option and a bad name: the style before the lifetime",
        &[(
            "removed_option.proto",
            "edition = \"2024\";\npackage t;\noption java_multiple_files = true;\nmessage bad_name { int32 a = 1; }\n",
        )],
    ),
    (
        "a removed option and a JSON name conflict: the conflict first, then nothing",
        &[(
            "removed_option_conflict.proto",
            "edition = \"2024\";\npackage t;\noption java_multiple_files = true;\nmessage Good { int32 foo_bar = 2; int32 fooBar = 3; }\n",
        )],
    ),
    (
        "a removed option alone",
        &[(
            "removed_option_alone.proto",
            "edition = \"2024\";\npackage t;\noption java_multiple_files = true;\nmessage Good { int32 a = 1; }\n",
        )],
    ),
    (
        "a bad name in an import",
        &[
            (
                "importer.proto",
                "edition = \"2024\";\npackage t;\nimport \"imported.proto\";\nmessage A {}\n",
            ),
            (
                "imported.proto",
                "edition = \"2024\";\npackage u;\nmessage bad_name {}\n",
            ),
        ],
    ),
];

/// How one case compared: `None` when both compilers agree.
fn compare(dir: &Path, files: Case) -> (bool, Option<String>) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let root = files[0].0;
    let protoc = support::protoc_set(dir, &[root], false)
        .map(drop)
        .map_err(|stderr| stderr.replace(&format!("{}/", dir.display()), ""));
    let ours = Compiler::new()
        .include(dir)
        .compile(&[root])
        .map(drop)
        .map_err(|e| e.to_string());
    let refused = protoc.is_err();
    let difference = match (ours, protoc) {
        (Ok(()), Ok(())) => None,
        (Err(ours), Err(protoc)) if ours.trim_end() == protoc.trim_end() => None,
        (ours, protoc) => Some(format!("ours:\n{ours:?}\nprotoc:\n{protoc:?}")),
    };
    (refused, difference)
}

#[test]
fn naming_style_is_checked_as_protoc_checks_it() {
    let dir = std::env::temp_dir().join(format!("buffa-compile-naming-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut differences = Vec::new();
    let mut refused = 0;
    for (name, files) in CASES {
        let (protoc_refused, difference) = compare(&dir, files);
        refused += usize::from(protoc_refused);
        if let Some(difference) = difference {
            differences.push(format!("{name}:\n{difference}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!(
        "naming: {} cases, {refused} refused by protoc, {} differ",
        CASES.len(),
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n\n"));
    // The table is not vacuous: most cases are refusals.
    assert!(refused >= 20, "only {refused} refused");
}

#[test]
fn a_file_refused_for_its_names_leaves_its_symbols_undefined() {
    // protoc rolls the refused file back: a second root defining the same
    // message then builds.
    let dir = std::env::temp_dir().join(format!(
        "buffa-compile-naming-rollback-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = "edition = \"2024\";\npackage t;\nmessage Dup { int32 badName = 1; }\n";
    let good = "edition = \"2024\";\npackage t;\nmessage Dup { int32 good_name = 1; }\n";
    std::fs::write(dir.join("bad.proto"), bad).unwrap();
    std::fs::write(dir.join("good.proto"), good).unwrap();
    let roots = ["bad.proto", "good.proto"];
    let protoc = support::protoc_set(&dir, &roots, false).unwrap_err();
    let ours = Compiler::new().include(&dir).compile(&roots).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        ours.to_string(),
        protoc
            .replace(&format!("{}/", dir.display()), "")
            .trim_end()
    );
    assert_eq!(ours.diagnostics().len(), 1, "{ours}");
}
