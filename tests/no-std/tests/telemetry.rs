//! The no_std library's `telemetry` messages (proto3) against protoc's own
//! encoder (`protoc --encode`): buffa's bytes must equal protoc's, and
//! decoding protoc's bytes (owned, and through the view) must give the
//! message back.

mod common;

use buffa::{DecodeErrorKind, Message};
use buffa_no_std_test::telemetry::{Reading, Sample, Unit};
use buffa_no_std_test::{decode, decode_through_view, encode, latest_value, sample_reading};

/// `text` (text format) encoded by protoc as a `telemetry.Reading`.
fn protoc_encode(text: &str) -> Vec<u8> {
    common::protoc_encode(
        &common::local_protos(),
        "telemetry.proto",
        "telemetry.Reading",
        text,
    )
}

/// `sample_reading()` in text format. Map entries are listed in key order,
/// the order a `BTreeMap` encodes them in.
const SAMPLE_TEXT: &str = r#"
    id: 42
    timestamp: -1700000000
    scale: 0.5
    calibrated: true
    checksum: 3735928559
    sensor: "thermo-1"
    raw: "\000\377\020"
    history: [1.5, -2]
    tags: "lab"
    tags: "ünïcode"
    counters { key: "errors" value: -1 }
    counters { key: "reads" value: 300 }
    latest { value: -3 unit: UNIT_CELSIUS }
    samples { value: 7 unit: UNIT_PASCAL }
    samples { }
    previous { value: 100 }
    sequence: 0
    unit: UNIT_PASCAL
"#;

#[test]
fn encoding_matches_protoc() {
    assert_eq!(encode(&sample_reading()), protoc_encode(SAMPLE_TEXT));
}

#[test]
fn decoding_protocs_bytes_gives_the_message() {
    let decoded = decode(&protoc_encode(SAMPLE_TEXT)).unwrap();
    assert_eq!(decoded, sample_reading());
    assert_eq!(decoded.counters["reads"], 300);
    assert_eq!(decoded.latest.unit, Unit::Celsius);
}

#[test]
fn the_view_reads_protocs_bytes_and_encodes_them_back() {
    let bytes = protoc_encode(SAMPLE_TEXT);
    let (reencoded, owned) = decode_through_view(&bytes).unwrap();
    assert_eq!(reencoded, bytes);
    assert_eq!(owned, sample_reading());
}

#[test]
fn an_unset_sub_message_reads_as_the_default_instance() {
    let empty = decode(&[]).unwrap();
    assert_eq!(empty, Reading::default());
    assert_eq!(latest_value(&empty), 0);
    assert!(std::ptr::eq(&*empty.latest, Sample::default_instance()));
    assert_eq!(latest_value(&sample_reading()), -3);
}

#[test]
fn unknown_fields_survive_a_round_trip() {
    let mut bytes = protoc_encode("id: 1");
    // Field 99, varint 5: a field `telemetry.Reading` does not declare.
    bytes.extend([0x98, 0x06, 0x05]);
    let decoded = decode(&bytes).unwrap();
    assert_eq!(decoded.id, 1);
    assert_eq!(encode(&decoded), bytes);
}

/// `Sample` is generated without unknown fields: it drops them.
#[test]
fn a_sample_drops_unknown_fields() {
    // value = -3 (sint32, ZigZag 5), then field 99, varint 5.
    let bytes = [0x08, 0x05, 0x98, 0x06, 0x05];
    let sample = Sample::decode_from_slice(&bytes).unwrap();
    assert_eq!(sample.value, -3);
    assert!(sample.unknown_fields().is_empty());
    assert_eq!(sample.encode_to_vec(), [0x08, 0x05]);
    assert!(Sample::decode_from_slice(&[0x98, 0x06]).is_err());
}

#[test]
fn malformed_input_is_an_error() {
    let bytes = protoc_encode(SAMPLE_TEXT);
    let error = decode(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::Truncated),
        "{error}"
    );
}
