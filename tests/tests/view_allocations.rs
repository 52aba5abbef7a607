//! Views allocate nothing: decoding a view of protobuf's unittest
//! `TestAllTypes`, `TestPackedTypes` and `TestMap` (every field set, every
//! repeated field with several elements) and then reading every field
//! (its `Debug` form, which walks every sequence and map, and its
//! re-encoding into a slice) makes no heap allocation, and what was read
//! equals the owned message.
//!
//! Allocations are counted per thread by a global allocator, so tests
//! running beside each other do not disturb the counts.

mod common;

use std::fmt::{self, Write};

use buffa::{EncodeOptions, HasView, Message, MessageView};
use common::filled::{all_types, map, packed_types};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

/// A `fmt::Write` that keeps only a count of what it was given.
#[derive(Default)]
struct Discard(usize);

impl Write for Discard {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// Decoding the view of `message` and reading all of it allocates
/// nothing; the view converts back to `message`.
fn view_allocates_nothing<M: Message + HasView + PartialEq + fmt::Debug>(message: &M) {
    // Deterministic: map entries in ascending key order, which is what a
    // `MapView` iterates without sorting (see `MapView::iter`).
    let bytes = message
        .encode_to_vec_with_options(&EncodeOptions::new().with_deterministic(true))
        .unwrap();
    let mut out = vec![0u8; bytes.len()];
    let ((printed, written), allocations) = alloc_count::counted(|| {
        let view = M::decode_view(&bytes).unwrap();
        let mut printed = Discard::default();
        write!(printed, "{view:?}").unwrap();
        let written = view.encode_to_slice(&mut out).map(<[u8]>::len);
        (printed.0, written)
    });
    assert_eq!(allocations, 0, "{}: the view allocated", M::NAME);
    assert!(printed > 100, "{}: printed {printed} bytes", M::NAME);
    assert_eq!(written, Ok(bytes.len()));
    assert_eq!(out, bytes);
    let view = M::decode_view(&bytes).unwrap();
    // The counter counts: copying the view into the owned message does
    // allocate (strings, vectors).
    let (owned, allocations) = alloc_count::counted(|| view.to_owned_message().unwrap());
    assert!(allocations > 0, "{}: the counter saw nothing", M::NAME);
    assert_eq!(&owned, message);
}

#[test]
fn test_all_types_view_allocates_nothing() {
    view_allocates_nothing(&all_types());
}

#[test]
fn test_packed_types_view_allocates_nothing() {
    view_allocates_nothing(&packed_types());
}

#[test]
fn test_map_view_allocates_nothing() {
    view_allocates_nothing(&map());
}
