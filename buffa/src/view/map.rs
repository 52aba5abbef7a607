//! [`MapView`]: a map field of a view, read from the input as it is
//! iterated.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;
#[cfg(feature = "std")]
use core::hash::{BuildHasher, Hash};
use core::marker::PhantomData;
#[cfg(feature = "std")]
use std::collections::HashMap;

use crate::encoding::map::{MapEntries, MergeMapValue, read_entry};
use crate::encoding::types::{ClosedEnum, DecodeScalar};
use crate::enumeration::Enumeration;
use crate::error::DecodeError;
use crate::unknown_fields::{DiscardUnknown, UnknownSink};
use crate::wire::{Decoder, Tag};

use super::ToOwnedValue;
use super::occurrences::{Occurrences, Walk};

/// A map field of a view: its entries stay in the input, which decoding
/// checks whole and iterating reads again, so holding a map allocates
/// nothing.
///
/// `K` and `V` name the key's and value's encodings with the markers of
/// [`buffa::types`](crate::types): `MapView<'a, BorrowedStr<'a>, Int32>`
/// is a `map<string, int32>` yielding `(&'a str, i32)`, and a message
/// value is [`MessageValue`](crate::types::MessageValue) around its view.
///
/// A key may appear more than once on the wire; as in the owned map, the
/// last entry for a key is the one that counts. [`MapView::get`],
/// [`MapView::iter`] and [`MapView::len`] apply that rule;
/// [`MapView::raw_entries`] shows every entry as read. Lookups scan the
/// entries (no hashing, no index), which suits the small maps protobuf
/// messages usually carry; for many lookups in a large map, collect it
/// into a `HashMap` first.
///
/// [`MapView::iter`] yields ascending keys. Entries read in strictly
/// ascending key order (as deterministic encoders write them) are yielded
/// as they are, without allocating; otherwise they are collected and
/// sorted first, which allocates, and [`MapView::raw_entries`] is the
/// allocation-free way to read them.
pub struct MapView<'a, K, V> {
    occurrences: Occurrences<'a>,
    /// Entries recorded, repeated keys included.
    raw_len: usize,
    /// The last entry recorded (its payload), while keys ascend
    /// strictly. Kept as bytes, not as a key, so that the view stays
    /// covariant in `'a`.
    last_entry: &'a [u8],
    /// Whether every key recorded was greater than the one before.
    ascending: bool,
    marker: PhantomData<fn() -> (K, V)>,
}

impl<'a, K, V> MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: PartialEq>,
    V: MergeMapValue<'a>,
{
    /// The value of `key`: the last entry read with that key.
    pub fn get(&self, key: &K::Value) -> Option<V::Value> {
        let mut found = None;
        for (k, value) in self.raw_entries() {
            if k == *key {
                found = Some(value);
            }
        }
        found
    }

    /// Whether an entry has `key`.
    pub fn contains_key(&self, key: &K::Value) -> bool {
        self.raw_entries().any(|(k, _)| k == *key)
    }

    /// Whether no entry was read.
    pub fn is_empty(&self) -> bool {
        self.raw_len == 0
    }

    /// How many entries were read, repeated keys included.
    pub fn raw_len(&self) -> usize {
        self.raw_len
    }

    /// Every entry in the order read, repeated keys included, each read
    /// from the input when reached; never allocates.
    pub fn raw_entries(&self) -> RawEntries<'_, 'a, K, V> {
        RawEntries {
            walk: self.occurrences.walk(),
            remaining: self.raw_len,
            marker: PhantomData,
        }
    }
}

impl<'a, K, V> MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: Ord + Clone>,
    V: MergeMapValue<'a>,
{
    /// The entries in ascending key order, one per key (the last read):
    /// the entries of the owned map, in the order a deterministic encode
    /// writes them. Allocates only where the entries were not read in
    /// strictly ascending key order.
    pub fn iter(&self) -> MapIter<'_, 'a, K, V> {
        if self.ascending {
            return MapIter(Order::Read(self.raw_entries()));
        }
        let mut entries: Vec<(K::Value, V::Value)> = self.raw_entries().collect();
        // Stable: of a key's entries the last read stays last, and
        // `dedup_by` keeps the first of each run, so reverse first.
        entries.reverse();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        MapIter(Order::Sorted(entries.into_iter()))
    }

    /// How many distinct keys the map holds: the owned map's length.
    /// Counts through [`MapView::iter`] where keys were not read in
    /// ascending order.
    pub fn len(&self) -> usize {
        if self.ascending {
            self.raw_len
        } else {
            self.iter().count()
        }
    }

    /// Checks and records one entry, whose key `tag` was just read.
    #[inline]
    pub(crate) fn merge(
        &mut self,
        tag: Tag,
        decoder: &mut Decoder<'a>,
        unknown: &mut impl UnknownSink<'a>,
    ) -> Result<(), DecodeError> {
        let start = decoder.offset() - decoder.last_tag_len();
        let payload = decoder.remaining_slice();
        if let Some((key, _)) = read_entry::<K, V>(tag, decoder, unknown)? {
            self.raw_len += 1;
            if self.ascending {
                if self.raw_len > 1 && read_key::<K>(self.last_entry).is_none_or(|last| last >= key)
                {
                    self.ascending = false;
                }
                self.last_entry = payload;
            }
        }
        self.occurrences
            .record(tag.field_number(), start..decoder.offset(), decoder)
    }
}

