//! How each value type of an extension is read from and written to the
//! unknown fields, one [`Element`] impl per type, on the scalar markers of
//! [`encoding::types`](crate::encoding::types) and on [`Message`].

use crate::encoding::types::{
    Bool, ClosedEnum, DecodeScalar, Double, Fixed32, Fixed64, Float, Int32, Int64, OpenEnum,
    ProtoBytes, ProtoString, SFixed32, SFixed64, SInt32, SInt64, ScalarType, UInt32, UInt64,
};
use crate::enumeration::{EnumValue, Enumeration};
use crate::error::DecodeError;
use crate::message::Message;
use crate::options::DecodeOptions;
use crate::unknown_fields::{UnknownFields, UnknownValue};
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::{WireType, tag_len, varint_len};
use alloc::{string::String, vec::Vec};

use super::{ClosedEnumKind, Encoding, MessageKind, ScalarKind};

/// One value of an extension of kind `K`: a singular extension's value, or
/// an element of a repeated one. **Support API**:
/// [`ExtensionValue`](super::ExtensionValue) is implemented on top of it.
pub trait Element<K>: Sized {
    /// The encodings values can have, one bit each (`1 << encoding`).
    const ENCODINGS: u8;

    /// Whether values can be packed.
    const PACKABLE: bool;

    /// Calls `each` on every value of field `number` in `unknown`, in
    /// order; with `repeated`, packed runs count too.
    fn read_each(
        number: u32,
        encoding: Encoding,
        repeated: bool,
        unknown: &UnknownFields,
        each: &mut dyn FnMut(Self),
    ) -> Result<(), DecodeError>;

    /// The value of a singular extension: the last one read.
    fn read_singular(
        number: u32,
        encoding: Encoding,
        unknown: &UnknownFields,
    ) -> Result<Option<Self>, DecodeError> {
        let mut last = None;
        Self::read_each(number, encoding, false, unknown, &mut |value| {
            last = Some(value);
        })?;
        Ok(last)
    }

    /// Whether reading would find a value, or fail on one.
    fn present(number: u32, encoding: Encoding, repeated: bool, unknown: &UnknownFields) -> bool {
        if repeated {
            let mut found = false;
            let read = Self::read_each(number, encoding, true, unknown, &mut |_| found = true);
            found || read.is_err()
        } else {
            !matches!(Self::read_singular(number, encoding, unknown), Ok(None))
        }
    }

    /// Appends `value` as one field to `out`.
    fn write(number: u32, encoding: Encoding, value: &Self, out: &mut Vec<u8>);

    /// Appends `values` as one packed field to `out` (nothing for none).
    /// Types that cannot be packed write one field per value.
    fn write_packed(number: u32, encoding: Encoding, values: &[Self], out: &mut Vec<u8>) {
        for value in values {
            Self::write(number, encoding, value, out);
        }
    }
}

/// Calls `each` on the values of field `number` kept in `unknown` read as
/// scalar type `S`, in order. An occurrence of `S`'s wire type holds one
/// value; with `repeated`, a length-delimited occurrence holds a packed run
/// of a type that is not itself length-delimited. Other occurrences are
/// skipped, and so are numbers a closed enum does not declare.
pub(crate) fn read_scalars<S: for<'a> DecodeScalar<'a>>(
    unknown: &UnknownFields,
    number: u32,
    repeated: bool,
    each: &mut dyn FnMut(S::Value),
) -> Result<(), DecodeError> {
    let options = DecodeOptions::new();
    for span in unknown.spans().filter(|span| span.field.number == number) {
        let input = match span.field.value {
            _ if span.field.value.wire_type() == S::WIRE_TYPE => {
                let mut decoder = Decoder::any_length(span.value, &options);
                if let Some(value) = S::decode_known(&mut decoder)? {
                    each(value);
                }
                continue;
            }
            UnknownValue::LengthDelimited(payload)
                if repeated && S::WIRE_TYPE != WireType::LengthDelimited =>
            {
                payload
            }
            _ => continue,
        };
        let mut packed = Decoder::any_length(input, &options);
        while !packed.is_empty() {
            if let Some(value) = S::decode_known(&mut packed)? {
                each(value);
            }
        }
    }
    Ok(())
}

