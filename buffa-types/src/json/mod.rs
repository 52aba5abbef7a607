//! The special proto3 JSON forms of the well-known types (the `json`
//! feature): `Timestamp` and `Duration` as strings, `FieldMask` as a
//! comma-joined string, `Struct`/`Value`/`ListValue` as any JSON,
//! `NullValue` as `null`, the wrappers as bare scalars, and `Any` as its
//! packed message with an `"@type"`. `Empty` and the types of `type.proto`
//! and `api.proto` have the generated (ordinary) form.

mod any;
mod field_mask;
mod structs;
mod time;
mod wrappers;

use buffa::json::TypeRegistry;

use crate::google::protobuf as wkt;

/// Adds every well-known type to `registry`: those `Any` can always hold,
/// and with the `descriptor` feature the types of `descriptor.proto`.
pub fn register_types(registry: &mut TypeRegistry) {
    wkt::register_types(registry);
    #[cfg(feature = "descriptor")]
    wkt::descriptor::register_types(registry);
    registry
        .register::<wkt::Any>()
        .register::<wkt::Timestamp>()
        .register::<wkt::Duration>()
        .register::<wkt::FieldMask>()
        .register::<wkt::Struct>()
        .register::<wkt::Value>()
        .register::<wkt::ListValue>()
        .register::<wkt::DoubleValue>()
        .register::<wkt::FloatValue>()
        .register::<wkt::Int64Value>()
        .register::<wkt::UInt64Value>()
        .register::<wkt::Int32Value>()
        .register::<wkt::UInt32Value>()
        .register::<wkt::BoolValue>()
        .register::<wkt::StringValue>()
        .register::<wkt::BytesValue>();
}

/// Implements `Serialize` and `Deserialize` of a well-known type through
/// its `JsonMessage` impl, as generated code does.
macro_rules! serde_through_json_message {
    ($($ty:ty),* $(,)?) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(
                &self,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                buffa::json::JsonMessage::serialize_json(
                    self,
                    serializer,
                    &buffa::json::SerializeOptions::DEFAULT,
                )
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                serde::de::DeserializeSeed::deserialize(
                    buffa::json::MessageSeed::<Self>::new(&buffa::json::DeserializeOptions::DEFAULT),
                    deserializer,
                )
            }
        }
    )*};
}
use serde_through_json_message;
