//! Field helpers for the back-to-front writer ([`BackwardEncoder`]): what
//! a generated `write_backward` calls, one function per field shape, in
//! reverse field order.
//!
//! Only message-typed values (sub-messages, groups, map entries) are
//! written back to front, so that their lengths come for free. Everything
//! whose length is cheap to know (scalars, strings, repeated and packed
//! scalars, leaf messages, maps of scalars or leaf messages, unknown
//! fields) is written front to back into room claimed in front of what is
//! written, through the same forward helpers the two-pass encoder uses,
//! which keeps the bytes identical by construction.

use crate::message::Encodable;
use crate::message::Mergeable;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;
use crate::view::{LazyField, LazyRepeated};
use crate::wire::{BackwardEncoder, Decoder, Encoder, SizeCache, WireType, tag_len, varint_len};

use super::map::{MapEntries, MapValue};
use super::repeated::Elements;
use super::types::{Packable, ScalarType};
use super::{lazy, map, repeated, scalar};

/// A message's kept unknown fields, owned or viewed: written as they
/// were read, last on the wire and so first back to front.
pub trait UnknownBytes {
    /// Bytes the fields take.
    fn encoded_len(&self) -> usize;
    /// Writes the fields front to back.
    fn write(&self, encoder: &mut Encoder<'_>);
}

impl UnknownBytes for crate::UnknownFields {
    #[inline]
    fn encoded_len(&self) -> usize {
        self.encoded_len()
    }

    #[inline]
    fn write(&self, encoder: &mut Encoder<'_>) {
        self.write(encoder);
    }
}

impl UnknownBytes for crate::view::UnknownFieldsView<'_> {
    #[inline]
    fn encoded_len(&self) -> usize {
        self.encoded_len()
    }

    #[inline]
    fn write(&self, encoder: &mut Encoder<'_>) {
        self.write(encoder);
    }
}

/// Writes a message's unknown fields.
#[inline]
pub fn unknown<U: UnknownBytes>(fields: &U, encoder: &mut BackwardEncoder<'_>) {
    let len = fields.encoded_len();
    if len > 0 {
        encoder.put_forward(len, |e| fields.write(e));
    }
}

/// Writes a field that is always written (oneof members, required
/// fields).
#[inline]
pub fn scalar<S: ScalarType>(
    field_number: u32,
    value: &S::Value,
    encoder: &mut BackwardEncoder<'_>,
) {
    let len = scalar::size::<S>(field_number, value);
    encoder.put_forward(len, |e| scalar::write::<S>(field_number, value, e));
}

/// Writes an implicit-presence field unless its value is the default.
#[inline]
pub fn scalar_implicit<S: ScalarType>(
    field_number: u32,
    value: &S::Value,
    encoder: &mut BackwardEncoder<'_>,
) {
    if !S::is_default(value) {
        scalar::<S>(field_number, value, encoder);
    }
}

/// Writes an explicit-presence field if it is set.
#[inline]
pub fn scalar_optional<S: ScalarType>(
    field_number: u32,
    value: &Option<S::Value>,
    encoder: &mut BackwardEncoder<'_>,
) {
    if let Some(value) = value {
        scalar::<S>(field_number, value, encoder);
    }
}

/// Writes an expanded repeated field: a key before every value.
#[inline]
pub fn expanded<S: ScalarType>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
    encoder: &mut BackwardEncoder<'_>,
) {
    if values.count() == 0 {
        return;
    }
    let len = repeated::size_expanded::<S>(field_number, values);
    encoder.put_forward(len, |e| {
        repeated::write_expanded::<S>(field_number, values, e)
    });
}

/// Writes a packed field: one key, one length, all values.
#[inline]
pub fn packed<S: Packable>(
    field_number: u32,
    values: &(impl Elements<S::Value> + ?Sized),
    encoder: &mut BackwardEncoder<'_>,
) {
    if values.count() == 0 {
        return;
    }
    let payload = repeated::packed_payload_len::<S>(values);
    let len = tag_len(field_number) + varint_len(payload as u64) + payload;
    encoder.put_forward(len, |e| {
        e.put_tag(field_number, WireType::LengthDelimited);
        e.put_varint(payload as u64);
        values.each(|value| S::encode(value, e));
    });
}

/// Writes one length-prefixed message, key included. A leaf message (no
/// nested lengths to cache) is sized and written front to back; any other
/// is written back to front and its length read off the encoder. A
/// message nested deeper than the recursion limit is skipped and the
/// encode fails.
#[inline]
pub fn message<M: Encodable>(field_number: u32, message: &M, encoder: &mut BackwardEncoder<'_>) {
    let unknown_depth = message.unknown_group_depth();
    if M::CACHES_SIZES {
        if !encoder.enter(unknown_depth) {
            return;
        }
        let start = encoder.written();
        message.write_backward(encoder);
        encoder.leave();
        let len = encoder.written() - start;
        encoder.put_key_and_length(field_number, len);
    } else {
        if !encoder.can_enter(unknown_depth) {
            return;
        }
        leaf(field_number, message, encoder);
    }
}

