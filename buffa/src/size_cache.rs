//! The size cache that makes encoding linear in the output size.

/// Lengths of nested length-delimited values, computed once per encode.
///
/// Every nested message is written behind its length, so an encoder must
/// know each nested length before writing the nested bytes. Computing it on
/// the spot, recursively, costs O(depth x bytes) for deep nesting. Instead
/// the sizing pass ([`Message::compute_size`](crate::Message::compute_size))
/// records each nested length here in pre-order, and the write pass
/// ([`Message::write_to`](crate::Message::write_to)) walks the same fields in
/// the same order and reads the lengths back. Both passes therefore touch
/// each byte of the message once.
///
/// Slots are reserved before the nested value is sized (so that a parent
/// precedes its children) and filled afterwards.
#[derive(Debug, Default)]
pub struct SizeCache {
    sizes: Vec<u32>,
    next: usize,
}

impl SizeCache {
    /// An empty cache; it allocates only when the first slot is reserved.
    pub const fn new() -> SizeCache {
        SizeCache {
            sizes: Vec::new(),
            next: 0,
        }
    }

    /// Reserves the next slot, to be filled by [`SizeCache::set`].
    #[inline]
    pub fn reserve(&mut self) -> usize {
        self.sizes.push(0);
        self.sizes.len() - 1
    }

    /// Records `size` in `slot`.
    #[inline]
    pub fn set(&mut self, slot: usize, size: usize) {
        self.sizes[slot] = to_u32(size);
    }

    /// Records a size in a fresh slot: [`SizeCache::reserve`] and
    /// [`SizeCache::set`] in one, for values with no nested slots.
    #[inline]
    pub fn push(&mut self, size: usize) {
        self.sizes.push(to_u32(size));
    }

    /// Reads the next recorded size, in the order the slots were reserved.
    ///
    /// # Panics
    ///
    /// Panics if more sizes are read than were recorded, which means a
    /// message's `write_to` visited fields its `compute_size` did not.
    #[inline]
    pub fn next_size(&mut self) -> usize {
        let size = self.sizes[self.next];
        self.next += 1;
        size as usize
    }

    /// Forgets all sizes, keeping the allocation for reuse.
    pub fn clear(&mut self) {
        self.sizes.clear();
        self.next = 0;
    }
}

/// Protobuf messages are limited to 2 GiB; a nested length beyond `u32`
/// would be written wrongly, so it stops encoding instead.
#[inline]
fn to_u32(size: usize) -> u32 {
    u32::try_from(size).expect("nested message longer than 4 GiB cannot be encoded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_come_back_in_reservation_order() {
        let mut cache = SizeCache::new();
        let outer = cache.reserve();
        cache.push(3);
        cache.set(outer, 10);
        assert_eq!(cache.next_size(), 10);
        assert_eq!(cache.next_size(), 3);
        cache.clear();
        cache.push(7);
        assert_eq!(cache.next_size(), 7);
    }
}
