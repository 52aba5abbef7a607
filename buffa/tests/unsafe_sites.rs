//! Each `unsafe` block of the runtime, driven through its edges so that
//! `cargo +nightly miri test` checks it (see `.ci/miri.sh`):
//!
//! - the write pass into spare, uninitialised buffer memory: a `Vec`'s spare
//!   capacity (`write_to_vec`), a `BufMut` chunk (`write_to_buf`: `Vec`,
//!   `BytesMut`, `&mut [u8]`, chained and limited buffers), both where the
//!   message fits the first chunk and where it does not;
//! - `Encoder::from_slice` (length prefixes, `UnknownFields::push_varint`);
//! - the never-null pointer behind `UnknownFields`: shared empty set versus
//!   owned box through create, clone, clear, take, drop, threads, and the
//!   niche that `Option<Message>` uses;
//! - `BytesStr` reading its bytes as `str` unchecked: text sliced out of a
//!   shared input (ASCII and not, empty, at the input's end) read after
//!   the input's own handle is gone, and across threads; decoding that
//!   text also takes the decoder's ASCII fast path to `str` (lengths on
//!   each side of its 4- and 8-byte tests), which its unit test compares
//!   with the general validator;
//! - `OnceBox` (the default instances of generated code): the value it
//!   builds in its own allocation and publishes by compare-and-swap, read
//!   back, dropped and freed once when it drops (never while empty), the
//!   values that lost a race dropped and freed by their builders; a
//!   zero-sized value; a `static` read from threads; a filled one moved
//!   to and dropped on another thread.
//!
//! Expected bytes come from the independent helpers in `common`. Reading
//! them back is itself the check miri needs: a byte the encoder exposed
//! without writing it is an uninitialised read.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::mem;

use buffa::bytes::{BufMut, Bytes, BytesMut};
use buffa::{Inline, Message, MessageField, UnknownFields};
use common::{Holder, Inner, Vector3, cat, ld, varint, vfield};

/// The bytes `Vec` and `BytesMut` reserve when asked for room while full:
/// a message longer than this does not fit their first chunk.
const GROWTH_CHUNK: usize = 64;

/// An `Inner` with a string of `len` bytes.
fn inner(a: i32, len: usize) -> Inner {
    Inner {
        a,
        b: "x".repeat(len),
        ..Inner::default()
    }
}

/// The encoding of `inner(a, len)`, computed without the runtime.
fn inner_bytes(a: i32, len: usize) -> Vec<u8> {
    cat(&[&vfield(1, a as u64), &ld(2, "x".repeat(len).as_bytes())])
}

/// A short message and a long one (longer than [`GROWTH_CHUNK`]), with
/// their expected encodings.
fn samples() -> [(Inner, Vec<u8>); 2] {
    let short = (inner(150, 3), inner_bytes(150, 3));
    let long = (inner(7, 100), inner_bytes(7, 100));
    assert!(short.1.len() < GROWTH_CHUNK && long.1.len() > GROWTH_CHUNK);
    [short, long]
}

/// `bytes` behind its varint length.
fn framed(bytes: &[u8]) -> Vec<u8> {
    cat(&[&varint(bytes.len() as u64), bytes])
}

#[test]
fn encode_to_vec_writes_spare_capacity_at_the_start_and_after_a_prefix() {
    for (message, expected) in samples() {
        let vec = message.encode_to_vec();
        assert_eq!(vec, expected);
        assert_eq!(vec.capacity(), expected.len());

        // The message lands after the prefix `Encoder::from_slice` wrote.
        let vec = message.encode_length_delimited_to_vec();
        assert_eq!(vec, framed(&expected));
    }
}

