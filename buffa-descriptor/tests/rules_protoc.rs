//! The shared rules of `buffa_descriptor::rules` checked against protoc:
//! the two escape dialects through `[default = ...]` (protoc reads the
//! `.proto` literal with the tokenizer its text format uses, and writes the
//! bytes back into `default_value` with `CEscape`), the other defaults
//! through what protoc writes for them, and each edition's feature
//! defaults against `protoc --edition_defaults_out`.

#[path = "proto/descriptor/fixtures.rs"]
mod fixtures;

use std::path::Path;
use std::process::Command;

use buffa::Message;
use buffa_descriptor::rules::{Escapes, ResolvedFeatures, parse_default_value, unescape};
use buffa_descriptor::{DefaultValue, DescriptorPool};
use buffa_types::google::protobuf::descriptor_proto::ExtensionRange;
use buffa_types::google::protobuf::feature_set::{FieldPresence, JsonFormat, Utf8Validation};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, EnumValueDescriptorProto, FeatureSet,
    FeatureSetDefaults, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
    MethodDescriptorProto, OneofDescriptorProto, ServiceDescriptorProto,
};
use fixtures::compile;
use protoc_runner::binary as protoc;

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
    let set = compile(&dir, None, &["escapes.proto"]).expect("protoc accepts");
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

/// `[default = ...]` options as a `.proto` file writes them, the text
/// protoc 36.2 writes into `default_value` for each, and the value that
/// is.
fn defaults() -> Vec<(&'static str, &'static str, &'static str, DefaultValue)> {
    vec![
        ("int32", "-0x10", "-16", DefaultValue::I32(-16)),
        ("int32", "017", "15", DefaultValue::I32(15)),
        (
            "sint32",
            "-2147483648",
            "-2147483648",
            DefaultValue::I32(i32::MIN),
        ),
        (
            "int64",
            "0X7fffffffffffffff",
            "9223372036854775807",
            DefaultValue::I64(i64::MAX),
        ),
        (
            "uint32",
            "4294967295",
            "4294967295",
            DefaultValue::U32(u32::MAX),
        ),
        (
            "fixed64",
            "0xFFFFFFFFFFFFFFFF",
            "18446744073709551615",
            DefaultValue::U64(u64::MAX),
        ),
        ("double", "1.5e300", "1.5e+300", DefaultValue::F64(1.5e300)),
        ("double", "-0.0", "-0", DefaultValue::F64(-0.0)),
        (
            "double",
            "-inf",
            "-inf",
            DefaultValue::F64(f64::NEG_INFINITY),
        ),
        ("double", "5", "5", DefaultValue::F64(5.0)),
        // A float is rounded once; protoc writes one beyond the range of
        // `float` as infinite (`parse_default_value` reads the text of a
        // hand-made descriptor, `1e+40`, as C++ does: infinite too).
        ("float", "0.1", "0.1", DefaultValue::F32(0.1)),
        ("float", "1e40", "inf", DefaultValue::F32(f32::INFINITY)),
        ("float", "inf", "inf", DefaultValue::F32(f32::INFINITY)),
        ("bool", "true", "true", DefaultValue::Bool(true)),
        (
            "string",
            "\"a\\tb\"",
            "a\tb",
            DefaultValue::String("a\tb".into()),
        ),
        ("Color", "BLUE", "BLUE", DefaultValue::EnumNumber(7)),
    ]
}

#[test]
fn defaults_read_as_protoc_writes_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rules-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut proto = String::from(
        "syntax = \"proto2\";\npackage dflt;\nenum Color { RED = 1; BLUE = 7; }\nmessage M {\n",
    );
    for (i, (ty, literal, _, _)) in defaults().iter().enumerate() {
        proto.push_str(&format!(
            "  optional {ty} f{i} = {} [default = {literal}];\n",
            i + 1
        ));
    }
    proto.push_str("}\n");
    std::fs::write(dir.join("defaults.proto"), proto).unwrap();
    let set = compile(&dir, None, &["defaults.proto"]).expect("protoc accepts");
    let pool = DescriptorPool::decode(&set).unwrap();
    let message = pool.get_message_by_name("dflt.M").unwrap();
    for (i, (ty, literal, text, value)) in defaults().into_iter().enumerate() {
        let field = message.get_field_by_name(&format!("f{i}")).unwrap();
        let proto = field.field_descriptor_proto();
        assert_eq!(proto.default_value(), text, "{ty} {literal}");
        let field_type = proto.r#type.unwrap_or(Type::Enum);
        let read = parse_default_value(field_type, text, |name| (name == "BLUE").then_some(7));
        assert_eq!(read.as_ref(), Ok(&value), "{ty} {literal}");
        assert_eq!(field.default_value(), value, "{ty} {literal}");
    }
    let _ = std::fs::remove_file(dir.join("defaults.proto"));
}

