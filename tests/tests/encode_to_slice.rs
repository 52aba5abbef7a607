//! `encode_to_slice` on protobuf's unittest messages: the bytes
//! `encode_to_vec` writes (protoc's, for `TestAllTypes`), no heap
//! allocation at all into a large enough slice, and the exact length
//! needed in the error for a short one.
//!
//! Allocations are counted per thread by a global allocator, so tests
//! running beside each other do not disturb the counts.

mod common;

use buffa::{EncodeErrorKind, EncodeOptions, Message, MessageView};
use buffa_tests::unittest::protobuf_unittest::{TestAllTypes, TestMap, TestPackedTypes};
use common::filled::{all_types, map, packed_types};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

use alloc_count::counted;

/// `message` encodes into a slice of exactly its length, and into a
/// larger one, without allocating, to `encode_to_vec`'s bytes; its view
/// does the same (to the deterministic bytes, as views write maps in key
/// order); a slice one byte short is refused with the exact length.
fn zero_allocations<M: Message + buffa::HasView>(message: &M) {
    let expected = message.encode_to_vec();
    for extra in [0, 100] {
        let mut buf = vec![0u8; expected.len() + extra];
        let (written, allocations) = counted(|| message.encode_to_slice(&mut buf).map(<[u8]>::len));
        assert_eq!(
            allocations,
            0,
            "{}: owned encode_to_slice allocated",
            M::NAME
        );
        assert_eq!(written, Ok(expected.len()));
        assert_eq!(&buf[extra..], &expected[..]);
    }

    // A view writes map entries in key order (its maps dedupe repeated
    // keys), and reads them without an index only when they arrived in
    // that order: decode it from a deterministic encoding.
    let deterministic = message
        .encode_to_vec_with_options(&EncodeOptions::new().with_deterministic(true))
        .unwrap();
    let view = buffa::view_of::<M>(&deterministic).unwrap();
    let mut buf = vec![0u8; expected.len()];
    let (written, allocations) = counted(|| view.encode_to_slice(&mut buf).map(<[u8]>::len));
    assert_eq!(
        allocations,
        0,
        "{}: view encode_to_slice allocated",
        M::NAME
    );
    assert_eq!(written, Ok(expected.len()));
    assert_eq!(buf, deterministic);

    let mut short = vec![0u8; expected.len() - 1];
    let (error, allocations) = counted(|| message.encode_to_slice(&mut short).map(|_| ()));
    let error = error.expect_err("one byte short");
    // The error names the message type: a `&'static str`, no allocation.
    assert_eq!(allocations, 0, "{}: the error allocated", M::NAME);
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::BufferTooSmall {
            required: expected.len(),
            remaining: expected.len() - 1,
        }
    );
}

#[test]
fn test_all_types_encodes_without_allocating() {
    zero_allocations::<TestAllTypes>(&all_types());
}

#[test]
fn test_packed_types_encodes_without_allocating() {
    zero_allocations::<TestPackedTypes>(&packed_types());
}

#[test]
fn test_map_encodes_without_allocating() {
    zero_allocations::<TestMap>(&map());
}

#[test]
fn matches_protoc_on_test_all_types() {
    let reference = common::protoc_encode(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        &common::protoc_decode(
            "google/protobuf/unittest.proto",
            "protobuf_unittest.TestAllTypes",
            &all_types().encode_to_vec(),
        ),
    );
    let mut buf = vec![0u8; reference.len()];
    assert_eq!(all_types().encode_to_slice(&mut buf).unwrap(), reference);
}

/// A deterministic encode of a `HashMap` must sort its entries, which the
/// two-pass encoder and this one both do through one `Vec` per map: the
/// documented exception. Its bytes are the two-pass encoder's.
#[test]
fn deterministic_maps_match_the_two_pass_encoder() {
    let message = map();
    let options = EncodeOptions::new().with_deterministic(true);
    let expected = message.encode_to_vec_with_options(&options).unwrap();
    let mut buf = vec![0u8; expected.len()];
    assert_eq!(
        message
            .encode_to_slice_with_options(&mut buf, &options)
            .unwrap(),
        expected
    );
}

/// `FieldWriter`, fed the fields of a message in field-number order,
/// writes the bytes the generated encoder writes for it: scalars of each
/// wire type, a negative enum, a group, nested and repeated sub-messages,
/// a oneof member, and sub-messages long enough (over 127 bytes) that
/// their length prefix grows after they are written.
#[test]
fn field_writer_matches_the_generated_encoder() {
    use buffa::MessageField;
    use buffa::wire::FieldWriter;
    use buffa_tests::unittest::protobuf_unittest::{NestedTestAllTypes, test_all_types};

    let long = vec![7u8; 300];
    let payload = TestAllTypes {
        optional_int32: Some(-5),
        optional_sint64: Some(-6),
        optional_fixed32: Some(7),
        optional_double: Some(1.5),
        optional_bool: Some(true),
        optional_string: Some("hello".into()),
        optional_bytes: Some(long.clone()),
        optionalgroup: MessageField::some(test_all_types::OptionalGroup {
            a: Some(17),
            ..Default::default()
        }),
        optional_nested_message: MessageField::some(test_all_types::NestedMessage {
            bb: Some(1),
            ..Default::default()
        }),
        optional_nested_enum: Some(test_all_types::NestedEnum::Neg),
        repeated_int32: vec![1, -1],
        repeated_nested_message: vec![
            test_all_types::NestedMessage {
                bb: Some(2),
                ..Default::default()
            },
            test_all_types::NestedMessage::default(),
        ],
        oneof_field: Some(test_all_types::OneofField::OneofUint32(111)),
        ..Default::default()
    };
    let message = NestedTestAllTypes {
        child: MessageField::some(NestedTestAllTypes {
            payload: MessageField::some(payload),
            ..Default::default()
        }),
        ..Default::default()
    };
    let expected = message.encode_to_vec();

    let write_payload = |p: &mut FieldWriter<'_>| {
        p.int32(1, -5)
            .sint64(6, -6)
            .fixed32(7, 7)
            .double(12, 1.5)
            .bool(13, true)
            .string(14, "hello")
            .bytes(15, &long)
            .group(16, |g| {
                g.int32(17, 17);
            })
            .message(18, |n| {
                n.int32(1, 1);
            })
            .int32(21, -1)
            .int32(31, 1)
            .int32(31, -1)
            .message(48, |n| {
                n.int32(1, 2);
            })
            .message(48, |_| {})
            .varint(111, 111);
    };
    let mut buf = vec![0u8; expected.len() + 10];
    let mut writer = FieldWriter::new(&mut buf);
    let (_, allocations) = counted(|| {
        writer.message(1, |child| {
            child.message(2, write_payload);
        });
    });
    assert_eq!(allocations, 0, "FieldWriter allocated");
    assert_eq!(writer.finish().unwrap(), &expected[..]);

    let mut short = vec![0u8; expected.len() - 1];
    let mut writer = FieldWriter::new(&mut short);
    writer.message(1, |child| {
        child.message(2, write_payload);
    });
    assert_eq!(
        writer.finish().unwrap_err().kind(),
        &EncodeErrorKind::BufferTooSmall {
            required: expected.len(),
            remaining: expected.len() - 1,
        }
    );
}
