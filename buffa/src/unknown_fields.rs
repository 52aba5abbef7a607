//! Fields a message's schema does not know, kept byte for byte.

use alloc::{vec, vec::Vec};
use core::fmt;
use core::ops::Range;

use crate::error::DecodeError;
use crate::options::DecodeOptions;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::{Tag, WireType};

/// The unknown fields of one message, in the order they were read.
///
/// They hold their encoded bytes exactly as they appeared, field keys
/// included, and are written back unchanged after the known fields, so a
/// message passing through a program built from an older schema loses
/// nothing. This is also where extensions and unrecognised closed-enum
/// values end up.
///
/// An empty set costs one pointer: most messages never see an unknown field,
/// and a small message such as a 3D vector of three `f32` should not grow
/// by the 24 bytes of an inline `Vec`. That pointer is never null (an empty
/// set points at a shared empty `Vec`), which leaves null free as a niche:
/// `Option<M>` of a message `M`, and so an inline sub-message field, is no
/// larger than `M`.
///
/// Equality and hashing look at the kept bytes only: a set emptied by
/// [`UnknownFields::clear`] (which keeps its allocation) equals a new one.
#[derive(Clone, Default)]
pub struct UnknownFields {
    bytes: storage::Storage,
}

/// Where decoding keeps the fields a schema does not know: an owned
/// [`UnknownFields`] copies them, a view's
/// [`UnknownFieldsView`](crate::UnknownFieldsView) borrows them from the
/// input. Decoding charges the cost a push reports to the allocation
/// budget before making it.
///
/// The trait is sealed: its methods are the decoder's contract with the
/// two stores, and what they keep (group nesting for the encoder's
/// recursion check) is not checked again. [`Decoder::skip_to_unknown`]
/// is how code outside buffa fills one.
///
/// [`Decoder::skip_to_unknown`]: crate::wire::Decoder::skip_to_unknown
pub trait UnknownSink<'a>: sealed::Sealed {
    /// Heap bytes that keeping the field `input[range]` costs.
    fn cost_of_input(&self, input: &'a [u8], range: Range<usize>) -> usize;

    /// Appends the field `input[range]` exactly as it appeared, key
    /// included, whose groups nest `group_depth` deep.
    fn push_input(&mut self, input: &'a [u8], range: Range<usize>, group_depth: u32);

    /// Heap bytes that keeping `len` bytes decoding wrote costs.
    fn cost_of_written(&self, len: usize) -> usize;

    /// Appends whole fields that decoding wrote itself (a closed-enum
    /// value out of a packed run, a map entry with an unknown enum value
    /// under a re-encoded key); they hold no groups.
    fn push_written(&mut self, fields: Vec<u8>);
}

/// Keeps [`UnknownSink`] implemented by buffa's own stores only.
pub(crate) mod sealed {
    /// The supertrait no type outside buffa can implement.
    pub trait Sealed {}
}

impl sealed::Sealed for UnknownFields {}

impl<'a> UnknownSink<'a> for UnknownFields {
    #[inline]
    fn cost_of_input(&self, _input: &'a [u8], range: Range<usize>) -> usize {
        self.cost_of_written(range.len())
    }

    #[inline]
    fn push_input(&mut self, input: &'a [u8], range: Range<usize>, group_depth: u32) {
        self.extend_trusted(&input[range], group_depth);
    }

    #[inline]
    fn cost_of_written(&self, len: usize) -> usize {
        // The first field also allocates the set's own storage.
        if self.is_empty() {
            len + UNKNOWN_STORAGE_SIZE
        } else {
            len
        }
    }

    #[inline]
    fn push_written(&mut self, fields: Vec<u8>) {
        self.extend_trusted(&fields, 0);
    }
}

/// A sink that keeps nothing: where a message generated without unknown
/// fields (`UnknownFieldsRepr::Discard` in buffa-build) sends the fields
/// its schema does not know. Decoding still reads and checks each one as
/// it would for an [`UnknownFields`] (the same errors on malformed input),
/// then drops it; keeping nothing costs nothing, so nothing is charged to
/// the allocation budget.
///
/// ```
/// use buffa::DecodeOptions;
/// use buffa::wire::{Decoder, DiscardUnknown};
///
/// // Field 7, varint 1: skipped, checked, not kept.
/// let mut decoder = Decoder::new(&[0x38, 0x01], &DecodeOptions::new())?;
/// let tag = decoder.read_tag()?.expect("one field");
/// decoder.skip_to_unknown(tag, &mut DiscardUnknown)?;
/// assert!(decoder.read_tag()?.is_none());
/// # Ok::<(), buffa::DecodeError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiscardUnknown;

impl sealed::Sealed for DiscardUnknown {}

impl<'a> UnknownSink<'a> for DiscardUnknown {
    #[inline]
    fn cost_of_input(&self, _input: &'a [u8], _range: Range<usize>) -> usize {
        0
    }

    #[inline]
    fn push_input(&mut self, _input: &'a [u8], _range: Range<usize>, _group_depth: u32) {}

    #[inline]
    fn cost_of_written(&self, _len: usize) -> usize {
        0
    }

    #[inline]
    fn push_written(&mut self, _fields: Vec<u8>) {}
}

/// The empty set that messages without unknown fields return from
/// [`Message::unknown_fields`](crate::Message::unknown_fields).
pub(crate) static EMPTY: UnknownFields = UnknownFields::new();

/// A varint field, encoded: the bytes and how many are used.
pub(crate) fn varint_field(field_number: u32, value: u64) -> ([u8; 15], usize) {
    let mut buf = [0u8; 15];
    let mut encoder = Encoder::from_slice(&mut buf);
    encoder.put_tag(field_number, WireType::Varint);
    encoder.put_varint(value);
    let len = encoder.position();
    (buf, len)
}

/// One unknown field, as [`UnknownFields::iter`] yields it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownField<'a> {
    /// The field number.
    pub number: u32,
    /// The field's value.
    pub value: UnknownValue<'a>,
}

/// The value of an unknown field, interpreted only as far as its wire type
/// allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownValue<'a> {
    /// A varint.
    Varint(u64),
    /// Eight bytes.
    Fixed64(u64),
    /// A length-delimited payload (string, bytes, message or packed values).
    LengthDelimited(&'a [u8]),
    /// The encoded fields between a start-group and its end-group key.
    Group(&'a [u8]),
    /// Four bytes.
    Fixed32(u32),
}

impl UnknownValue<'_> {
    /// The wire type the value was read with.
    pub(crate) fn wire_type(&self) -> WireType {
        match self {
            UnknownValue::Varint(_) => WireType::Varint,
            UnknownValue::Fixed64(_) => WireType::Fixed64,
            UnknownValue::LengthDelimited(_) => WireType::LengthDelimited,
            UnknownValue::Group(_) => WireType::StartGroup,
            UnknownValue::Fixed32(_) => WireType::Fixed32,
        }
    }
}

impl UnknownFields {
    /// An empty set; does not allocate.
    pub const fn new() -> UnknownFields {
        UnknownFields {
            bytes: storage::Storage::empty(),
        }
    }

    /// Whether no unknown field was kept.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.get().bytes.is_empty()
    }

    /// The kept fields, encoded.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes.get().bytes
    }

    /// How deeply groups nest inside the kept fields (0 without groups):
    /// the nesting levels they add below their message, which encoding
    /// counts against the recursion limit as decoding did.
    #[inline]
    pub fn group_depth(&self) -> u32 {
        self.bytes.get().group_depth
    }

    /// Appends already-encoded fields, keys included, after checking that
    /// they are well formed: whole fields with valid keys, varints of at
    /// most 64 bits, and every group closed by its own end-group key. On
    /// error nothing is appended, so a message never writes bytes that a
    /// decoder would refuse because of its unknown fields.
    pub fn push_raw(&mut self, encoded: &[u8]) -> Result<(), DecodeError> {
        let group_depth = check_well_formed(encoded)?;
        self.extend_trusted(encoded, group_depth);
        Ok(())
    }

    /// Appends fields the decoder has just read and so already checked,
    /// whose groups nest `group_depth` deep.
    #[inline]
    pub(crate) fn extend_trusted(&mut self, encoded: &[u8], group_depth: u32) {
        let contents = self.bytes.get_mut();
        contents.bytes.extend_from_slice(encoded);
        contents.group_depth = contents.group_depth.max(group_depth);
    }

    /// Appends a varint field, as used for closed-enum values the schema
    /// does not list.
    ///
    /// # Panics
    ///
    /// Panics if `field_number` is 0 or above `2^29 - 1`, which no field
    /// may have.
    pub fn push_varint(&mut self, field_number: u32, value: u64) {
        let (buf, len) = varint_field(field_number, value);
        self.extend_trusted(&buf[..len], 0);
    }

    /// Drops every kept field, keeping the allocation.
    pub fn clear(&mut self) {
        if !self.is_empty() {
            let contents = self.bytes.get_mut();
            contents.bytes.clear();
            contents.group_depth = 0;
        }
    }

    /// Bytes the fields take when written.
    #[inline]
    pub fn encoded_len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Writes the fields back exactly as they were read: the last step of
    /// a message's write pass.
    #[inline]
    pub fn write(&self, encoder: &mut Encoder<'_>) {
        let bytes = self.as_bytes();
        if !bytes.is_empty() {
            encoder.put_slice(bytes);
        }
    }

    /// Iterates over the kept fields.
    ///
    /// Every way of adding fields checks them (decoding, and
    /// [`UnknownFields::push_raw`]), so iteration yields every kept field.
    pub fn iter(&self) -> impl Iterator<Item = UnknownField<'_>> + '_ {
        fields_in(self.as_bytes())
    }

    /// Keeps only the fields for which `keep` returns `true`, in their
    /// order, and drops the others (all occurrences of a field number, for
    /// instance: `retain(|field| field.number != 100)`).
    pub fn retain(&mut self, mut keep: impl FnMut(&UnknownField<'_>) -> bool) {
        let mut dropped: Vec<Range<usize>> = Vec::new();
        let bytes = self.as_bytes();
        for span in spans_in(bytes) {
            if !keep(&span.field) {
                let start = span.encoded.as_ptr() as usize - bytes.as_ptr() as usize;
                dropped.push(start..start + span.encoded.len());
            }
        }
        if dropped.is_empty() {
            return;
        }
        let contents = self.bytes.get_mut();
        // Moves each run of kept fields down over the dropped ones.
        let end = contents.bytes.len();
        let mut write = 0;
        let mut read = 0;
        for range in dropped.into_iter().chain(core::iter::once(end..end)) {
            contents.bytes.copy_within(read..range.start, write);
            write += range.start - read;
            read = range.end;
        }
        contents.bytes.truncate(write);
        if contents.group_depth > 0 {
            // What is left is whole fields of a well-formed set.
            contents.group_depth = check_well_formed(&contents.bytes).unwrap_or(u32::MAX);
        }
    }

    /// The kept fields with the bytes each one occupies.
    pub(crate) fn spans(&self) -> impl Iterator<Item = FieldSpan<'_>> + '_ {
        spans_in(self.as_bytes())
    }
}

