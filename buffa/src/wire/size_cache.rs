//! The size cache that makes encoding linear in the output size, and the
//! encode-time limits it carries through both passes.

use crate::options::EncodeOptions;
use crate::wire::nesting::NestingLimit;
use alloc::vec::Vec;

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
///
/// Since the cache travels through both passes, it also carries what the
/// [`EncodeOptions`] ask of them: the sizing pass counts nesting depth
/// ([`SizeCache::enter`]) and stops descending at the recursion limit, and
/// map helpers read [`SizeCache::deterministic`] to order their entries the
/// same way in both passes.
#[derive(Debug)]
pub struct SizeCache {
    sizes: Vec<u32>,
    next: usize,
    nesting: NestingLimit,
    deterministic: bool,
}

impl Default for SizeCache {
    fn default() -> Self {
        SizeCache::new()
    }
}

impl SizeCache {
    /// An empty cache under the default [`EncodeOptions`]; it allocates only
    /// when the first slot is reserved.
    pub const fn new() -> SizeCache {
        SizeCache::with_options(&EncodeOptions::new())
    }

    /// An empty cache under `options`.
    pub const fn with_options(options: &EncodeOptions) -> SizeCache {
        SizeCache {
            sizes: Vec::new(),
            next: 0,
            nesting: NestingLimit::new(options.recursion_limit()),
            deterministic: options.deterministic(),
        }
    }

    /// An empty cache for a value `depth_remaining` levels above the
    /// recursion limit: a front-to-back write inside a back-to-front one.
    pub(crate) const fn nested(
        depth_remaining: u32,
        recursion_limit: u32,
        deterministic: bool,
    ) -> SizeCache {
        SizeCache {
            sizes: Vec::new(),
            next: 0,
            nesting: NestingLimit::at(depth_remaining, recursion_limit),
            deterministic,
        }
    }

    /// Enters a nested message (or map entry) in the sizing pass, whose
    /// unknown fields hold groups nested `unknown_depth` deep. Returns
    /// `false`, and remembers that the limit was exceeded, when the message
    /// or its groups would nest deeper than the recursion limit; the caller
    /// then skips sizing it (so the stack stays bounded) and the encode
    /// fails before writing. Every `true` must be paired with a
    /// [`SizeCache::leave`].
    #[inline]
    pub fn enter(&mut self, unknown_depth: u32) -> bool {
        self.nesting.enter(unknown_depth)
    }

    /// Leaves a nested message entered with [`SizeCache::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.nesting.leave();
    }

    /// Checks, without entering it, that one more nesting level with groups
    /// `unknown_depth` deep below it is allowed: for messages with no
    /// nested messages of their own (leaves), which need no
    /// [`SizeCache::leave`]. Returns `false`, remembering it, at the limit.
    #[inline]
    pub fn can_enter(&mut self, unknown_depth: u32) -> bool {
        self.nesting.can_enter(unknown_depth)
    }

    /// Checks that groups `unknown_depth` deep fit below the current
    /// level: for the top-level message's unknown fields.
    #[inline]
    pub fn check_unknown_depth(&mut self, unknown_depth: u32) {
        self.nesting.check_unknown_depth(unknown_depth);
    }

    /// Whether a sizing pass met a message nested deeper than the limit;
    /// the sizes it returned are then incomplete.
    #[inline]
    pub fn recursion_exceeded(&self) -> bool {
        self.nesting.exceeded()
    }

    /// The recursion limit in force.
    #[inline]
    pub fn recursion_limit(&self) -> u32 {
        self.nesting.limit()
    }

    /// Whether map entries must be visited in key order.
    #[inline]
    pub fn deterministic(&self) -> bool {
        self.deterministic
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
        self.nesting.reset();
    }
}

/// A nested length as stored. Lengths beyond `u32` saturate: a nested
/// value that long makes the whole message longer than
/// [`MAX_MESSAGE_LEN`](crate::MAX_MESSAGE_LEN), which the encode entry
/// points refuse before writing, so a saturated length is never written.
#[inline]
fn to_u32(size: usize) -> u32 {
    u32::try_from(size).unwrap_or(u32::MAX)
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

    #[test]
    fn depth_beyond_the_limit_is_refused_and_remembered() {
        let mut cache = SizeCache::with_options(&EncodeOptions::new().with_recursion_limit(2));
        assert!(cache.enter(0));
        assert!(cache.can_enter(0));
        assert!(cache.enter(0));
        assert!(!cache.recursion_exceeded());
        assert!(!cache.can_enter(0));
        assert!(cache.recursion_exceeded());
        cache.leave();
        cache.leave();
        cache.clear();
        assert!(!cache.recursion_exceeded());
        // One level left after entering: groups one deep fit, two do not.
        assert!(cache.enter(1));
        assert!(!cache.recursion_exceeded());
        cache.leave();
        assert!(!cache.enter(2));
        assert!(cache.recursion_exceeded());
        cache.clear();
        cache.check_unknown_depth(2);
        assert!(!cache.recursion_exceeded());
        cache.check_unknown_depth(3);
        assert!(cache.recursion_exceeded());
    }

    #[test]
    fn oversized_lengths_saturate_instead_of_panicking() {
        let mut cache = SizeCache::new();
        cache.push(5 << 30);
        assert_eq!(cache.next_size(), u32::MAX as usize);
    }
}
