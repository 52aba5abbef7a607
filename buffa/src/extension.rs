//! Typed extensions: reading and writing the fields a `extend` block adds
//! to a message.
//!
//! buffa keeps extensions where the wire format puts them, among a
//! message's [`UnknownFields`], byte for byte. For every `extend` block,
//! generated code declares one [`Extension`] constant per field, which
//! names the extended message, the value type and how the value is
//! encoded; every message that declares extension ranges implements
//! [`ExtendableMessage`], whose methods read and write the extension's
//! occurrences there:
//!
//! ```ignore
//! // extend google.protobuf.MethodOptions { HttpRule http = 72295728; }
//! let rule: Option<HttpRule> = options.extension(&api::HTTP)?;
//! options.set_extension(&api::HTTP, HttpRule { get: "/v1/things".into(), ..Default::default() });
//! ```
//!
//! Reading decodes the kept bytes each time, as the specification reads a
//! field: the last value of a singular scalar wins, the values of a
//! singular message merge in order, and a repeated extension collects every
//! value, packed or not. Occurrences whose wire type cannot hold the value
//! are skipped (and stay kept, as they were read).
//!
//! The value type `T` of an `Extension<M, T>` is what a field of the same
//! declaration would hold: `i32`, `u64`, `f64`, `bool`, `String`, `Vec<u8>`
//! for `bytes`, [`EnumValue<E>`](crate::EnumValue) for an open enum, `E`
//! for a closed one, the message type for a message or group, and `Vec<U>`
//! for a repeated extension of `U`. [`ExtensionValue`] ties each to its
//! wire form.

mod value;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::error::DecodeError;
use crate::message::Message;
use crate::unknown_fields::UnknownFields;
use crate::wire::{MAX_FIELD_NUMBER, MIN_FIELD_NUMBER};

#[doc(hidden)]
pub use value::Element;
#[cfg(feature = "json")]
pub(crate) use value::{push_scalar, read_scalars};

/// An extension field of message `M` holding values of type `T`: its field
/// number, its full protobuf name and its encoding.
///
/// Generated code declares one as a constant for each field of an `extend`
/// block, named after the field in upper case:
///
/// ```ignore
/// pub const HTTP: ::buffa::Extension<MethodOptions, HttpRule> = ...;
/// ```
///
/// `T` is the value type a message field of the same declaration would
/// hold (see the [module documentation](self)); a repeated extension of
/// `U` has `T = Vec<U>`.
pub struct Extension<M, T> {
    number: u32,
    full_name: &'static str,
    encoding: Encoding,
    packed: bool,
    types: PhantomData<fn() -> (M, T)>,
}

/// How an extension's values are encoded, as far as the value type leaves
/// it open (`sint32` and `sfixed32` are both `i32`). **Support API** for
/// generated code.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// A varint: `int32`, `int64`, `uint32`, `uint64`, `bool` and enums.
    Varint,
    /// A ZigZag-encoded varint: `sint32`, `sint64`.
    ZigZag,
    /// Four or eight little-endian bytes, by the value type's width:
    /// `fixed32`, `fixed64`, `sfixed32`, `sfixed64`, `float`, `double`.
    Fixed,
    /// Length-delimited: `string`, `bytes` and messages.
    LengthDelimited,
    /// Between a start-group and an end-group key: proto2 groups and
    /// messages of editions' `DELIMITED` message encoding.
    Delimited,
}

