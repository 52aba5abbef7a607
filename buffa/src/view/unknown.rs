//! [`UnknownFieldsView`]: a view's unknown fields, borrowed from the input.

use alloc::borrow::Cow;
use alloc::{boxed::Box, vec::Vec};
use core::fmt;
use core::ops::Range;

use crate::error::DecodeError;
use crate::unknown_fields::{UnknownField, UnknownFields, UnknownSink, fields_in};
use crate::wire::Encoder;

use super::ToOwnedValue;

/// The fields a view's schema does not know, as spans of the input.
///
/// Fields that follow each other in one input share a span. The only
/// bytes it owns are those decoding wrote itself, exactly as the owned
/// [`UnknownFields`] would hold them: a closed-enum value from a packed
/// run, and a map entry holding an unknown closed-enum value. Like
/// [`UnknownFields`], an empty set is one null pointer and does not
/// allocate.
#[derive(Clone, Default)]
pub struct UnknownFieldsView<'a> {
    spans: Option<Box<Spans<'a>>>,
}

#[derive(Clone)]
struct Spans<'a> {
    spans: Vec<Cow<'a, [u8]>>,
    group_depth: u32,
}

impl<'a> UnknownFieldsView<'a> {
    /// Whether no unknown field was read.
    pub fn is_empty(&self) -> bool {
        self.spans.is_none()
    }

    /// The spans holding the fields, in the order read; each holds whole
    /// fields, keys included: a run of fields as read, or fields decoding
    /// wrote.
    pub fn spans(&self) -> impl Iterator<Item = &[u8]> {
        self.spans
            .iter()
            .flat_map(|spans| spans.spans.iter().map(|span| &**span))
    }

    /// Iterates over the fields.
    pub fn iter(&self) -> impl Iterator<Item = UnknownField<'_>> {
        self.spans().flat_map(fields_in)
    }

    /// Bytes the fields take when written.
    #[doc(hidden)]
    pub fn encoded_len(&self) -> usize {
        self.spans().map(<[u8]>::len).sum()
    }

    /// Writes the fields. **Support API**.
    #[doc(hidden)]
    pub fn write(&self, encoder: &mut Encoder<'_>) {
        for span in self.spans() {
            encoder.put_slice(span);
        }
    }

    /// How deeply groups nest in the fields. **Support API**.
    #[doc(hidden)]
    pub fn nesting(&self) -> u32 {
        self.spans.as_ref().map_or(0, |spans| spans.group_depth)
    }

    fn spans_mut(&mut self) -> &mut Spans<'a> {
        self.spans.get_or_insert_with(|| {
            Box::new(Spans {
                spans: Vec::new(),
                group_depth: 0,
            })
        })
    }
}

impl crate::unknown_fields::sealed::Sealed for UnknownFieldsView<'_> {}

impl<'a> UnknownSink<'a> for UnknownFieldsView<'a> {
    #[inline]
    fn cost_of_input(&self, input: &'a [u8], range: Range<usize>) -> usize {
        if self.extends_last(input, range.start).is_some() {
            0
        } else {
            self.cost_of_span()
        }
    }

    fn push_input(&mut self, input: &'a [u8], range: Range<usize>, group_depth: u32) {
        let extended = self.extends_last(input, range.start);
        let spans = self.spans_mut();
        spans.group_depth = spans.group_depth.max(group_depth);
        match (extended, spans.spans.last_mut()) {
            // A field right behind the previous one, in the same input:
            // one span holds both, re-sliced from the input.
            (Some(start), Some(last)) => *last = Cow::Borrowed(&input[start..range.end]),
            _ => spans.spans.push(Cow::Borrowed(&input[range])),
        }
    }

    #[inline]
    fn cost_of_written(&self, len: usize) -> usize {
        self.cost_of_span() + len
    }

    fn push_written(&mut self, fields: Vec<u8>) {
        self.spans_mut().spans.push(Cow::Owned(fields));
    }
}

impl<'a> UnknownFieldsView<'a> {
    /// What one more span costs: its slot, and the set's storage first.
    fn cost_of_span(&self) -> usize {
        let span = size_of::<Cow<'a, [u8]>>();
        if self.is_empty() {
            span + size_of::<Spans<'a>>()
        } else {
            span
        }
    }

    /// Where in `input` the last span starts, if it is a slice of `input`
    /// that ends at `start`: then a field at `start` extends it.
    fn extends_last(&self, input: &[u8], start: usize) -> Option<usize> {
        let Some(Cow::Borrowed(last)) = self.spans.as_ref()?.spans.last() else {
            return None;
        };
        let input_start = input.as_ptr() as usize;
        let last_start = (last.as_ptr() as usize).checked_sub(input_start)?;
        (last_start + last.len() == start && start <= input.len()).then_some(last_start)
    }
}

impl ToOwnedValue<UnknownFields> for UnknownFieldsView<'_> {
    fn to_owned_value(&self) -> Result<UnknownFields, DecodeError> {
        let mut owned = UnknownFields::new();
        let depth = self.nesting();
        for span in self.spans() {
            owned.extend_trusted(span, depth);
        }
        Ok(owned)
    }
}

/// Equal when the fields' bytes are, however they are split into spans.
impl PartialEq for UnknownFieldsView<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.spans()
            .flatten()
            .copied()
            .eq(other.spans().flatten().copied())
    }
}

impl fmt::Debug for UnknownFieldsView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
