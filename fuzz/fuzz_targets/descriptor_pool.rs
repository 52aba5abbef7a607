//! Decodes arbitrary bytes as an encoded `FileDescriptorSet` into a
//! `DescriptorPool`. Whatever the input, `DescriptorPool::decode` returns
//! (no panic, memory bounded by the input). A pool it accepts answers
//! every question without panicking, and consistently:
//!
//! - every file, message, enum, service and extension is found again by
//!   its name, every field by its number, name and JSON name (JSON names
//!   may collide, so only a field of the same message is required), every
//!   enum value by its number and name, every extension by its extendee
//!   and number (and within its extendee's extension ranges);
//! - each field's kind, cardinality, default value, presence, packing,
//!   wire type, oneof and map entry agree with each other;
//! - the comments, options and ranges of every element read;
//! - an empty `DynamicMessage` of every message encodes to nothing, and
//!   the input decodes as the first few messages (with a small allocation
//!   limit) to a message whose encoding decodes again;
//! - the pool's own `FileDescriptorSet`, encoded, decodes to a pool of the
//!   same shape.
#![no_main]

use buffa::{DecodeOptions, Message, WireType};
use buffa_reflect::{
    Cardinality, DefaultValue, DescriptorPool, DynamicMessage, FieldDescriptor, Kind,
    MessageDescriptor,
};
use libfuzzer_sys::fuzz_target;

/// How many of the pool's messages the input is also decoded as.
const DECODED_MESSAGES: usize = 8;

/// The allocation limit of those decodes, in bytes.
const ALLOCATION_LIMIT: usize = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let Ok(pool) = DescriptorPool::decode(data) else {
        return;
    };
    let shape = walk(&pool);
    decode_as_messages(&pool, data);

    let set = pool.file_descriptor_set().encode_to_vec();
    let again = DescriptorPool::decode(&set)
        .unwrap_or_else(|e| panic!("the pool's own descriptor set is refused: {e}"));
    assert_eq!(walk(&again), shape, "the pool's own descriptor set differs");
});

/// The number of files, messages, fields, enums, enum values, extensions,
/// services and methods of a pool.
#[derive(Debug, PartialEq, Eq)]
struct Shape([usize; 8]);

/// Reads everything `pool` offers, checking that the answers agree, and
/// counts the elements.
fn walk(pool: &DescriptorPool) -> Shape {
    let mut counts = [0; 8];
    for file in pool.files() {
        counts[0] += 1;
        assert_eq!(pool.get_file_by_name(file.name()).as_ref(), Some(&file));
        let _ = (
            file.syntax(),
            file.edition(),
            file.options(),
            file.package_name(),
            file.file_descriptor_proto(),
        );
        for dependency in file.dependencies().chain(file.public_dependencies()) {
            let _ = dependency.name();
        }
        for message in file.messages() {
            assert_eq!(message.parent_file(), file);
            assert!(message.parent_message().is_none());
        }
        for enum_ in file.enums() {
            assert_eq!(enum_.parent_file(), file);
        }
        for service in file.services() {
            assert_eq!(service.parent_file(), file);
        }
        for extension in file.extensions() {
            assert!(extension.is_extension());
            assert!(extension.extension_scope().is_none());
        }
    }

    for message in pool.all_messages() {
        counts[1] += 1;
        walk_message(pool, &message, &mut counts[2]);
    }

    for enum_ in pool.all_enums() {
        counts[3] += 1;
        assert_eq!(
            pool.get_enum_by_name(enum_.full_name()).as_ref(),
            Some(&enum_)
        );
        let _ = (
            enum_.name(),
            enum_.package_name(),
            enum_.parent_message(),
            enum_.options(),
            enum_.comments(),
            enum_.is_closed(),
        );
        let default = enum_.default_value();
        assert_eq!(default.parent_enum(), enum_);
        assert_eq!(enum_.values().next().as_ref(), Some(&default));
        for value in enum_.values() {
            counts[4] += 1;
            assert_eq!(value.parent_enum(), enum_);
            // Aliases share a number: the lookup finds one of them.
            let by_number = enum_.get_value(value.number()).expect("value by number");
            assert_eq!(by_number.number(), value.number());
            assert!(enum_.get_value_by_name(value.name()).is_some());
            let _ = (
                value.full_name(),
                value.index(),
                value.options(),
                value.comments(),
            );
        }
    }

    for extension in pool.all_extensions() {
        counts[5] += 1;
        assert!(extension.is_extension());
        let extendee = extension.containing_message();
        assert!(
            extendee.is_extension_number(extension.number()),
            "{} is outside the extension ranges of {}",
            extension.full_name(),
            extendee.full_name()
        );
        assert_eq!(
            pool.get_extension_by_number(&extendee, extension.number())
                .as_ref(),
            Some(&extension)
        );
        assert_eq!(
            pool.get_extension_by_name(extension.full_name()).as_ref(),
            Some(&extension)
        );
        assert!(pool.extensions_of(&extendee).any(|e| e == extension));
        if let Some(scope) = extension.extension_scope() {
            assert!(scope.child_extensions().any(|e| e == extension));
        }
        check_field(&extension);
    }

    for service in pool.services() {
        counts[6] += 1;
        assert_eq!(
            pool.get_service_by_name(service.full_name()).as_ref(),
            Some(&service)
        );
        let _ = (
            service.name(),
            service.options(),
            service.comments(),
            service.service_descriptor_proto(),
        );
        for method in service.methods() {
            counts[7] += 1;
            assert_eq!(method.parent_service(), service);
            let _ = (
                method.name(),
                method.full_name(),
                method.input().full_name(),
                method.output().full_name(),
                method.is_client_streaming(),
                method.is_server_streaming(),
                method.options(),
                method.comments(),
                method.method_descriptor_proto(),
            );
        }
    }
    Shape(counts)
}