impl Encoding {
    /// This encoding's bit in `ENCODINGS` of [`ExtensionValue`] and [`Element`].
    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl<M, T> Extension<M, T> {
    /// The extension field `number` called `full_name` (`"pkg.name"`, or
    /// `"pkg.Scope.name"` when declared inside message `Scope`), encoded
    /// with `encoding`, unpacked. **Support API**: generated code declares
    /// every extension.
    ///
    /// # Panics
    ///
    /// Panics, at compile time in a constant, if `number` is not a valid
    /// field number or `T` cannot be encoded with `encoding`.
    #[doc(hidden)]
    pub const fn new<K>(number: u32, full_name: &'static str, encoding: Encoding) -> Self
    where
        T: ExtensionValue<K>,
    {
        assert!(
            number >= MIN_FIELD_NUMBER && number <= MAX_FIELD_NUMBER,
            "extension field number out of range"
        );
        assert!(
            T::ENCODINGS & encoding.bit() != 0,
            "the extension's value type cannot have this encoding"
        );
        Extension {
            number,
            full_name,
            encoding,
            packed: false,
            types: PhantomData,
        }
    }

    /// This repeated extension, written packed (it reads either way).
    /// **Support API**.
    ///
    /// # Panics
    ///
    /// Panics, at compile time in a constant, unless `T` is a `Vec` of
    /// numbers, `bool`s or enums.
    #[doc(hidden)]
    pub const fn packed<K>(self) -> Self
    where
        T: ExtensionValue<K>,
    {
        assert!(
            T::PACKABLE,
            "only repeated numeric, bool and enum extensions can be packed"
        );
        Extension {
            packed: true,
            ..self
        }
    }

    /// The field number.
    pub const fn number(&self) -> u32 {
        self.number
    }

    /// The full protobuf name, e.g. `"google.api.http"`.
    pub const fn full_name(&self) -> &'static str {
        self.full_name
    }
}

impl<M, T> Clone for Extension<M, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, T> Copy for Extension<M, T> {}

impl<M, T> fmt::Debug for Extension<M, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extension")
            .field("number", &self.number)
            .field("full_name", &self.full_name)
            .field("encoding", &self.encoding)
            .field("packed", &self.packed)
            .finish()
    }
}

/// A type an extension's value may have, for extensions of kind `K`.
///
/// Implemented for the value type of every singular extension, and for
/// `Vec<U>` of every repeated one. The kind `K` only keeps impls apart
/// (closed enums and messages are both blanket impls): it is one of
/// [`ScalarKind`], [`ClosedEnumKind`], [`MessageKind`] and
/// [`Repeated<K>`], and the compiler infers it, so code using extensions
/// never names it. Its methods are the support API that
/// [`ExtendableMessage`] calls.
pub trait ExtensionValue<K>: Sized {
    /// What reading the extension returns: `Option<T>` for a singular one
    /// (`None` when unset), `Vec<U>` for a repeated one.
    type Output;

    /// The encodings values can have, one bit each.
    #[doc(hidden)]
    const ENCODINGS: u8;

    /// Whether values can be packed.
    #[doc(hidden)]
    const PACKABLE: bool;

    /// Reads the extension `number` from `unknown`.
    #[doc(hidden)]
    fn read(
        number: u32,
        encoding: Encoding,
        unknown: &UnknownFields,
    ) -> Result<Self::Output, DecodeError>;

    /// Whether reading would find a value, or fail on one.
    #[doc(hidden)]
    fn present(number: u32, encoding: Encoding, unknown: &UnknownFields) -> bool;

    /// Appends the encoded fields of `value` to `out`.
    #[doc(hidden)]
    fn write(number: u32, encoding: Encoding, packed: bool, value: &Self, out: &mut Vec<u8>);
}

/// The kind of scalar extensions: numbers, `bool`, `String`, `Vec<u8>`
/// and open enums. Inferred, never named; see [`ExtensionValue`].
#[derive(Debug)]
pub enum ScalarKind {}

/// The kind of closed-enum extensions. Inferred, never named; see
/// [`ExtensionValue`].
#[derive(Debug)]
pub enum ClosedEnumKind {}

/// The kind of message and group extensions. Inferred, never named; see
/// [`ExtensionValue`].
#[derive(Debug)]
pub enum MessageKind {}

/// The kind of repeated extensions of kind `K`. Inferred, never named;
/// see [`ExtensionValue`].
#[derive(Debug)]
pub struct Repeated<K>(PhantomData<K>);

impl<K, T: Element<K>> ExtensionValue<K> for T {
    type Output = Option<T>;
    const ENCODINGS: u8 = T::ENCODINGS;
    const PACKABLE: bool = false;

    fn read(
        number: u32,
        encoding: Encoding,
        unknown: &UnknownFields,
    ) -> Result<Option<T>, DecodeError> {
        T::read_singular(number, encoding, unknown)
    }

