//! Allocation behaviour, measured with a counting global allocator (its own
//! test binary, since a `#[global_allocator]` is per binary). Counters are
//! per thread, so tests running in parallel do not disturb each other.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use buffa::bytes::Bytes;
use buffa::{DecodeErrorKind, Inline, Message, MessageField};
use common::{Holder, Kitchen, Scalars, Vector3, cat, key, ld};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static ALLOCATED_BYTES: Cell<usize> = const { Cell::new(0) };
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
    static PEAK_BYTES: Cell<isize> = const { Cell::new(0) };
}

fn record_alloc(size: usize) {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = ALLOCATED_BYTES.try_with(|c| c.set(c.get() + size));
    let _ = LIVE_BYTES.try_with(|live| {
        live.set(live.get() + size as isize);
        let _ = PEAK_BYTES.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

fn record_dealloc(size: usize) {
    let _ = LIVE_BYTES.try_with(|c| c.set(c.get() - size as isize));
}

// SAFETY: forwards to the system allocator; only adds bookkeeping in
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record_alloc(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record_alloc(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        record_dealloc(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record_dealloc(layout.size());
        record_alloc(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Debug)]
struct Stats {
    allocations: usize,
    bytes: usize,
    peak: isize,
}

/// Runs `f` and reports what it allocated on this thread.
fn measure<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    ALLOCATIONS.with(|c| c.set(0));
    ALLOCATED_BYTES.with(|c| c.set(0));
    let live = LIVE_BYTES.with(Cell::get);
    PEAK_BYTES.with(|c| c.set(live));
    let result = f();
    let stats = Stats {
        allocations: ALLOCATIONS.with(Cell::get),
        bytes: ALLOCATED_BYTES.with(Cell::get),
        peak: PEAK_BYTES.with(Cell::get) - live,
    };
    (result, stats)
}

fn vector(x: f32) -> Vector3 {
    Vector3 {
        x,
        y: 2.0,
        z: 3.0,
        ..Vector3::default()
    }
}

#[test]
fn the_counter_sees_allocations() {
    let (field, stats) = measure(|| MessageField::<Vector3>::some(vector(1.0)));
    assert_eq!(stats.allocations, 1);
    assert_eq!(stats.bytes, std::mem::size_of::<Vector3>());
    drop(field);
}

#[test]
fn inline_message_field_allocates_nothing() {
    let ((), stats) = measure(|| {
        let mut field: MessageField<Vector3, Inline<Vector3>> = MessageField::none();
        assert!(!field.is_set());
        assert_eq!(field.x, 0.0);
        field.get_or_insert_default().x = 1.0;
        assert_eq!(field.x, 1.0);
        field.set(vector(5.0));
        let copy = field.clone();
        assert_eq!(field.take().map(|v| v.x), Some(5.0));
        field = vector(6.0).into();
        assert_eq!(field.as_option().map(|v| v.x), Some(6.0));
        field.clear();
        assert!(!field.is_set());
        assert_eq!(copy.into_option().map(|v| v.y), Some(2.0));
        let holder = Holder {
            position: vector(1.0).into(),
            ..Holder::default()
        };
        assert_eq!(holder.position.z, 3.0);
        assert_eq!(holder.velocity.z, 0.0);
    });
    assert_eq!(stats.allocations, 0, "{stats:?}");
}

#[test]
fn decoding_inline_fields_allocates_nothing() {
    let holder = Holder {
        position: vector(1.0).into(),
        velocity: vector(-1.0).into(),
        ..Holder::default()
    };
    let bytes = holder.encode_to_vec();
    let (decoded, stats) = measure(|| Holder::decode_from_slice(&bytes).unwrap());
    assert_eq!(decoded, holder);
    assert_eq!(stats.allocations, 0, "{stats:?}");

    let (decoded, stats) = measure(|| {
        let mut target = Holder::default();
        target.merge_from_slice(&bytes).unwrap();
        target.merge_from_slice(&bytes).unwrap();
        target
    });
    assert_eq!(decoded, holder);
    assert_eq!(stats.allocations, 0, "{stats:?}");

    // Flat messages encode with no allocation besides the output.
    let flat = vector(1.0);
    let (vec, stats) = measure(|| flat.encode_to_vec());
    assert_eq!(stats.allocations, 1, "{stats:?}");
    assert_eq!(stats.bytes, vec.len());
    let mut buf = [0u8; 32];
    let ((), stats) = measure(|| flat.encode(&mut &mut buf[..]).unwrap());
    assert_eq!(stats.allocations, 0, "{stats:?}");

    // Boxed sub-messages, by contrast, allocate when decoded.
    let kitchen = cat(&[&ld(8, &[0x08, 0x01])]);
    let (decoded, stats) = measure(|| Kitchen::decode_from_slice(&kitchen).unwrap());
    assert_eq!(decoded.child.a, 1);
    assert!(stats.allocations >= 1);
}

/// A 4 GB length claim, followed by three bytes.
const CLAIM: [u8; 8] = [0x80, 0x80, 0x80, 0x80, 0x10, 1, 2, 3];

/// Peak and total allocation allowed while rejecting a ~10-byte input: the
/// error itself allocates a little.
const SMALL: usize = 1024;

fn assert_small(stats: &Stats, what: &str) {
    assert!(
        stats.peak <= SMALL as isize && stats.bytes <= SMALL,
        "{what}: {stats:?}"
    );
}

#[test]
fn huge_length_prefix_fails_without_allocating() {
    let out_of_bounds = DecodeErrorKind::LengthOutOfBounds {
        length: 1 << 32,
        remaining: 3,
    };
    // One field of each length-delimited kind, with the claim.
    let scalars_inputs = [14u32, 15, 16].map(|field| cat(&[&key(field, 2), &CLAIM]));
    for input in &scalars_inputs {
        let (result, stats) = measure(|| Scalars::decode_from_slice(input));
        assert_eq!(result.unwrap_err().kind(), &out_of_bounds);
        assert_small(&stats, "Scalars::decode_from_slice");

        let shared = Bytes::from(input.clone());
        let (result, stats) = measure(|| Scalars::decode(shared.clone()));
        assert_eq!(result.unwrap_err().kind(), &out_of_bounds);
        assert_small(&stats, "Scalars::decode");

        let (result, stats) = measure(|| Scalars::decode(&input[..]));
        assert_eq!(result.unwrap_err().kind(), &out_of_bounds);
        assert_small(&stats, "Scalars::decode(&[u8])");
    }

    // Message, repeated, packed, map and group-nested fields.
    let kitchen_inputs = [
        cat(&[&[0x12], &CLAIM]),                  // optional string
        cat(&[&[0x1a], &CLAIM]),                  // packed sint64
        cat(&[&[0x22], &CLAIM]),                  // fixed32 as packed
        cat(&[&[0x2a], &CLAIM]),                  // packed double
        cat(&[&[0x32], &CLAIM]),                  // repeated string
        cat(&[&[0x3a], &CLAIM]),                  // repeated bytes
        cat(&[&[0x42], &CLAIM]),                  // message
        cat(&[&[0x4a], &CLAIM]),                  // repeated message
        cat(&[&[0x52], &CLAIM]),                  // map entry
        cat(&[&[0x72], &CLAIM]),                  // packed closed enum
        cat(&[&[0xaa, 0x01], &CLAIM]),            // packed open enum
        cat(&[&[0x7b, 0x12], &CLAIM]),            // string inside a group
        cat(&[&[0xa2, 0x06], &CLAIM]),            // unknown field 100
        cat(&[&[0x52, 0x06, 0x0a], &CLAIM[..5]]), // map key
    ];
    for input in &kitchen_inputs {
        let (result, stats) = measure(|| Kitchen::decode_from_slice(input));
        let error = result.unwrap_err();
        assert!(
            matches!(error.kind(), DecodeErrorKind::LengthOutOfBounds { length, .. } if *length == 1 << 32),
            "{input:02x?}: {error}"
        );
        assert_small(&stats, &format!("Kitchen {input:02x?}"));

        let (result, stats) = measure(|| Kitchen::default().merge_from_slice(input));
        assert!(result.is_err());
        assert_small(&stats, "merge_from_slice");
    }

    // Length-delimited framing with a 4 GB frame length.
    let (result, stats) = measure(|| Kitchen::decode_length_delimited(&CLAIM[..]));
    assert_eq!(result.unwrap_err().kind(), &out_of_bounds);
    assert_small(&stats, "decode_length_delimited");
    let shared = Bytes::from_static(&CLAIM);
    let (result, stats) = measure(|| Kitchen::decode_length_delimited(shared.clone()));
    assert_eq!(result.unwrap_err().kind(), &out_of_bounds);
    assert_small(&stats, "decode_length_delimited(Bytes)");
}