/// Integers out of their type's range, which protoc refuses in a `.proto`
/// file; the rule refuses their text in a descriptor too.
#[test]
fn out_of_range_defaults_are_refused_as_protoc_refuses_them() {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rules-range-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (ty, field_type, literal) in [
        ("int32", Type::Int32, "2147483648"),
        ("int32", Type::Int32, "-0x80000001"),
        ("uint32", Type::Uint32, "-1"),
        ("uint64", Type::Uint64, "18446744073709551616"),
        ("bool", Type::Bool, "1"),
    ] {
        let proto = format!(
            "syntax = \"proto2\";\nmessage M {{ optional {ty} f = 1 [default = {literal}]; }}\n"
        );
        std::fs::write(dir.join("range.proto"), proto).unwrap();
        assert!(
            compile(&dir, None, &["range.proto"]).is_none(),
            "protoc accepts {ty} {literal}"
        );
        assert!(
            parse_default_value(field_type, literal, |_| None).is_err(),
            "{ty} {literal}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn edition_defaults_match_protoc() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("edition-defaults-{}.pb", std::process::id()));
    let wkt = protoc_runner::well_known_types();
    let status = Command::new(protoc())
        .arg(format!("--edition_defaults_out={}", out.display()))
        .arg("--edition_defaults_minimum=PROTO2")
        .arg("--edition_defaults_maximum=2026")
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
        Edition::Edition2026,
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
            enforce_naming_style: pick(
                edition,
                overridable.enforce_naming_style,
                fixed.enforce_naming_style,
            ),
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

/// A file `m.proto` with message `M { oneof o { string x = 1; } }`, in
/// `syntax` (with `edition` for editions), for the features tests.
fn features_file(syntax: &str) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some("m.proto".into()),
        package: Some("p".into()),
        syntax: Some(syntax.into()),
        edition: (syntax == "editions").then_some(Edition::Edition2023),
        message_type: vec![DescriptorProto {
            name: Some("M".into()),
            field: vec![FieldDescriptorProto {
                name: Some("x".into()),
                number: Some(1),
                label: Some(Label::Optional),
                r#type: Some(Type::String),
                oneof_index: Some(0),
                json_name: Some("x".into()),
                ..Default::default()
            }],
            oneof_decl: vec![OneofDescriptorProto {
                name: Some("o".into()),
                ..Default::default()
            }],
            ..Default::default()
        }],
        enum_type: vec![EnumDescriptorProto {
            name: Some("E".into()),
            value: vec![EnumValueDescriptorProto {
                name: Some("E_ZERO".into()),
                number: Some(0),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Whether protoc builds `file`, given as a descriptor set
/// (`--descriptor_set_in`): its `DescriptorBuilder` checks what it reads
/// as it checks what it parses.
fn protoc_builds(file: &FileDescriptorProto, tag: &str) -> bool {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let set_in = dir.join(format!("features-{tag}-{}.pb", std::process::id()));
    let set = FileDescriptorSet {
        file: vec![file.clone()],
        ..Default::default()
    };
    std::fs::write(&set_in, set.encode_to_vec()).unwrap();
    let output = Command::new(protoc())
        .arg(format!("--descriptor_set_in={}", set_in.display()))
        .arg(format!(
            "--descriptor_set_out={}",
            dir.join(format!("features-{tag}-out.pb")).display()
        ))
        .arg("m.proto")
        .output()
        .expect("run protoc");
    let _ = std::fs::remove_file(&set_in);
    output.status.success()
}

/// `features` as C++'s `DescriptorBuilder` checks them in a descriptor
/// set (protoc 36.2, `--descriptor_set_in`): only in editions files, not
/// even empty ones elsewhere ("Features are only valid under editions."),
/// and each feature only on its `targets` ("Option ... cannot be set on an
/// entity of type `oneof`."). The pool refuses what protoc refuses, naming
/// the element, and builds what it builds.
#[test]
fn declared_features_are_checked_as_protoc_checks_them() {
    let none = || FeatureSet {
        utf8_validation: Some(Utf8Validation::None),
        ..Default::default()
    };
    type Edit = fn(&mut FileDescriptorProto, FeatureSet);
    let on_file: Edit = |f, set| f.options.get_or_insert_default().features = set.into();
    let on_message: Edit =
        |f, set| f.message_type[0].options.get_or_insert_default().features = set.into();
    let on_field: Edit = |f, set| {
        f.message_type[0].field[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    let on_oneof: Edit = |f, set| {
        f.message_type[0].oneof_decl[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    let on_enum: Edit =
        |f, set| f.enum_type[0].options.get_or_insert_default().features = set.into();
    let on_enum_value: Edit = |f, set| {
        f.enum_type[0].value[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    // `extensions 100 to 200;` on M, with the features.
    let on_extension_range: Edit = |f, set| {
        let mut range = ExtensionRange {
            start: Some(100),
            end: Some(201),
            ..Default::default()
        };
        range.options.get_or_insert_default().features = set.into();
        f.message_type[0].extension_range.push(range);
    };
    // `service S { rpc Get(M) returns (M); }`, the features on the
    // service or on the method.
    fn service(f: &mut FileDescriptorProto) -> &mut ServiceDescriptorProto {
        f.service.push(ServiceDescriptorProto {
            name: Some("S".into()),
            method: vec![MethodDescriptorProto {
                name: Some("Get".into()),
                input_type: Some(".p.M".into()),
                output_type: Some(".p.M".into()),
                ..Default::default()
            }],
            ..Default::default()
        });
        f.service.last_mut().unwrap()
    }
    let on_service: Edit =
        |f, set| service(f).options.get_or_insert_default().features = set.into();
    let on_method: Edit = |f, set| {
        service(f).method[0]
            .options
            .get_or_insert_default()
            .features = set.into()
    };
    let implicit = FeatureSet {
        field_presence: Some(FieldPresence::Implicit),
        ..Default::default()
    };
    let json = FeatureSet {
        json_format: Some(JsonFormat::LegacyBestEffort),
        ..Default::default()
    };
    let cases: Vec<(&str, &str, Edit, FeatureSet, Option<&str>)> = vec![
        // Outside editions, any `features`, even empty ones.
        (
            "proto3",
            "p3-file",
            on_file,
            FeatureSet::default(),
            Some("m.proto: features are only valid under editions"),
        ),
        (
            "proto3",
            "p3-field",
            on_field,
            none(),
            Some("m.proto: field p.M.x: features are only valid under editions"),
        ),
        (
            "proto2",
            "p2-oneof",
            on_oneof,
            FeatureSet::default(),
            Some("m.proto: oneof p.M.o: features are only valid under editions"),
        ),
        (
            "proto2",
            "p2-enum",
            on_enum,
            FeatureSet::default(),
            Some("m.proto: enum p.E: features are only valid under editions"),
        ),
        (
            "proto2",
            "p2-message",
            on_message,
            FeatureSet::default(),
            Some("m.proto: message p.M: features are only valid under editions"),
        ),
        (
            "proto2",
            "p2-enum-value",
            on_enum_value,
            FeatureSet::default(),
            Some("m.proto: enum value p.E_ZERO: features are only valid under editions"),
        ),
        (
            "proto2",
            "p2-extension-range",
            on_extension_range,
            FeatureSet::default(),
            Some(
                "m.proto: message p.M: extension range 100 to 200: features are only valid \
                 under editions",
            ),
        ),
        (
            "proto3",
            "p3-service",
            on_service,
            FeatureSet::default(),
            Some("m.proto: service p.S: features are only valid under editions"),
        ),
        (
            "proto3",
            "p3-method",
            on_method,
            FeatureSet::default(),
            Some("m.proto: method p.S.Get: features are only valid under editions"),
        ),
        // In editions, only where `targets` allow.
        (
            "editions",
            "ed-service",
            on_service,
            FeatureSet::default(),
            None,
        ),
        (
            "editions",
            "ed-range",
            on_extension_range,
            FeatureSet::default(),
            None,
        ),
        (
            "editions",
            "ed-enum-value",
            on_enum_value,
            none(),
            Some(
                "m.proto: enum value p.E_ZERO: feature utf8_validation cannot be set on an enum value",
            ),
        ),
        (
            "editions",
            "ed-method",
            on_method,
            implicit.clone(),
            Some("m.proto: method p.S.Get: feature field_presence cannot be set on a method"),
        ),
        ("editions", "ed-field", on_field, none(), None),
        (
            "editions",
            "ed-oneof-empty",
            on_oneof,
            FeatureSet::default(),
            None,
        ),
        (
            "editions",
            "ed-oneof",
            on_oneof,
            none(),
            Some("m.proto: oneof p.M.o: feature utf8_validation cannot be set on a oneof"),
        ),
        (
            "editions",
            "ed-message-presence",
            on_message,
            implicit,
            Some("m.proto: message p.M: feature field_presence cannot be set on a message"),
        ),
        (
            "editions",
            "ed-message-json",
            on_message,
            json.clone(),
            None,
        ),
        (
            "editions",
            "ed-field-json",
            on_field,
            json,
            Some("m.proto: field p.M.x: feature json_format cannot be set on a field"),
        ),
    ];
    for (syntax, tag, edit, set, refused) in cases {
        let mut file = features_file(syntax);
        edit(&mut file, set);
        assert_eq!(
            protoc_builds(&file, tag),
            refused.is_none(),
            "protoc, {tag}"
        );
        let mut pool = DescriptorPool::new();
        let built = pool.add_file_descriptor_proto(file);
        assert_eq!(
            built.as_ref().err().map(ToString::to_string).as_deref(),
            refused,
            "{tag}"
        );
    }
}