/// One kept field and where it sits in the encoded bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldSpan<'a> {
    /// The field, interpreted as far as its wire type allows.
    pub(crate) field: UnknownField<'a>,
    /// The whole field as encoded, key included.
    pub(crate) encoded: &'a [u8],
    /// The value as encoded: what follows the key (for a group, up to and
    /// including its end-group key).
    pub(crate) value: &'a [u8],
}

/// The fields in `bytes`, which decoding (or [`UnknownFields::push_raw`])
/// has checked to be whole, well-formed fields.
pub(crate) fn fields_in(bytes: &[u8]) -> impl Iterator<Item = UnknownField<'_>> + '_ {
    spans_in(bytes).map(|span| span.field)
}

/// The fields in `bytes`, checked as for [`fields_in`], with their spans.
fn spans_in(bytes: &[u8]) -> impl Iterator<Item = FieldSpan<'_>> + '_ {
    // Groups are scanned without recursion (see `read_group_body`), so no
    // limit is needed to protect the stack, and the bytes were already
    // checked against the limit they were decoded under.
    let options = DecodeOptions::new().with_recursion_limit(u32::MAX);
    let mut decoder = Some(Decoder::any_length(bytes, &options));
    core::iter::from_fn(move || {
        let d = decoder.as_mut()?;
        let start = d.remaining_slice();
        let before = d.remaining();
        let Some((field, key_len)) = read_unknown_field(d).ok().flatten() else {
            decoder = None;
            return None;
        };
        let encoded = &start[..before - d.remaining()];
        let value = &encoded[key_len..];
        Some(FieldSpan {
            field,
            encoded,
            value,
        })
    })
}

