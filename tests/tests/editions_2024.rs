//! Edition 2024 in generated code and in the descriptor pool, on
//! `proto/editions/edition2024.proto`: the edition's defaults (explicit
//! presence, open enums, packed repeated scalars, UTF-8 verification,
//! length-prefixed messages) and their per-field overrides, checked against
//! protoc's encoder; `export`/`local` types, an option import whose file
//! generated code does not need, and names kept by opting out of the
//! STYLE2024 rules. buffa-build's errors for what 2024 forbids are in
//! `build_errors.rs`.

mod common;

use buffa::{EnumValue, Message, UnknownField, UnknownValue};
use buffa_reflect::{Cardinality, DescriptorPool};
use buffa_tests::editions::edition2024_check::{
    Color, Defaults, Internal, Leaf, LegacyNames, Outer, Overrides, Size, defaults, legacy_names,
    outer, user::User,
};
use common::{local_protos, protoc_decode_raw, protoc_encode_in};

const FILE: &str = "edition2024.proto";

fn encode(message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(
        &local_protos().join("editions"),
        FILE,
        &format!("edition2024_check.{message_type}"),
        text,
    )
}

fn leaf(value: i32) -> Leaf {
    Leaf {
        value: Some(value),
        ..Default::default()
    }
}

#[test]
fn defaults_read_and_write_like_protoc() {
    let text = r#"
        count: 0 name: "" color: COLOR_RED
        numbers: [1, 2, 300] colors: [COLOR_GREEN, COLOR_RED]
        leaf { value: 4 } leaves { } leaves { value: 5 }
        data: "\x00\xff" leaf_map { key: "k" value { value: 6 } }
        cord: "c" leaf_choice { value: 7 }
    "#;
    let bytes = encode("Defaults", text);
    let expected = Defaults {
        count: Some(0),
        name: Some(String::new()),
        color: Some(Color::Red.into()),
        numbers: vec![1, 2, 300],
        colors: vec![Color::Green.into(), Color::Red.into()],
        leaf: leaf(4).into(),
        leaves: vec![Leaf::default(), leaf(5)],
        data: Some(vec![0, 0xff]),
        leaf_map: [("k".to_owned(), leaf(6))].into(),
        cord: Some("c".into()),
        choice: Some(defaults::Choice::LeafChoice(Box::new(leaf(7)))),
        ..Default::default()
    };
    assert_eq!(Defaults::decode_from_slice(&bytes).unwrap(), expected);
    assert_eq!(expected.encode_to_vec(), bytes);
}

#[test]
fn explicit_presence_by_default() {
    // A zero that was set is written; nothing set writes nothing.
    assert!(Defaults::default().encode_to_vec().is_empty());
    let zero = Defaults {
        count: Some(0),
        name: Some(String::new()),
        color: Some(Color::Unspecified.into()),
        ..Default::default()
    };
    let bytes = encode("Defaults", r#"count: 0 name: "" color: COLOR_UNSPECIFIED"#);
    assert_eq!(bytes, [1 << 3, 0, (2 << 3) | 2, 0, 3 << 3, 0]);
    assert_eq!(zero.encode_to_vec(), bytes);
    assert_eq!(Defaults::decode_from_slice(&bytes).unwrap(), zero);
}

#[test]
fn repeated_scalars_are_packed_by_default() {
    let message = Defaults {
        numbers: vec![1, 2],
        colors: vec![Color::Green.into()],
        ..Default::default()
    };
    let written = message.encode_to_vec();
    assert_eq!(written, [(4 << 3) | 2, 2, 1, 2, (5 << 3) | 2, 1, 2]);
    assert_eq!(
        written,
        encode("Defaults", "numbers: [1, 2] colors: [COLOR_GREEN]")
    );
}

#[test]
fn enums_are_open_by_default() {
    // color = 9 and colors = [9]: numbers Color does not declare.
    let bytes = [3 << 3, 9, (5 << 3) | 2, 1, 9];
    let message = Defaults::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.color, Some(EnumValue::Unknown(9)));
    assert_eq!(message.colors, [EnumValue::Unknown(9)]);
    assert!(message.unknown_fields.is_empty());
    assert_eq!(message.encode_to_vec(), bytes);
    assert!(protoc_decode_raw(&bytes).starts_with("3: 9\n"));
}

#[test]
fn strings_are_verified_as_utf8() {
    // name (field 2) holding the byte 0xff.
    let bad = [(2 << 3) | 2, 1, 0xff];
    assert!(Defaults::decode_from_slice(&bad).is_err());
    // data (bytes) takes any byte.
    let data = [(8 << 3) | 2, 1, 0xff];
    assert_eq!(
        Defaults::decode_from_slice(&data).unwrap().data,
        Some(vec![0xff])
    );
}

