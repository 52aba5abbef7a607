//! Lazy view fields: a sub-message's bytes, decoded when read.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::error::DecodeError;
use crate::message::Mergeable;
use crate::options::DecodeOptions;
use crate::wire::Decoder;

use super::ToOwnedValue;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;

/// A singular message field of a view that is decoded only when read.
///
/// Decoding the enclosing view records where the field's payload is and
/// skips it by its length prefix (a group by scanning its keys), so a
/// large sub-message costs nothing until [`LazyField::get`]. Errors in the
/// payload are reported then, not when the enclosing view is decoded. The
/// nesting depth the payload had is remembered: reading it counts against
/// the recursion limit exactly as an eager decode would have.
///
/// A field that occurs more than once merges, as protobuf requires: `get`
/// decodes the occurrences in order into one view.
pub struct LazyField<'a, V> {
    first: Option<&'a [u8]>,
    more: Vec<&'a [u8]>,
    limits: ReadLimits,
    marker: PhantomData<fn() -> V>,
}

/// What reading a lazy payload later must respect: the nesting levels left
/// where it sat and the limits of the decode that skipped it. Several
/// occurrences (or a view merged from several buffers) keep the tightest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ReadLimits {
    depth_remaining: u32,
    recursion_limit: u32,
    allocation_limit: Option<usize>,
}

impl ReadLimits {
    /// The limits of a payload the decoder has just skipped, one level
    /// below the cursor's, which has `depth_remaining` left for it.
    fn at(decoder: &Decoder<'_>, depth_remaining: u32) -> ReadLimits {
        ReadLimits {
            depth_remaining,
            recursion_limit: decoder.recursion_limit(),
            allocation_limit: decoder.allocation_limit(),
        }
    }

    /// The tighter of `self` and `other` in every respect.
    fn tightest(self, other: ReadLimits) -> ReadLimits {
        let allocation_limit = match (self.allocation_limit, other.allocation_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        ReadLimits {
            depth_remaining: self.depth_remaining.min(other.depth_remaining),
            recursion_limit: self.recursion_limit.min(other.recursion_limit),
            allocation_limit,
        }
    }

    /// The options a plain read uses: the limits the enclosing view was
    /// decoded under, the allocation budget afresh for each read.
    fn options(self) -> DecodeOptions {
        DecodeOptions::new()
            .with_recursion_limit(self.recursion_limit)
            .with_allocation_limit(self.allocation_limit)
    }
}

impl<'a, V> LazyField<'a, V> {
    /// Whether the field was present.
    pub fn is_set(&self) -> bool {
        self.first.is_some()
    }

    /// The payloads of the field's occurrences as read (for a group, the
    /// fields between its start and end keys).
    pub fn payloads(&self) -> impl Iterator<Item = &'a [u8]> + Clone + '_ {
        self.first.into_iter().chain(self.more.iter().copied())
    }

    /// Records one occurrence whose payload sat where `depth_remaining`
    /// nesting levels were left; charges what it allocates to `decoder`.
    pub(crate) fn push(
        &mut self,
        payload: &'a [u8],
        depth_remaining: u32,
        decoder: &mut Decoder<'a>,
    ) -> Result<(), DecodeError> {
        let limits = ReadLimits::at(decoder, depth_remaining);
        if self.first.is_none() {
            self.first = Some(payload);
            self.limits = limits;
        } else {
            decoder.charge(size_of::<&[u8]>())?;
            self.more.push(payload);
            self.limits = self.limits.tightest(limits);
        }
        Ok(())
    }
}

impl<'a, V: Mergeable<'a>> LazyField<'a, V> {
    /// Decodes the field under the limits the enclosing view was decoded
    /// with (the tightest, if it was merged from several inputs), with a
    /// fresh allocation budget; an unset field reads as the default view.
    pub fn get(&self) -> Result<V, DecodeError> {
        self.get_with_options(&self.limits.options())
    }

    /// Decodes the field under `options`. The recursion limit is the
    /// tighter of `options`' and what was left where the payload sat; the
    /// allocation budget starts afresh. Error offsets count from the start
    /// of the payload.
    pub fn get_with_options(&self, options: &DecodeOptions) -> Result<V, DecodeError> {
        let mut view = V::default();
        for payload in self.payloads() {
            view.merge_from(&mut Decoder::resumed(
                payload,
                options,
                self.limits.depth_remaining,
                self.limits.recursion_limit,
            ))?;
        }
        Ok(view)
    }
}

impl<V> Default for LazyField<'_, V> {
    fn default() -> Self {
        LazyField {
            first: None,
            more: Vec::new(),
            limits: ReadLimits::default(),
            marker: PhantomData,
        }
    }
}

impl<V> Clone for LazyField<'_, V> {
    fn clone(&self) -> Self {
        LazyField {
            first: self.first,
            more: self.more.clone(),
            limits: self.limits,
            marker: PhantomData,
        }
    }
}

