//! The `Message` entry points: encode into buffers (and the error when they
//! are too small), length-delimited framing, and decoding from `Bytes` with
//! zero-copy `bytes` fields.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::sync::atomic::{AtomicPtr, Ordering};

use buffa::bytes::{Buf, BufMut, Bytes, BytesMut};
use buffa::{DecodeOptions, EncodeError, EncodeErrorKind, Message};
use common::{Kitchen, Scalars, cat, kitchen_sample, ld, varint, vfield};

fn scalars_sample() -> Scalars {
    Scalars {
        f_int32: 150,
        f_string: "text".into(),
        f_shared: Bytes::from_static(b"shared payload"),
        ..Scalars::default()
    }
}

/// Whether `inner` points into `outer`.
fn points_into(inner: &[u8], outer: &[u8]) -> bool {
    let outer = outer.as_ptr_range();
    let inner = inner.as_ptr_range();
    outer.start <= inner.start && inner.end <= outer.end
}

#[test]
fn encode_to_vec_and_encode_agree() {
    let message = scalars_sample();
    let expected = cat(&[
        &[0x08, 0x96, 0x01],
        &ld(14, b"text"),
        &[0x82, 0x01, 14],
        b"shared payload",
    ]);
    let vec = message.encode_to_vec();
    assert_eq!(vec, expected);
    assert_eq!(vec.capacity(), vec.len(), "reserved exactly once");
    assert_eq!(message.encoded_len(), expected.len());

    // encode appends to what the buffer holds.
    let mut vec = vec![0xee];
    message.encode(&mut vec).unwrap();
    assert_eq!(vec, cat(&[&[0xee], &expected]));

    let mut bytes_mut = BytesMut::new();
    message.encode(&mut bytes_mut).unwrap();
    assert_eq!(bytes_mut, expected[..]);

    // An exactly sized slice works and is used up.
    let mut buf = vec![0u8; expected.len()];
    let mut slice: &mut [u8] = &mut buf;
    message.encode(&mut slice).unwrap();
    assert!(slice.is_empty());
    assert_eq!(buf, expected);

    // A buffer made of two non-contiguous slices.
    let (mut first, mut second) = ([0u8; 5], [0u8; 64]);
    {
        let mut chain = (&mut first[..]).chain_mut(&mut second[..]);
        message.encode(&mut chain).unwrap();
    }
    assert_eq!(first[..], expected[..5]);
    assert_eq!(second[..expected.len() - 5], expected[5..]);
}

fn too_small(required: usize, remaining: usize) -> EncodeError {
    EncodeError::new(
        EncodeErrorKind::BufferTooSmall {
            required,
            remaining,
        },
        "test.Scalars",
    )
}

#[test]
fn encode_into_a_too_small_buffer_fails_and_writes_nothing() {
    let message = scalars_sample();
    let len = message.encoded_len();
    let mut buf = vec![0xaau8; len - 1];
    let mut slice: &mut [u8] = &mut buf;
    let error = message.encode(&mut slice).unwrap_err();
    assert_eq!(error, too_small(len, len - 1));
    assert_eq!(error.message_name(), "test.Scalars");
    assert_eq!(slice.len(), len - 1, "nothing consumed");
    assert!(buf.iter().all(|&b| b == 0xaa), "nothing written");
    assert_eq!(
        error.to_string(),
        format!(
            "failed to encode protobuf message test.Scalars: needs {len} bytes, \
             buffer has room for {}",
            len - 1
        )
    );

    // Length-delimited: the prefix counts too.
    let mut buf = vec![0xaau8; len];
    let mut slice: &mut [u8] = &mut buf;
    let error = message.encode_length_delimited(&mut slice).unwrap_err();
    assert_eq!(error, too_small(len + 1, len));
    assert!(buf.iter().all(|&b| b == 0xaa));

    // An empty slice, and a limited Vec.
    let mut empty: &mut [u8] = &mut [];
    assert_eq!(message.encode(&mut empty).unwrap_err(), too_small(len, 0));
    let mut vec = Vec::new();
    let mut limited = (&mut vec).limit(3);
    assert!(message.encode(&mut limited).is_err());
    assert!(vec.is_empty());

    // An empty message fits anywhere.
    let mut empty: &mut [u8] = &mut [];
    Scalars::default().encode(&mut empty).unwrap();
}