#[test]
fn encode_into_a_vec_fills_its_spare_capacity() {
    for (message, expected) in samples() {
        // An empty `Vec`: a short message fits the chunk it reserves, a long
        // one goes through an intermediate buffer.
        let mut vec = Vec::new();
        message.encode(&mut vec).unwrap();
        assert_eq!(vec, expected);

        // Exactly enough spare capacity after existing bytes: written in
        // place, without growing.
        let mut vec = Vec::with_capacity(2 + expected.len());
        vec.extend_from_slice(&[0xee, 0xdd]);
        message.encode(&mut vec).unwrap();
        assert_eq!(vec, cat(&[&[0xee, 0xdd], &expected]));
        assert_eq!(vec.capacity(), 2 + expected.len(), "no reallocation");

        // More spare capacity than needed: only the message's bytes become
        // part of the `Vec`, the rest stays spare (and uninitialised).
        let mut vec = Vec::with_capacity(4 * expected.len());
        message.encode(&mut vec).unwrap();
        message.encode_length_delimited(&mut vec).unwrap();
        assert_eq!(vec, cat(&[&expected, &framed(&expected)]));
    }
}

#[test]
fn encode_into_bytes_mut_fills_its_spare_capacity() {
    for (message, expected) in samples() {
        let mut buf = BytesMut::new();
        message.encode(&mut buf).unwrap();
        assert_eq!(buf, expected[..]);

        // Exact capacity, then a second message after splitting off the
        // first: both land in uninitialised memory of one allocation.
        let mut buf = BytesMut::with_capacity(2 * expected.len());
        message.encode(&mut buf).unwrap();
        assert_eq!(buf.len(), expected.len());
        let first = buf.split().freeze();
        message.encode(&mut buf).unwrap();
        assert_eq!(first, expected[..]);
        assert_eq!(buf, expected[..]);

        let mut buf = BytesMut::new();
        message.encode_length_delimited(&mut buf).unwrap();
        let mut frozen: Bytes = buf.freeze();
        assert_eq!(frozen, framed(&expected)[..]);
        assert_eq!(
            Inner::decode_length_delimited(&mut frozen).unwrap(),
            message
        );
        assert!(frozen.is_empty());
    }
}

#[test]
fn encode_into_a_slice_writes_only_the_message() {
    for (message, expected) in samples() {
        let len = expected.len();
        let mut buf = vec![0xaa; len + 3];
        let mut slice: &mut [u8] = &mut buf;
        message.encode(&mut slice).unwrap();
        assert_eq!(slice.len(), 3, "advanced by the message length");
        assert_eq!(buf[..len], expected[..]);
        assert_eq!(buf[len..], [0xaa; 3], "nothing written past the message");

        let framed = framed(&expected);
        let mut buf = vec![0u8; framed.len()];
        message.encode_length_delimited(&mut &mut buf[..]).unwrap();
        assert_eq!(buf, framed);
    }
}

#[test]
fn encode_into_chained_buffers_in_place_or_across_the_seam() {
    for (message, expected) in samples() {
        let len = expected.len();

        // The first part has room: written in place into it.
        let (mut first, mut second) = (vec![0u8; len + 1], vec![0u8; 4]);
        {
            let mut chain = (&mut first[..]).chain_mut(&mut second[..]);
            message.encode(&mut chain).unwrap();
            assert_eq!(chain.first_ref().len(), 1);
        }
        assert_eq!(first[..len], expected[..]);
        assert_eq!(second, [0; 4]);

        // The first part is full: written in place into the second.
        let mut empty: [u8; 0] = [];
        let mut second = vec![0u8; len];
        message
            .encode(&mut (&mut empty[..]).chain_mut(&mut second[..]))
            .unwrap();
        assert_eq!(second, expected);

        // The message straddles the seam: split between both parts.
        let (mut first, mut second) = (vec![0u8; 5], vec![0u8; len]);
        message
            .encode(&mut (&mut first[..]).chain_mut(&mut second[..]))
            .unwrap();
        assert_eq!(first, expected[..5]);
        assert_eq!(second[..len - 5], expected[5..]);

        // A fixed slice followed by a growable `Vec`, whose spare capacity
        // is uninitialised.
        let mut first = [0u8; 5];
        let mut vec = Vec::new();
        message
            .encode(&mut (&mut first[..]).chain_mut(&mut vec))
            .unwrap();
        assert_eq!(cat(&[&first, &vec]), expected);
    }
}

