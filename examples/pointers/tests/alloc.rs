//! Counts heap allocations while decoding a 125,000-triangle mesh in both
//! layouts. With the default `Box`, every `Vector3` of every `Triangle` is
//! its own allocation: four per triangle. With `unbox_message_fields()` the
//! vectors live inside the triangles, which live inside one `Vec`, so the
//! whole decode needs only the `Vec`'s growth steps and the name.
//!
//! One test in its own binary, so no other test allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::Message;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const TRIANGLES: usize = 125_000;

/// Decodes `bytes` as `M` and returns it with the number of allocations
/// (reallocations included) the decode made.
fn count_decode<M: Message>(bytes: &[u8]) -> (M, usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let message = M::decode_from_slice(bytes).expect("valid mesh");
    let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
    (message, count)
}

#[test]
fn inline_decode_allocates_a_handful_of_times() {
    let bytes = pointers::mesh_bytes(TRIANGLES);

    let (inline, inline_allocations) = count_decode::<pointers::inline::geometry::Mesh>(&bytes);
    assert_eq!(inline.triangles.len(), TRIANGLES);
    drop(inline);

    let (boxed, boxed_allocations) = count_decode::<pointers::boxed::geometry::Mesh>(&bytes);
    assert_eq!(boxed.triangles.len(), TRIANGLES);
    drop(boxed);

    println!(
        "decoding {TRIANGLES} triangles: {inline_allocations} allocations inline, \
         {boxed_allocations} boxed"
    );
    assert!(
        inline_allocations < 100,
        "inline decode made {inline_allocations} allocations"
    );
    assert!(
        boxed_allocations >= 4 * TRIANGLES,
        "boxed decode made only {boxed_allocations} allocations"
    );
}
