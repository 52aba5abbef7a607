//! `Config::bytes`: `bytes` fields as `bytes::Bytes` share the decoder's
//! input instead of copying it, and `Message::SHARES_INPUT` tells which
//! messages can do that (transitively through nested messages).

use buffa::Message;
use buffa::bytes::Bytes;
use buffa_tests::shared::shared::{Blob, Envelope, Plain};

fn envelope() -> Envelope {
    let mut blob = Blob {
        data: Bytes::from_static(b"payload bytes"),
        ..Default::default()
    };
    blob.named
        .insert("key".into(), Bytes::from_static(b"value bytes"));
    Envelope {
        id: "e1".into(),
        blobs: vec![blob],
        ..Default::default()
    }
}

fn inside(input: &Bytes, slice: &[u8]) -> bool {
    let range = input.as_ptr_range();
    range.contains(&slice.as_ptr()) && slice.as_ptr_range().end <= range.end
}

#[test]
fn decoding_from_bytes_shares_the_input() {
    let input = Bytes::from(envelope().encode_to_vec());
    let decoded = Envelope::decode(input.clone()).unwrap();
    assert_eq!(decoded, envelope());
    let blob = &decoded.blobs[0];
    assert!(inside(&input, &blob.data), "Blob.data was copied");
    assert!(inside(&input, &blob.named["key"]), "map value was copied");
}

#[test]
fn decoding_from_a_slice_copies() {
    let input = envelope().encode_to_vec();
    let decoded = Envelope::decode(&input[..]).unwrap();
    assert_eq!(decoded, envelope());
    let data = &decoded.blobs[0].data;
    assert!(!input.as_ptr_range().contains(&data.as_ptr()));
}

#[test]
fn shares_input_is_transitive_and_exact() {
    const { assert!(Blob::SHARES_INPUT) };
    const { assert!(Envelope::SHARES_INPUT) };
    const { assert!(!Plain::SHARES_INPUT) };
    let plain = Plain {
        data: b"abc".to_vec(),
        ..Default::default()
    };
    // Decoding a contiguous buffer in place gives the same value.
    let bytes = plain.encode_to_vec();
    assert_eq!(Plain::decode(&bytes[..]).unwrap(), plain);
    assert_eq!(Plain::decode(Bytes::from(bytes)).unwrap(), plain);
}

#[test]
fn length_delimited_decoding_consumes_exactly_one_message() {
    let plain = Plain {
        data: b"xyz".to_vec(),
        ..Default::default()
    };
    let mut stream = plain.encode_length_delimited_to_vec();
    stream.extend(plain.encode_length_delimited_to_vec());
    let mut buf = &stream[..];
    assert_eq!(Plain::decode_length_delimited(&mut buf).unwrap(), plain);
    assert_eq!(Plain::decode_length_delimited(&mut buf).unwrap(), plain);
    assert!(buf.is_empty());
}
