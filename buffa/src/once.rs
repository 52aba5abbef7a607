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
//! message has one. The cell holds a type-erased pointer, and building,
//! publishing and freeing are one function compiled once in buffa, given
//! the value's layout and two function pointers. What each message
//! instantiates is the inlined fast path (a load and a null check),
//! `write_default::<T>` (the call to `T::default()`) and
//! `drop_value::<T>` (a call to `T`'s drop glue, which exists anyway):
//! `Box<T>`'s own functions are not instantiated at all. (`OnceLock` costs
//! about ten instantiations per message, and a boxed `OnceBox` five.)

use alloc::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use alloc::boxed::Box;
use core::marker::PhantomData;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

/// A value on the heap, built by `T::default()` on first use by whichever
/// caller of [`OnceBox::get_or_default`] publishes first, then shared by
/// all.
pub struct OnceBox<T> {
    /// A `T` in an allocation of `Layout::new::<T>()` (or, for a
    /// zero-sized `T`, a dangling aligned pointer), or null.
    value: AtomicPtr<()>,
    // Owns a `T` on the heap: drop check, and `Send` only where `T` is.
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

    /// The value, built by `T::default()` on first use: a message's
    /// default instance. When several threads call this at once on an
    /// empty `OnceBox`, each may build a value; all get the one published
    /// first.
    #[inline]
    pub fn get_or_default(&self) -> &T
    where
        T: Default,
    {
        let mut current = self.value.load(Ordering::Acquire);
        if current.is_null() {
            // `as` casts and function items rather than closures: each
            // generic item is one more function per message in a
            // generated crate.
            current = build_and_publish(
                &self.value,
                Layout::new::<T>(),
                write_default::<T>,
                drop_value::<T>,
            );
        }
        // SAFETY: `current` is non-null, so it is the published pointer: a
        // `T` this `OnceBox` owns, never replaced or freed before the
        // `OnceBox` is dropped, which `&self` rules out for this borrow. The
        // acquire load (or exchange) saw the release that published it, so
        // the value it points at is fully written.
        unsafe { &*(current as *const T) }
    }
}

/// Builds a value in a new allocation of `layout` with `write_default`,
/// publishes it in `slot` unless another thread published first, and
/// returns the published pointer; a loser's value is dropped with
/// `drop_value` and its allocation freed. Not generic, so it is compiled
/// once, here; out of line, since it runs once per `OnceBox`.
#[cold]
#[inline(never)]
fn build_and_publish(
    slot: &AtomicPtr<()>,
    layout: Layout,
    write_default: unsafe fn(*mut ()),
    drop_value: unsafe fn(*mut ()),
) -> *mut () {
    let built = allocate(layout);
    // SAFETY: `built` is a fresh allocation of `layout`, which
    // `get_or_default` paired with `write_default`'s type. If it panics,
    // the allocation leaks, which is safe.
    unsafe { write_default(built) };
    match slot.compare_exchange(ptr::null_mut(), built, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => built,
        Err(published) => {
            // SAFETY: `built` holds the value just written, of the type
            // `drop_value` drops, and was not published, so this is its
            // only owner.
            unsafe { free(built, layout, drop_value) };
            published
        }
    }
}

/// A new allocation of `layout`, or for a zero-sized layout a dangling
/// pointer of its alignment, which is a valid place for a zero-sized value.
fn allocate(layout: Layout) -> *mut () {
    if layout.size() == 0 {
        return ptr::without_provenance_mut(layout.align());
    }
    // SAFETY: `layout` has a non-zero size.
    let allocated = unsafe { alloc(layout) };
    if allocated.is_null() {
        handle_alloc_error(layout);
    }
    allocated as *mut ()
}

/// Drops the value at `value` with `drop_value` and frees its allocation.
///
/// # Safety
/// `value` is from `allocate(layout)`, holds a value of the type
/// `drop_value` drops, and is owned by the caller.
unsafe fn free(value: *mut (), layout: Layout, drop_value: unsafe fn(*mut ())) {
    // SAFETY: the caller's contract.
    unsafe { drop_value(value) };
    if layout.size() != 0 {
        // SAFETY: allocated by `allocate` with this non-zero-sized layout.
        unsafe { dealloc(value as *mut u8, layout) };
    }
}

/// Writes `T::default()` to `place`.
///
/// # Safety
/// `place` is valid for writes of a `T` and aligned for it.
unsafe fn write_default<T: Default>(place: *mut ()) {
    // SAFETY: the caller's contract.
    unsafe { (place as *mut T).write(T::default()) }
}

/// Drops the `T` at `value` in place.
///
/// # Safety
/// `value` points at a valid `T` owned by the caller, not used again.
unsafe fn drop_value<T>(value: *mut ()) {
    // SAFETY: the caller's contract.
    unsafe { ptr::drop_in_place(value as *mut T) }
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
            // SAFETY: a non-null pointer is the published value, from
            // `allocate(Layout::new::<T>())`, owned by this `OnceBox` alone;
            // `&mut self` means no borrow of it from `get_or_default` is
            // alive.
            unsafe { free(value, Layout::new::<T>(), drop_value::<T>) };
        }
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for OnceBox<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let value = self.value.load(Ordering::Acquire).cast::<T>();
        // SAFETY: as in `get_or_default`: a non-null pointer is the
        // published, fully written value, alive as long as `&self`.
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
        let once = OnceBox::<String>::new();
        assert_eq!(format!("{once:?}"), "OnceBox(None)");
        let first: *const String = once.get_or_default();
        let second: *const String = once.get_or_default();
        assert_eq!(first, second);
        assert_eq!(once.get_or_default(), "");
        assert_eq!(format!("{once:?}"), r#"OnceBox(Some(""))"#);
        assert_eq!(
            OnceBox::<Vec<u8>>::new().get_or_default(),
            &Vec::<u8>::new()
        );
    }

    #[test]
    fn zero_sized_and_over_aligned_values() {
        #[derive(Default, Debug, PartialEq)]
        struct Unit;
        #[derive(Default, Debug, PartialEq)]
        #[repr(align(64))]
        struct Aligned(u8);
        let unit = OnceBox::<Unit>::new();
        assert_eq!(unit.get_or_default(), &Unit);
        let aligned = OnceBox::<Aligned>::new();
        let value: *const Aligned = aligned.get_or_default();
        assert_eq!(value as usize % 64, 0);
        assert_eq!(aligned.get_or_default(), &Aligned(0));
    }

    #[test]
    fn racing_threads_share_one_value_and_drop_the_rest() {
        static BUILT: AtomicUsize = AtomicUsize::new(0);
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted(usize);
        impl Default for Counted {
            fn default() -> Self {
                Counted(BUILT.fetch_add(1, Ordering::SeqCst) + 1)
            }
        }
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::SeqCst);
            }
        }

        let threads = if cfg!(miri) { 4 } else { 16 };
        let once = OnceBox::<Counted>::new();
        let barrier = std::sync::Barrier::new(threads);
        let seen: Vec<usize> = thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        once.get_or_default().0
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