/// Reads everything of one message and its fields, counting the fields.
fn walk_message(pool: &DescriptorPool, message: &MessageDescriptor, fields: &mut usize) {
    assert_eq!(
        pool.get_message_by_name(message.full_name()).as_ref(),
        Some(message)
    );
    let _ = (
        message.name(),
        message.package_name(),
        message.options(),
        message.comments(),
        message.descriptor_proto(),
    );
    if let Some(parent) = message.parent_message() {
        assert!(parent.child_messages().any(|m| m == *message));
    }
    for child in message.child_enums() {
        assert_eq!(child.parent_message().as_ref(), Some(message));
    }
    for extension in message.child_extensions() {
        assert_eq!(extension.extension_scope().as_ref(), Some(message));
    }
    for range in message.extension_ranges() {
        if !range.is_empty() {
            assert!(message.is_extension_number(range.start));
            assert!(message.is_extension_number(range.end - 1));
        }
    }
    let _ = (
        message.reserved_ranges().count(),
        message.reserved_names().count(),
    );
    if message.is_map_entry() {
        let key = message.map_entry_key_field();
        let value = message.map_entry_value_field();
        assert_eq!((key.number(), value.number()), (1, 2));
        assert!(!matches!(key.kind(), Kind::Message(_) | Kind::Enum(_)));
        assert_ne!(key.cardinality(), Cardinality::Repeated);
        assert_ne!(value.cardinality(), Cardinality::Repeated);
    }
    for oneof in message.oneofs() {
        assert_eq!(oneof.parent_message(), *message);
        let _ = (
            oneof.name(),
            oneof.full_name(),
            oneof.index(),
            oneof.options(),
            oneof.comments(),
            oneof.oneof_descriptor_proto(),
        );
        for member in oneof.fields() {
            assert_eq!(member.containing_oneof().as_ref(), Some(&oneof));
        }
    }
    for field in message.fields() {
        *fields += 1;
        assert!(!field.is_extension());
        assert_eq!(field.containing_message(), *message);
        assert_eq!(message.get_field(field.number()).as_ref(), Some(&field));
        assert_eq!(
            message.get_field_by_name(field.name()).as_ref(),
            Some(&field)
        );
        let by_json = message
            .get_field_by_json_name(field.json_name())
            .expect("field by JSON name");
        assert_eq!(by_json.containing_message(), *message);
        if let Some(oneof) = field.containing_oneof() {
            assert_eq!(oneof.parent_message(), *message);
            assert!(oneof.fields().any(|f| f == field));
        }
        check_field(&field);
    }
    for extension in pool.extensions_of(message) {
        assert_eq!(extension.containing_message(), *message);
        assert!(message.get_field(extension.number()).is_none());
    }
}