/// Sizes and writes a leaf message front to back, key and length included.
#[inline]
fn leaf<M: Encodable>(field_number: u32, message: &M, encoder: &mut BackwardEncoder<'_>) {
    // A leaf never touches the cache, so this one never allocates.
    let mut cache = SizeCache::new();
    let body = message.compute_size(&mut cache);
    let len = tag_len(field_number) + varint_len(body as u64) + body;
    encoder.put_forward(len, |e| {
        e.put_tag(field_number, WireType::LengthDelimited);
        e.put_varint(body as u64);
        message.write_to(&mut cache, e);
    });
}

/// Writes a singular message field if it is set.
#[inline]
pub fn message_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    encoder: &mut BackwardEncoder<'_>,
) {
    if let Some(value) = field.as_option() {
        message(field_number, value, encoder);
    }
}

/// Writes a repeated message field: last element first where the
/// elements are a slice; otherwise (a view's sequence, which reads
/// forward only) first element first, and the written fields are then put
/// back in order in place, as for maps.
#[inline]
pub fn repeated_message<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    encoder: &mut BackwardEncoder<'_>,
) {
    match messages.as_slice() {
        Some(messages) => {
            for value in messages.iter().rev() {
                message(field_number, value, encoder);
            }
        }
        None => in_order(encoder, |encoder| {
            messages.each(|value| message(field_number, value, encoder));
        }),
    }
}

/// Runs `write`, which writes whole fields back to front in the order
/// they belong on the wire (so leaves them reversed), then puts what it
/// wrote back in order.
fn in_order(encoder: &mut BackwardEncoder<'_>, write: impl FnOnce(&mut BackwardEncoder<'_>)) {
    let start = encoder.written();
    write(encoder);
    let len = encoder.written() - start;
    if let Some(fields) = encoder.last_written_mut(len) {
        reverse_fields(fields);
    }
}

/// Writes one group-encoded message between its start and end keys.
#[inline]
pub fn group<M: Encodable>(field_number: u32, message: &M, encoder: &mut BackwardEncoder<'_>) {
    if !encoder.enter(message.unknown_group_depth()) {
        return;
    }
    encoder.put_tag(field_number, WireType::EndGroup);
    message.write_backward(encoder);
    encoder.put_tag(field_number, WireType::StartGroup);
    encoder.leave();
}

/// Writes a singular group-encoded field if it is set.
#[inline]
pub fn group_field<M: Encodable, P: ProtoBox<M>>(
    field_number: u32,
    field: &MessageField<M, P>,
    encoder: &mut BackwardEncoder<'_>,
) {
    if let Some(value) = field.as_option() {
        group(field_number, value, encoder);
    }
}

/// Writes a repeated group-encoded field, in the order
/// [`repeated_message`] takes.
#[inline]
pub fn repeated_group<M: Encodable>(
    field_number: u32,
    messages: &(impl Elements<M> + ?Sized),
    encoder: &mut BackwardEncoder<'_>,
) {
    match messages.as_slice() {
        Some(messages) => {
            for value in messages.iter().rev() {
                group(field_number, value, encoder);
            }
        }
        None => in_order(encoder, |encoder| {
            messages.each(|value| group(field_number, value, encoder));
        }),
    }
}

