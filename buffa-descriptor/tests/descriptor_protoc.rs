//! DescriptorPool checked against implementations we did not write:
//! protoc's encoder and name resolution, and protobuf's own test protos
//! (including their editions transforms); plus mutated descriptor sets.

#[path = "proto/descriptor/fixtures.rs"]
mod fixtures;

use buffa::{Message, UnknownValue, WireType};
use buffa_descriptor::{
    Cardinality, DefaultValue, DescriptorPool, FieldDescriptor, Kind, MessageDescriptor, Syntax,
};
use buffa_types::google::protobuf::Empty;
use fixtures::{FILES, compile, field, field_in, message, message_in, pool, proto_dir, set_bytes};

/// Encodes `text` as message `type_name` with protoc.
fn protoc_encode(type_name: &str, text: &str) -> Vec<u8> {
    let mut args = vec![format!("--encode={type_name}")];
    args.extend(FILES.iter().map(|file| (*file).to_owned()));
    protoc_runner::Protoc::new([proto_dir()])
        .run(&args, text.as_bytes())
        .unwrap_or_else(|error| panic!("protoc --encode={type_name} of {text:?}: {error}"))
}

/// The text-format zero value of one element of `field`.
fn zero_text(field: &FieldDescriptor) -> String {
    match field.kind() {
        Kind::Message(_) => "{}".into(),
        Kind::Enum(e) => format!(": {}", e.default_value().name()),
        Kind::String | Kind::Bytes => ": \"\"".into(),
        Kind::Bool => ": false".into(),
        _ => ": 0".into(),
    }
}

/// The wire types of the records of an encoded message, in order.
fn records(bytes: &[u8]) -> Vec<(u32, WireType)> {
    let message = Empty::decode_from_slice(bytes).unwrap();
    message
        .unknown_fields
        .iter()
        .map(|f| {
            let wire_type = match f.value {
                UnknownValue::Varint(_) => WireType::Varint,
                UnknownValue::Fixed64(_) => WireType::Fixed64,
                UnknownValue::LengthDelimited(_) => WireType::LengthDelimited,
                UnknownValue::Group(_) => WireType::StartGroup,
                UnknownValue::Fixed32(_) => WireType::Fixed32,
            };
            (f.number, wire_type)
        })
        .collect()
}

/// protoc's encoder as the reference for the resolved properties: a
/// singular field explicitly set to its zero value is written exactly
/// when it has presence, and every field is written with the wire type
/// `wire_type()` says (one record when packed).
#[test]
fn presence_and_wire_types_match_protoc() {
    let pool = pool();
    let mut checked = 0;
    let mut cases: Vec<(MessageDescriptor, FieldDescriptor, String)> = Vec::new();
    for message in pool.all_messages().filter(|m| !m.is_map_entry()) {
        if message.options().message_set_wire_format() {
            continue;
        }
        for field in message.fields() {
            let name = field.name().to_owned();
            cases.push((message.clone(), field, name));
        }
    }
    for extension in pool.all_extensions() {
        let extendee = extension.containing_message();
        if extendee.options().message_set_wire_format() {
            continue;
        }
        let name = format!("[{}]", extension.full_name());
        cases.push((extendee, extension, name));
    }
    for (message, field, name) in cases {
        let element = format!("{name}{}", zero_text(&field));
        let text = if field.cardinality() == Cardinality::Repeated {
            format!("{element} {element}")
        } else {
            element
        };
        let encoded = protoc_encode(message.full_name(), &text);
        let written: Vec<WireType> = records(&encoded)
            .into_iter()
            .filter(|&(n, _)| n == field.number())
            .map(|(_, w)| w)
            .collect();
        let context = format!("{} ({text})", field.full_name());
        match field.cardinality() {
            Cardinality::Repeated => {
                let expected = if field.is_packed() { 1 } else { 2 };
                assert_eq!(written.len(), expected, "{context}");
            }
            _ => assert_eq!(!written.is_empty(), field.has_presence(), "{context}"),
        }
        if let Some(&wire_type) = written.first() {
            assert_eq!(wire_type, field.wire_type(), "{context}");
        }
        checked += 1;
    }
    assert!(checked > 70, "{checked}");
}