/// Checks that the resolved properties of a field or extension agree.
fn check_field(field: &FieldDescriptor) {
    let kind = field.kind();
    let cardinality = field.cardinality();
    let _ = (
        field.name(),
        field.full_name(),
        field.json_name(),
        field.index(),
        field.options(),
        field.comments(),
        field.has_default_value(),
        field.validates_utf8(),
        field.parent_file().name(),
        field.field_descriptor_proto(),
    );
    let repeated = cardinality == Cardinality::Repeated;
    assert_eq!(field.is_list() || field.is_map(), repeated);
    assert!(!(field.is_list() && field.is_map()));
    if repeated {
        assert!(!field.has_presence(), "{}", field.full_name());
    }
    if field.is_packed() {
        assert!(
            field.is_list() && kind.is_packable(),
            "{}",
            field.full_name()
        );
    }
    if field.is_map() {
        let Kind::Message(entry) = &kind else {
            panic!("map field {} of a non-message kind", field.full_name());
        };
        assert!(entry.is_map_entry());
        assert!(!field.is_group());
    }
    if field.is_group() {
        assert!(matches!(kind, Kind::Message(_)));
        assert_eq!(field.wire_type(), WireType::StartGroup);
    }
    if let Some(oneof) = field.real_oneof() {
        assert!(!oneof.is_synthetic());
    }
    if field.containing_oneof().is_some() {
        assert!(field.has_presence() && !repeated, "{}", field.full_name());
    }
    let default = field.default_value();
    let matches = match (&kind, &default) {
        (Kind::Double, DefaultValue::F64(_))
        | (Kind::Float, DefaultValue::F32(_))
        | (Kind::Int32 | Kind::Sint32 | Kind::Sfixed32, DefaultValue::I32(_))
        | (Kind::Int64 | Kind::Sint64 | Kind::Sfixed64, DefaultValue::I64(_))
        | (Kind::Uint32 | Kind::Fixed32, DefaultValue::U32(_))
        | (Kind::Uint64 | Kind::Fixed64, DefaultValue::U64(_))
        | (Kind::Bool, DefaultValue::Bool(_))
        | (Kind::String, DefaultValue::String(_))
        | (Kind::Bytes, DefaultValue::Bytes(_))
        | (Kind::Message(_), DefaultValue::Message) => true,
        (Kind::Enum(enum_), DefaultValue::EnumNumber(number)) => enum_.get_value(*number).is_some(),
        _ => false,
    };
    assert!(
        matches,
        "{}: default {default:?} for kind {kind:?}",
        field.full_name()
    );
    match &kind {
        Kind::Message(message) => {
            let _ = message.full_name();
        }
        Kind::Enum(enum_) => {
            let _ = enum_.full_name();
        }
        _ => {}
    }
}

/// Decodes the input as the first few messages of the pool, under a small
/// allocation limit; what decodes encodes to bytes that decode to the same
/// encoding.
fn decode_as_messages(pool: &DescriptorPool, data: &[u8]) {
    let options = DecodeOptions::new().with_allocation_limit(Some(ALLOCATION_LIMIT));
    for message in pool.all_messages() {
        assert!(
            DynamicMessage::new(message.clone())
                .encode_to_vec()
                .is_empty()
        );
    }
    for message in pool.all_messages().take(DECODED_MESSAGES) {
        let Ok(decoded) = DynamicMessage::decode_with_options(message.clone(), data, &options)
        else {
            continue;
        };
        let bytes = decoded.encode_to_vec();
        assert_eq!(decoded.encoded_len(), bytes.len());
        let again = DynamicMessage::decode(message.clone(), &bytes).unwrap_or_else(|e| {
            panic!(
                "{}: the re-encoding does not decode: {e}",
                message.full_name()
            )
        });
        assert_eq!(again.encode_to_vec(), bytes, "{}", message.full_name());
    }
}
