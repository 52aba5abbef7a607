//! Proto3 JSON for any [`ReflectMessage`] and for [`DynamicMessage`]s
//! (the `json` feature).
//!
//! The mapping is buffa's own (`buffa::json`): the same options
//! ([`SerializeOptions`], [`DeserializeOptions`]), the same error
//! ([`JsonError`], with line and column), the same JSON form of every
//! scalar, the same limits (recursion, allocation budget, input length),
//! and the well-known types' special forms from `buffa-types`. What this
//! module adds is the walk over a message's fields through reflection, so
//! that a message whose type is known only at run time prints and parses
//! exactly as the generated code of the same schema does:
//!
//! ```
//! # fn example(descriptor: buffa_reflect::MessageDescriptor) -> Result<(), buffa::json::JsonError> {
//! let message = buffa_reflect::json::from_str(&descriptor, r#"{"id": "7"}"#)?;
//! let json = buffa_reflect::json::to_string(&message)?;
//! # Ok(()) }
//! ```
//!
//! Fields are written in declaration order (a oneof's member where it is
//! declared), then the message's extensions the pool declares, by number,
//! as `"[full.name]"`. Keys are read by `json_name` or .proto name.
//!
//! `google.protobuf.Any` resolves the packed type from the options' type
//! registry ([`TypeRegistry`](buffa::json::TypeRegistry)), then among the
//! well-known types, then from the [`DescriptorPool`]: by default the pool
//! of the message being written or read, which this module sets as the
//! registry's fallback resolver unless the registry has one already. Any
//! pool can be that resolver, as a [`PoolResolver`] (an
//! [`AnyResolver`](buffa::json::AnyResolver)).

mod read;
mod resolver;
mod scalar;
mod well_known;
mod write;

use std::cell::Cell;

use buffa::json::DeserializeCx;
use buffa::json::{DeserializeOptions, JsonError, SerializeOptions};
use serde::de::{DeserializeSeed, Deserializer};
use serde::ser::{Serialize, Serializer};

pub use resolver::PoolResolver;

use crate::dynamic::DynamicMessage;
use crate::reflect::ReflectMessage;
use crate::{DescriptorPool, MessageDescriptor};

/// The JSON form of `message`, under the default options.
pub fn to_string(message: &dyn ReflectMessage) -> Result<String, JsonError> {
    to_string_with(message, &SerializeOptions::DEFAULT)
}

/// The JSON form of `message`, under `options`.
pub fn to_string_with(
    message: &dyn ReflectMessage,
    options: &SerializeOptions,
) -> Result<String, JsonError> {
    let json = to_vec_with(message, options)?;
    // The writer writes UTF-8 only.
    Ok(String::from_utf8(json).expect("the JSON writer wrote invalid UTF-8"))
}

/// The JSON form of `message` as UTF-8 bytes, under `options`.
pub fn to_vec_with(
    message: &dyn ReflectMessage,
    options: &SerializeOptions,
) -> Result<Vec<u8>, JsonError> {
    buffa::json::serialize_to_vec(&WithOptions::new(message, options))
}

/// Parses a message of type `descriptor` from its JSON form, under the
/// default options.
pub fn from_str(descriptor: &MessageDescriptor, json: &str) -> Result<DynamicMessage, JsonError> {
    from_slice_with(descriptor, json.as_bytes(), &DeserializeOptions::DEFAULT)
}

/// Parses a message of type `descriptor` from its JSON form, under
/// `options`.
pub fn from_str_with(
    descriptor: &MessageDescriptor,
    json: &str,
    options: &DeserializeOptions,
) -> Result<DynamicMessage, JsonError> {
    from_slice_with(descriptor, json.as_bytes(), options)
}

/// Parses a message of type `descriptor` from its JSON form in UTF-8
/// bytes, under `options`: the whole input must be one JSON object
/// (whitespace around it aside), at most
/// [`DeserializeOptions::max_len`] bytes long.
pub fn from_slice_with(
    descriptor: &MessageDescriptor,
    json: &[u8],
    options: &DeserializeOptions,
) -> Result<DynamicMessage, JsonError> {
    buffa::json::deserialize_from_slice(json, options, MessageSeed::new(descriptor, options))
}

