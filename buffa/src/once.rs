//! A value built on first use and kept for the rest of the program, without
//! the standard library: what generated code holds each message's (and
//! view's) default instance in.
//!
//! `core` has no blocking once-cell (blocking needs the OS), so
//! [`OnceBox`] races instead: threads that find it empty each build a
//! value, one compare-and-swap publishes the winner's, and the losers drop
//! theirs and use the winner's. Default instances are cheap to build and
//! equal whoever builds them, so the race costs at most a few spare
//! allocations on first use. It needs compare-and-swap on pointers, which
//! hosted targets and ARMv7-M (`thumbv7em`) have and ARMv6-M (`thumbv6m`)
//! lacks.
//!
//! It is also cheap to compile, which matters because every generated
//! message has one: the cell holds a type-erased pointer, so the
//! compare-and-swap is one function compiled once in buffa, and each
//! message instantiates only a small `get_or_init` (`OnceLock` costs
//! about ten instantiations per message, a tenth of a crate's items).

use alloc::boxed::Box;
use core::marker::PhantomData;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

/// A value on the heap, built on first use by whichever caller of
/// [`OnceBox::get_or_init`] publishes first, then shared by all.
pub struct OnceBox<T> {
    /// A `Box<T>` from `Box::into_raw`, or null.
    value: AtomicPtr<()>,
    // Owns a `Box<T>`: drop check, and `Send` only where `T` is.
    _owns: PhantomData<Box<T>>,
}

// SAFETY: `&OnceBox<T>` hands out `&T` on any thread (so `T: Sync`), and
// the value one thread built may be dropped by another, when the `OnceBox`
// is (so `T: Send`). The pointer itself is only published and read through
// the atomic, with release/acquire ordering.
unsafe impl<T: Send + Sync> Sync for OnceBox<T> {}

impl<T> OnceBox<T> {
    /// An empty `OnceBox`, for a `static`.
    pub const fn new() -> Self {
        OnceBox {
            value: AtomicPtr::new(ptr::null_mut()),
            _owns: PhantomData,
        }
    }

    /// The value, built by `init` if no value was published yet. When
    /// several threads call this at once on an empty `OnceBox`, each may
    /// run `init`; all get the one value published first.
    #[inline]
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        let mut current = self.value.load(Ordering::Acquire);
        if current.is_null() {
            // `as` casts rather than `.cast()`: each generic call is one
            // more function per message in a generated crate.
            let built = Box::into_raw(Box::new(init())) as *mut ();
            current = publish(&self.value, built, drop_box::<T>);
        }
        // SAFETY: `current` is non-null, so it is the published pointer: a
        // `Box<T>` this `OnceBox` owns, never replaced or freed before the
        // `OnceBox` is dropped, which `&self` rules out for this borrow. The
        // acquire load (or exchange) saw the release that published it, so
        // the value it points at is fully written.
        unsafe { &*(current as *const T) }
    }

    /// The value, built by `T::default()` on first use: a message's
    /// default instance.
    /// (What generated code calls: written out rather than as
    /// `get_or_init(T::default)`, which would be two functions per message.)
    #[inline]
    pub fn get_or_default(&self) -> &T
    where
        T: Default,
    {
        let mut current = self.value.load(Ordering::Acquire);
        if current.is_null() {
            // Not `Box::default()`: that is one more instantiation per
            // message.
            #[allow(clippy::box_default)]
            let built = Box::into_raw(Box::new(T::default())) as *mut ();
            current = publish(&self.value, built, drop_box::<T>);
        }
        // SAFETY: as in `get_or_init`.
        unsafe { &*(current as *const T) }
    }
}

/// Publishes `built` in `slot` unless another thread published first, and
/// returns the published pointer; a loser's value is freed with `free`.
/// Not generic, so it is compiled once, here.
fn publish(slot: &AtomicPtr<()>, built: *mut (), free: unsafe fn(*mut ())) -> *mut () {
    match slot.compare_exchange(ptr::null_mut(), built, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => built,
        Err(published) => {
            // SAFETY: `built` came from `Box::<T>::into_raw` with the `T`
            // that `free` frees (`get_or_init` pairs them) and was not
            // published, so this is its only owner.
            unsafe { free(built) };
            published
        }
    }
}

/// Frees a `Box<T>` that `publish` did not publish.
///
/// # Safety
/// `value` is from `Box::<T>::into_raw` and owned by the caller.
unsafe fn drop_box<T>(value: *mut ()) {
    // SAFETY: the caller's contract. The box drops at the end of the scope.
    let _owned = unsafe { Box::from_raw(value as *mut T) };
}

impl<T> Default for OnceBox<T> {
    fn default() -> Self {
        OnceBox::new()
    }
}

impl<T> Drop for OnceBox<T> {
    fn drop(&mut self) {
        let value = *self.value.get_mut();
        if !value.is_null() {
            // SAFETY: a non-null pointer is the published `Box<T>`, owned by
            // this `OnceBox` alone, and `&mut self` means no borrow of it
            // from `get_or_init` is alive.
            drop(unsafe { Box::from_raw(value.cast::<T>()) });
        }
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for OnceBox<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let value = self.value.load(Ordering::Acquire).cast::<T>();
        // SAFETY: as in `get_or_init`: a non-null pointer is the published,
        // fully written value, alive as long as `&self`.
        let value = (!value.is_null()).then(|| unsafe { &*value });
        f.debug_tuple("OnceBox").field(&value).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;
    use std::sync::atomic::AtomicUsize;
    use std::thread;

    use super::*;

    #[test]
    fn builds_once_then_returns_the_same_value() {
        let once = OnceBox::new();
        let first: *const String = once.get_or_init(|| "first".to_owned());
        let second: *const String = once.get_or_init(|| unreachable!("already built"));
        assert_eq!(first, second);
        assert_eq!(once.get_or_init(String::new), "first");
        assert_eq!(once.get_or_default(), "first");
        assert_eq!(
            OnceBox::<Vec<u8>>::new().get_or_default(),
            &Vec::<u8>::new()
        );
        assert_eq!(format!("{once:?}"), r#"OnceBox(Some("first"))"#);
        assert_eq!(format!("{:?}", OnceBox::<u8>::new()), "OnceBox(None)");
    }

    #[test]
    fn racing_threads_share_one_value_and_drop_the_rest() {
        static BUILT: AtomicUsize = AtomicUsize::new(0);
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted(usize);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::SeqCst);
            }
        }

        let threads = if cfg!(miri) { 4 } else { 16 };
        let once = OnceBox::new();
        let barrier = std::sync::Barrier::new(threads);
        let seen: Vec<usize> = thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        let value =
                            once.get_or_init(|| Counted(BUILT.fetch_add(1, Ordering::SeqCst) + 1));
                        value.0
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(seen.iter().all(|&id| id == seen[0]), "{seen:?}");
        let built = BUILT.load(Ordering::SeqCst);
        assert!(built >= 1);
        // Every value but the published one was dropped by its builder.
        assert_eq!(DROPPED.load(Ordering::SeqCst), built - 1);
        drop(once);
        assert_eq!(DROPPED.load(Ordering::SeqCst), built);
    }
}