#[test]
fn messages_are_length_prefixed_by_default() {
    let message = Defaults {
        leaf: leaf(1).into(),
        ..Default::default()
    };
    assert_eq!(message.encode_to_vec(), [(6 << 3) | 2, 2, 1 << 3, 1]);
    assert_eq!(
        message.encode_to_vec(),
        encode("Defaults", "leaf { value: 1 }")
    );
}

fn filled_overrides() -> Overrides {
    Overrides {
        implicit_count: 1,
        implicit_name: "n".into(),
        size: Some(Size::Large),
        sizes: vec![Size::Small, Size::Large],
        expanded: vec![1, 300],
        delimited: leaf(2).into(),
        delimited_list: vec![leaf(3), Leaf::default()],
        required_count: Some(0),
        ..Default::default()
    }
}

#[test]
fn overrides_read_and_write_like_protoc() {
    let text = r#"
        implicit_count: 1 implicit_name: "n" size: SIZE_LARGE
        sizes: [SIZE_SMALL, SIZE_LARGE] expanded: [1, 300]
        delimited { value: 2 } delimited_list { value: 3 } delimited_list { }
        required_count: 0
    "#;
    let bytes = encode("Overrides", text);
    let message = filled_overrides();
    assert_eq!(message.encode_to_vec(), bytes);
    assert_eq!(Overrides::decode_from_slice(&bytes).unwrap(), message);
    // EXPANDED: one tag per element; DELIMITED: start and end group tags.
    let raw = protoc_decode_raw(&bytes);
    assert!(raw.contains("4: 1\n4: 2\n5: 1\n5: 300\n"), "{raw}");
    assert!(
        raw.contains("6 {\n  1: 2\n}\n7 {\n  1: 3\n}\n7 {\n}\n"),
        "{raw}"
    );
}

#[test]
fn implicit_presence_override_skips_zeros() {
    let message = Overrides {
        implicit_count: 0,
        implicit_name: String::new(),
        ..Default::default()
    };
    assert!(message.encode_to_vec().is_empty());
    // A zero on the wire reads as unset and is not written back.
    let read = Overrides::decode_from_slice(&[1 << 3, 0]).unwrap();
    assert_eq!(read, Overrides::default());
    assert!(read.encode_to_vec().is_empty());
}

#[test]
fn closed_enum_override_sends_unknown_numbers_to_unknown_fields() {
    // size = 9, sizes = [1, 9] (expanded), neither 9 declared.
    let bytes = [3 << 3, 9, 4 << 3, 1, 4 << 3, 9];
    let message = Overrides::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.size, None);
    assert_eq!(message.sizes, [Size::Small]);
    assert_eq!(
        message.unknown_fields.iter().collect::<Vec<_>>(),
        [
            UnknownField {
                number: 3,
                value: UnknownValue::Varint(9)
            },
            UnknownField {
                number: 4,
                value: UnknownValue::Varint(9)
            },
        ]
    );
    // Known fields first, then the unknown ones as read.
    assert_eq!(message.encode_to_vec(), [4 << 3, 1, 3 << 3, 9, 4 << 3, 9]);
}

#[test]
fn delimited_override_rejects_length_prefixed_input() {
    // delimited (field 6) sent with wire type 2 instead of a start group.
    assert!(Overrides::decode_from_slice(&[(6 << 3) | 2, 2, 1 << 3, 1]).is_err());
    // A start group without its end is truncated input.
    assert!(Overrides::decode_from_slice(&[(6 << 3) | 3, 1 << 3, 1]).is_err());
}

