//! `SmallBox<T>`: a user-supplied sub-message pointer.
//!
//! It is a pointer-sized heap box, like `Box<T>`, that also keeps a global
//! count of how many are alive. A service can read [`SmallBox::live`] to see
//! how many sub-messages its decoded data holds on the heap (for a metric or
//! a leak check) without a counting global allocator.
//!
//! Any type implementing [`buffa::ProtoBox<T>`] can be named in
//! `buffa_build::Config::box_type_custom_in`; generated code only builds,
//! borrows and unwraps the value through that trait. Because generated
//! structs derive `Clone` and messages are `Send + Sync + 'static`, the
//! pointer should be `Clone`, `Send` and `Sync` for every message it holds.

use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::ProtoBox;

static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Registers one live box for as long as it exists. Being a separate
/// zero-sized field, it lets `SmallBox` move its value out without a `Drop`
/// impl of its own getting in the way.
struct Live;

impl Live {
    fn new() -> Live {
        LIVE.fetch_add(1, Ordering::Relaxed);
        Live
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A heap box that counts live instances. Same size as `Box<T>`, and
/// `Option<SmallBox<T>>` is as small as `Option<Box<T>>`.
pub struct SmallBox<T> {
    value: Box<T>,
    _live: Live,
}

impl<T> SmallBox<T> {
    /// How many `SmallBox`es (of any type) exist right now.
    pub fn live() -> usize {
        LIVE.load(Ordering::Relaxed)
    }
}

impl<T> ProtoBox<T> for SmallBox<T> {
    fn from_value(value: T) -> Self {
        SmallBox {
            value: Box::new(value),
            _live: Live::new(),
        }
    }

    fn get(&self) -> &T {
        &self.value
    }

    fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }

    fn into_value(self) -> T {
        // `_live` drops here, and the count goes down.
        *self.value
    }
}

impl<T: Clone> Clone for SmallBox<T> {
    fn clone(&self) -> Self {
        SmallBox::from_value((*self.value).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_sized() {
        assert_eq!(size_of::<SmallBox<[u64; 8]>>(), size_of::<usize>());
        assert_eq!(size_of::<Option<SmallBox<[u64; 8]>>>(), size_of::<usize>());
    }
}