/// The entries of a [`MapView`] in the order read: see
/// [`MapView::raw_entries`].
pub struct RawEntries<'r, 'a, K, V> {
    walk: Walk<'r, 'a>,
    remaining: usize,
    marker: PhantomData<fn() -> (K, V)>,
}

impl<'a, K, V> Iterator for RawEntries<'_, 'a, K, V>
where
    K: DecodeScalar<'a>,
    V: MergeMapValue<'a>,
{
    type Item = (K::Value, V::Value);

    fn next(&mut self) -> Option<Self::Item> {
        while self.remaining > 0 {
            let tag = self.walk.next_key()?;
            match read_entry::<K, V>(tag, self.walk.decoder(), &mut DiscardUnknown) {
                Ok(Some(entry)) => {
                    self.remaining -= 1;
                    return Some(entry);
                }
                // An entry holding a closed-enum number the schema does
                // not declare: among the unknown fields, not the map.
                Ok(None) => {}
                // Checked when recorded, so unreachable; ending is the
                // safe answer if it ever were not.
                Err(_) => break,
            }
        }
        self.remaining = 0;
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<'a, K: DecodeScalar<'a>, V: MergeMapValue<'a>> ExactSizeIterator for RawEntries<'_, 'a, K, V> {}

/// The entries of a [`MapView`] in ascending key order, one per key: see
/// [`MapView::iter`].
pub struct MapIter<'r, 'a, K: DecodeScalar<'a>, V: MergeMapValue<'a>>(Order<'r, 'a, K, V>);

enum Order<'r, 'a, K: DecodeScalar<'a>, V: MergeMapValue<'a>> {
    /// Read in ascending order: yielded as read.
    Read(RawEntries<'r, 'a, K, V>),
    /// Sorted and deduplicated first.
    Sorted(alloc::vec::IntoIter<(K::Value, V::Value)>),
}

impl<'a, K: DecodeScalar<'a>, V: MergeMapValue<'a>> Iterator for MapIter<'_, 'a, K, V> {
    type Item = (K::Value, V::Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Order::Read(entries) => entries.next(),
            Order::Sorted(entries) => entries.next(),
        }
    }
}

impl<K, V> Default for MapView<'_, K, V> {
    fn default() -> Self {
        MapView {
            occurrences: Occurrences::default(),
            raw_len: 0,
            last_entry: &[],
            ascending: true,
            marker: PhantomData,
        }
    }
}

impl<K, V> Clone for MapView<'_, K, V> {
    fn clone(&self) -> Self {
        MapView {
            occurrences: self.occurrences.clone(),
            raw_len: self.raw_len,
            last_entry: self.last_entry,
            ascending: self.ascending,
            marker: PhantomData,
        }
    }
}

/// The key of the entry at the start of `entry` (its length prefix, then
/// its fields; bytes behind it are ignored), which was checked when
/// recorded.
fn read_key<'a, K: DecodeScalar<'a>>(entry: &'a [u8]) -> Option<K::Value> {
    let mut decoder = Decoder::checked(entry);
    let payload = decoder.read_length_delimited().ok()?;
    let mut decoder = Decoder::checked(payload);
    let mut key = K::Value::default();
    while let Some(tag) = decoder.read_tag().ok()? {
        if tag.field_number() == 1 {
            key = K::decode(&mut decoder).ok()?;
        } else {
            decoder.skip_field(tag).ok()?;
        }
    }
    Some(key)
}