/// Appends field `number` holding `value`, of scalar type `S`, to `out`.
fn write_scalar<S: ScalarType>(number: u32, value: &S::Value, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + tag_len(number) + S::encoded_len(value), 0);
    S::encode_field(number, value, &mut Encoder::from_slice(&mut out[start..]));
}

/// Appends field `number` holding the packed run `values`, of scalar type
/// `S`, to `out`; nothing when there are no values.
fn write_packed_scalars<S: ScalarType>(number: u32, values: &[S::Value], out: &mut Vec<u8>) {
    if values.is_empty() {
        return;
    }
    let payload: usize = values.iter().map(S::encoded_len).sum();
    let start = out.len();
    out.resize(
        start + tag_len(number) + varint_len(payload as u64) + payload,
        0,
    );
    let mut encoder = Encoder::from_slice(&mut out[start..]);
    encoder.put_tag(number, WireType::LengthDelimited);
    encoder.put_varint(payload as u64);
    for value in values {
        S::encode(value, &mut encoder);
    }
}

/// Appends field `number` holding `value`, of scalar type `S`, to
/// `unknown`.
#[cfg(feature = "json")]
pub(crate) fn push_scalar<S: ScalarType>(
    unknown: &mut UnknownFields,
    number: u32,
    value: &S::Value,
) {
    let mut field = Vec::new();
    write_scalar::<S>(number, value, &mut field);
    unknown.extend_trusted(&field, 0);
}

/// Implements [`Element`] for a scalar value type by its scalar marker for
/// each encoding it may have.
macro_rules! scalar_element {
    (
        impl$(<$param:ident: $bound:path>)? Element<$kind:ty> for $ty:ty;
        packable: $packable:tt;
        $($encoding:ident => $marker:ty),+ $(,)?
    ) => {
        impl$(<$param: $bound>)? Element<$kind> for $ty {
            const ENCODINGS: u8 = 0 $(| Encoding::$encoding.bit())+;
            const PACKABLE: bool = $packable;

            fn read_each(
                number: u32,
                encoding: Encoding,
                repeated: bool,
                unknown: &UnknownFields,
                each: &mut dyn FnMut(Self),
            ) -> Result<(), DecodeError> {
                match encoding {
                    $(Encoding::$encoding => read_scalars::<$marker>(unknown, number, repeated, each),)+
                    // `Extension::new` admits no other encoding.
                    _ => Ok(()),
                }
            }

            fn write(number: u32, encoding: Encoding, value: &Self, out: &mut Vec<u8>) {
                match encoding {
                    $(Encoding::$encoding => write_scalar::<$marker>(number, value, out),)+
                    _ => {}
                }
            }

            packed_writer!($packable; $($encoding => $marker),+);
        }
    };
}

/// `Element::write_packed` of a packable scalar type; the default (one
/// field per value) for the others, which `Extension::packed` refuses.
macro_rules! packed_writer {
    (false; $($encoding:ident => $marker:ty),+) => {};
    (true; $($encoding:ident => $marker:ty),+) => {
        fn write_packed(number: u32, encoding: Encoding, values: &[Self], out: &mut Vec<u8>) {
            match encoding {
                $(Encoding::$encoding => write_packed_scalars::<$marker>(number, values, out),)+
                _ => {}
            }
        }
    };
}

