//! [`UnknownFieldsView`]: a view's unknown fields, borrowed from the input.

use std::borrow::Cow;
use std::fmt;

use crate::encoder::Encoder;
use crate::error::DecodeError;
use crate::unknown_fields::{UnknownField, UnknownFields, UnknownSink, fields_in};

use super::ToOwnedValue;

/// The fields a view's schema does not know, as spans of the input.
///
/// Each field is one span. The only bytes it owns are those decoding wrote itself, exactly as the owned
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
    /// fields, keys included: one field as read, or fields decoding wrote.
    pub fn spans(&self) -> impl Iterator<Item = &[u8]> {
        self.spans
            .iter()
            .flat_map(|spans| spans.spans.iter().map(|span| &**span))
    }

    /// Iterates over the fields.
    pub fn iter(&self) -> impl Iterator<Item = UnknownField<'_>> {
        self.spans().flat_map(fields_in)
    }

    /// How deeply groups nest in the fields.
    pub(crate) fn group_depth(&self) -> u32 {
        self.spans.as_ref().map_or(0, |spans| spans.group_depth)
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

    /// Nesting depth of groups in the fields. **Support API**.
    #[doc(hidden)]
    pub fn nesting(&self) -> u32 {
        self.group_depth()
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

impl<'a> UnknownSink<'a> for UnknownFieldsView<'a> {
    #[inline]
    fn cost_of(&self, _len: usize) -> usize {
        let span = size_of::<Cow<'a, [u8]>>();
        if self.is_empty() {
            span + size_of::<Spans<'a>>()
        } else {
            span
        }
    }

    fn push_input(&mut self, field: &'a [u8], group_depth: u32) {
        let spans = self.spans_mut();
        spans.group_depth = spans.group_depth.max(group_depth);
        spans.spans.push(Cow::Borrowed(field));
    }

    fn push_written(&mut self, fields: &[u8]) {
        self.spans_mut().spans.push(Cow::Owned(fields.to_vec()));
    }
}

impl ToOwnedValue<UnknownFields> for UnknownFieldsView<'_> {
    fn to_owned_value(&self) -> Result<UnknownFields, DecodeError> {
        let mut owned = UnknownFields::new();
        let depth = self.group_depth();
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
