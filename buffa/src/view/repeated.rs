//! [`RepeatedView`]: a repeated field of a view, read from the input as it
//! is iterated.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::encoding::repeated::{Elements, packed_count};
use crate::encoding::types::{
    Bool, BorrowedBytes, BorrowedStr, ClosedEnum, DecodeScalar, Double, Fixed32, Fixed64, Float,
    Int32, Int64, OpenEnum, SFixed32, SFixed64, SInt32, SInt64, ScalarType, UInt32, UInt64,
};
use crate::encoding::{closed_enum, message};
use crate::enumeration::Enumeration;
use crate::error::DecodeError;
use crate::unknown_fields::{DiscardUnknown, UnknownSink};
use crate::wire::{Decoder, Tag, WireType};

use super::occurrences::{Occurrences, Walk};
use super::{MessageView, ToOwnedValue};

/// A repeated field of a view: a sequence over the input, which holds no
/// copy of the elements and allocates nothing.
///
/// Decoding the view checks every element, exactly as the owned decode
/// would (wire types, varints, UTF-8, nested messages, limits), counts
/// them and records where the field's occurrences are; iterating reads
/// them from there, so it cannot fail. Packed and expanded occurrences
/// may mix, in any order, as the specification requires.
///
/// `E` names the element type's encoding: a marker of
/// [`buffa::types`](crate::types) for numbers, enums, strings and bytes
/// (`RepeatedView<'a, SInt32>` yields `i32`s, `RepeatedView<'a,
/// BorrowedStr<'a>>` yields `&'a str`s), the element's view for messages
/// (`RepeatedView<'a, FooView<'a>>` yields `FooView<'a>`s, each decoded
/// when reached), or [`Delimited`] around it for group-encoded ones.
///
/// ```
/// use buffa::types::SInt32;
/// use buffa::RepeatedView;
/// # fn sequence(view: &RepeatedView<'_, SInt32>) {
/// // With `repeated sint32 deltas = 1;` in a view:
/// let total: i64 = view.iter().map(i64::from).sum();
/// let first = view.get(0);
/// assert_eq!(view.len(), view.iter().count());
/// # let _ = (total, first);
/// # }
/// ```
///
/// A fixed-width field (`fixed32`, `float`, `double`...) read as one
/// packed run, as encoders write it, is indexed in constant time by
/// [`RepeatedView::get`]; otherwise `get` walks to the element.
pub struct RepeatedView<'a, E> {
    occurrences: Occurrences<'a>,
    len: usize,
    marker: PhantomData<fn() -> E>,
}

/// The element types of a [`RepeatedView`]: how one element is checked,
/// counted and read. Implemented for the number, enum, string and bytes
/// markers of [`buffa::types`](crate::types), for every message view and
/// for [`Delimited`] views.
pub trait ViewElement<'a> {
    /// What iterating yields.
    type Value;

    /// Whether occurrences may be packed runs (numbers and enums).
    const PACKABLE: bool;

    /// The encoded width of every element, for fixed-width numbers.
    const FIXED_SIZE: Option<usize>;

    /// Checks one occurrence, whose key `tag` was just read, as the owned
    /// decode reads it; returns how many elements it adds. Closed-enum
    /// numbers the schema does not declare go to `unknown` and are not
    /// counted. **Support API**.
    #[doc(hidden)]
    fn check(
        tag: Tag,
        decoder: &mut Decoder<'a>,
        unknown: &mut impl UnknownSink<'a>,
    ) -> Result<usize, DecodeError>;

    /// Reads one element, not a packed run, of an occurrence with key
    /// `tag` (for an element of a packed run, the run's key), from bytes
    /// that [`ViewElement::check`] let in (`decoder` is
    /// [`Decoder::checked`]): `None` for a number a closed enum does not
    /// declare. **Support API**.
    #[doc(hidden)]
    fn read(tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<Self::Value>, DecodeError>;
}

