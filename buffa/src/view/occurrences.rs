//! Where a view's repeated field sits in the input: the runs of bytes
//! that hold its occurrences, which iterating walks again.
//!
//! A run starts at the key of an occurrence and ends behind the value of
//! a later one; between them lie only whole fields of the same message,
//! none of them this field. An encoder writes a repeated field's
//! occurrences next to each other, so a message read from one input has
//! one run per field. Occurrences in different places (a sub-message seen
//! twice, a view merged from a second input, a field interleaved with
//! another of the same number in another message) start a new run, kept
//! in a vector: the one case that allocates.

use alloc::vec::Vec;
use core::ops::Range;

use crate::error::DecodeError;
use crate::options::DecodeOptions;
use crate::wire::{Decoder, Tag, WireType};

/// The runs holding one field's occurrences, in the order read.
#[derive(Clone, Default)]
pub(crate) struct Occurrences<'a> {
    field_number: u32,
    /// Runs before `last`, kept only when occurrences were split.
    earlier: Vec<&'a [u8]>,
    /// The latest run; empty before the first occurrence.
    last: &'a [u8],
}

impl<'a> Occurrences<'a> {
    /// Records the occurrence `decoder.input()[range]` (key included) of
    /// field `field_number`, which the caller has just checked; charges
    /// `decoder` for what a split run allocates.
    ///
    /// The first occurrence and one right behind the run are recorded
    /// inline; the rest goes out of line without the decoder, which the
    /// caller's field loop then keeps in registers.
    #[inline]
    pub(crate) fn record(
        &mut self,
        field_number: u32,
        range: Range<usize>,
        decoder: &mut Decoder<'a>,
    ) -> Result<(), DecodeError> {
        let input = decoder.input();
        if self.last.is_empty() {
            self.field_number = field_number;
            self.last = &input[range];
            return Ok(());
        }
        if let Some((start, end)) = self.last_within(input)
            && end == range.start
        {
            self.last = &input[start..range.end];
            return Ok(());
        }
        if self.record_apart(range, input) {
            decoder.charge(size_of::<&[u8]>())?;
        }
        Ok(())
    }

    /// Records an occurrence not right behind the run `last`: the run
    /// grows over the fields between when they allow it, a new run starts
    /// otherwise. Whether a new run started, which the caller charges for.
    #[inline(never)]
    fn record_apart(&mut self, range: Range<usize>, input: &'a [u8]) -> bool {
        if let Some(start) = self.extends_to(input, range.start) {
            self.last = &input[start..range.end];
            return false;
        }
        self.earlier.push(self.last);
        self.last = &input[range];
        true
    }

    /// Where the run `last` starts in `input`, if the occurrence at
    /// `input[at..]` continues it: the run lies in `input` before `at`,
    /// and the bytes between hold whole fields, none of them this field
    /// and no group end (which would mean they cross out of a group).
    #[inline]
    fn extends_to(&self, input: &'a [u8], at: usize) -> Option<usize> {
        let (start, end) = self.last_within(input)?;
        if end > at || at > input.len() {
            return None;
        }
        if end == at || whole_fields_without(&input[end..at], self.field_number) {
            Some(start)
        } else {
            None
        }
    }

    /// Where the run `last` starts and ends as offsets into `input`, by
    /// address arithmetic only: a run from another input gets offsets
    /// that the callers' bounds tests refuse, and starts a run of its own.
    #[inline]
    fn last_within(&self, input: &[u8]) -> Option<(usize, usize)> {
        let start = (self.last.as_ptr() as usize).checked_sub(input.as_ptr() as usize)?;
        Some((start, start.checked_add(self.last.len())?))
    }

    /// The runs in order.
    #[inline]
    pub(crate) fn runs(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.earlier
            .iter()
            .copied()
            .chain((!self.last.is_empty()).then_some(self.last))
    }

    /// A walk over the occurrences, from the first.
    #[inline]
    pub(crate) fn walk(&self) -> Walk<'_, 'a> {
        let (first, earlier) = match self.earlier.split_first() {
            Some((first, rest)) => (*first, rest),
            None => (self.last, &[][..]),
        };
        Walk {
            field_number: self.field_number,
            earlier: earlier.iter(),
            last: (!self.earlier.is_empty()).then_some(self.last),
            decoder: Decoder::checked(first),
        }
    }

    /// The only occurrence's value, when the field occurred exactly once
    /// and was length-delimited (a packed run, most often): what indexing
    /// a fixed-width packed field reads directly.
    pub(crate) fn single_payload(&self) -> Option<&'a [u8]> {
        if !self.earlier.is_empty() {
            return None;
        }
        let mut decoder = Decoder::checked(self.last);
        let tag = decoder.read_tag().ok()??;
        if tag.wire_type() != WireType::LengthDelimited {
            return None;
        }
        let payload = decoder.read_length_delimited().ok()?;
        decoder.is_empty().then_some(payload)
    }
}