impl PartialEq for UnknownFields {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for UnknownFields {}

impl core::hash::Hash for UnknownFields {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

/// Heap bytes an `UnknownFields` allocates for its own storage when its
/// first field arrives, which the decoder charges to the allocation budget.
pub(crate) const UNKNOWN_STORAGE_SIZE: usize = size_of::<storage::Contents>();

/// Checks that `encoded` is a sequence of whole, well-formed fields, and
/// returns how deeply groups nest in them.
pub(crate) fn check_well_formed(encoded: &[u8]) -> Result<u32, DecodeError> {
    // Groups are matched without recursion (see `read_group_body`), so any
    // depth is safe to check.
    let options = DecodeOptions::new().with_recursion_limit(u32::MAX);
    let mut d = Decoder::new(encoded, &options)?;
    let mut depth = 0;
    while let Some(tag) = d.read_tag()? {
        match tag.wire_type() {
            WireType::StartGroup => {
                let (_, group_depth) = read_group_body(&mut d, tag)?;
                depth = depth.max(group_depth);
            }
            WireType::EndGroup => {
                return Err(d.error(crate::DecodeErrorKind::UnmatchedEndGroup {
                    field_number: tag.field_number(),
                }));
            }
            _ => d.skip_field(tag)?,
        }
    }
    Ok(depth)
}

/// Reads one field and the length of its key.
fn read_unknown_field<'a>(
    d: &mut Decoder<'a>,
) -> Result<Option<(UnknownField<'a>, usize)>, DecodeError> {
    let Some(tag) = d.read_tag()? else {
        return Ok(None);
    };
    let key_len = d.last_tag_len();
    let value = match tag.wire_type() {
        WireType::Varint => UnknownValue::Varint(d.read_varint()?),
        WireType::Fixed64 => UnknownValue::Fixed64(d.read_fixed64()?),
        WireType::Fixed32 => UnknownValue::Fixed32(d.read_fixed32()?),
        WireType::LengthDelimited => UnknownValue::LengthDelimited(d.read_length_delimited()?),
        WireType::StartGroup => UnknownValue::Group(read_group_body(d, tag)?.0),
        WireType::EndGroup => return Ok(None),
    };
    let field = UnknownField {
        number: tag.field_number(),
        value,
    };
    Ok(Some((field, key_len)))
}

/// Returns the bytes between a start-group key and its end-group key, and
/// how deeply groups nest there (1 for a group without nested groups).
///
/// Nested groups are matched with an explicit stack rather than recursion,
/// so bytes appended with [`UnknownFields::push_raw`] cannot exhaust the
/// call stack however deeply their groups nest; the stack grows with the
/// input, one entry per open group.
fn read_group_body<'a>(d: &mut Decoder<'a>, start: Tag) -> Result<(&'a [u8], u32), DecodeError> {
    let body = d.remaining_slice();
    let before = d.remaining();
    let mut open = vec![start.field_number()];
    let mut deepest = 1;
    while let Some(tag) = d.read_tag()? {
        match tag.wire_type() {
            WireType::StartGroup => {
                open.push(tag.field_number());
                deepest = deepest.max(open.len());
            }
            WireType::EndGroup => {
                let innermost = open.pop().unwrap_or(start.field_number());
                d.check_end_group(tag, innermost)?;
                if open.is_empty() {
                    let depth = u32::try_from(deepest).unwrap_or(u32::MAX);
                    return Ok((&body[..before - d.remaining() - d.last_tag_len()], depth));
                }
            }
            _ => d.skip_field(tag)?,
        }
    }
    Err(d.error(crate::DecodeErrorKind::MissingEndGroup {
        field_number: start.field_number(),
    }))
}