scalar_element!(
    impl Element<ScalarKind> for i32;
    packable: true;
    Varint => Int32, ZigZag => SInt32, Fixed => SFixed32,
);
scalar_element!(
    impl Element<ScalarKind> for i64;
    packable: true;
    Varint => Int64, ZigZag => SInt64, Fixed => SFixed64,
);
scalar_element!(
    impl Element<ScalarKind> for u32;
    packable: true;
    Varint => UInt32, Fixed => Fixed32,
);
scalar_element!(
    impl Element<ScalarKind> for u64;
    packable: true;
    Varint => UInt64, Fixed => Fixed64,
);
scalar_element!(
    impl Element<ScalarKind> for f32;
    packable: true;
    Fixed => Float,
);
scalar_element!(
    impl Element<ScalarKind> for f64;
    packable: true;
    Fixed => Double,
);
scalar_element!(
    impl Element<ScalarKind> for bool;
    packable: true;
    Varint => Bool,
);
scalar_element!(
    impl Element<ScalarKind> for String;
    packable: false;
    LengthDelimited => ProtoString,
);
scalar_element!(
    impl Element<ScalarKind> for Vec<u8>;
    packable: false;
    LengthDelimited => ProtoBytes,
);
scalar_element!(
    impl<E: Enumeration> Element<ScalarKind> for EnumValue<E>;
    packable: true;
    Varint => OpenEnum<E>,
);
scalar_element!(
    impl<E: Enumeration> Element<ClosedEnumKind> for E;
    packable: true;
    Varint => ClosedEnum<E>,
);

/// The wire type of a message value under `encoding`.
fn message_wire_type(encoding: Encoding) -> WireType {
    match encoding {
        Encoding::Delimited => WireType::StartGroup,
        _ => WireType::LengthDelimited,
    }
}

/// Calls `each` on the encoded fields of every occurrence of message field
/// `number` in `unknown` (a payload, or a group's body), in order.
fn message_occurrences(
    number: u32,
    encoding: Encoding,
    unknown: &UnknownFields,
    mut each: impl FnMut(&[u8]) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    for field in unknown.iter().filter(|field| field.number == number) {
        match (encoding, field.value) {
            (Encoding::LengthDelimited, UnknownValue::LengthDelimited(fields))
            | (Encoding::Delimited, UnknownValue::Group(fields)) => each(fields)?,
            _ => {}
        }
    }
    Ok(())
}

impl<M: Message> Element<MessageKind> for M {
    const ENCODINGS: u8 = Encoding::LengthDelimited.bit() | Encoding::Delimited.bit();
    const PACKABLE: bool = false;

    fn read_each(
        number: u32,
        encoding: Encoding,
        _repeated: bool,
        unknown: &UnknownFields,
        each: &mut dyn FnMut(Self),
    ) -> Result<(), DecodeError> {
        message_occurrences(number, encoding, unknown, |fields| {
            let mut message = M::default();
            message.merge_from_slice(fields)?;
            each(message);
            Ok(())
        })
    }

    /// Every occurrence merged into one message, in order.
    fn read_singular(
        number: u32,
        encoding: Encoding,
        unknown: &UnknownFields,
    ) -> Result<Option<Self>, DecodeError> {
        let mut merged: Option<M> = None;
        message_occurrences(number, encoding, unknown, |fields| {
            merged.get_or_insert_default().merge_from_slice(fields)
        })?;
        Ok(merged)
    }

    fn present(number: u32, encoding: Encoding, _repeated: bool, unknown: &UnknownFields) -> bool {
        let wire_type = message_wire_type(encoding);
        unknown
            .iter()
            .any(|field| field.number == number && field.value.wire_type() == wire_type)
    }

    fn write(number: u32, encoding: Encoding, value: &Self, out: &mut Vec<u8>) {
        let mut key = [0u8; 5];
        let mut put_key = |wire_type: WireType, out: &mut Vec<u8>| {
            let mut encoder = Encoder::from_slice(&mut key);
            encoder.put_tag(number, wire_type);
            let len = encoder.position();
            out.extend_from_slice(&key[..len]);
        };
        if encoding == Encoding::Delimited {
            put_key(WireType::StartGroup, out);
            out.extend_from_slice(&value.encode_to_vec());
            put_key(WireType::EndGroup, out);
        } else {
            put_key(WireType::LengthDelimited, out);
            out.extend_from_slice(&value.encode_length_delimited_to_vec());
        }
    }
}
