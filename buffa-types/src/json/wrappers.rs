//! The wrapper types: a bare scalar, read and written like a field of the
//! wrapped type (64-bit integers as strings, bytes as base64, ...).

use buffa::json::DeserializeCx;
use buffa::json::scalar::JsonKind;
use buffa::json::scalar::{
    Bool, Double, Float, Int32, Int64, ProtoBytes, ProtoString, UInt32, UInt64,
};
use buffa::json::{JsonMessage, SerializeOptions};
use serde::{Deserializer, Serializer};

use super::serde_through_json_message;
use crate::google::protobuf as wkt;

macro_rules! wrapper {
    ($($ty:ident: $kind:ty),* $(,)?) => {$(
        impl JsonMessage for wkt::$ty {
            fn serialize_json<S: Serializer>(
                &self,
                serializer: S,
                options: &SerializeOptions,
            ) -> Result<S::Ok, S::Error> {
                <$kind as JsonKind>::serialize(&self.value, serializer, options)
            }

            fn deserialize_json<'de, D: Deserializer<'de>>(
                deserializer: D,
                cx: DeserializeCx<'_>,
            ) -> Result<Self, D::Error> {
                let value = <$kind as JsonKind>::deserialize(deserializer, cx)?;
                Ok(wkt::$ty {
                    value: value.unwrap_or_default(),
                    ..Default::default()
                })
            }
        }

        serde_through_json_message!(wkt::$ty);
    )*};
}

wrapper!(
    DoubleValue: Double,
    FloatValue: Float,
    Int64Value: Int64,
    UInt64Value: UInt64,
    Int32Value: Int32,
    UInt32Value: UInt32,
    BoolValue: Bool,
    StringValue: ProtoString,
    BytesValue: ProtoBytes,
);