impl fmt::Debug for UnknownFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

mod storage {
    //! The pointer behind [`UnknownFields`](super::UnknownFields).

    use alloc::{boxed::Box, vec::Vec};
    use core::ptr::{self, NonNull};

    /// What an `UnknownFields` holds: the encoded fields, and how deeply
    /// groups nest in them.
    #[derive(Clone)]
    pub(super) struct Contents {
        pub(super) bytes: Vec<u8>,
        pub(super) group_depth: u32,
    }

    /// The shared empty set every empty [`Storage`] points at. It is only
    /// ever read.
    static EMPTY: Contents = Contents {
        bytes: Vec::new(),
        group_depth: 0,
    };

    /// An owned, boxed [`Contents`], or a pointer to [`EMPTY`]: one word
    /// that is never null.
    ///
    /// `Option<Box<Contents>>` would also be one word, but it spends the null
    /// niche on its own `None`; keeping null free lets every message type
    /// have a niche, so `Option<Message>` (an inline sub-message field)
    /// needs no extra tag and word of padding. On the mesh benchmark this
    /// shrank a triangle of four inline vectors from 136 to 104 bytes.
    ///
    /// The pointer is stored with an alignment of 4 (`packed(4)`), so that a
    /// message of 4-byte fields keeps an alignment of 4 and no padding
    /// after its fields: a `Vector3` of three floats is 20 bytes instead of
    /// 24, and that triangle 88. Every access copies the pointer out
    /// (an unaligned load, as cheap as an aligned one on the targets Rust
    /// supports well); no reference to the field is ever taken.
    #[repr(C, packed(4))]
    pub(super) struct Storage(NonNull<Contents>);