/// Checks a number or enum occurrence: one value, or a packed run.
#[inline]
fn check_scalar<'a, S: DecodeScalar<'a>>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<usize, DecodeError> {
    if tag.wire_type() == WireType::LengthDelimited {
        if decoder.rereading() {
            return Ok(packed_count::<S>(decoder.read_length_delimited()?));
        }
        decoder.read_packed(|payload, packed| {
            if let Some(size) = S::FIXED_SIZE
                && payload.len() % size == 0
            {
                return Ok(payload.len() / size);
            }
            // Variable-width values, or a truncated run whose error the
            // owned decode's loop reports.
            let mut count = 0;
            while !packed.is_empty() {
                S::decode(packed)?;
                count += 1;
            }
            Ok(count)
        })
    } else {
        decoder.check_wire_type(tag, S::WIRE_TYPE)?;
        S::decode(decoder)?;
        Ok(1)
    }
}

/// `ViewElement` for scalar markers read as protobuf numbers: each entry is
/// `{generic parameters} marker`.
macro_rules! scalar_elements {
    ($({$($generics:tt)*} $marker:ty),* $(,)?) => {$(
        impl<'a, $($generics)*> ViewElement<'a> for $marker {
            type Value = <$marker as ScalarType>::Value;
            const PACKABLE: bool = true;
            const FIXED_SIZE: Option<usize> = <$marker as ScalarType>::FIXED_SIZE;

            #[inline]
            fn check(
                tag: Tag,
                decoder: &mut Decoder<'a>,
                _unknown: &mut impl UnknownSink<'a>,
            ) -> Result<usize, DecodeError> {
                check_scalar::<$marker>(tag, decoder)
            }

            #[inline]
            fn read(_tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<Self::Value>, DecodeError> {
                <$marker as DecodeScalar<'a>>::decode(decoder).map(Some)
            }
        }
    )*};
}

scalar_elements!(
    {} Int32, {} Int64, {} UInt32, {} UInt64, {} SInt32, {} SInt64, {} Fixed32, {} Fixed64,
    {} SFixed32, {} SFixed64, {} Float, {} Double, {} Bool, {E: Enumeration} OpenEnum<E>,
);

impl<'a, E: Enumeration> ViewElement<'a> for ClosedEnum<E> {
    type Value = E;
    const PACKABLE: bool = true;
    const FIXED_SIZE: Option<usize> = None;

    #[inline]
    fn check(
        tag: Tag,
        decoder: &mut Decoder<'a>,
        unknown: &mut impl UnknownSink<'a>,
    ) -> Result<usize, DecodeError> {
        let mut counted = Counted(0);
        closed_enum::merge_repeated::<E>(tag, &mut counted, decoder, unknown)?;
        Ok(counted.0)
    }

    #[inline]
    fn read(_tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<E>, DecodeError> {
        <ClosedEnum<E> as DecodeScalar<'a>>::decode_known(decoder)
    }
}

/// Counts the values a closed-enum occurrence keeps.
struct Counted(usize);

impl<T> closed_enum::Values<T> for Counted {
    #[inline]
    fn cost(&self) -> usize {
        0
    }

    #[inline]
    fn reserve(&mut self, _additional: usize) {}

    #[inline]
    fn push(&mut self, _value: T) {
        self.0 += 1;
    }
}

macro_rules! unpackable_elements {
    ($($marker:ident),*) => {$(
        impl<'a> ViewElement<'a> for $marker<'a> {
            type Value = <$marker<'a> as ScalarType>::Value;
            const PACKABLE: bool = false;
            const FIXED_SIZE: Option<usize> = None;

            #[inline]
            fn check(
                tag: Tag,
                decoder: &mut Decoder<'a>,
                _unknown: &mut impl UnknownSink<'a>,
            ) -> Result<usize, DecodeError> {
                decoder.check_wire_type(tag, WireType::LengthDelimited)?;
                if decoder.rereading() {
                    decoder.read_length_delimited()?;
                } else {
                    <$marker<'a> as DecodeScalar<'a>>::decode(decoder)?;
                }
                Ok(1)
            }

            #[inline]
            fn read(_tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<Self::Value>, DecodeError> {
                <$marker<'a> as DecodeScalar<'a>>::decode(decoder).map(Some)
            }
        }
    )*};
}

unpackable_elements!(BorrowedStr, BorrowedBytes);

impl<'a, V: MessageView<'a>> ViewElement<'a> for V {
    type Value = V;
    const PACKABLE: bool = false;
    const FIXED_SIZE: Option<usize> = None;

    #[inline]
    fn check(
        tag: Tag,
        decoder: &mut Decoder<'a>,
        _unknown: &mut impl UnknownSink<'a>,
    ) -> Result<usize, DecodeError> {
        if decoder.rereading() {
            decoder.check_wire_type(tag, WireType::LengthDelimited)?;
            decoder.read_length_delimited()?;
        } else {
            message::check::<V>(tag, decoder)?;
        }
        Ok(1)
    }

    #[inline]
    fn read(_tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<V>, DecodeError> {
        // Elements are read again from checked bytes, so a decoder of the
        // element's own, local to this function, reads its fields: the
        // loop over them keeps it in registers, which it would not do for
        // the iterator's decoder (a caller's memory).
        let payload = decoder.read_length_delimited()?;
        let mut view = V::default();
        view.merge_from(&mut Decoder::checked(payload))?;
        Ok(Some(view))
    }
}

/// The element type of a repeated group-encoded message field (a proto2
/// `group`, or an editions field with `message_encoding = DELIMITED`):
/// `RepeatedView<'a, Delimited<FooView<'a>>>` yields `FooView<'a>`s.
#[derive(Debug)]
pub enum Delimited<V> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, PhantomData<V>),
}