/// Reads the JSON form of a message of `message`'s type into `message`,
/// through reflection, under `options`: what a parse of the same JSON
/// sets, `message` has set afterwards (a singular message field read into
/// one already set is merged into it; lists and maps are appended to).
pub fn merge_from_str_with(
    message: &mut dyn ReflectMessage,
    json: &str,
    options: &DeserializeOptions,
) -> Result<(), JsonError> {
    buffa::json::deserialize_from_slice(json.as_bytes(), options, MergeSeed { message, options })
}

/// A message together with the options to serialize it with: a
/// [`Serialize`] value for any serde serializer.
#[derive(Clone, Copy, Debug)]
pub struct WithOptions<'a> {
    message: &'a dyn ReflectMessage,
    options: &'a SerializeOptions,
}

impl<'a> WithOptions<'a> {
    /// Pairs `message` with `options`.
    pub fn new(message: &'a dyn ReflectMessage, options: &'a SerializeOptions) -> WithOptions<'a> {
        WithOptions { message, options }
    }
}

impl Serialize for WithOptions<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pool = self.message.descriptor().pool().clone();
        let options = resolver::serialize_options(self.options, &pool);
        write::MessageJson {
            message: self.message,
            options: &options,
        }
        .serialize(serializer)
    }
}

/// A dynamic message's JSON form under the default options, for any serde
/// serializer (`serde_json::to_string(&message)`).
impl Serialize for DynamicMessage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WithOptions::new(self, &SerializeOptions::DEFAULT).serialize(serializer)
    }
}

/// Reads a message of one type under the given options from any serde
/// deserializer: a [`DeserializeSeed`] producing a [`DynamicMessage`].
#[derive(Clone, Copy, Debug)]
pub struct MessageSeed<'a> {
    descriptor: &'a MessageDescriptor,
    options: &'a DeserializeOptions,
}

impl<'a> MessageSeed<'a> {
    /// A seed reading a message of type `descriptor` under `options`.
    pub fn new(
        descriptor: &'a MessageDescriptor,
        options: &'a DeserializeOptions,
    ) -> MessageSeed<'a> {
        MessageSeed {
            descriptor,
            options,
        }
    }
}

impl<'de> DeserializeSeed<'de> for MessageSeed<'_> {
    type Value = DynamicMessage;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<DynamicMessage, D::Error> {
        let mut message = DynamicMessage::new(self.descriptor.clone());
        MergeSeed {
            message: &mut message,
            options: self.options,
        }
        .deserialize(deserializer)?;
        Ok(message)
    }
}

/// Reads into an existing message: the seed of [`merge_from_str_with`].
struct MergeSeed<'a> {
    message: &'a mut dyn ReflectMessage,
    options: &'a DeserializeOptions,
}

impl<'de> DeserializeSeed<'de> for MergeSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let pool: DescriptorPool = self.message.descriptor().pool().clone();
        let options = resolver::deserialize_options(self.options, &pool);
        let budget: Cell<usize> = DeserializeCx::budget(&options);
        let cx = DeserializeCx::new(&options, &budget);
        read::deserialize_message(deserializer, cx, self.message)
    }
}

#[cfg(test)]
mod tests {
    use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
    use buffa_types::google::protobuf::{
        DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
        FileDescriptorProto, FileDescriptorSet,
    };

    use super::*;
    use crate::Value;

