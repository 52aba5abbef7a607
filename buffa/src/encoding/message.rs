//! Field helpers for message-typed fields, length-prefixed or delimited
//! (group) encoded.

use super::repeated::Elements;
use crate::error::DecodeError;
use crate::message::{Encodable, Mergeable};
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::SizeCache;
use crate::wire::{Tag, WireType, tag_len, varint_len};
use alloc::{boxed::Box, vec::Vec};

/// Size of one length-prefixed message, key included; records its length.
/// A message nested deeper than the recursion limit is not sized (see
/// [`SizeCache::enter`]) and the encode fails.
#[inline]
pub fn size<M: Encodable>(field_number: u32, message: &M, cache: &mut SizeCache) -> usize {
    let unknown_depth = message.unknown_group_depth();
    let len = if M::CACHES_SIZES {
        if !cache.enter(unknown_depth) {
            return 0;
        }
        let slot = cache.reserve();
        let len = message.compute_size(cache);
        cache.set(slot, len);
        cache.leave();
        len
    } else {
        // A leaf holds no messages, so checking its own level suffices.
        if !cache.can_enter(unknown_depth) {
            return 0;
        }
        message.compute_size(cache)
    };
    tag_len(field_number) + varint_len(len as u64) + len
}

/// Writes one length-prefixed message, key included.
#[inline]
pub fn write<M: Encodable>(
    field_number: u32,
    message: &M,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    encoder.put_tag(field_number, WireType::LengthDelimited);
    if M::CACHES_SIZES {
        encoder.put_varint(cache.next_size() as u64);
        message.write_to(cache, encoder);
    } else {
        // A leaf is written first and its length filled in after, rather
        // than sized a second time.
        let prefix_at = encoder.begin_length_prefixed();
        message.write_to(cache, encoder);
        encoder.end_length_prefixed(prefix_at);
    }
}

/// Merges one length-prefixed message into `message`, which the caller
/// has already stored (a oneof variant, a map value).
///
/// The merge helpers charge the allocation budget for the heap memory
/// they add: a repeated element, a singular field behind a pointer that
/// [allocates](ProtoBox::ALLOCATES), and a boxed oneof variant (through
/// [`new_boxed`]). Inline fields and unboxed oneof variants live in their
/// parent and cost nothing extra.
#[inline]
pub fn merge<'a, M: Mergeable<'a>>(
    tag: Tag,
    message: &mut M,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    decoder.read_nested(|d| message.merge_from(d))
}

/// Size of a singular message field: zero when unset.
#[inline]
pub fn size_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    cache: &mut SizeCache,
) -> usize {
    // `match` and `for` rather than `map_or` and `sum`: each adapter is one
    // more instantiation per message type in a generated crate.
    match field.as_option() {
        Some(message) => size(field_number, message, cache),
        None => 0,
    }
}

/// Writes a singular message field if it is set.
#[inline]
pub fn write_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    if let Some(message) = field.as_option() {
        write(field_number, message, cache, encoder);
    }
}

/// Merges into a singular message field: a field seen twice merges into the
/// first value.
#[inline]
pub fn merge_field<'a, M: Mergeable<'a>, P: ProtoBox<M>>(
    tag: Tag,
    field: &mut MessageField<M, P>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    charge_pointer::<M, P>(field, decoder)?;
    let message = field.get_or_insert_default();
    decoder.read_nested(|d| message.merge_from(d))
}

/// Charges the allocation a singular field's first value makes through a
/// heap pointer.
#[inline]
fn charge_pointer<M, P: ProtoBox<M>>(
    field: &MessageField<M, P>,
    decoder: &mut Decoder<'_>,
) -> Result<(), DecodeError> {
    if P::ALLOCATES && !field.is_set() {
        decoder.charge(size_of::<M>())?;
    }
    Ok(())
}

/// A new default message in a box, for a boxed oneof variant about to be
/// decoded in place; charges the allocation to the budget.
#[inline]
pub fn new_boxed<'a, M: Mergeable<'a>>(decoder: &mut Decoder<'a>) -> Result<Box<M>, DecodeError> {
    decoder.charge(size_of::<M>())?;
    Ok(Box::default())
}

/// Size of a repeated message field.
#[inline]
pub fn size_repeated<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    cache: &mut SizeCache,
) -> usize {
    let mut total = 0;
    messages.each(|message| total += size(field_number, message, cache));
    total
}

/// Writes a repeated message field.
#[inline]
pub fn write_repeated<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    messages.each(|message| write(field_number, message, cache, encoder));
}

/// Checks a message field (singular or a oneof member), whose key `tag`
/// was just read, as [`merge_field`] reads it, keeping nothing (a view's
/// `check_field`).
#[inline]
pub fn check<'a, M: Mergeable<'a>>(tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    decoder.read_nested(crate::message::check_fields::<M>)
}

