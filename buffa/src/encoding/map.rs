//! Field helpers for map fields.
//!
//! On the wire a map is a repeated message of entries, key in field 1 and
//! value in field 2. Entries are written with both key and value, and read
//! with either missing (a missing one is the type's default); a key seen
//! twice keeps the last value.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
#[cfg(feature = "std")]
use core::hash::{BuildHasher, Hash};
#[cfg(feature = "std")]
use std::collections::HashMap;

use crate::error::DecodeError;
use crate::message::{Encodable, Mergeable};
use crate::unknown_fields::UnknownSink;
use crate::wire::BackwardEncoder;
use crate::wire::Decoder;
use crate::wire::Encoder;
use crate::wire::SizeCache;
use crate::wire::{Tag, WireType, tag_len, varint_len};

use super::types::{DecodeScalar, ScalarType};

/// How a map value is encoded inside an entry: every scalar type, or a
/// message (owned or view) through [`MessageValue`].
pub trait MapValue {
    /// The Rust type of a value.
    type Value: Default;

    /// Size of the value field (key 2) of an entry.
    fn size(value: &Self::Value, cache: &mut SizeCache) -> usize;

    /// Writes the value field (key 2) of an entry.
    fn write(value: &Self::Value, cache: &mut SizeCache, encoder: &mut Encoder<'_>);

    /// Whether sizing a value records nothing in the cache (scalars and
    /// leaf messages), so an entry's length is cheap to recompute.
    const LEAF: bool;

    /// Writes the value field (key 2) of an entry back to front.
    fn write_backward(value: &Self::Value, encoder: &mut BackwardEncoder<'_>);
}

/// Reading a map value from input that lives for `'a`.
pub trait MergeMapValue<'a>: MapValue {
    /// Merges the value field of an entry; `Ok(false)` for a closed-enum
    /// number the schema does not declare.
    fn merge(
        tag: Tag,
        value: &mut Self::Value,
        decoder: &mut Decoder<'a>,
    ) -> Result<bool, DecodeError>;
}

impl<S: ScalarType> MapValue for S {
    type Value = S::Value;
    const LEAF: bool = true;

    #[inline]
    fn size(value: &S::Value, _: &mut SizeCache) -> usize {
        1 + S::encoded_len(value)
    }

    #[inline]
    fn write(value: &S::Value, _: &mut SizeCache, encoder: &mut Encoder<'_>) {
        encoder.put_tag(2, S::WIRE_TYPE);
        S::encode(value, encoder);
    }