    fn field(name: &str, number: i32, json_name: &str, r#type: Type) -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some(name.to_owned()),
            number: Some(number),
            label: Some(Label::Optional),
            r#type: Some(r#type),
            json_name: Some(json_name.to_owned()),
            ..Default::default()
        }
    }

    /// A proto2 message whose fields `foo_bar` and `fooBar` share the JSON
    /// name `fooBar` (protoc only warns), beside a closed enum field and a
    /// Timestamp field.
    fn message() -> MessageDescriptor {
        let mut kind = field("kind", 3, "kind", Type::Enum);
        kind.type_name = Some(".clash.Kind".to_owned());
        let mut when = field("when", 4, "when", Type::Message);
        when.type_name = Some(".google.protobuf.Timestamp".to_owned());
        let file = FileDescriptorProto {
            name: Some("clash.proto".to_owned()),
            package: Some("clash".to_owned()),
            dependency: vec!["google/protobuf/timestamp.proto".to_owned()],
            message_type: vec![DescriptorProto {
                name: Some("Clash".to_owned()),
                field: vec![
                    field("foo_bar", 1, "fooBar", Type::Int32),
                    field("fooBar", 2, "fooBar", Type::Int32),
                    kind,
                    when,
                ],
                ..Default::default()
            }],
            enum_type: vec![EnumDescriptorProto {
                name: Some("Kind".to_owned()),
                value: ["KIND_A", "KIND_B"]
                    .into_iter()
                    .zip(0..)
                    .map(|(name, number)| EnumValueDescriptorProto {
                        name: Some(name.to_owned()),
                        number: Some(number),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let timestamp = buffa_types::google::protobuf::Timestamp::default()
            .descriptor()
            .parent_file()
            .file_descriptor_proto()
            .clone();
        let set = FileDescriptorSet {
            file: vec![timestamp, file],
            ..Default::default()
        };
        DescriptorPool::from_file_descriptor_set(set)
            .expect("a valid schema")
            .get_message_by_name("clash.Clash")
            .expect("clash.Clash")
    }

    #[test]
    fn shared_json_names_are_written_and_read_as_proto_names() {
        let descriptor = message();
        let mut message = DynamicMessage::new(descriptor.clone());
        message.set_field_by_name("foo_bar", Value::I32(1)).unwrap();
        message.set_field_by_name("fooBar", Value::I32(2)).unwrap();
        let json = to_string(&message).unwrap();
        assert_eq!(json, r#"{"foo_bar":1,"fooBar":2}"#);
        assert_eq!(from_str(&descriptor, &json).unwrap(), message);
        // "fooBar" is the second field's .proto name, not the first's JSON
        // name; both names of one field are one field.
        let read = from_str(&descriptor, r#"{"fooBar": 5}"#).unwrap();
        assert_eq!(read.field_by_name("fooBar"), Some(&Value::I32(5)));
        assert_eq!(read.field_by_name("foo_bar"), None);
    }

    #[test]
    fn closed_enums_refuse_undeclared_numbers() {
        let descriptor = message();
        let read = from_str(&descriptor, r#"{"kind": "KIND_B"}"#).unwrap();
        assert_eq!(read.field_by_name("kind"), Some(&Value::EnumNumber(1)));
        assert_eq!(to_string(&read).unwrap(), r#"{"kind":"KIND_B"}"#);
        let error = from_str(&descriptor, r#"{"kind": 7}"#).unwrap_err();
        assert_eq!(
            (error.to_string().as_str(), error.line(), error.column()),
            (
                "7 is not a value of the closed enum Kind at line 1 column 10",
                1,
                10
            )
        );
        let error = from_str(&descriptor, r#"{"kind": "KIND_C"}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("unknown enum value name \"KIND_C\" for Kind"),
            "{error}"
        );
        let lenient = DeserializeOptions::new().with_ignore_unknown_fields(true);
        for json in [r#"{"kind": 7}"#, r#"{"kind": "KIND_C"}"#] {
            let read = from_str_with(&descriptor, json, &lenient).unwrap();
            assert_eq!(read.field_by_name("kind"), None, "{json}");
        }
    }

    #[test]
    fn well_known_types_keep_their_special_form() {
        let descriptor = message();
        let json = r#"{"when":"1970-01-01T00:00:01.500Z"}"#;
        let read = from_str(&descriptor, json).unwrap();
        let Some(Value::Message(when)) = read.field_by_name("when") else {
            panic!("when is not set: {read:?}");
        };
        assert_eq!(when.field_by_name("seconds"), Some(&Value::I64(1)));
        assert_eq!(when.field_by_name("nanos"), Some(&Value::I32(500_000_000)));
        assert_eq!(to_string(&read).unwrap(), json);
        // A well-known type at the top level.
        assert_eq!(to_string(when).unwrap(), r#""1970-01-01T00:00:01.500Z""#);
        let error = from_str(&descriptor, r#"{"when": "yesterday"}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("invalid Timestamp \"yesterday\""),
            "{error}"
        );
    }
}