/// [`check`] for a group-encoded message field.
#[inline]
pub fn check_group<'a, M: Mergeable<'a>>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::StartGroup)?;
    decoder.read_group(|d| crate::message::check_group_fields::<M>(tag.field_number(), d))
}

/// Merges one element of a repeated message field: appends it.
#[inline]
pub fn merge_repeated<'a, M: Mergeable<'a>>(
    tag: Tag,
    messages: &mut Vec<M>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    decoder.charge(size_of::<M>())?;
    if messages.capacity() == 0 {
        // The first element: make room for every element this message
        // holds at once, rather than growing (and moving the elements)
        // step by step. Each element is still charged as it is decoded,
        // and the room reserved ahead stays within the budget left.
        // The room reserved ahead stays within a few times the input left,
        // so elements of a type far larger than their encoding (empty
        // messages, two bytes each) cannot allocate far ahead of what
        // decoding has checked; beyond that the vector grows as usual.
        // The vector holds nothing yet, so a new one replaces it: a direct
        // allocation, which `reserve`'s growth path reaches only after its
        // own checks (see `repeated::reserve`).
        let count = decoder.estimate_count(tag);
        let by_input = decoder.remaining().saturating_mul(4) / size_of::<M>().max(1);
        let by_budget = decoder.affordable(size_of::<M>());
        *messages = Vec::with_capacity(count.min(by_input).min(by_budget).max(1));
    }
    // Decode in place: a large inline message built on the stack and moved
    // would cost a stack frame its size per nesting level.
    messages.push(M::default());
    let result = match messages.last_mut() {
        Some(message) => decoder.read_nested(|d| message.merge_from(d)),
        None => Ok(()),
    };
    if result.is_err() {
        messages.pop();
    }
    result
}

/// Size of one group-encoded (delimited) message, keys included. Groups
/// count against the recursion limit like length-prefixed messages.
#[inline]
pub fn size_group<M: Encodable>(field_number: u32, message: &M, cache: &mut SizeCache) -> usize {
    if !cache.enter(message.unknown_group_depth()) {
        return 0;
    }
    let len = message.compute_size(cache);
    cache.leave();
    2 * tag_len(field_number) + len
}

/// Writes one group-encoded message between its start and end keys.
#[inline]
pub fn write_group<M: Encodable>(
    field_number: u32,
    message: &M,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    encoder.put_tag(field_number, WireType::StartGroup);
    message.write_to(cache, encoder);
    encoder.put_tag(field_number, WireType::EndGroup);
}

/// Merges one group-encoded message into `message`.
#[inline]
pub fn merge_group<'a, M: Mergeable<'a>>(
    tag: Tag,
    message: &mut M,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::StartGroup)?;
    decoder.read_group(|d| message.merge_group(tag.field_number(), d))
}

/// Size of a singular group-encoded field: zero when unset.
#[inline]
pub fn size_group_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    cache: &mut SizeCache,
) -> usize {
    match field.as_option() {
        Some(message) => size_group(field_number, message, cache),
        None => 0,
    }
}

/// Writes a singular group-encoded field if it is set.
#[inline]
pub fn write_group_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    if let Some(message) = field.as_option() {
        write_group(field_number, message, cache, encoder);
    }
}

/// Merges into a singular group-encoded field.
#[inline]
pub fn merge_group_field<'a, M: Mergeable<'a>, P: ProtoBox<M>>(
    tag: Tag,
    field: &mut MessageField<M, P>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.check_wire_type(tag, WireType::StartGroup)?;
    charge_pointer::<M, P>(field, decoder)?;
    let message = field.get_or_insert_default();
    decoder.read_group(|d| message.merge_group(tag.field_number(), d))
}

/// Size of a repeated group-encoded field.
#[inline]
pub fn size_repeated_group<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    cache: &mut SizeCache,
) -> usize {
    let mut total = 0;
    messages.each(|message| total += size_group(field_number, message, cache));
    total
}

/// Writes a repeated group-encoded field.
#[inline]
pub fn write_repeated_group<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    cache: &mut SizeCache,
    encoder: &mut Encoder<'_>,
) {
    messages.each(|message| write_group(field_number, message, cache, encoder));
}

/// Merges one element of a repeated group-encoded field: appends it.
#[inline]
pub fn merge_repeated_group<'a, M: Mergeable<'a>>(
    tag: Tag,
    messages: &mut Vec<M>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError> {
    decoder.charge(size_of::<M>())?;
    messages.push(M::default());
    let result = match messages.last_mut() {
        Some(message) => merge_group(tag, message, decoder),
        None => Ok(()),
    };
    if result.is_err() {
        messages.pop();
    }
    result
}