    #[inline]
    fn write_backward(value: &S::Value, encoder: &mut BackwardEncoder<'_>) {
        encoder.put_forward(1 + S::encoded_len(value), |e| {
            e.put_tag(2, S::WIRE_TYPE);
            S::encode(value, e);
        });
    }
}

impl<'a, S: DecodeScalar<'a>> MergeMapValue<'a> for S {
    #[inline]
    fn merge(
        tag: Tag,
        value: &mut S::Value,
        decoder: &mut Decoder<'a>,
    ) -> Result<bool, DecodeError> {
        decoder.check_wire_type(tag, S::WIRE_TYPE)?;
        match S::decode_known(decoder)? {
            Some(known) => {
                *value = known;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// Marker for message-typed map values, owned messages and views alike.
#[derive(Debug)]
pub enum MessageValue<M> {
    #[doc(hidden)]
    _Never(core::convert::Infallible, core::marker::PhantomData<M>),
}

impl<M: Encodable + Default> MapValue for MessageValue<M> {
    type Value = M;

    #[inline]
    fn size(value: &M, cache: &mut SizeCache) -> usize {
        super::message::size(2, value, cache)
    }

    #[inline]
    fn write(value: &M, cache: &mut SizeCache, encoder: &mut Encoder<'_>) {
        super::message::write(2, value, cache, encoder);
    }

    const LEAF: bool = !M::CACHES_SIZES;

    #[inline]
    fn write_backward(value: &M, encoder: &mut BackwardEncoder<'_>) {
        super::backward::message(2, value, encoder);
    }
}

impl<'a, M: Encodable + Mergeable<'a>> MergeMapValue<'a> for MessageValue<M> {
    #[inline]
    fn merge(tag: Tag, value: &mut M, decoder: &mut Decoder<'a>) -> Result<bool, DecodeError> {
        super::message::merge(tag, value, decoder)?;
        Ok(true)
    }
}

/// A map container an owned message may use, `HashMap` (with the `std`
/// feature) or `BTreeMap`, as decoding and JSON fill and read it;
/// encoding reads maps through [`MapEntries`], which views' maps share.
pub trait MapContainer<K, V> {
    /// Iterates over the entries.
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a;
    /// Inserts or replaces an entry.
    fn insert_entry(&mut self, key: K, value: V);
    /// Whether an entry has this key.
    fn contains(&self, key: &K) -> bool;
    /// Whether the map has no entries.
    fn is_empty(&self) -> bool;
}

#[cfg(feature = "std")]
impl<K: Eq + Hash, V, H: BuildHasher> MapContainer<K, V> for HashMap<K, V, H> {
    #[inline]
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a,
    {
        self.iter()
    }

    #[inline]
    fn insert_entry(&mut self, key: K, value: V) {
        self.insert(key, value);
    }

    #[inline]
    fn contains(&self, key: &K) -> bool {
        self.contains_key(key)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.is_empty()
    }
}

impl<K: Ord, V> MapContainer<K, V> for BTreeMap<K, V> {
    #[inline]
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a K, &'a V)>
    where
        K: 'a,
        V: 'a,
    {
        self.iter()
    }

    #[inline]
    fn insert_entry(&mut self, key: K, value: V) {
        self.insert(key, value);
    }

    #[inline]
    fn contains(&self, key: &K) -> bool {
        self.contains_key(key)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.is_empty()
    }
}

/// The entries of a map field as encoding reads them: an owned map, or
/// a view's [`MapView`](crate::MapView), which reads each entry from its
/// input as it is visited.
pub trait MapEntries<K, V> {
    /// Whether there is no entry.
    fn is_empty(&self) -> bool;
    /// Visits one entry per key: in ascending key order when `sorted` (a
    /// deterministic encode), otherwise in the container's own order.
    fn visit(&self, sorted: bool, f: impl FnMut(&K, &V));
}

#[cfg(feature = "std")]
impl<K: Ord + Eq + Hash, V, H: BuildHasher> MapEntries<K, V> for HashMap<K, V, H> {
    #[inline]
    fn is_empty(&self) -> bool {
        HashMap::is_empty(self)
    }

    #[inline]
    fn visit(&self, sorted: bool, mut f: impl FnMut(&K, &V)) {
        if sorted {
            let mut entries: Vec<(&K, &V)> = self.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            for (key, value) in entries {
                f(key, value);
            }
        } else {
            for (key, value) in self {
                f(key, value);
            }
        }
    }
}

impl<K: Ord, V> MapEntries<K, V> for BTreeMap<K, V> {
    #[inline]
    fn is_empty(&self) -> bool {
        BTreeMap::is_empty(self)
    }

    /// Always in ascending key order.
    #[inline]
    fn visit(&self, _sorted: bool, mut f: impl FnMut(&K, &V)) {
        for (key, value) in self {
            f(key, value);
        }
    }
}

/// Visits the entries of `map` in its own order, or in ascending key
/// order when the encode is deterministic. Both passes of an encode call
/// this with the same cache, so they visit entries in the same order.
#[inline]
pub(crate) fn for_each_entry<K, V, C: MapEntries<K, V> + ?Sized>(
    map: &C,
    cache: &mut SizeCache,
    mut f: impl FnMut(&K, &V, &mut SizeCache),
) {
    let sorted = cache.deterministic();
    map.visit(sorted, |key, value| f(key, value, cache));
}

/// Size of a map field; records each entry's length.
pub fn size<K, V, C>(field_number: u32, map: &C, cache: &mut SizeCache) -> usize
where
    K: ScalarType<Value: Ord>,
    V: MapValue,
    C: MapEntries<K::Value, V::Value> + ?Sized,
{
    // Each entry is a nested message one level down, as decoding counts it;
    // entries are siblings, so one level covers them all.
    if map.is_empty() || !cache.enter(0) {
        return 0;
    }
    let key_len = tag_len(field_number);
    let mut total = 0;
    for_each_entry(map, cache, |key, value, cache| {
        let slot = cache.reserve();
        let len = 1 + K::encoded_len(key) + V::size(value, cache);
        cache.set(slot, len);
        total += key_len + varint_len(len as u64) + len;
    });
    cache.leave();
    total
}

/// Writes a map field, one entry message per element.
pub fn write<K, V, C>(field_number: u32, map: &C, cache: &mut SizeCache, encoder: &mut Encoder<'_>)
where
    K: ScalarType<Value: Ord>,
    V: MapValue,
    C: MapEntries<K::Value, V::Value> + ?Sized,
{
    for_each_entry(map, cache, |key, value, cache| {
        encoder.put_tag(field_number, WireType::LengthDelimited);
        encoder.put_varint(cache.next_size() as u64);
        encoder.put_tag(1, K::WIRE_TYPE);
        K::encode(key, encoder);
        V::write(value, cache, encoder);
    });
}

/// Merges one entry. An entry whose value is a closed-enum number the schema
/// does not declare is kept whole in `unknown`.
pub fn merge<'a, K, V, C>(
    tag: Tag,
    map: &mut C,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<(), DecodeError>
where
    K: DecodeScalar<'a>,
    V: MergeMapValue<'a>,
    C: MapContainer<K::Value, V::Value>,
{
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    decoder.charge(size_of::<K::Value>() + size_of::<V::Value>())?;
    if let Some((key, value)) = read_entry::<K, V>(tag, decoder, unknown)? {
        map.insert_entry(key, value);
    }
    Ok(())
}

/// A map entry's key and value, as [`read_entry`] reads them.
pub(crate) type Entry<K, V> = (<K as ScalarType>::Value, <V as MapValue>::Value);

/// Reads one entry, whose key `tag` was just read: `None` for an entry
/// whose value is a closed-enum number the schema does not declare, which
/// goes whole to `unknown` instead.
pub(crate) fn read_entry<'a, K, V>(
    tag: Tag,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<Option<Entry<K, V>>, DecodeError>
where
    K: DecodeScalar<'a>,
    V: MergeMapValue<'a>,
{
    decoder.check_wire_type(tag, WireType::LengthDelimited)?;
    let entry_start = decoder.remaining_slice();
    let mut key = K::Value::default();
    let mut value = V::Value::default();
    let known = decoder.read_nested(|d| {
        let mut known = true;
        while let Some(tag) = d.read_tag()? {
            match tag.field_number() {
                1 => {
                    d.check_wire_type(tag, K::WIRE_TYPE)?;
                    key = K::decode(d)?;
                }
                2 => known = V::merge(tag, &mut value, d)?,
                _ => d.skip_field(tag)?,
            }
        }
        Ok(known)
    })?;
    if known {
        return Ok(Some((key, value)));
    }
    // The entry is kept whole under a canonical key, as C++ does.
    let consumed = entry_start.len() - decoder.remaining();
    let mut key_buf = [0u8; 5];
    let mut encoder = Encoder::from_slice(&mut key_buf);
    encoder.put_tag(tag.field_number(), WireType::LengthDelimited);
    let key_len = encoder.position();
    decoder.charge(unknown.cost_of_written(key_len + consumed))?;
    let mut field = Vec::with_capacity(key_len + consumed);
    field.extend_from_slice(&key_buf[..key_len]);
    field.extend_from_slice(&entry_start[..consumed]);
    unknown.push_written(field);
    Ok(None)
}
