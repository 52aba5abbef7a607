//! The lazy view of a document allocates nothing, however large its body,
//! while the owned decode allocates for every section. Counted with a
//! global allocator that counts calls.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use buffa::{Message, MessageView};
use lazy::archive::{Document, DocumentView};
use lazy::document_bytes;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: delegates to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let value = f();
    (value, ALLOCATIONS.load(Ordering::Relaxed) - before)
}

#[test]
fn the_lazy_view_allocates_nothing_whatever_the_body() {
    for sections in [1, 100, 1000] {
        let bytes = document_bytes(sections);
        let (view, lazy) = allocations(|| DocumentView::decode_view(&bytes).unwrap());
        assert_eq!(lazy, 0, "{sections} sections");
        assert_eq!(view.title, "Annual report");
        assert_eq!(view.revision, 7);

        let (owned, eager) = allocations(|| Document::decode_from_slice(&bytes).unwrap());
        // Title, the body's box, its vector, and two strings per section.
        assert!(
            eager > 2 * sections,
            "{eager} allocations for {sections} sections"
        );

        // Reading the body allocates its vector of sections, not their strings.
        let (body, read) = allocations(|| view.body.get().unwrap());
        assert_eq!(body.sections.len(), sections);
        assert!(
            read <= 1 + sections.ilog2() as usize + 1,
            "{read} allocations"
        );
        assert_eq!(view.to_owned_message().unwrap(), owned);
    }
}
