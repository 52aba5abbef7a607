//! Copying a view's values into the owned message's types.

use alloc::{borrow::ToOwned, string::String, vec::Vec};

use bytes::Bytes;

use crate::bytes_str::BytesStr;
use crate::enumeration::{EnumValue, Enumeration};
use crate::error::DecodeError;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;

/// Copies a view's value into the owned type `O`: `&str` into `String` or
/// [`BytesStr`], `&[u8]` into `Vec<u8>` or `Bytes`,
/// a sub-message view into its message, and so on through `Option`,
/// `Vec`, [`MessageField`] and maps. Fails only where a lazy field is read
/// and does not decode.
///
/// **Support API**: generated `to_owned_message` bodies are one call per
/// field. Use [`MessageView::to_owned_message`](crate::MessageView::to_owned_message).
#[doc(hidden)]
pub trait ToOwnedValue<O> {
    /// The owned copy.
    fn to_owned_value(&self) -> Result<O, DecodeError>;
}

macro_rules! copied {
    ($($ty:ty),*) => {$(
        impl ToOwnedValue<$ty> for $ty {
            #[inline]
            fn to_owned_value(&self) -> Result<$ty, DecodeError> {
                Ok(*self)
            }
        }
    )*};
}

copied!(i32, i64, u32, u64, f32, f64, bool);

/// Closed enums are stored as themselves in both.
impl<E: Enumeration> ToOwnedValue<E> for E {
    #[inline]
    fn to_owned_value(&self) -> Result<E, DecodeError> {
        Ok(*self)
    }
}

impl<E: Enumeration> ToOwnedValue<EnumValue<E>> for EnumValue<E> {
    #[inline]
    fn to_owned_value(&self) -> Result<EnumValue<E>, DecodeError> {
        Ok(*self)
    }
}

impl ToOwnedValue<String> for &str {
    #[inline]
    fn to_owned_value(&self) -> Result<String, DecodeError> {
        Ok((*self).to_owned())
    }
}

impl ToOwnedValue<BytesStr> for &str {
    #[inline]
    fn to_owned_value(&self) -> Result<BytesStr, DecodeError> {
        Ok(BytesStr::from(*self))
    }
}

impl ToOwnedValue<Vec<u8>> for &[u8] {
    #[inline]
    fn to_owned_value(&self) -> Result<Vec<u8>, DecodeError> {
        Ok(self.to_vec())
    }
}

impl ToOwnedValue<Bytes> for &[u8] {
    #[inline]
    fn to_owned_value(&self) -> Result<Bytes, DecodeError> {
        Ok(Bytes::copy_from_slice(self))
    }
}

// The container impls below are instantiated once per field type in the
// generated crate, so they are written as plain matches and loops: the
// `Option::map(..).transpose()` and `Iterator::collect::<Result<..>>`
// spellings compile to the same machine code but instantiate a dozen
// adapter functions each (`GenericShunt`, `try_fold` closures, ...).

impl<T: ToOwnedValue<O>, O> ToOwnedValue<Option<O>> for Option<T> {
    #[inline]
    fn to_owned_value(&self) -> Result<Option<O>, DecodeError> {
        match self {
            None => Ok(None),
            Some(value) => match value.to_owned_value() {
                Ok(owned) => Ok(Some(owned)),
                Err(error) => Err(error),
            },
        }
    }
}

impl<T: ToOwnedValue<O>, O> ToOwnedValue<Vec<O>> for Vec<T> {
    fn to_owned_value(&self) -> Result<Vec<O>, DecodeError> {
        let mut owned = Vec::with_capacity(self.len());
        for value in self {
            match value.to_owned_value() {
                Ok(value) => owned.push(value),
                Err(error) => return Err(error),
            }
        }
        Ok(owned)
    }
}

impl<V, P, O, Q> ToOwnedValue<MessageField<O, Q>> for MessageField<V, P>
where
    V: ToOwnedValue<O>,
    P: ProtoBox<V>,
    Q: ProtoBox<O>,
{
    #[inline]
    fn to_owned_value(&self) -> Result<MessageField<O, Q>, DecodeError> {
        match self.as_option() {
            None => Ok(MessageField::none()),
            Some(value) => match value.to_owned_value() {
                Ok(owned) => Ok(MessageField::some(owned)),
                Err(error) => Err(error),
            },
        }
    }
}