impl<'a, V: MessageView<'a>> ViewElement<'a> for Delimited<V> {
    type Value = V;
    const PACKABLE: bool = false;
    const FIXED_SIZE: Option<usize> = None;

    #[inline]
    fn check(
        tag: Tag,
        decoder: &mut Decoder<'a>,
        _unknown: &mut impl UnknownSink<'a>,
    ) -> Result<usize, DecodeError> {
        if decoder.rereading() {
            decoder.check_wire_type(tag, WireType::StartGroup)?;
            decoder.skip_field(tag)?;
        } else {
            message::check_group::<V>(tag, decoder)?;
        }
        Ok(1)
    }

    #[inline]
    fn read(tag: Tag, decoder: &mut Decoder<'a>) -> Result<Option<V>, DecodeError> {
        let mut view = V::default();
        decoder.read_group(|d| view.merge_group(tag.field_number(), d))?;
        Ok(Some(view))
    }
}

impl<'a, E: ViewElement<'a>> RepeatedView<'a, E> {
    /// How many elements the field holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the field holds no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements in order, each read from the input when reached.
    #[inline]
    pub fn iter(&self) -> Iter<'_, 'a, E> {
        Iter {
            walk: self.occurrences.walk(),
            packed: Decoder::checked(&[]),
            packed_tag: None,
            remaining: self.len,
            marker: PhantomData,
        }
    }

    /// Element `index`: read in place for a fixed-width field held in one
    /// packed run, found by walking the elements otherwise.
    pub fn get(&self, index: usize) -> Option<E::Value> {
        if index >= self.len {
            return None;
        }
        if let Some(size) = E::FIXED_SIZE
            && let Some(payload) = self.occurrences.single_payload()
        {
            let at = index * size;
            let mut decoder = Decoder::checked(payload.get(at..at + size)?);
            let tag = Tag::new(1, WireType::LengthDelimited);
            return E::read(tag, &mut decoder).ok().flatten();
        }
        self.iter().nth(index)
    }

    /// The first element.
    #[inline]
    pub fn first(&self) -> Option<E::Value> {
        self.iter().next()
    }

    /// The elements copied into a vector (which allocates).
    pub fn to_vec(&self) -> Vec<E::Value> {
        let mut values = Vec::with_capacity(self.len);
        values.extend(self.iter());
        values
    }

    /// The bytes holding the field's occurrences, keys included, in the
    /// order read: one slice of the input for a message read from one
    /// input, more where occurrences were split (see the type's notes).
    pub fn runs(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.occurrences.runs()
    }

    /// Checks and records one occurrence, whose key `tag` was just read.
    #[inline(always)]
    pub(crate) fn merge(
        &mut self,
        tag: Tag,
        decoder: &mut Decoder<'a>,
        unknown: &mut impl UnknownSink<'a>,
    ) -> Result<(), DecodeError> {
        let start = decoder.offset() - decoder.last_tag_len();
        let count = E::check(tag, decoder, unknown)?;
        self.len += count;
        self.occurrences
            .record(tag.field_number(), start..decoder.offset(), decoder)
    }
}

