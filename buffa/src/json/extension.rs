//! Extensions in JSON: `"[pkg.extension_name]": value`. buffa keeps
//! extensions among a message's unknown fields, so these helpers convert
//! between their wire form there and their JSON form. Generated code calls
//! them for the scalar and enum extensions its schema declares.

use serde::de::{self, MapAccess};
use serde::ser::SerializeMap;

use super::kind::JsonKind;
use super::read::FieldReader;
use super::write::MessageWriter;
use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::encoding::types::{DecodeScalar, ScalarType};
use crate::options::DecodeOptions;
use crate::unknown_fields::{UnknownFields, UnknownValue};
use crate::wire::{WireType, tag_len};

/// A scalar or enum type an extension may have: JSON and wire form.
pub trait ExtensionKind: JsonKind + ScalarType<Value = <Self as JsonKind>::Value> {}

impl<K> ExtensionKind for K where
    K: JsonKind + ScalarType<Value = <K as JsonKind>::Value> + for<'a> DecodeScalar<'a>
{
}

/// The values of extension `number` kept in `unknown`, in order; values of
/// another wire type than `K`'s (and not a packed run of them) are
/// skipped.
fn values<K: ExtensionKind + for<'a> DecodeScalar<'a>>(
    unknown: &UnknownFields,
    number: u32,
) -> Vec<<K as JsonKind>::Value> {
    let mut out = Vec::new();
    for field in unknown.iter().filter(|f| f.number == number) {
        let mut wire = [0u8; 10];
        let (bytes, packed): (&[u8], bool) = match (field.value, K::WIRE_TYPE) {
            (UnknownValue::Varint(v), WireType::Varint) => {
                let mut encoder = Encoder::from_slice(&mut wire);
                encoder.put_varint(v);
                let len = encoder.position();
                (&wire[..len], false)
            }
            (UnknownValue::Fixed32(v), WireType::Fixed32) => {
                wire[..4].copy_from_slice(&v.to_le_bytes());
                (&wire[..4], false)
            }
            (UnknownValue::Fixed64(v), WireType::Fixed64) => {
                wire[..8].copy_from_slice(&v.to_le_bytes());
                (&wire[..8], false)
            }
            (UnknownValue::LengthDelimited(payload), WireType::LengthDelimited) => {
                // A string or bytes value: decoded with its length prefix.
                let mut value = Vec::with_capacity(payload.len() + 10);
                let mut prefix = [0u8; 10];
                let mut encoder = Encoder::from_slice(&mut prefix);
                encoder.put_varint(payload.len() as u64);
                let len = encoder.position();
                value.extend_from_slice(&prefix[..len]);
                value.extend_from_slice(payload);
                // `decode_known`: undeclared closed-enum numbers stay unknown.
                if let Ok(mut decoder) = Decoder::new(&value, &DecodeOptions::new())
                    && let Ok(Some(v)) = K::decode_known(&mut decoder)
                {
                    out.push(v);
                }
                continue;
            }
            (UnknownValue::LengthDelimited(payload), _) => (payload, true),
            _ => continue,
        };
        let Ok(mut decoder) = Decoder::new(bytes, &DecodeOptions::new()) else {
            continue;
        };
        while !decoder.is_empty() {
            match K::decode_known(&mut decoder) {
                Ok(Some(v)) => out.push(v),
                Ok(None) => {}
                Err(_) => break,
            }
            if !packed {
                break;
            }
        }
    }
    out
}

/// Appends extension `number` holding `value` to `unknown`.
fn push<K: ExtensionKind>(
    unknown: &mut UnknownFields,
    number: u32,
    value: &<K as JsonKind>::Value,
) -> Result<(), String> {
    let len = tag_len(number) + K::encoded_len(value);
    let mut bytes = vec![0u8; len];
    let mut encoder = Encoder::from_slice(&mut bytes);
    K::encode_field(number, value, &mut encoder);
    unknown.push_raw(&bytes).map_err(|e| e.to_string())
}

impl<M: SerializeMap> MessageWriter<'_, M> {
    /// An extension kept among `unknown`: written under `"[name]"` when
    /// present (the last value of a singular one, all values of a repeated
    /// one).
    pub fn extension<K: ExtensionKind + for<'a> DecodeScalar<'a>>(
        &mut self,
        name: &str,
        number: u32,
        repeated: bool,
        unknown: &UnknownFields,
    ) -> Result<(), M::Error> {
        if unknown.is_empty() {
            return Ok(());
        }
        let mut values = values::<K>(unknown, number);
        if repeated {
            if !values.is_empty() {
                self.repeated::<K>(name, name, &values)?;
            }
        } else if let Some(last) = values.pop() {
            self.member::<K>(name, name, &last)?;
        }
        Ok(())
    }
}

impl<'de, A: MapAccess<'de>> FieldReader<'_, 'de, A> {
    /// An extension: its value is kept among `unknown` in wire form.
    pub fn extension<K: ExtensionKind>(
        &mut self,
        number: u32,
        repeated: bool,
        unknown: &mut UnknownFields,
    ) -> Result<(), A::Error> {
        let mut values = Vec::new();
        if repeated {
            self.repeated::<K>(&mut values)?;
        } else {
            let mut value = None;
            self.optional::<K>(&mut value)?;
            values.extend(value);
        }
        for value in &values {
            push::<K>(unknown, number, value).map_err(de::Error::custom)?;
        }
        Ok(())
    }
}
