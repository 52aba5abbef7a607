//! The well-known types whose JSON form is special (`Any`, `Timestamp`,
//! `Duration`, `FieldMask`, `Struct`, `Value`, `ListValue` and the
//! wrappers), recognised by full name. Their forms are written once, in
//! `buffa-types`: a reflected message of one of these types is transcoded
//! through its binary encoding into the `buffa-types` type, which writes
//! it, and what that type reads is transcoded back the same way.

use buffa::json::DeserializeCx;
use buffa::json::{JsonMessage, SerializeOptions};
use buffa::{DecodeOptions, EncodeOptions, Message};
use buffa_types::google::protobuf as wkt;
use serde::de::{Deserializer, Error as _};
use serde::ser::{Error as _, Serializer};

use crate::dynamic::DynamicMessage;
use crate::reflect::ReflectMessage;

/// `google.protobuf.Value`, for which JSON `null` is a value.
pub(super) const VALUE: &str = "google.protobuf.Value";

macro_rules! well_known {
    ($($variant:ident: $name:literal),* $(,)?) => {
        /// A well-known type with a special JSON form.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(super) enum WellKnown {
            $($variant,)*
        }

        impl WellKnown {
            /// The type named `full_name`, if it has a special form.
            pub(super) fn of(full_name: &str) -> Option<WellKnown> {
                match full_name {
                    $($name => Some(WellKnown::$variant),)*
                    _ => None,
                }
            }

            /// Writes `message`, of this type, in its special form.
            pub(super) fn serialize<S: Serializer>(
                self,
                message: &dyn ReflectMessage,
                serializer: S,
                options: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                match self {
                    $(WellKnown::$variant => serialize::<wkt::$variant, S>(message, serializer, options),)*
                }
            }

            /// Reads the special form into `target`, of this type. `cx`
            /// has counted the message against the recursion limit.
            pub(super) fn deserialize<'de, D: Deserializer<'de>>(
                self,
                deserializer: D,
                cx: DeserializeCx<'_>,
                target: &mut dyn ReflectMessage,
            ) -> Result<(), D::Error> {
                match self {
                    $(WellKnown::$variant => {
                        let message = <wkt::$variant as JsonMessage>::deserialize_json(deserializer, cx)?;
                        merge(&message, target).map_err(D::Error::custom)
                    })*
                }
            }
        }
    };
}

well_known!(
    Any: "google.protobuf.Any",
    Timestamp: "google.protobuf.Timestamp",
    Duration: "google.protobuf.Duration",
    FieldMask: "google.protobuf.FieldMask",
    Struct: "google.protobuf.Struct",
    Value: "google.protobuf.Value",
    ListValue: "google.protobuf.ListValue",
    DoubleValue: "google.protobuf.DoubleValue",
    FloatValue: "google.protobuf.FloatValue",
    Int64Value: "google.protobuf.Int64Value",
    UInt64Value: "google.protobuf.UInt64Value",
    Int32Value: "google.protobuf.Int32Value",
    UInt32Value: "google.protobuf.UInt32Value",
    BoolValue: "google.protobuf.BoolValue",
    StringValue: "google.protobuf.StringValue",
    BytesValue: "google.protobuf.BytesValue",
);

/// Writes `message` as the `buffa-types` type `M` does: directly if it is
/// one, else decoded into one from its binary encoding.
fn serialize<M: JsonMessage + 'static, S: Serializer>(
    message: &dyn ReflectMessage,
    serializer: S,
    options: &SerializeOptions,
) -> Result<S::Ok, S::Error> {
    if let Some(typed) = message.as_any().downcast_ref::<M>() {
        return typed.serialize_json(serializer, options);
    }
    let bytes = encode(message).map_err(S::Error::custom)?;
    let typed = M::decode_with_options(&bytes, &transcode_decode_options())
        .map_err(|e| S::Error::custom(format_args!("{}: {e}", M::NAME)))?;
    typed.serialize_json(serializer, options)
}

/// Merges the `buffa-types` message `message` into `target` (an empty
/// message of the same type) through its binary encoding.
fn merge<M: Message>(message: &M, target: &mut dyn ReflectMessage) -> Result<(), String> {
    let bytes = message
        .encode_to_vec_with_options(&transcode_encode_options())
        .map_err(|e| e.to_string())?;
    target
        .merge_binary(&bytes, &transcode_decode_options())
        .map_err(|e| format!("{}: {e}", M::NAME))
}

/// Sets `target`, a `google.protobuf.Value`, to the value JSON `null`
/// stands for.
pub(super) fn merge_null_value(target: &mut dyn ReflectMessage) -> Result<(), String> {
    match wkt::Value::json_null() {
        Some(null) => merge(&null, target),
        None => Err("google.protobuf.Value has no null value".to_owned()),
    }
}

/// The binary encoding of a reflected message.
fn encode(message: &dyn ReflectMessage) -> Result<Vec<u8>, String> {
    if let Some(dynamic) = message.as_any().downcast_ref::<DynamicMessage>() {
        return dynamic
            .encode_to_vec_with_options(&transcode_encode_options())
            .map_err(|e| e.to_string());
    }
    let mut bytes = Vec::new();
    message.encode_binary(&mut bytes);
    Ok(bytes)
}

/// How deep a transcoded message may nest. Transcoding moves a message
/// that is already in memory, so its depth was bounded when it was read;
/// the binary format counts levels the JSON form does not (a `Struct`'s
/// map entries), so the binary limit is looser than the JSON one.
const TRANSCODE_RECURSION_LIMIT: u32 = 3 * buffa::DEFAULT_RECURSION_LIMIT;

fn transcode_encode_options() -> EncodeOptions {
    EncodeOptions::new().with_recursion_limit(TRANSCODE_RECURSION_LIMIT)
}

fn transcode_decode_options() -> DecodeOptions {
    DecodeOptions::new().with_recursion_limit(TRANSCODE_RECURSION_LIMIT)
}
