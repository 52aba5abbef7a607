//! What protoc's `FileDescriptor::CopyTo` and `CopyJsonNameTo` change in a
//! linked file relative to what its parser produced: the `syntax` field
//! as protoc writes it, a `json_name` on every field and extension, and
//! float defaults printed back from the value the field holds.

use buffa_descriptor::rules::{format_float, json_name, parse_default_value};
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};

/// Rewrites `file` (linked: every field has its `type`) as protoc writes it
/// in a descriptor set.
pub(crate) fn copy_to(file: &mut FileDescriptorProto) {
    // proto2 is written as no `syntax` at all, editions as "editions" next
    // to the `edition` field.
    if file.edition.is_some() {
        file.syntax = Some("editions".to_owned());
    } else if file.syntax.as_deref() != Some("proto3") {
        file.syntax = None;
    }
    for message in &mut file.message_type {
        copy_message(message);
    }
    for extension in &mut file.extension {
        copy_field(extension);
    }
}

/// [`copy_to`] for a message and the messages nested in it.
fn copy_message(message: &mut DescriptorProto) {
    for field in message.field.iter_mut().chain(&mut message.extension) {
        copy_field(field);
    }
    for nested in &mut message.nested_type {
        copy_message(nested);
    }
}

/// [`copy_to`] for a field or an extension.
fn copy_field(field: &mut FieldDescriptorProto) {
    if field.json_name.is_none() {
        field.json_name = Some(json_name(field.name()));
    }
    // The parser prints every number default as a double; a float field
    // holds it as a float, printed with a float's precision.
    if field.r#type == Some(Type::Float)
        && let Some(text) = &field.default_value
        && let Ok(buffa_descriptor::DefaultValue::F32(value)) =
            parse_default_value(Type::Float, text, |_| None)
    {
        field.default_value = Some(format_float(value));
    }
}