/// An iterator over a [`RepeatedView`]'s elements.
pub struct Iter<'r, 'a, E> {
    walk: Walk<'r, 'a>,
    /// The rest of the packed run being read.
    packed: Decoder<'a>,
    packed_tag: Option<Tag>,
    remaining: usize,
    marker: PhantomData<fn() -> E>,
}

impl<'a, E: ViewElement<'a>> Iterator for Iter<'_, 'a, E> {
    type Item = E::Value;

    #[inline]
    fn next(&mut self) -> Option<E::Value> {
        while self.remaining > 0 {
            let read = if let Some(tag) = self.packed_tag.filter(|_| !self.packed.is_empty()) {
                E::read(tag, &mut self.packed)
            } else {
                let tag = self.walk.next_key()?;
                let decoder = self.walk.decoder();
                if E::PACKABLE && tag.wire_type() == WireType::LengthDelimited {
                    let Ok(payload) = decoder.read_length_delimited() else {
                        break;
                    };
                    self.packed = Decoder::checked(payload);
                    self.packed_tag = Some(tag);
                    continue;
                }
                E::read(tag, decoder)
            };
            match read {
                Ok(Some(value)) => {
                    self.remaining -= 1;
                    return Some(value);
                }
                // A number a closed enum does not declare: not an element.
                Ok(None) => {}
                // The decode that recorded the field checked every element,
                // so this is unreachable; ending the sequence is the safe
                // answer if it ever were not.
                Err(_) => break,
            }
        }
        self.remaining = 0;
        None
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, E: ViewElement<'a>> ExactSizeIterator for Iter<'_, 'a, E> {}

impl<'a, E: ViewElement<'a>> core::iter::FusedIterator for Iter<'_, 'a, E> {}

impl<'r, 'a, E: ViewElement<'a>> IntoIterator for &'r RepeatedView<'a, E> {
    type Item = E::Value;
    type IntoIter = Iter<'r, 'a, E>;

    #[inline]
    fn into_iter(self) -> Iter<'r, 'a, E> {
        self.iter()
    }
}

impl<E> Default for RepeatedView<'_, E> {
    #[inline]
    fn default() -> Self {
        RepeatedView {
            occurrences: Occurrences::default(),
            len: 0,
            marker: PhantomData,
        }
    }
}

impl<E> Clone for RepeatedView<'_, E> {
    #[inline]
    fn clone(&self) -> Self {
        RepeatedView {
            occurrences: self.occurrences.clone(),
            len: self.len,
            marker: PhantomData,
        }
    }
}

/// Equal when the elements are, however they were encoded (packed or
/// not).
impl<'a, E: ViewElement<'a, Value: PartialEq>> PartialEq for RepeatedView<'a, E> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<'a, E: ViewElement<'a, Value: PartialEq>> PartialEq<[E::Value]> for RepeatedView<'a, E> {
    fn eq(&self, other: &[E::Value]) -> bool {
        self.len == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

impl<'a, E: ViewElement<'a, Value: PartialEq>> PartialEq<Vec<E::Value>> for RepeatedView<'a, E> {
    fn eq(&self, other: &Vec<E::Value>) -> bool {
        *self == other[..]
    }
}

impl<'a, E: ViewElement<'a, Value: PartialEq>, const N: usize> PartialEq<[E::Value; N]>
    for RepeatedView<'a, E>
{
    fn eq(&self, other: &[E::Value; N]) -> bool {
        *self == other[..]
    }
}

impl<'a, E: ViewElement<'a, Value: fmt::Debug>> fmt::Debug for RepeatedView<'a, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, E, O> ToOwnedValue<Vec<O>> for RepeatedView<'a, E>
where
    E: ViewElement<'a, Value: ToOwnedValue<O>>,
{
    fn to_owned_value(&self) -> Result<Vec<O>, DecodeError> {
        let mut owned = Vec::with_capacity(self.len);
        for value in self.iter() {
            match value.to_owned_value() {
                Ok(value) => owned.push(value),
                Err(error) => return Err(error),
            }
        }
        Ok(owned)
    }
}

impl<'a, E: ViewElement<'a>> Elements<E::Value> for RepeatedView<'a, E> {
    #[inline]
    fn count(&self) -> usize {
        self.len
    }

    #[inline]
    fn each(&self, mut f: impl FnMut(&E::Value)) {
        for value in self.iter() {
            f(&value);
        }
    }

    #[inline]
    fn as_slice(&self) -> Option<&[E::Value]> {
        None
    }
}