/// Writes a map field. Maps whose values are scalars or leaf messages
/// are sized and written front to back in the map's own order (or key
/// order when deterministic), as the two-pass encoder writes them. Maps
/// of other messages are written back to front, entry by entry in that
/// same order, which leaves the entries reversed; they are then put back
/// in order in place (`reverse_fields`), so the bytes are the two-pass
/// encoder's and nothing is allocated. Only a deterministic encode of an
/// unordered map (`HashMap`) collects its entries to sort them, as the
/// two-pass encoder does.
pub fn map<K, V, C>(field_number: u32, map: &C, encoder: &mut BackwardEncoder<'_>)
where
    K: ScalarType<Value: Ord>,
    V: MapValue,
    C: MapEntries<K::Value, V::Value> + ?Sized,
{
    if V::LEAF {
        forward(
            encoder,
            |cache| leaf_map_size::<K, V, C>(field_number, map, cache),
            |cache, e| {
                map::for_each_entry(map, cache, |key, value, cache| {
                    let len = 1 + K::encoded_len(key) + V::size(value, cache);
                    e.put_tag(field_number, WireType::LengthDelimited);
                    e.put_varint(len as u64);
                    e.put_tag(1, K::WIRE_TYPE);
                    K::encode(key, e);
                    V::write(value, cache, e);
                })
            },
        );
        return;
    }
    if map.is_empty() || !encoder.enter(0) {
        return;
    }
    let sorted = encoder.deterministic();
    in_order(encoder, |encoder| {
        map.visit(sorted, |key, value| {
            entry::<K, V>(field_number, key, value, encoder);
        });
    });
    encoder.leave();
}

/// Writes one map entry back to front: value, key, then the entry's
/// length and key.
#[inline]
fn entry<K: ScalarType, V: MapValue>(
    field_number: u32,
    key: &K::Value,
    value: &V::Value,
    encoder: &mut BackwardEncoder<'_>,
) {
    let start = encoder.written();
    V::write_backward(value, encoder);
    encoder.put_forward(1 + K::encoded_len(key), |e| {
        e.put_tag(1, K::WIRE_TYPE);
        K::encode(key, e);
    });
    let len = encoder.written() - start;
    encoder.put_key_and_length(field_number, len);
}

/// Reverses the order of the fields in `fields` in place, in linear
/// time: each field's bytes are reversed, then the whole run, which
/// turns `C B A` into `rev(C) rev(B) rev(A)` and then into `A B C`.
/// `fields` is what this module just wrote, so it parses.
fn reverse_fields(fields: &mut [u8]) {
    let mut start = 0;
    while start < fields.len() {
        let mut decoder = Decoder::checked(&fields[start..]);
        let end = match decoder.read_tag() {
            Ok(Some(tag)) if decoder.skip_field(tag).is_ok() => start + decoder.offset(),
            _ => {
                debug_assert!(false, "a field just written does not parse");
                return;
            }
        };
        fields[start..end].reverse();
        start = end;
    }
    fields.reverse();
}

/// Size of a map of scalars or leaf messages, whose entry lengths are
/// recomputed in the write pass instead of cached (as leaf messages'
/// are), so sizing it allocates nothing.
fn leaf_map_size<K, V, C>(field_number: u32, map: &C, cache: &mut SizeCache) -> usize
where
    K: ScalarType<Value: Ord>,
    V: MapValue,
    C: MapEntries<K::Value, V::Value> + ?Sized,
{
    // One level for the entries, as `map::size` counts them.
    if map.is_empty() || !cache.enter(0) {
        return 0;
    }
    let key_len = tag_len(field_number);
    let mut total = 0;
    map::for_each_entry(map, cache, |key, value, cache| {
        let len = 1 + K::encoded_len(key) + V::size(value, cache);
        total += key_len + varint_len(len as u64) + len;
    });
    cache.leave();
    total
}

/// Writes a lazy singular field (`delimited` for group encoding), sized
/// and written front to back: a view's nested lengths then go through a
/// size cache, which allocates for views with nested messages.
pub fn lazy_field<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyField<'a, V>,
    encoder: &mut BackwardEncoder<'_>,
) {
    forward(
        encoder,
        |cache| lazy::size_field(field_number, delimited, field, cache),
        |cache, e| lazy::write_field(field_number, delimited, field, cache, e),
    );
}

/// Writes a lazy repeated field front to back; see [`lazy_field`].
pub fn lazy_repeated<'a, V: Mergeable<'a>>(
    field_number: u32,
    delimited: bool,
    field: &LazyRepeated<'a, V>,
    encoder: &mut BackwardEncoder<'_>,
) {
    forward(
        encoder,
        |cache| lazy::size_repeated(field_number, delimited, field, cache),
        |cache, e| lazy::write_repeated(field_number, delimited, field, cache, e),
    );
}

/// Writes a message front to back through the two-pass encoder's
/// `compute_size` and `write_to`: the provided `write_backward` of
/// messages that generated code does not override (leaves, hand-written
/// impls). Allocates only if the message records nested lengths.
pub fn whole<M: Encodable + ?Sized>(message: &M, encoder: &mut BackwardEncoder<'_>) {
    forward(
        encoder,
        |cache| message.compute_size(cache),
        |cache, e| message.write_to(cache, e),
    );
}

/// Runs a size pass and a write pass front to back into room claimed from
/// `encoder`, under its remaining depth and its determinism.
#[inline]
fn forward(
    encoder: &mut BackwardEncoder<'_>,
    size: impl FnOnce(&mut SizeCache) -> usize,
    write: impl FnOnce(&mut SizeCache, &mut Encoder<'_>),
) {
    let mut cache = SizeCache::nested(
        encoder.depth_remaining(),
        encoder.recursion_limit(),
        encoder.deterministic(),
    );
    let len = size(&mut cache);
    if cache.recursion_exceeded() {
        encoder.exceed_recursion_limit();
        return;
    }
    if len > 0 {
        encoder.put_forward(len, |e| write(&mut cache, e));
    }
}