/// The JSON names computed for descriptors without `json_name` are
/// protoc's, on protobuf's own tricky field names.
#[test]
fn computed_json_names_match_protoc() {
    let dir = protobuf_sources::protobuf_source_dir().expect("protobuf sources");
    let bytes = compile(
        &dir.join("src"),
        None,
        &[
            "google/protobuf/test_messages_proto3.proto",
            "google/protobuf/test_messages_proto2.proto",
        ],
    )
    .expect("protoc accepts the test messages");
    let mut compared = 0;
    for bytes in [&bytes[..], set_bytes()] {
        let pool = DescriptorPool::decode(bytes).unwrap();
        let mut set = pool.file_descriptor_set();
        fn strip(message: &mut buffa_types::google::protobuf::DescriptorProto) {
            message.field.iter_mut().for_each(|f| f.json_name = None);
            message
                .extension
                .iter_mut()
                .for_each(|f| f.json_name = None);
            message.nested_type.iter_mut().for_each(strip);
        }
        for file in &mut set.file {
            file.message_type.iter_mut().for_each(strip);
            file.extension.iter_mut().for_each(|f| f.json_name = None);
        }
        let computed = DescriptorPool::from_file_descriptor_set(set).unwrap();
        for message in pool.all_messages() {
            let other = message_in(&computed, &message);
            for field in message.fields().filter(|f| f.name() != "with_json") {
                assert_eq!(
                    field.json_name(),
                    field_in(&other, &field).json_name(),
                    "{}",
                    field.full_name()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

/// protobuf's conformance messages, in proto2 and proto3 syntax and
/// transformed to editions by Google's tooling: every resolved property
/// of every field agrees between the syntax and the editions form.
#[test]
fn editions_transform_agrees_with_syntax() {
    let dir = protobuf_sources::protobuf_source_dir().expect("protobuf sources");
    let pairs = [
        (
            "google/protobuf/test_messages_proto2.proto",
            "editions/golden/test_messages_proto2_editions.proto",
            "protobuf_test_messages.proto2.",
            "protobuf_test_messages.editions.proto2.",
        ),
        (
            "google/protobuf/test_messages_proto3.proto",
            "editions/golden/test_messages_proto3_editions.proto",
            "protobuf_test_messages.proto3.",
            "protobuf_test_messages.editions.proto3.",
        ),
    ];
    let mut compared = 0;
    for (syntax_file, editions_file, syntax_package, editions_package) in pairs {
        let syntax = compile(&dir.join("src"), None, &[syntax_file]).unwrap();
        let editions = compile(&dir, Some(&dir.join("src")), &[editions_file]).unwrap();
        let syntax = DescriptorPool::decode(&syntax).unwrap();
        let editions = DescriptorPool::decode(&editions).unwrap();
        assert!(matches!(
            editions.get_file_by_name(editions_file).unwrap().syntax(),
            Syntax::Edition(_)
        ));
        for message in syntax.all_messages() {
            let Some(suffix) = message.full_name().strip_prefix(syntax_package) else {
                continue;
            };
            let other = editions
                .get_message_by_name(&format!("{editions_package}{suffix}"))
                .unwrap_or_else(|| panic!("{suffix} in the editions form"));
            assert_eq!(message.fields().len(), other.fields().len(), "{suffix}");
            for field in message.fields() {
                let twin = field_in(&other, &field);
                let context = field.full_name();
                assert_eq!(field.name(), twin.name(), "{context}");
                assert_eq!(field.cardinality(), twin.cardinality(), "{context}");
                assert_eq!(field.has_presence(), twin.has_presence(), "{context}");
                assert_eq!(field.is_packed(), twin.is_packed(), "{context}");
                assert_eq!(field.is_group(), twin.is_group(), "{context}");
                assert_eq!(field.is_map(), twin.is_map(), "{context}");
                assert_eq!(field.wire_type(), twin.wire_type(), "{context}");
                assert_eq!(field.validates_utf8(), twin.validates_utf8(), "{context}");
                assert_eq!(field.json_name(), twin.json_name(), "{context}");
                if let (Kind::Enum(a), Kind::Enum(b)) = (field.kind(), twin.kind()) {
                    assert_eq!(a.is_closed(), b.is_closed(), "{context}");
                }
                let defaults = (field.default_value(), twin.default_value());
                if !matches!(defaults, (DefaultValue::F32(a), DefaultValue::F32(b)) if a.is_nan() && b.is_nan())
                    && !matches!(defaults, (DefaultValue::F64(a), DefaultValue::F64(b)) if a.is_nan() && b.is_nan())
                {
                    assert_eq!(defaults.0, defaults.1, "{context}");
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

/// Every unittest proto of protobuf's source tree that this protoc
/// accepts is a valid pool.
#[test]
fn protobuf_unittest_protos_decode() {
    let dir = protobuf_sources::protobuf_source_dir().expect("protobuf sources");
    let proto_dir = dir.join("src/google/protobuf");
    let mut files: Vec<String> = std::fs::read_dir(&proto_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| {
            (n.starts_with("unittest") || n.starts_with("test_messages")) && n.ends_with(".proto")
        })
        .map(|n| format!("google/protobuf/{n}"))
        .collect();
    files.sort();
    let mut decoded = 0;
    let mut messages = 0;
    for file in &files {
        let Some(bytes) = compile(&dir.join("src"), None, &[file]) else {
            continue; // Written for an older protoc.
        };
        let pool = DescriptorPool::decode(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            pool.file_descriptor_set().encode_to_vec().len(),
            bytes.len()
        );
        messages += pool.all_messages().len();
        decoded += 1;
    }
    assert!(decoded >= 30, "{decoded} of {}", files.len());
    assert!(messages > 500, "{messages}");
}

/// Relative type names resolve to what protoc resolved them to: the
/// fixture's names, as written in scoping.proto, replace protoc's fully
/// qualified ones.
#[test]
fn relative_type_names_resolve_as_protoc_does() {
    let written = [
        ("a.b.Outer.Mid.f1", "Item"),
        ("a.b.Outer.Mid.f2", "Outer.Item"),
        ("a.b.Outer.Mid.f3", "b.Item"),
        ("a.b.Outer.Mid.f4", "a.b.Item"),
        ("a.b.Outer.Mid.f5", ".a.b.Item"),
        ("a.b.Outer.Mid.f6", "Mid"),
        ("a.b.Outer.f7", "Item"),
        ("a.b.Outer.f8", "Mid.Item"),
        ("a.b.Outer.f9", "Outer"),
    ];
    let pool = pool();
    let mut set = pool.file_descriptor_set();
    let scoping = set
        .file
        .iter_mut()
        .find(|f| f.name() == "scoping.proto")
        .unwrap();
    let outer = &mut scoping.message_type[1];
    let mid = &mut outer.nested_type[1];
    let rewrite = |scope: &str, field: &mut buffa_types::google::protobuf::FieldDescriptorProto| {
        let full_name = format!("{scope}.{}", field.name());
        let (_, text) = written.iter().find(|(name, _)| *name == full_name).unwrap();
        field.type_name = Some((*text).to_owned());
        field.r#type = None;
    };
    mid.field
        .iter_mut()
        .for_each(|f| rewrite("a.b.Outer.Mid", f));
    outer.field.iter_mut().for_each(|f| rewrite("a.b.Outer", f));
    let relative = DescriptorPool::from_file_descriptor_set(set).unwrap();
    for (full_name, text) in written {
        let (message, name) = full_name.rsplit_once('.').unwrap();
        let protoc_type = field(&self::message(&pool, message), name).kind();
        let ours = field(&self::message(&relative, message), name).kind();
        assert_eq!(
            ours.as_message().unwrap().full_name(),
            protoc_type.as_message().unwrap().full_name(),
            "{full_name}: {text}"
        );
    }
}

/// Reads everything a pool offers, to show that a pool that was accepted
/// answers every question without panicking.
fn exercise(pool: &DescriptorPool) -> usize {
    let mut seen = 0;
    for file in pool.files() {
        seen += file.dependencies().count() + file.extensions().count();
        let _ = (
            file.syntax(),
            file.edition(),
            file.options(),
            file.package_name(),
        );
    }
    for message in pool.all_messages() {
        let _ = (
            message.comments(),
            message.options(),
            message.parent_message(),
        );
        seen += message.extension_ranges().count() + message.reserved_ranges().count();
        if message.is_map_entry() {
            let _ = (
                message.map_entry_key_field(),
                message.map_entry_value_field(),
            );
        }
        for oneof in message.oneofs() {
            let _ = (oneof.comments(), oneof.options(), oneof.fields().count());
        }
        for field in message.fields().chain(pool.extensions_of(&message)) {
            assert_eq!(
                message.get_field(field.number()).is_some(),
                !field.is_extension()
            );
            let _ = (
                field.kind(),
                field.default_value(),
                field.comments(),
                field.options(),
            );
            let _ = (
                field.is_packed(),
                field.has_presence(),
                field.is_group(),
                field.wire_type(),
            );
            let _ = (
                field.validates_utf8(),
                field.is_map(),
                field.real_oneof(),
                field.extension_scope(),
            );
            seen += 1;
        }
    }
    for enum_ in pool.all_enums() {
        let _ = (enum_.comments(), enum_.default_value(), enum_.is_closed());
        for value in enum_.values() {
            assert!(enum_.get_value(value.number()).is_some());
            assert_eq!(enum_.get_value_by_name(value.name()), Some(value.clone()));
            let _ = (value.comments(), value.options());
        }
    }
    for service in pool.services() {
        for method in service.methods() {
            let _ = (method.input(), method.output(), method.comments());
        }
    }
    seen
}

/// Mutated descriptor sets are refused or accepted, never a panic; an
/// accepted one answers every accessor.
#[test]
fn mutated_descriptor_sets_never_panic() {
    assert!(exercise(&pool()) > 100);
    let original = set_bytes();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut accepted = 0;
    for _ in 0..400 {
        let mut bytes = original.to_vec();
        for _ in 0..1 + next() % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            match next() % 4 {
                0 => bytes[at] ^= 1 << (next() % 8),
                1 => bytes[at] = next() as u8,
                2 => bytes.truncate(at),
                _ => bytes.insert(at, next() as u8),
            }
            if bytes.is_empty() {
                break;
            }
        }
        if let Ok(pool) = DescriptorPool::decode(&bytes) {
            exercise(&pool);
            accepted += 1;
        }
    }
    // Many mutations land in names and comments and still make a valid
    // pool, which is then exercised.
    assert!(accepted > 20, "{accepted}");
}