#[test]
fn encode_into_a_limited_buffer_respects_the_limit() {
    for (message, expected) in samples() {
        let len = expected.len();
        let mut vec = Vec::with_capacity(2 * len);
        message.encode(&mut (&mut vec).limit(len)).unwrap();
        assert_eq!(vec, expected);

        let mut vec = Vec::with_capacity(2 * len);
        assert!(message.encode(&mut (&mut vec).limit(len - 1)).is_err());
        assert!(vec.is_empty());
    }
}

#[test]
fn unknown_fields_lifecycle_shared_empty_and_owned() {
    // Empty sets share one static and compare equal whatever their history.
    let empty = UnknownFields::new();
    assert!(empty.is_empty());
    assert_eq!(empty.clone(), UnknownFields::default());

    // Taking from an empty set leaves two empty sets, both droppable.
    let mut source = UnknownFields::new();
    let taken = mem::take(&mut source);
    assert!(taken.is_empty() && source.is_empty());
    drop(taken);

    // The first push gives the set its own allocation.
    source.push_varint(3, 300);
    source.push_raw(&ld(4, b"a")).unwrap();
    let bytes = [0x18, 0xac, 0x02, 0x22, 0x01, b'a'];
    assert_eq!(source.as_bytes(), bytes);

    // A clone owns a copy: it outlives the original and changes to it.
    let clone = source.clone();
    source.push_varint(5, 1);
    assert_eq!(clone.as_bytes(), bytes);
    drop(source);
    assert_eq!(clone.as_bytes(), bytes);

    // Taking from an owned set moves the allocation out; the source is
    // empty again and can grow a new one.
    let mut source = clone;
    let taken = mem::take(&mut source);
    assert_eq!(taken.as_bytes(), bytes);
    assert!(source.is_empty());
    source.push_varint(1, 1);
    assert_eq!(source.as_bytes(), [0x08, 0x01]);
    assert_eq!(taken.as_bytes(), bytes);

    // Clearing keeps the allocation; a cleared set clones as empty, can be
    // pushed to again, and drops.
    let mut cleared = taken;
    cleared.clear();
    assert!(cleared.is_empty());
    assert_eq!(cleared.clone().as_bytes(), b"");
    assert_eq!(cleared, UnknownFields::new());
    cleared.push_varint(2, 2);
    assert_eq!(cleared.as_bytes(), [0x10, 0x02]);
    cleared.clear();
    drop(cleared);

    // Clearing a never-used set does not touch the shared static.
    let mut fresh = UnknownFields::new();
    fresh.clear();
    assert!(fresh.is_empty());
}

#[test]
fn unknown_fields_of_messages_round_trip_through_clone_clear_and_statics() {
    let unknown = cat(&[&vfield(50, 1), &ld(51, b"kept")]);
    let input = cat(&[&vfield(1, 9), &unknown]);
    let mut message = Inner::decode_from_slice(&input).unwrap();
    assert_eq!(message.unknown_fields.as_bytes(), &unknown[..]);

    let copy = message.clone();
    message.clear();
    assert_eq!(message, Inner::default());
    assert_eq!(message.encode_to_vec(), b"");
    assert_eq!(copy.encode_to_vec(), input);

    // Merging into the cleared message reuses its allocation.
    message.merge_from_slice(&input).unwrap();
    assert_eq!(message, copy);

    // A default instance in a `static` holds the shared empty set.
    let default = Vector3::default_instance();
    assert!(default.unknown_fields.is_empty());
    let mut clone = default.clone();
    clone.unknown_fields.push_varint(9, 9);
    assert!(default.unknown_fields.is_empty());
    assert_eq!(clone.encode_to_vec(), vfield(9, 9));
}

