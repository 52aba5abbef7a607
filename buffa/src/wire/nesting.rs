//! The recursion limit of an encode pass: nesting levels counted down as
//! the pass enters nested messages, and whether it met the limit.

/// Nesting levels an encode pass has left before its recursion limit, and
/// whether it met the limit. The two writers' state holds one each:
/// [`SizeCache`](crate::wire::SizeCache) for the two-pass encoder and
/// [`BackwardEncoder`](crate::wire::BackwardEncoder) for the one-pass one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NestingLimit {
    remaining: u32,
    limit: u32,
    exceeded: bool,
}

impl NestingLimit {
    /// At the top level under recursion limit `limit`.
    pub(crate) const fn new(limit: u32) -> NestingLimit {
        NestingLimit::at(limit, limit)
    }

    /// `remaining` levels above recursion limit `limit`.
    pub(crate) const fn at(remaining: u32, limit: u32) -> NestingLimit {
        NestingLimit {
            remaining,
            limit,
            exceeded: false,
        }
    }

    /// Enters one level whose unknown fields hold groups `unknown_depth`
    /// deep; `false`, remembered, when that passes the limit.
    #[inline]
    pub(crate) fn enter(&mut self, unknown_depth: u32) -> bool {
        if !self.can_enter(unknown_depth) {
            return false;
        }
        self.remaining -= 1;
        true
    }

    /// Leaves a level [`NestingLimit::enter`] entered.
    #[inline]
    pub(crate) fn leave(&mut self) {
        self.remaining += 1;
    }

    /// Whether one more level with groups `unknown_depth` deep below it
    /// fits, without entering it; `false` is remembered.
    #[inline]
    pub(crate) fn can_enter(&mut self, unknown_depth: u32) -> bool {
        if self.remaining <= unknown_depth {
            self.exceeded = true;
            return false;
        }
        true
    }

    /// Remembers the limit as met if groups `unknown_depth` deep do not
    /// fit below the current level.
    #[inline]
    pub(crate) fn check_unknown_depth(&mut self, unknown_depth: u32) {
        if unknown_depth > self.remaining {
            self.exceeded = true;
        }
    }

    /// Remembers the limit as met.
    #[inline]
    pub(crate) fn exceed(&mut self) {
        self.exceeded = true;
    }

    /// Levels left below the current one.
    #[inline]
    pub(crate) fn remaining(&self) -> u32 {
        self.remaining
    }

    /// The recursion limit.
    #[inline]
    pub(crate) fn limit(&self) -> u32 {
        self.limit
    }

    /// Whether the pass met the limit.
    #[inline]
    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded
    }

    /// Back at the top level, the limit not met.
    pub(crate) fn reset(&mut self) {
        *self = NestingLimit::new(self.limit);
    }
}