/// Equal when both are unset, or both hold the same payloads: a
/// comparison of encodings, which equal messages need not share.
impl<V> PartialEq for LazyField<'_, V> {
    fn eq(&self, other: &Self) -> bool {
        self.payloads().eq(other.payloads())
    }
}

impl<V> fmt::Debug for LazyField<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len: usize = self.payloads().map(<[u8]>::len).sum();
        match self.first {
            None => f.write_str("LazyField(unset)"),
            Some(_) => write!(f, "LazyField({len} bytes)"),
        }
    }
}

impl<'a, V, O, Q> ToOwnedValue<MessageField<O, Q>> for LazyField<'a, V>
where
    V: Mergeable<'a> + ToOwnedValue<O>,
    Q: ProtoBox<O>,
{
    fn to_owned_value(&self) -> Result<MessageField<O, Q>, DecodeError> {
        if !self.is_set() {
            return Ok(MessageField::none());
        }
        Ok(MessageField::some(self.get()?.to_owned_value()?))
    }
}

/// A repeated message field of a view whose elements are decoded only when
/// read; see [`LazyField`]. The view keeps one slice per element, the only
/// allocation a lazy field makes.
pub struct LazyRepeated<'a, V> {
    payloads: Vec<&'a [u8]>,
    limits: ReadLimits,
    marker: PhantomData<fn() -> V>,
}

impl<'a, V> LazyRepeated<'a, V> {
    /// How many elements were read.
    pub fn len(&self) -> usize {
        self.payloads.len()
    }

    /// Whether no element was read.
    pub fn is_empty(&self) -> bool {
        self.payloads.is_empty()
    }

    /// The elements' payloads as read.
    pub fn payloads(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.payloads.iter().copied()
    }

    /// Records one element; charges what it allocates to `decoder`.
    pub(crate) fn push(
        &mut self,
        payload: &'a [u8],
        depth_remaining: u32,
        decoder: &mut Decoder<'a>,
    ) -> Result<(), DecodeError> {
        decoder.charge(size_of::<&[u8]>())?;
        let limits = ReadLimits::at(decoder, depth_remaining);
        self.limits = if self.payloads.is_empty() {
            limits
        } else {
            self.limits.tightest(limits)
        };
        self.payloads.push(payload);
        Ok(())
    }
}

impl<'a, V: Mergeable<'a>> LazyRepeated<'a, V> {
    /// Decodes element `index` under the limits the enclosing view was
    /// decoded with, as [`LazyField::get`] does.
    pub fn get(&self, index: usize) -> Option<Result<V, DecodeError>> {
        let payload = *self.payloads.get(index)?;
        Some(self.decode(payload, &self.limits.options()))
    }

    /// Decodes every element in turn, as [`LazyRepeated::get`] does.
    pub fn iter(&self) -> impl Iterator<Item = Result<V, DecodeError>> + '_ {
        self.iter_with_options(self.limits.options())
    }

    /// Decodes every element in turn under `options` (see
    /// [`LazyField::get_with_options`]).
    pub fn iter_with_options(
        &self,
        options: DecodeOptions,
    ) -> impl Iterator<Item = Result<V, DecodeError>> + '_ {
        self.payloads
            .iter()
            .map(move |payload| self.decode(payload, &options))
    }

    fn decode(&self, payload: &'a [u8], options: &DecodeOptions) -> Result<V, DecodeError> {
        let mut view = V::default();
        view.merge_from(&mut Decoder::resumed(
            payload,
            options,
            self.limits.depth_remaining,
            self.limits.recursion_limit,
        ))?;
        Ok(view)
    }
}

impl<V> Default for LazyRepeated<'_, V> {
    fn default() -> Self {
        LazyRepeated {
            payloads: Vec::new(),
            limits: ReadLimits::default(),
            marker: PhantomData,
        }
    }
}

impl<V> Clone for LazyRepeated<'_, V> {
    fn clone(&self) -> Self {
        LazyRepeated {
            payloads: self.payloads.clone(),
            limits: self.limits,
            marker: PhantomData,
        }
    }
}

/// Equal when the elements' bytes are.
impl<V> PartialEq for LazyRepeated<'_, V> {
    fn eq(&self, other: &Self) -> bool {
        self.payloads == other.payloads
    }
}

impl<V> fmt::Debug for LazyRepeated<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LazyRepeated({} elements)", self.payloads.len())
    }
}

impl<'a, V, O> ToOwnedValue<Vec<O>> for LazyRepeated<'a, V>
where
    V: Mergeable<'a> + ToOwnedValue<O>,
{
    fn to_owned_value(&self) -> Result<Vec<O>, DecodeError> {
        self.iter().map(|view| view?.to_owned_value()).collect()
    }
}