/// Whether `bytes` are whole fields, none numbered `field_number` and no
/// group end. Under the default limits: the bytes may lie outside what
/// the current decode checked (a run from an earlier, overlapping input).
fn whole_fields_without(bytes: &[u8], field_number: u32) -> bool {
    let mut decoder = Decoder::any_length(bytes, &DecodeOptions::new());
    loop {
        match decoder.read_tag() {
            Ok(None) => return true,
            Ok(Some(tag))
                if tag.field_number() != field_number && tag.wire_type() != WireType::EndGroup =>
            {
                if decoder.skip_field(tag).is_err() {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// A walk over a field's recorded occurrences: [`Walk::next_key`] stops
/// at each occurrence's value, which the caller then reads from
/// [`Walk::decoder`].
pub(crate) struct Walk<'r, 'a> {
    field_number: u32,
    earlier: core::slice::Iter<'r, &'a [u8]>,
    last: Option<&'a [u8]>,
    decoder: Decoder<'a>,
}

impl<'a> Walk<'_, 'a> {
    /// The key of the next occurrence, the cursor at its value; `None`
    /// after the last. The runs were checked when recorded, so a read
    /// that fails (which cannot happen) ends the walk.
    #[inline]
    pub(crate) fn next_key(&mut self) -> Option<Tag> {
        loop {
            match self.decoder.read_tag() {
                Ok(Some(tag)) if tag.field_number() == self.field_number => return Some(tag),
                Ok(Some(tag)) => self.decoder.skip_field(tag).ok()?,
                Ok(None) => {
                    let run = match self.earlier.next() {
                        Some(run) => *run,
                        None => self.last.take()?,
                    };
                    self.decoder = Decoder::checked(run);
                }
                Err(_) => return None,
            }
        }
    }

    /// The cursor, at the value of the occurrence [`Walk::next_key`]
    /// returned.
    #[inline]
    pub(crate) fn decoder(&mut self) -> &mut Decoder<'a> {
        &mut self.decoder
    }
}

#[cfg(test)]
mod tests {
    use std::vec::Vec;

    use super::*;

    /// Records the occurrences of field 1 (a varint) at `ranges` of
    /// `input` (start and end of key and value), as a view's merge would.
    fn record_all<'a>(
        occurrences: &mut Occurrences<'a>,
        input: &'a [u8],
        ranges: &[(usize, usize)],
    ) {
        let mut decoder = Decoder::new(input, &DecodeOptions::new()).unwrap();
        for &(start, end) in ranges {
            occurrences.record(1, start..end, &mut decoder).unwrap();
        }
    }

    fn values(occurrences: &Occurrences<'_>) -> Vec<u64> {
        let mut walk = occurrences.walk();
        let mut values = Vec::new();
        while walk.next_key().is_some() {
            values.push(walk.decoder().read_varint().unwrap());
        }
        values
    }

    #[test]
    fn adjacent_occurrences_and_other_fields_between_make_one_run() {
        // 1: 7, 1: 8, 2: 9, 1: 10
        let input = [0x08, 7, 0x08, 8, 0x10, 9, 0x08, 10];
        let mut occurrences = Occurrences::default();
        record_all(&mut occurrences, &input, &[(0, 2), (2, 4), (6, 8)]);
        assert_eq!(occurrences.runs().collect::<Vec<_>>(), [&input[..]]);
        assert_eq!(values(&occurrences), [7, 8, 10]);
    }

    #[test]
    fn occurrences_in_two_groups_make_two_runs() {
        // group 3 { 1: 7 } group 3 { 1: 8 }: the bytes between the two
        // occurrences end a group, so they do not continue one message.
        let input = [0x1b, 0x08, 7, 0x1c, 0x1b, 0x08, 8, 0x1c];
        let mut occurrences = Occurrences::default();
        record_all(&mut occurrences, &input, &[(1, 3), (5, 7)]);
        assert_eq!(
            occurrences.runs().collect::<Vec<_>>(),
            [&input[1..3], &input[5..7]]
        );
        assert_eq!(values(&occurrences), [7, 8]);
    }

    #[test]
    fn occurrences_in_two_sub_messages_make_two_runs() {
        // 2: { 1: 7 } 2: { 1: 8 }: the bytes between skip the second
        // payload whole, past the occurrence.
        let input = [0x12, 2, 0x08, 7, 0x12, 2, 0x08, 8];
        let mut occurrences = Occurrences::default();
        record_all(&mut occurrences, &input, &[(2, 4), (6, 8)]);
        assert_eq!(occurrences.runs().count(), 2);
        assert_eq!(values(&occurrences), [7, 8]);
    }

    #[test]
    fn an_occurrence_of_the_field_between_splits_the_run() {
        // 1: 7, 1: 8 (not recorded: another context's), 1: 9
        let input = [0x08, 7, 0x08, 8, 0x08, 9];
        let mut occurrences = Occurrences::default();
        record_all(&mut occurrences, &input, &[(0, 2), (4, 6)]);
        assert_eq!(occurrences.runs().count(), 2);
        assert_eq!(values(&occurrences), [7, 9]);
    }

    #[test]
    fn another_input_or_an_earlier_position_starts_a_run() {
        let first = [0x08, 1, 0x08, 2];
        let second = [0x08, 3];
        let mut occurrences = Occurrences::default();
        record_all(&mut occurrences, &first, &[(0, 2), (2, 4)]);
        record_all(&mut occurrences, &second, &[(0, 2)]);
        // The first input again, from its start: a second pass.
        record_all(&mut occurrences, &first, &[(0, 2)]);
        assert_eq!(occurrences.runs().count(), 3);
        assert_eq!(values(&occurrences), [1, 2, 3, 1]);
    }

    #[test]
    fn a_split_run_is_charged_to_the_budget() {
        let input = [0x12, 2, 0x08, 7, 0x12, 2, 0x08, 8];
        let options = DecodeOptions::new().with_allocation_limit(Some(0));
        let mut decoder = Decoder::new(&input, &options).unwrap();
        let mut occurrences = Occurrences::default();
        occurrences.record(1, 2..4, &mut decoder).unwrap();
        let error = occurrences.record(1, 6..8, &mut decoder).unwrap_err();
        assert!(matches!(
            error.kind(),
            crate::DecodeErrorKind::AllocationLimitExceeded { .. }
        ));
    }
}