/// `measure` then `encode`: the length is known before anything is
/// written, so a growable buffer can reserve it and take the message in
/// place, with the nested lengths the sizing pass recorded.
#[test]
fn measure_then_encode_into_reserved_memory() {
    let message = kitchen_sample();
    let expected = message.encode_to_vec();
    let measured = message.measure(&buffa::EncodeOptions::new()).unwrap();
    assert_eq!(measured.len(), expected.len());
    assert!(!measured.is_empty());
    let mut buf = BytesMut::new();
    buf.reserve(measured.len());
    let reserved = buf.spare_capacity_mut().as_ptr() as *const u8;
    measured.encode(&mut buf).unwrap();
    assert_eq!(&buf[..], &expected[..]);
    assert_eq!(buf.as_ptr(), reserved, "written where it was reserved");

    // Too small a buffer: an error, nothing written.
    let measured = message.measure(&buffa::EncodeOptions::new()).unwrap();
    let mut slice = [0u8; 4];
    let mut target = &mut slice[..];
    let error = measured.encode(&mut target).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            EncodeErrorKind::BufferTooSmall { remaining: 4, .. }
        ),
        "{error}"
    );
    assert_eq!(slice, [0; 4]);

    // An empty message measures as empty.
    let empty = Scalars::default();
    assert!(
        empty
            .measure(&buffa::EncodeOptions::new())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn length_delimited_framing() {
    let first = scalars_sample();
    let second = Scalars {
        f_bool: true,
        ..Scalars::default()
    };
    let empty = Scalars::default();
    let mut stream = Vec::new();
    first.encode_length_delimited(&mut stream).unwrap();
    second.encode_length_delimited(&mut stream).unwrap();
    empty.encode_length_delimited(&mut stream).unwrap();

    let first_bytes = first.encode_to_vec();
    let expected = cat(&[
        &varint(first_bytes.len() as u64),
        &first_bytes,
        &[0x02, 0x68, 0x01],
        &[0x00],
    ]);
    assert_eq!(stream, expected);
    assert_eq!(
        first.encode_length_delimited_to_vec(),
        expected[..1 + first_bytes.len()]
    );

    // Decoding consumes exactly one frame at a time.
    let mut cursor = &stream[..];
    assert_eq!(
        Scalars::decode_length_delimited(&mut cursor).unwrap(),
        first
    );
    assert_eq!(cursor.len(), 4);
    assert_eq!(
        Scalars::decode_length_delimited(&mut cursor).unwrap(),
        second
    );
    assert_eq!(
        Scalars::decode_length_delimited(&mut cursor).unwrap(),
        empty
    );
    assert!(cursor.is_empty());
    assert!(Scalars::decode_length_delimited(&mut cursor).is_err());

    // A frame longer than 127 bytes has a two-byte prefix.
    let big = Scalars {
        f_bytes: vec![1; 200],
        ..Scalars::default()
    };
    let framed = big.encode_length_delimited_to_vec();
    assert_eq!(framed[..2], [0xcb, 0x01]);
    assert_eq!(Scalars::decode_length_delimited(&framed[..]).unwrap(), big);

    // A frame split across the chunks of a non-contiguous buffer, even
    // inside its length prefix.
    let (head, tail) = framed.split_at(1);
    let mut chained = head.chain(tail);
    assert_eq!(Scalars::decode_length_delimited(&mut chained).unwrap(), big);
    assert_eq!(chained.remaining(), 0);
    let (head, tail) = first_bytes.split_at(5);
    assert_eq!(Scalars::decode(head.chain(tail)).unwrap(), first);

    // Same from Bytes, which the decoded `bytes` field then shares.
    let mut shared = Bytes::from(stream.clone());
    let whole = shared.clone();
    let decoded = Scalars::decode_length_delimited(&mut shared).unwrap();
    assert_eq!(decoded, first);
    assert!(points_into(&decoded.f_shared, &whole));
    assert_eq!(shared.len(), 4);
}

#[test]
fn decoding_from_bytes_shares_the_input() {
    let input = Bytes::from(scalars_sample().encode_to_vec());
    let message = Scalars::decode(input.clone()).unwrap();
    assert_eq!(message, scalars_sample());
    // The field is a view of the input, at the payload's position.
    let at = input.len() - 14;
    assert_eq!(message.f_shared.as_ptr(), input[at..].as_ptr());
    assert!(points_into(&message.f_shared, &input));

    // It keeps the input alive on its own.
    drop(input);
    assert_eq!(message.f_shared, &b"shared payload"[..]);

    // `merge` from Bytes shares too.
    let input = Bytes::from(cat(&[&[0xa2, 0x01, 0x03], b"abc"]));
    let mut kitchen = Kitchen::default();
    kitchen.merge(input.clone()).unwrap();
    assert_eq!(kitchen.shared.as_ptr(), input[3..].as_ptr());

    // From a slice (or any other buffer), `bytes` fields are copies.
    let vec = scalars_sample().encode_to_vec();
    let copied = Scalars::decode_from_slice(&vec).unwrap();
    assert!(!points_into(&copied.f_shared, &vec));
    let copied = Scalars::decode(&vec[..]).unwrap();
    assert!(!points_into(&copied.f_shared, &vec));
    assert_eq!(copied, scalars_sample());
    let copied = Scalars::decode_with_options(&vec, &DecodeOptions::default()).unwrap();
    assert!(!points_into(&copied.f_shared, &vec));
}

#[test]
fn decode_of_empty_input_is_the_default() {
    assert_eq!(Kitchen::decode_from_slice(&[]).unwrap(), Kitchen::default());
    assert_eq!(Kitchen::decode(Bytes::new()).unwrap(), Kitchen::default());
    assert_eq!(
        Kitchen::decode_length_delimited(&[0x00][..]).unwrap(),
        Kitchen::default()
    );
    assert!(std::ptr::eq(
        Kitchen::default_instance(),
        Kitchen::default_instance()
    ));
    assert_eq!(*Kitchen::default_instance(), Kitchen::default());
    assert_eq!(Kitchen::NAME, "test.Kitchen");
}

#[test]
fn kitchen_sample_round_trips_through_every_entry_point() {
    let message = kitchen_sample();
    let bytes = message.encode_to_vec();
    assert_eq!(message.encoded_len(), bytes.len());
    assert_eq!(Kitchen::decode_from_slice(&bytes).unwrap(), message);
    assert_eq!(
        Kitchen::decode(Bytes::from(bytes.clone())).unwrap(),
        message
    );
    assert_eq!(Kitchen::decode(&bytes[..]).unwrap(), message);
    let framed = message.encode_length_delimited_to_vec();
    assert_eq!(
        Kitchen::decode_length_delimited(&framed[..]).unwrap(),
        message
    );
    let mut merged = Kitchen::default();
    merged.merge(&bytes[..]).unwrap();
    assert_eq!(merged, message);
    // The trailing unknown field comes last.
    assert_eq!(bytes[bytes.len() - 3..], vfield(100, 1)[..]);
}

/// A message whose `write_to` swaps its encoder for one over other memory
/// and fills that instead: encoding must refuse to expose the untouched
/// destination bytes.
#[derive(Debug, Default)]
struct EncoderSwapper;

impl buffa::Message for EncoderSwapper {
    const NAME: &'static str = "test.EncoderSwapper";

    fn default_instance() -> &'static Self {
        &EncoderSwapper
    }

    fn compute_size(&self, _cache: &mut buffa::wire::SizeCache) -> usize {
        64
    }

    fn write_to(
        &self,
        _cache: &mut buffa::wire::SizeCache,
        encoder: &mut buffa::wire::Encoder<'_>,
    ) {
        // Leaked on purpose: `*encoder` needs a buffer that outlives it. It
        // stays reachable from a static, so Miri's leak check accepts it.
        static SWAPPED_IN: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());
        let other: &'static mut [u8] = Box::leak(vec![0u8; 64].into_boxed_slice());
        SWAPPED_IN.store(other.as_mut_ptr(), Ordering::Relaxed);
        *encoder = buffa::wire::Encoder::from_slice(other);
        encoder.put_slice(&[1; 64]);
    }

    fn merge_field(
        &mut self,
        tag: buffa::wire::Tag,
        decoder: &mut buffa::wire::Decoder<'_>,
    ) -> Result<(), buffa::DecodeError> {
        decoder.skip_field(tag)
    }

    fn unknown_fields(&self) -> &buffa::UnknownFields {
        static EMPTY: buffa::UnknownFields = buffa::UnknownFields::new();
        &EMPTY
    }

    fn clear(&mut self) {}
}

#[test]
#[should_panic(expected = "write_to replaced its Encoder")]
fn a_write_to_that_swaps_its_encoder_is_caught() {
    use buffa::Message;
    let _ = EncoderSwapper.encode_to_vec();
}