#[test]
fn unknown_fields_move_and_are_shared_across_threads() {
    let input = cat(&[&vfield(1, 2), &vfield(60, 3)]);
    let message = Inner::decode_from_slice(&input).unwrap();

    // Read concurrently through shared references (`Sync`).
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| assert_eq!(message.unknown_fields.as_bytes(), vfield(60, 3)));
        }
    });

    // Moved to another thread, changed and dropped there (`Send`).
    let handle = std::thread::spawn(move || {
        let mut message = message;
        message.unknown_fields.push_varint(61, 4);
        let empty = Inner::default();
        (message.encode_to_vec(), empty)
    });
    let (bytes, empty) = handle.join().unwrap();
    assert_eq!(bytes, cat(&[&input, &vfield(61, 4)]));
    assert!(empty.unknown_fields.is_empty());
}

#[test]
fn option_of_a_message_uses_the_unknown_fields_niche() {
    assert_eq!(mem::size_of::<Option<Vector3>>(), mem::size_of::<Vector3>());
    assert_eq!(
        mem::size_of::<Option<UnknownFields>>(),
        mem::size_of::<UnknownFields>()
    );

    // An inline sub-message with unknown fields of its own: decoded into
    // the `Option`'s payload, re-encoded, taken out, dropped.
    let position = cat(&[&[0x0d], &1.5f32.to_le_bytes(), &vfield(70, 7)]);
    let input = cat(&[&ld(1, &position), &ld(2, &[])]);
    let mut holder = Holder::decode_from_slice(&input).unwrap();
    assert_eq!(holder.position.x, 1.5);
    assert_eq!(holder.position.unknown_fields.as_bytes(), vfield(70, 7));
    assert!(holder.velocity.is_set());
    assert!(holder.velocity.unknown_fields.is_empty());
    assert_eq!(holder.encode_to_vec(), input);

    let taken: Option<Vector3> = holder.position.take();
    let Some(taken) = taken else {
        panic!("position was set")
    };
    assert_eq!(taken.unknown_fields.as_bytes(), vfield(70, 7));
    assert!(!holder.position.is_set());
    assert_eq!(holder.encode_to_vec(), ld(2, &[]));

    // Set again from the taken value, then replaced: the old value drops.
    let mut field: MessageField<Vector3, Inline<Vector3>> = MessageField::some(taken);
    assert_eq!(field.unknown_fields.as_bytes(), vfield(70, 7));
    field.set(Vector3::default());
    assert!(field.unknown_fields.is_empty());
    field.clear();
    assert!(field.as_option().is_none());

    // `Option<UnknownFields>` itself, through every state.
    let mut slot: Option<UnknownFields> = None;
    slot.get_or_insert_with(UnknownFields::new)
        .push_varint(1, 1);
    assert_eq!(
        slot.as_ref().map(UnknownFields::as_bytes),
        Some(&[0x08, 0x01][..])
    );
    let inner = slot.take().unwrap();
    assert!(slot.is_none());
    slot = Some(inner.clone());
    assert_eq!(slot, Some(inner));
}