    fn present(number: u32, encoding: Encoding, unknown: &UnknownFields) -> bool {
        T::present(number, encoding, false, unknown)
    }

    fn write(number: u32, encoding: Encoding, _packed: bool, value: &T, out: &mut Vec<u8>) {
        T::write(number, encoding, value, out);
    }
}

impl<K, U: Element<K>> ExtensionValue<Repeated<K>> for Vec<U> {
    type Output = Vec<U>;
    const ENCODINGS: u8 = U::ENCODINGS;
    const PACKABLE: bool = U::PACKABLE;

    fn read(
        number: u32,
        encoding: Encoding,
        unknown: &UnknownFields,
    ) -> Result<Vec<U>, DecodeError> {
        let mut values = Vec::new();
        U::read_each(number, encoding, true, unknown, &mut |value| {
            values.push(value)
        })?;
        Ok(values)
    }

    fn present(number: u32, encoding: Encoding, unknown: &UnknownFields) -> bool {
        U::present(number, encoding, true, unknown)
    }

    fn write(number: u32, encoding: Encoding, packed: bool, values: &Vec<U>, out: &mut Vec<u8>) {
        if packed {
            U::write_packed(number, encoding, values, out);
        } else {
            for value in values {
                U::write(number, encoding, value, out);
            }
        }
    }
}

/// A message that declares extension ranges: its extensions, kept among
/// its unknown fields, can be read and written by their [`Extension`]
/// constants.
///
/// Generated code implements it for every such message.
pub trait ExtendableMessage: Message {
    /// The fields this message read but does not know, mutably: where its
    /// extensions live. **Support API**: implemented by generated code.
    #[doc(hidden)]
    fn unknown_fields_mut(&mut self) -> &mut UnknownFields;

    /// Reads `extension`: `Option<T>` for a singular extension (`None` when
    /// unset), `Vec<U>` for a repeated one (empty when unset).
    ///
    /// Follows the specification's rules for a field seen several times:
    /// the last value of a singular scalar or enum wins, a singular
    /// message merges all of its occurrences in order, and a repeated
    /// extension has every value, from packed and unpacked occurrences
    /// alike. Occurrences with a wire type that cannot hold the value, and
    /// closed-enum numbers the enum does not declare, are skipped.
    ///
    /// Fails if a value does not decode: a string that is not UTF-8, a
    /// truncated packed run, a malformed message. The error's field path
    /// starts at this message's extension field.
    fn extension<T, K>(&self, extension: &Extension<Self, T>) -> Result<T::Output, DecodeError>
    where
        T: ExtensionValue<K>,
    {
        T::read(extension.number, extension.encoding, self.unknown_fields())
            .map_err(|error| error.in_field(Self::NAME, extension.number))
    }

    /// Whether the message holds `extension`: whether
    /// [`ExtendableMessage::extension`] would find a value (or fail on
    /// one). Message values are not decoded to answer.
    fn has_extension<T, K>(&self, extension: &Extension<Self, T>) -> bool
    where
        T: ExtensionValue<K>,
    {
        T::present(extension.number, extension.encoding, self.unknown_fields())
    }

    /// Sets `extension` to `value`, replacing every occurrence of its field
    /// number. An empty `Vec` for a repeated extension clears it.
    ///
    /// # Panics
    ///
    /// Panics if a message value is beyond the default
    /// [`EncodeOptions`](crate::EncodeOptions) limits, as
    /// [`Message::encode_to_vec`] does.
    fn set_extension<T, K>(&mut self, extension: &Extension<Self, T>, value: T)
    where
        T: ExtensionValue<K>,
    {
        let mut encoded = Vec::new();
        T::write(
            extension.number,
            extension.encoding,
            extension.packed,
            &value,
            &mut encoded,
        );
        let unknown = self.unknown_fields_mut();
        unknown.retain(|field| field.number != extension.number);
        unknown
            .push_raw(&encoded)
            .expect("buffa encodes whole, well-formed fields");
    }

    /// Removes every occurrence of `extension`'s field number.
    fn clear_extension<T>(&mut self, extension: &Extension<Self, T>) {
        self.unknown_fields_mut()
            .retain(|field| field.number != extension.number);
    }
}
