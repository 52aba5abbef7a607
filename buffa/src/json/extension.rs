//! Extensions in JSON: `"[pkg.extension_name]": value`. buffa keeps
//! extensions among a message's unknown fields, so these helpers convert
//! between their wire form there and their JSON form. Generated code calls
//! them for the scalar and enum extensions its schema declares.

use alloc::vec::Vec;
use serde::de::MapAccess;
use serde::ser::{self, SerializeMap};

use super::kind::JsonKind;
use super::read::FieldReader;
use super::write::MessageWriter;
use crate::encoding::types::{DecodeScalar, ScalarType};
use crate::extension::{push_scalar, read_scalars};
use crate::unknown_fields::UnknownFields;

/// A scalar or enum type an extension may have: JSON and wire form.
pub trait ExtensionKind: JsonKind + ScalarType<Value = <Self as JsonKind>::Value> {}

impl<K> ExtensionKind for K where
    K: JsonKind + ScalarType<Value = <K as JsonKind>::Value> + for<'a> DecodeScalar<'a>
{
}

impl<M: SerializeMap> MessageWriter<'_, M> {
    /// An extension kept among `unknown`: written under `"[name]"` when
    /// present (the last value of a singular one, all values of a repeated
    /// one), read as typed extensions are (see
    /// [`ExtendableMessage::extension`](crate::ExtendableMessage::extension)).
    /// A value that does not decode fails the serialization.
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
        let mut values = Vec::new();
        read_scalars::<K>(unknown, number, repeated, &mut |value| values.push(value))
            .map_err(|error| ser::Error::custom(format_args!("extension {name}: {error}")))?;
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
            push_scalar::<K>(unknown, number, value);
        }
        Ok(())
    }
}