    // SAFETY: a `Storage` either owns its `Contents` (which is `Send` and
    // `Sync`) exclusively, or points at the immutable static `EMPTY`.
    unsafe impl Send for Storage {}
    // SAFETY: as above; shared access only ever reads.
    unsafe impl Sync for Storage {}

    impl Storage {
        /// Points at the shared empty set; allocates nothing.
        #[inline]
        pub(super) const fn empty() -> Storage {
            // SAFETY: the address of a static is never null. `EMPTY` is
            // never written through this pointer (see `get_mut`) nor freed
            // (see `Drop`).
            Storage(unsafe { NonNull::new_unchecked(ptr::addr_of!(EMPTY).cast_mut()) })
        }

        /// The pointer, copied out of the packed field.
        #[inline]
        fn pointer(&self) -> NonNull<Contents> {
            self.0
        }

        #[inline]
        fn is_shared(&self) -> bool {
            ptr::eq(self.pointer().as_ptr(), ptr::addr_of!(EMPTY))
        }

        /// The contents.
        #[inline]
        pub(super) fn get(&self) -> &Contents {
            // SAFETY: the pointer is either `EMPTY`, valid for the program's
            // lifetime, or a box this `Storage` owns, valid while `self` is.
            unsafe { self.pointer().as_ref() }
        }

        /// The contents, mutably, first giving this set its own allocation
        /// if it still points at the shared empty one.
        pub(super) fn get_mut(&mut self) -> &mut Contents {
            if self.is_shared() {
                self.0 = NonNull::from(Box::leak(Box::new(Contents {
                    bytes: Vec::new(),
                    group_depth: 0,
                })));
            }
            // SAFETY: the pointer is now a box this `Storage` owns
            // exclusively, borrowed mutably through `&mut self`.
            unsafe { self.pointer().as_mut() }
        }
    }

    impl Default for Storage {
        fn default() -> Self {
            Storage::empty()
        }
    }

    impl Clone for Storage {
        fn clone(&self) -> Self {
            let contents = self.get();
            if contents.bytes.is_empty() {
                Storage::empty()
            } else {
                Storage(NonNull::from(Box::leak(Box::new(contents.clone()))))
            }
        }
    }

