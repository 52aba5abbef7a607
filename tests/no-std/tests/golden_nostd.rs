//! buffa-build's golden `no_std.proto` (edition 2023), whose generated
//! code buffa-build compares as text, compiled in the no_std library and
//! checked against protoc's own encoder: the extension `tags`, explicit
//! presence, packed samples, the recursive map and the boxed oneof variant.

mod common;

use buffa::{ExtendableMessage, Message, MessageView};
use buffa_no_std_test::golden::nostd::{Reading, ReadingView, TAGS, Unit, reading};
use buffa_no_std_test::{reading_tags, tagged_reading};

fn protoc_encode(text: &str) -> Vec<u8> {
    common::protoc_encode(
        &common::golden_protos(),
        "no_std.proto",
        "golden.nostd.Reading",
        text,
    )
}

/// `tagged_reading()` in text format; the extension by its full name.
const TAGGED_TEXT: &str = r#"
    sensor: ""
    samples: [-1, 64]
    children { key: "left" value { unit: UNIT_CELSIUS } }
    previous { raw: "\253" }
    [golden.nostd.tags]: "a"
    [golden.nostd.tags]: "b"
"#;

#[test]
fn encoding_with_the_extension_matches_protoc() {
    assert_eq!(tagged_reading().encode_to_vec(), protoc_encode(TAGGED_TEXT));
}

#[test]
fn the_extension_reads_back_from_protocs_bytes() {
    let bytes = protoc_encode(TAGGED_TEXT);
    let decoded = Reading::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded, tagged_reading());
    assert_eq!(reading_tags(&decoded).unwrap(), ["a", "b"]);
    assert!(decoded.has_extension(&TAGS));
    assert_eq!(decoded.children["left"].unit(), Unit::Celsius);
    let Some(reading::Source::Previous(previous)) = &decoded.source else {
        panic!("the oneof holds {:?}", decoded.source);
    };
    assert_eq!(previous.raw(), [0xAB]);

    let view = ReadingView::decode_view(&bytes).unwrap();
    assert_eq!(view.encode_to_vec(), bytes);
    assert_eq!(view.to_owned_message().unwrap(), tagged_reading());
}

#[test]
fn an_empty_string_is_present_and_unset_is_not() {
    // Explicit presence, edition 2023's default: an empty `sensor` is
    // written (`0a 00`), an unset one is not.
    assert_eq!(protoc_encode(r#"sensor: """#), [0x0A, 0x00]);
    let set = Reading::decode_from_slice(&[0x0A, 0x00]).unwrap();
    assert_eq!(set.sensor.as_deref(), Some(""));
    assert_eq!(set.encode_to_vec(), [0x0A, 0x00]);
    let unset = Reading::decode_from_slice(&[]).unwrap();
    assert_eq!(unset.sensor, None);
    assert_eq!(unset.sensor(), "");
    assert!(!unset.has_extension(&TAGS));
    assert!(reading_tags(&unset).unwrap().is_empty());
}
