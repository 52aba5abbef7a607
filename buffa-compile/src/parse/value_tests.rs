//! The values protoc's parser stores that linking later reads: option
//! values of each kind, aggregate text, concatenated strings, defaults.
//! (The comparisons with protoc in `tests.rs` cannot see them: protoc
//! writes options interpreted.)

use buffa_types::google::protobuf::{FileDescriptorProto, UninterpretedOption};

use super::parse_file;

/// The file's options, parsed from `options` (statements).
fn file_options(options: &str) -> Vec<UninterpretedOption> {
    let text = format!("syntax = \"proto2\";\n{options}");
    let file = parse_file("v.proto", &text).unwrap_or_else(|e| panic!("{}", e[0]));
    file.options
        .as_option()
        .unwrap()
        .uninterpreted_option
        .clone()
}

/// The field `x`'s default value in `syntax = "proto2"; message M { ... }`.
fn default_of(field: &str) -> Option<String> {
    let text = format!("syntax = \"proto2\";\nmessage M {{ {field} }}\n");
    let file: FileDescriptorProto =
        parse_file("v.proto", &text).unwrap_or_else(|e| panic!("{}", e[0]));
    file.message_type[0].field[0].default_value.clone()
}

#[test]
fn option_values_of_each_kind() {
    let options = file_options(
        "option a = 1;\noption b = -9223372036854775808;\noption c = 18446744073709551615;\n\
         option d = 18446744073709551616;\noption e = -inf;\noption f = 1.5e3;\noption g = IDENT;\n\
         option h = \"a\" 'b' \"\\x41\";\noption i = -9223372036854775809;\noption j = 0x10;\noption k = -nan;\n",
    );
    assert_eq!(options[0].positive_int_value, Some(1));
    assert_eq!(options[1].negative_int_value, Some(i64::MIN));
    assert_eq!(options[2].positive_int_value, Some(u64::MAX));
    assert_eq!(options[3].double_value, Some(18446744073709551616.0));
    assert_eq!(options[4].double_value, Some(f64::NEG_INFINITY));
    assert_eq!(options[5].double_value, Some(1500.0));
    assert_eq!(options[6].identifier_value.as_deref(), Some("IDENT"));
    assert_eq!(options[7].string_value.as_deref(), Some(&b"abA"[..]));
    assert_eq!(options[8].double_value, Some(-9223372036854775809.0));
    assert_eq!(options[9].positive_int_value, Some(16));
    assert!(options[10].double_value.unwrap().is_nan());
}

#[test]
fn option_names_keep_their_parts() {
    let options = file_options("option (a.b).c.(.d.e) = 1;\n");
    let parts: Vec<(String, bool)> = options[0]
        .name
        .iter()
        .map(|p| (p.name_part().to_owned(), p.is_extension == Some(true)))
        .collect();
    assert_eq!(
        parts,
        [
            ("a.b".into(), true),
            ("c".into(), false),
            (".d.e".into(), true)
        ]
    );
}

#[test]
fn aggregate_text_keeps_the_layout_of_its_tokens() {
    let options = file_options("option (x) = { a: 1  // c\n    b {a:2}\n  s: \"x\"  'y' };\n");
    assert_eq!(
        options[0].aggregate_value.as_deref(),
        Some(" a: 1  \n    b {a:2}\n  s: \"x\"  'y' ")
    );
}

#[test]
fn defaults_as_protocs_parser_writes_them() {
    assert_eq!(
        default_of("optional int32 x = 1 [default = -0x10];").as_deref(),
        Some("-16")
    );
    assert_eq!(
        default_of("optional uint64 x = 1 [default = 010];").as_deref(),
        Some("8")
    );
    assert_eq!(
        default_of("optional double x = 1 [default = -1e400];").as_deref(),
        Some("-inf")
    );
    assert_eq!(
        default_of("optional float x = 1 [default = 0.1];").as_deref(),
        Some("0.1")
    );
    assert_eq!(
        default_of("optional double x = 1 [default = 1e-5];").as_deref(),
        Some("1e-05")
    );
    assert_eq!(
        default_of("optional bytes x = 1 [default = \"\\0\\x7f'\"];").as_deref(),
        Some("\\000\\177\\'")
    );
    assert_eq!(
        default_of("optional string x = 1 [default = \"\\u00e9\" \"!\"];").as_deref(),
        Some("é!")
    );
    assert_eq!(
        default_of("optional Foo x = 1 [default = BAR];").as_deref(),
        Some("BAR")
    );
    assert_eq!(
        default_of("optional bool x = 1 [default = false];").as_deref(),
        Some("false")
    );
}

#[test]
fn groups_and_maps_generate_their_messages() {
    let text = "syntax = \"proto2\";\nmessage M {\n  optional group Foo_Bar = 1 { optional int32 a = 2; }\n  map<string, M> by_key = 3 [enforce_utf8 = false];\n}\n";
    let file = parse_file("v.proto", text).unwrap();
    let m = &file.message_type[0];
    assert_eq!(m.field[0].name(), "foo_bar");
    assert_eq!(m.field[0].type_name(), "Foo_Bar");
    assert_eq!(m.nested_type[0].name(), "Foo_Bar");
    let entry = &m.nested_type[1];
    assert_eq!(entry.name(), "ByKeyEntry");
    assert_eq!(entry.options.as_option().unwrap().map_entry, Some(true));
    assert_eq!(entry.field[1].type_name(), "M");
    // enforce_utf8 goes to the string key only.
    assert!(entry.field[0].options.is_set());
    assert!(!entry.field[1].options.is_set());
}

#[test]
fn synthetic_oneof_names_avoid_collisions() {
    let text = "syntax = \"proto3\";\nmessage M {\n  optional int32 a = 1;\n  int32 _a = 2;\n  int32 X_a = 3;\n  optional int32 _b = 4;\n}\n";
    let file = parse_file("v.proto", text).unwrap();
    let names: Vec<&str> = file.message_type[0]
        .oneof_decl
        .iter()
        .map(|o| o.name())
        .collect();
    assert_eq!(names, ["XX_a", "X_b"]);
}

#[test]
fn visibility_is_recorded_from_edition_2024() {
    let text = "edition = \"2024\";\nexport message A { local enum E { E_0 = 0; } }\nlocal message B {}\nmessage C {}\n";
    let file = parse_file("v.proto", text).unwrap();
    use buffa_types::google::protobuf::SymbolVisibility;
    assert_eq!(
        file.message_type[0].visibility,
        Some(SymbolVisibility::VisibilityExport)
    );
    assert_eq!(
        file.message_type[0].enum_type[0].visibility,
        Some(SymbolVisibility::VisibilityLocal)
    );
    assert_eq!(
        file.message_type[1].visibility,
        Some(SymbolVisibility::VisibilityLocal)
    );
    assert_eq!(file.message_type[2].visibility, None);
}