    impl Drop for Storage {
        #[inline]
        fn drop(&mut self) {
            if !self.is_shared() {
                // SAFETY: a non-shared pointer came from `Box::leak` in
                // `get_mut` or `clone` and is owned by this `Storage` only.
                drop(unsafe { Box::from_raw(self.pointer().as_ptr()) });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;
    use std::{format, vec};

    use super::*;

    #[test]
    fn empty_set_is_one_pointer_and_does_not_allocate() {
        assert_eq!(
            core::mem::size_of::<UnknownFields>(),
            core::mem::size_of::<usize>()
        );
        // The pointer is never null, so options of messages need no tag.
        assert_eq!(
            core::mem::size_of::<Option<UnknownFields>>(),
            core::mem::size_of::<usize>()
        );
        assert!(UnknownFields::new().is_empty());
        assert_eq!(UnknownFields::new().encoded_len(), 0);
    }

    #[test]
    fn messages_of_four_byte_fields_need_no_padding() {
        assert_eq!(core::mem::align_of::<UnknownFields>(), 4);
        #[allow(dead_code)]
        struct Vector3 {
            x: f32,
            y: f32,
            z: f32,
            unknown_fields: UnknownFields,
        }
        assert_eq!(core::mem::size_of::<Vector3>(), 20);
        assert_eq!(core::mem::size_of::<Option<Vector3>>(), 20);
        // Beside a `u32` a set may sit at an address that is a multiple of
        // 4 but not of 8; it still reads and drops.
        let mut set = UnknownFields::new();
        set.push_varint(1, 1);
        let holder = (0u32, set);
        assert_eq!(holder.1.as_bytes(), &[0x08, 0x01]);
    }

    #[test]
    fn deeply_nested_raw_groups_iterate_without_recursion() {
        // Smaller under Miri, where 200,000 levels take over ten minutes.
        let depth = if cfg!(miri) { 500 } else { 200_000 };
        let mut raw = vec![0x0b; depth];
        raw.extend(std::iter::repeat_n(0x0c, depth));
        let mut unknown = UnknownFields::new();
        unknown.push_raw(&raw).unwrap();
        let fields: Vec<_> = unknown.iter().collect();
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].value, UnknownValue::Group(&raw[1..raw.len() - 1]));
        assert!(format!("{unknown:?}").starts_with("[UnknownField"));
    }

    #[test]
    fn push_raw_refuses_malformed_fields_and_keeps_nothing_of_them() {
        use crate::DecodeErrorKind::*;
        let cases: [(&[u8], crate::DecodeErrorKind); 6] = [
            (&[0x08], Truncated),
            (
                &[0x0a, 0x05, 1, 2],
                LengthOutOfBounds {
                    length: 5,
                    remaining: 2,
                },
            ),
            (&[0x0b, 0x08, 0x01], MissingEndGroup { field_number: 1 }),
            (&[0x0b, 0x14], UnmatchedEndGroup { field_number: 2 }),
            (&[0x0c], UnmatchedEndGroup { field_number: 1 }),
            (
                &[
                    0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02,
                ],
                VarintOverflow,
            ),
        ];
        for (bytes, kind) in cases {
            let mut unknown = UnknownFields::new();
            unknown.push_varint(1, 1);
            assert_eq!(
                unknown.push_raw(bytes).unwrap_err().kind(),
                &kind,
                "{bytes:x?}"
            );
            assert_eq!(unknown.as_bytes(), [0x08, 0x01], "nothing appended");
        }
    }

    #[test]
    fn clones_and_drops_own_their_bytes() {
        let mut original = UnknownFields::new();
        original.push_varint(1, 7);
        let copy = original.clone();
        original.push_varint(2, 8);
        drop(original);
        assert_eq!(copy.as_bytes(), [0x08, 0x07]);
        let empty_copy = UnknownFields::new().clone();
        assert!(empty_copy.is_empty());
    }