#[test]
fn exported_and_local_types_are_generated_alike() {
    let message = Outer {
        hidden: outer::Hidden {
            x: Some(1),
            ..Default::default()
        }
        .into(),
        shared: outer::Shared {
            y: Some(2),
            ..Default::default()
        }
        .into(),
        mode: Some(outer::Mode::On.into()),
        internal: Some(Internal::One.into()),
        ..Default::default()
    };
    let bytes = encode(
        "Outer",
        "hidden { x: 1 } shared { y: 2 } mode: MODE_ON internal: INTERNAL_ONE",
    );
    assert_eq!(message.encode_to_vec(), bytes);
    assert_eq!(Outer::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn exported_types_are_used_from_another_file() {
    let message = User {
        leaf: leaf(1).into(),
        shared: outer::Shared {
            y: Some(2),
            ..Default::default()
        }
        .into(),
        color: Some(Color::Green.into()),
        ..Default::default()
    };
    let bytes = protoc_encode_in(
        &local_protos().join("editions"),
        "edition2024_user.proto",
        "edition2024_check.user.User",
        "leaf { value: 1 } shared { y: 2 } color: COLOR_GREEN",
    );
    assert_eq!(message.encode_to_vec(), bytes);
    assert_eq!(User::decode_from_slice(&bytes).unwrap(), message);
}

#[test]
fn legacy_names_opted_out_of_style2024() {
    let message = LegacyNames {
        camel_case: Some(3),
        lower_enum: Some(legacy_names::LowerEnum::LowerOne.into()),
        ..Default::default()
    };
    let bytes = encode("legacy_names", "camelCase: 3 lowerEnum: lower_one");
    assert_eq!(message.encode_to_vec(), bytes);
    assert_eq!(LegacyNames::decode_from_slice(&bytes).unwrap(), message);
}

/// The encoded `FileDescriptorSet` protoc writes for the 2024 files and
/// their imports.
fn descriptor_set() -> Vec<u8> {
    protoc_runner::Protoc::new([local_protos().join("editions")])
        .include_imports(true)
        .descriptor_set(&[FILE, "edition2024_user.proto"])
        .unwrap()
}

#[test]
fn descriptor_pool_resolves_the_features_codegen_does() {
    let pool = DescriptorPool::decode(&descriptor_set()).unwrap();
    let file = pool.get_file_by_name(FILE).unwrap();
    assert_eq!(
        file.edition(),
        buffa_types::google::protobuf::Edition::Edition2024
    );
    let field = |message: &str, field: &str| {
        pool.get_message_by_name(&format!("edition2024_check.{message}"))
            .unwrap()
            .get_field_by_name(field)
            .unwrap()
    };
    // The defaults, as the tests above observe them on the wire.
    for name in ["count", "name", "color", "leaf", "data", "cord"] {
        assert!(field("Defaults", name).has_presence(), "{name}");
    }
    assert!(field("Defaults", "numbers").is_packed());
    assert!(field("Defaults", "colors").is_packed());
    assert!(field("Defaults", "name").validates_utf8());
    assert!(!field("Defaults", "leaf").is_group());
    assert!(!field("Defaults", "leaves").is_group());
    let color = pool.get_enum_by_name("edition2024_check.Color").unwrap();
    assert!(!color.is_closed());
    // The overrides.
    assert!(!field("Overrides", "implicit_count").has_presence());
    assert!(!field("Overrides", "implicit_name").has_presence());
    assert!(field("Overrides", "size").has_presence());
    assert!(!field("Overrides", "sizes").is_packed());
    assert!(!field("Overrides", "expanded").is_packed());
    assert!(field("Overrides", "delimited").is_group());
    assert!(field("Overrides", "delimited_list").is_group());
    assert_eq!(
        field("Overrides", "required_count").cardinality(),
        Cardinality::Required
    );
    assert!(
        pool.get_enum_by_name("edition2024_check.Size")
            .unwrap()
            .is_closed()
    );
    // Visibility changes no behaviour: local types resolve as any other.
    assert!(
        !pool
            .get_enum_by_name("edition2024_check.Internal")
            .unwrap()
            .is_closed()
    );
    assert!(field("Outer", "hidden").has_presence());
}

#[test]
fn descriptor_pool_needs_no_option_imports() {
    use buffa_types::google::protobuf::FileDescriptorSet;

    let mut set = FileDescriptorSet::decode_from_slice(&descriptor_set()).unwrap();
    let option_files = [
        "options/edition2024_options.proto",
        "google/protobuf/cpp_features.proto",
    ];
    let edition2024 = set.file.iter().find(|f| f.name() == FILE).unwrap();
    assert_eq!(edition2024.option_dependency, option_files);
    assert!(edition2024.dependency.is_empty());
    set.file.retain(|f| !option_files.contains(&f.name()));
    let pool = DescriptorPool::from_file_descriptor_set(set).unwrap();
    let defaults = pool
        .get_message_by_name("edition2024_check.Defaults")
        .unwrap();
    // The custom options stay in the options' unknown fields.
    assert!(!defaults.options().unknown_fields.is_empty());
    assert!(defaults.get_field_by_name("cord").unwrap().has_presence());
}

fn generated_names(files: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = buffa_build::Config::new()
        .files(files)
        .includes(&[local_protos().join("editions")])
        .generate()
        .unwrap()
        .into_iter()
        .map(|file| file.name)
        .collect();
    names.sort();
    names
}

#[test]
fn option_imports_are_not_generated_unless_asked_for() {
    // The options file and cpp_features.proto (package `pb`) are option
    // imports only; edition2024_user.proto imports edition2024.proto.
    assert_eq!(generated_names(&[FILE]), ["edition2024_check.rs"]);
    assert_eq!(
        generated_names(&["edition2024_user.proto"]),
        ["edition2024_check.rs", "edition2024_check.user.rs"]
    );
    assert_eq!(
        generated_names(&[FILE, "options/edition2024_options.proto"]),
        ["edition2024_check.rs", "edition2024_options.rs"]
    );
    // The include file of this crate's build mounts no option import.
    let include =
        std::fs::read_to_string(concat!(env!("OUT_DIR"), "/editions/include.rs")).unwrap();
    assert!(include.contains("pub mod edition2024_check"), "{include}");
    assert!(
        !include.contains("edition2024_options") && !include.contains("pub mod pb"),
        "{include}"
    );
}
