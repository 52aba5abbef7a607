//! [`MapView`]: a map field of a view.

use crate::encoding::map::MapContainer;
use alloc::vec::Vec;

/// A map field of a view: its entries in the order they were read, keys
/// and values borrowed from the input like every other view field.
///
/// A key may appear more than once on the wire; as in the owned map, the
/// last entry for a key is the one that counts. [`MapView::get`] and
/// [`MapView::iter`] apply that rule; [`MapView::raw_entries`] shows every
/// entry as read. Lookups scan the entries (no hashing, no allocation for
/// an index), which suits the small maps protobuf messages usually carry;
/// for many lookups in a large map, collect it into a `HashMap` first.
#[derive(Clone, Debug)]
pub struct MapView<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for MapView<K, V> {
    fn default() -> Self {
        MapView {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> MapView<K, V> {
    /// The value of `key`: the last entry read with that key.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value)
    }

    /// The entries in ascending key order, one per key (the last read):
    /// the entries of the owned map, in the order a deterministic encode
    /// writes them. Entries read in strictly ascending key order (as a
    /// deterministic encoder writes them) are yielded as they are;
    /// otherwise an index of the entries is sorted, which allocates.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let order = if self.entries.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            None
        } else {
            let mut order: Vec<usize> = (0..self.entries.len()).collect();
            // Ascending keys; within a key, the last entry first, so that
            // `dedup` keeps it.
            order.sort_by(|&a, &b| self.entries[a].0.cmp(&self.entries[b].0).then(b.cmp(&a)));
            order.dedup_by(|a, b| self.entries[*a].0 == self.entries[*b].0);
            Some(order)
        };
        let len = order.as_ref().map_or(self.entries.len(), Vec::len);
        (0..len).map(move |i| {
            let at = order.as_ref().map_or(i, |order| order[i]);
            let (key, value) = &self.entries[at];
            (key, value)
        })
    }

    /// How many distinct keys the map holds: the owned map's length.
    /// Sorts an index of the entries where [`MapView::iter`] does.
    pub fn len(&self) -> usize {
        self.iter().count()
    }
}

/// Equal when the maps hold the same keys with the same values, however
/// many entries the wire repeated: as the owned maps compare.
impl<K: Ord, V: PartialEq> PartialEq for MapView<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<K, V> MapView<K, V> {
    /// Whether no entry was read.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many entries were read, duplicates of a key included.
    pub fn raw_len(&self) -> usize {
        self.entries.len()
    }

    /// Every entry in the order read, duplicates of a key included.
    pub fn raw_entries(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(key, value)| (key, value))
    }
}

impl<K: Ord, V> MapContainer<K, V> for MapView<K, V> {
    // `iter` yields ascending keys, so encoding never sorts again.
    const ORDERED: bool = true;

    #[inline]
    fn entries<'m>(&'m self) -> impl Iterator<Item = (&'m K, &'m V)>
    where
        K: 'm,
        V: 'm,
    {
        self.iter()
    }

    #[inline]
    fn insert_entry(&mut self, key: K, value: V) {
        self.entries.push((key, value));
    }

    fn contains(&self, key: &K) -> bool {
        self.get(key).is_some()
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_entry_of_a_key_wins() {
        let mut map = MapView::default();
        for (key, value) in [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)] {
            map.insert_entry(key, value);
        }
        assert_eq!(map.get(&"a"), Some(&5));
        assert_eq!(map.get(&"b"), Some(&3));
        assert_eq!(map.get(&"z"), None);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [(&"a", &5), (&"b", &3), (&"c", &4)]
        );
        assert_eq!(map.len(), 3);
        assert_eq!(map.raw_entries().count(), 5);
    }
}