    #[test]
    fn iterates_every_wire_type() {
        let mut unknown = UnknownFields::new();
        unknown.push_varint(1, 150);
        unknown.push_raw(&[0x11, 1, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        unknown.push_raw(&[0x1a, 0x02, 0xaa, 0xbb]).unwrap();
        unknown.push_raw(&[0x23, 0x08, 0x01, 0x24]).unwrap();
        unknown.push_raw(&[0x2d, 2, 0, 0, 0]).unwrap();
        let fields: Vec<_> = unknown.iter().collect();
        assert_eq!(
            fields,
            [
                UnknownField {
                    number: 1,
                    value: UnknownValue::Varint(150)
                },
                UnknownField {
                    number: 2,
                    value: UnknownValue::Fixed64(1)
                },
                UnknownField {
                    number: 3,
                    value: UnknownValue::LengthDelimited(&[0xaa, 0xbb])
                },
                UnknownField {
                    number: 4,
                    value: UnknownValue::Group(&[0x08, 0x01])
                },
                UnknownField {
                    number: 5,
                    value: UnknownValue::Fixed32(2)
                },
            ]
        );
    }

    #[test]
    fn retain_drops_every_field_refused_and_keeps_the_order_of_the_rest() {
        let mut unknown = UnknownFields::new();
        unknown.push_varint(1, 7);
        // Field 2 as a group nesting another group, then as bytes.
        unknown.push_raw(&[0x13, 0x1b, 0x1c, 0x14]).unwrap();
        unknown.push_raw(&[0x2d, 1, 2, 3, 4]).unwrap();
        unknown.push_raw(&[0x12, 0x01, 0xaa]).unwrap();
        unknown.push_varint(1, 8);
        assert_eq!(unknown.group_depth(), 2);
        unknown.retain(|field| field.number != 2);
        assert_eq!(unknown.as_bytes(), [0x08, 7, 0x2d, 1, 2, 3, 4, 0x08, 8]);
        // No group is left to count against the recursion limit.
        assert_eq!(unknown.group_depth(), 0);

        // By value: only the second occurrence of field 1 goes.
        unknown.retain(|field| field.value != UnknownValue::Varint(8));
        assert_eq!(unknown.as_bytes(), [0x08, 7, 0x2d, 1, 2, 3, 4]);
        let before = unknown.clone();
        unknown.retain(|_| true);
        assert_eq!(unknown, before);
        unknown.retain(|_| false);
        assert!(unknown.is_empty());
        // An empty set stays unallocated.
        let mut empty = UnknownFields::new();
        empty.retain(|_| false);
        assert!(empty.is_empty());
    }

    #[test]
    fn spans_split_key_and_value_for_every_wire_type() {
        let mut unknown = UnknownFields::new();
        // A key written in two bytes where one would do, as a hostile or
        // unusual encoder may.
        unknown.push_raw(&[0x88, 0x00, 0x96, 0x01]).unwrap();
        unknown.push_raw(&[0x1a, 0x02, 0xaa, 0xbb]).unwrap();
        unknown.push_raw(&[0x23, 0x08, 0x01, 0x24]).unwrap();
        let spans: Vec<_> = unknown.spans().collect();
        let parts: Vec<(&[u8], &[u8])> = spans.iter().map(|s| (s.encoded, s.value)).collect();
        assert_eq!(
            parts,
            [
                (&[0x88, 0x00, 0x96, 0x01][..], &[0x96, 0x01][..]),
                (&[0x1a, 0x02, 0xaa, 0xbb][..], &[0x02, 0xaa, 0xbb][..]),
                (&[0x23, 0x08, 0x01, 0x24][..], &[0x08, 0x01, 0x24][..]),
            ]
        );
        assert_eq!(spans[0].field.value, UnknownValue::Varint(150));
        assert_eq!(spans[2].field.value.wire_type(), WireType::StartGroup);
    }

    #[test]
    fn clear_empties() {
        let mut unknown = UnknownFields::new();
        unknown.push_varint(3, 1);
        assert!(!unknown.is_empty());
        unknown.clear();
        assert!(unknown.is_empty());
        assert_eq!(unknown.as_bytes(), &[] as &[u8]);
    }
}