/// Equal when the maps hold the same keys with the same values, however
/// many entries the wire repeated: as the owned maps compare.
impl<'a, K, V> PartialEq for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: Ord + Clone>,
    V: MergeMapValue<'a, Value: PartialEq>,
{
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<'a, K, V> fmt::Debug for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: Ord + Clone + fmt::Debug>,
    V: MergeMapValue<'a, Value: fmt::Debug>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a, K, V> MapEntries<K::Value, V::Value> for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: Ord + Clone>,
    V: MergeMapValue<'a>,
{
    #[inline]
    fn is_empty(&self) -> bool {
        self.raw_len == 0
    }

    /// Always in ascending key order, one entry per key.
    fn visit(&self, _sorted: bool, mut f: impl FnMut(&K::Value, &V::Value)) {
        for (key, value) in self.iter() {
            f(&key, &value);
        }
    }
}

#[cfg(feature = "std")]
impl<'a, K, V, KO, VO, S> ToOwnedValue<HashMap<KO, VO, S>> for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: ToOwnedValue<KO> + PartialEq>,
    V: MergeMapValue<'a, Value: ToOwnedValue<VO>>,
    KO: Eq + Hash,
    S: BuildHasher + Default,
{
    fn to_owned_value(&self) -> Result<HashMap<KO, VO, S>, DecodeError> {
        let mut map = HashMap::with_capacity_and_hasher(self.raw_len, S::default());
        // In input order, so a key seen twice keeps its last value.
        for (key, value) in self.raw_entries() {
            map.insert(key.to_owned_value()?, value.to_owned_value()?);
        }
        Ok(map)
    }
}

impl<'a, K, V, KO, VO> ToOwnedValue<BTreeMap<KO, VO>> for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: ToOwnedValue<KO> + PartialEq>,
    V: MergeMapValue<'a, Value: ToOwnedValue<VO>>,
    KO: Ord,
{
    fn to_owned_value(&self) -> Result<BTreeMap<KO, VO>, DecodeError> {
        let mut map = BTreeMap::new();
        for (key, value) in self.raw_entries() {
            map.insert(key.to_owned_value()?, value.to_owned_value()?);
        }
        Ok(map)
    }
}

/// Merges one entry of a view's map field whose values are not closed
/// enums: checks it and records where it is. **Support API**.
#[inline]
pub fn merge<'a, K, V>(
    tag: Tag,
    field: &mut MapView<'a, K, V>,
    decoder: &mut Decoder<'a>,
) -> Result<(), DecodeError>
where
    K: DecodeScalar<'a, Value: Ord + Clone>,
    V: MergeMapValue<'a>,
{
    field.merge(tag, decoder, &mut DiscardUnknown)
}

/// Checks one entry of a view's map field as [`merge`] and
/// [`merge_closed`] read it, keeping nothing (a view's `check_field`).
/// **Support API**.
#[inline]
pub fn check<'a, K, V>(tag: Tag, decoder: &mut Decoder<'a>) -> Result<(), DecodeError>
where
    K: DecodeScalar<'a>,
    V: MergeMapValue<'a>,
{
    read_entry::<K, V>(tag, decoder, &mut DiscardUnknown).map(drop)
}

/// [`merge`] for closed-enum values: an entry holding a number the
/// schema does not declare goes whole to `unknown`. **Support API**.
#[inline]
pub fn merge_closed<'a, K, E>(
    tag: Tag,
    field: &mut MapView<'a, K, ClosedEnum<E>>,
    decoder: &mut Decoder<'a>,
    unknown: &mut impl UnknownSink<'a>,
) -> Result<(), DecodeError>
where
    K: DecodeScalar<'a, Value: Ord + Clone>,
    E: Enumeration,
{
    field.merge(tag, decoder, unknown)
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::encoding::types::{BorrowedStr, Int32};
    use crate::options::DecodeOptions;

    /// The encoding of map field 1 holding `entries` in this order.
    fn encode(entries: &[(&str, i32)]) -> Vec<u8> {
        let mut out = Vec::new();
        for (key, value) in entries {
            let mut entry = vec![0x0a, key.len() as u8];
            entry.extend_from_slice(key.as_bytes());
            entry.extend([0x10, *value as u8]);
            out.extend([0x0a, entry.len() as u8]);
            out.extend(entry);
        }
        out
    }

    fn view(bytes: &[u8]) -> MapView<'_, BorrowedStr<'_>, Int32> {
        let mut map = MapView::default();
        let mut decoder = Decoder::new(bytes, &DecodeOptions::new()).unwrap();
        while let Some(tag) = decoder.read_tag().unwrap() {
            map.merge(tag, &mut decoder, &mut DiscardUnknown).unwrap();
        }
        map
    }

    #[test]
    fn the_last_entry_of_a_key_wins() {
        let bytes = encode(&[("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)]);
        let map = view(&bytes);
        assert_eq!(map.get(&"a"), Some(5));
        assert_eq!(map.get(&"b"), Some(3));
        assert_eq!(map.get(&"z"), None);
        assert!(map.contains_key(&"c") && !map.contains_key(&"z"));
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("a", 5), ("b", 3), ("c", 4)]
        );
        assert_eq!((map.len(), map.raw_len()), (3, 5));
        assert_eq!(map.raw_entries().count(), 5);
    }

    #[test]
    fn ascending_entries_are_yielded_as_read() {
        let bytes = encode(&[("a", 1), ("b", 2), ("c", 3)]);
        let map = view(&bytes);
        assert!(matches!(map.iter().0, Order::Read(_)));
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("a", 1), ("b", 2), ("c", 3)]
        );
        assert_eq!(map.len(), 3);
        // A repeated key is not ascending: the entries are sorted.
        let bytes = encode(&[("a", 1), ("a", 2)]);
        let map = view(&bytes);
        assert!(matches!(map.iter().0, Order::Sorted(_)));
        assert_eq!(map.iter().collect::<Vec<_>>(), [("a", 2)]);
        assert_eq!((map.len(), map.raw_len()), (1, 2));
    }

    #[test]
    fn equal_maps_compare_equal_however_written() {
        let (one, two) = (
            encode(&[("a", 1), ("b", 2)]),
            encode(&[("b", 2), ("a", 9), ("a", 1)]),
        );
        assert_eq!(view(&one), view(&two));
        assert_ne!(view(&one), view(&encode(&[("a", 1)])));
    }
}