/// Merges one occurrence of a view's repeated field (not a lazy one)
/// whose elements are not closed enums: checks it and records where it
/// is. **Support API**.
#[inline]
pub fn merge<'a, E: ViewElement<'a>>(
    tag: Tag,
    field: &mut RepeatedView<'a, E>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    field.merge(tag, decoder, &mut DiscardUnknown)
}

/// Checks one occurrence of a view's repeated field as [`merge`] and
/// [`merge_closed`] read it, keeping nothing (a view's `check_field`).
/// **Support API**.
#[inline]
pub fn check<'a, E: ViewElement<'a>>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    E::check(tag, decoder, &mut DiscardUnknown).map(drop)
}

/// [`merge`] for closed-enum elements, whose undeclared numbers go to
/// `unknown`. **Support API**.
#[inline]
pub fn merge_closed<'a, E: Enumeration>(
    tag: Tag,
    field: &mut RepeatedView<'a, ClosedEnum<E>>,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<(), DecodeError> {
    field.merge(tag, decoder, unknown)
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::options::DecodeOptions;

    fn view<'a, E: ViewElement<'a>>(bytes: &'a [u8]) -> RepeatedView<'a, E> {
        let mut field = RepeatedView::default();
        let mut decoder = Decoder::new(bytes, &DecodeOptions::new()).unwrap();
        while let Some(tag) = decoder.read_tag().unwrap() {
            if tag.field_number() == 1 {
                field.merge(tag, &mut decoder, &mut DiscardUnknown).unwrap();
            } else {
                decoder.skip_field(tag).unwrap();
            }
        }
        field
    }

    #[test]
    fn packed_and_expanded_occurrences_read_in_order() {
        // 1: [1, 300] packed, 2: 5, 1: 7, 1: [-1] packed (sint32 zigzag).
        let bytes = [0x0a, 3, 2, 0xd8, 0x04, 0x10, 5, 0x08, 14, 0x0a, 1, 1];
        let field = view::<SInt32>(&bytes);
        assert_eq!(field.len(), 4);
        assert_eq!(field, [1, 300, 7, -1]);
        assert_eq!(field.iter().len(), 4);
        assert_eq!(field.get(2), Some(7));
        assert_eq!(field.get(4), None);
        assert_eq!(field.first(), Some(1));
        assert_eq!(field.to_vec(), vec![1, 300, 7, -1]);
        assert_eq!(field.runs().count(), 1);
    }

    #[test]
    fn one_packed_fixed_width_run_is_indexed_in_place() {
        let mut bytes = vec![0x0a, 12];
        for value in [10u32, 20, 30] {
            bytes.extend(value.to_le_bytes());
        }
        let field = view::<Fixed32>(&bytes);
        assert!(field.occurrences.single_payload().is_some());
        assert_eq!(
            (0..4).map(|i| field.get(i)).collect::<Vec<_>>(),
            [Some(10), Some(20), Some(30), None]
        );
    }

    #[test]
    fn strings_and_errors_are_checked_when_decoded() {
        let bytes = [0x0a, 2, b'h', b'i', 0x0a, 0];
        let field = view::<BorrowedStr<'_>>(&bytes);
        assert_eq!(field, ["hi", ""]);
        // Not UTF-8: refused when the field is recorded, as the owned
        // decode refuses it.
        let bad = [0x0a, 1, 0xff];
        let mut field = RepeatedView::<BorrowedStr<'_>>::default();
        let mut decoder = Decoder::new(&bad, &DecodeOptions::new()).unwrap();
        let tag = decoder.read_tag().unwrap().unwrap();
        let error = field
            .merge(tag, &mut decoder, &mut DiscardUnknown)
            .unwrap_err();
        assert_eq!(error.kind(), &crate::DecodeErrorKind::InvalidUtf8);
        // A packed run cut short.
        let bad = [0x0a, 3, 1, 0, 0];
        let mut field = RepeatedView::<Fixed32>::default();
        let mut decoder = Decoder::new(&bad, &DecodeOptions::new()).unwrap();
        let tag = decoder.read_tag().unwrap().unwrap();
        assert!(field.merge(tag, &mut decoder, &mut DiscardUnknown).is_err());
        assert_eq!(Vec::<u32>::new(), field.to_vec());
    }
}