#[test]
fn bytes_str_slices_outlive_their_input_and_read_as_text() {
    use buffa::__private::{DecodeScalar, SharedStr};
    use buffa::wire::Decoder;
    use buffa::{BytesStr, DecodeOptions};

    // Lengths on each side of the ASCII test's 4- and 8-byte paths, a
    // multi-byte character last in the input, and an empty string.
    let texts = ["", "abc", "abcdefg", "abcdefghijkl", "naïve", "\u{10ffff}"];
    let mut encoded = Vec::new();
    for text in texts {
        encoded.extend(framed(text.as_bytes()));
    }
    // Two kinds of `Bytes`: one taken over from a `Vec` and one copied.
    for input in [
        Bytes::copy_from_slice(&encoded),
        Bytes::from(encoded.clone()),
    ] {
        let mut decoder = Decoder::new_shared(&input, &DecodeOptions::default()).unwrap();
        let values: Vec<BytesStr> = texts
            .iter()
            .map(|_| SharedStr::decode(&mut decoder).unwrap())
            .collect();
        assert!(decoder.is_empty());
        let range = input.as_ptr_range();
        for value in values.iter().filter(|v| !v.is_empty()) {
            assert!(range.contains(&value.as_ptr()), "{value:?} was copied");
        }
        drop(input);
        let values = std::thread::spawn(move || {
            assert_eq!(values, texts);
            values
        })
        .join()
        .unwrap();
        assert_eq!(values.last().unwrap().chars().count(), 1);
    }
}

/// A value that counts its drops in `drops`.
/// Counts the values built and dropped of the `OnceBox` test's type `T`,
/// through statics, since `OnceBox` builds with `Default`.
macro_rules! counted {
    ($name:ident) => {
        struct $name {
            id: usize,
        }
        static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        static DROPPED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        impl Default for $name {
            fn default() -> Self {
                $name {
                    id: BUILT.fetch_add(1, std::sync::atomic::Ordering::SeqCst),
                }
            }
        }
        impl Drop for $name {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
    };
}

#[test]
fn once_box_publishes_one_value_and_frees_the_rest() {
    use buffa::__private::OnceBox;
    use std::sync::Barrier;
    use std::sync::atomic::Ordering;

    // Empty: nothing to read through, nothing freed on drop.
    let empty: OnceBox<String> = OnceBox::new();
    assert_eq!(format!("{empty:?}"), "OnceBox(None)");
    drop(empty);

    // Filled once: later calls get the same value, built once.
    {
        counted!(Once);
        let once = OnceBox::<Once>::default();
        let first: *const Once = once.get_or_default();
        let again = once.get_or_default();
        assert!(std::ptr::eq(first, again));
        assert_eq!((again.id, BUILT.load(Ordering::SeqCst)), (0, 1));
        drop(once);
        assert_eq!(
            DROPPED.load(Ordering::SeqCst),
            1,
            "dropped once, with the OnceBox"
        );
    }

    // A zero-sized value: its place is a dangling, non-null pointer.
    let unit = OnceBox::<()>::new();
    unit.get_or_default();
    assert_eq!(format!("{unit:?}"), "OnceBox(Some(()))");
    drop(unit);

    // A race: every thread builds, one value is published, each loser
    // frees its own; all read the winner's.
    counted!(Raced);
    let threads = if cfg!(miri) { 3 } else { 8 };
    let once = OnceBox::<Raced>::new();
    let barrier = Barrier::new(threads);
    let seen: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    once.get_or_default().id
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(seen.iter().all(|&id| id == seen[0]), "{seen:?}");
    let built = BUILT.load(Ordering::SeqCst);
    assert_eq!(DROPPED.load(Ordering::SeqCst), built - 1);

    // Filled on one thread, read and dropped on another.
    std::thread::spawn(move || {
        assert_eq!(once.get_or_default().id, seen[0]);
        drop(once);
    })
    .join()
    .unwrap();
    assert_eq!(DROPPED.load(Ordering::SeqCst), built);

    // A `static`, as generated code holds a default instance: filled by
    // whichever thread comes first, the same value for every thread.
    static DEFAULT: OnceBox<Vec<u8>> = OnceBox::new();
    let addresses: Vec<usize> = (0..2)
        .map(|_| std::thread::spawn(|| DEFAULT.get_or_default() as *const Vec<u8> as usize))
        .map(|handle| handle.join().unwrap())
        .collect();
    assert_eq!(addresses[0], addresses[1]);
    assert_eq!(DEFAULT.get_or_default(), &Vec::<u8>::new());
}
