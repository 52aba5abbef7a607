//! The proto2 package `legacy`, generated against the runtime as
//! `::buffa_rt`, against protoc's own encoder (`protoc --encode`).

use buffa_rt::Message;
use renamed_runtime::legacy::{Level, Record, buffa_rt::Shadow, record};

/// `text` (text format) encoded by protoc as a `legacy.Record`.
fn protoc_encode(text: &str) -> Vec<u8> {
    protoc_runner::Protoc::new([concat!(env!("CARGO_MANIFEST_DIR"), "/proto")])
        .run(&["--encode=legacy.Record", "legacy.proto"], text.as_bytes())
        .unwrap_or_else(|error| panic!("protoc --encode: {error}"))
}

/// Every proto2 feature of `Record`, set.
const TEXT: &str = r#"
    id: "r1"
    level: LEVEL_LOW
    count: -3
    Point { x: -1 y: 2 }
    Tag { key: "a" }
    Tag { key: "b" }
    levels: [LEVEL_HIGH, LEVEL_LOW]
    codes: [1, 4294967295]
    parent { id: "p" source: "s" }
    shadow { x: 9 }
"#;

/// `TEXT` as a generated message.
fn record() -> Record {
    let tag = |key: &str| record::Tag {
        key: Some(key.into()),
        ..Default::default()
    };
    Record {
        id: Some("r1".into()),
        level: Some(Level::Low),
        count: Some(-3),
        point: record::Point {
            x: Some(-1),
            y: Some(2),
            ..Default::default()
        }
        .into(),
        tag: vec![tag("a"), tag("b")],
        levels: vec![Level::High, Level::Low],
        codes: vec![1, u32::MAX],
        origin: Some(record::Origin::Parent(Box::new(Record {
            id: Some("p".into()),
            origin: Some(record::Origin::Source("s".into())),
            ..Default::default()
        }))),
        shadow: Shadow {
            x: Some(9),
            ..Default::default()
        }
        .into(),
        ..Default::default()
    }
}

#[test]
fn round_trips_against_protoc() {
    let reference = protoc_encode(TEXT);
    assert_eq!(record().encode_to_vec(), reference);
    assert_eq!(Record::decode_from_slice(&reference).unwrap(), record());
}

#[test]
fn declared_defaults_and_absent_required_fields() {
    // proto2 `[default = ...]` values, through the accessors.
    let empty = Record::decode_from_slice(&protoc_encode("")).unwrap();
    assert_eq!(empty, Record::default());
    assert_eq!(empty.level(), Level::High);
    assert_eq!(empty.count(), -7);
    // A missing required field decodes (as prost and protobuf-go's
    // `AllowPartial`); its accessor reads the type's default.
    assert_eq!(empty.id, None);
    assert_eq!(empty.id(), "");
    let set = record();
    assert_eq!((set.level(), set.count(), set.id()), (Level::Low, -3, "r1"));
}

#[test]
fn extensions_and_undeclared_closed_enum_values_stay_unknown() {
    // `weight` (100) is an extension, which buffa does not generate: its
    // bytes are kept and written back after the known fields, where protoc
    // also puts them (100 is the highest number).
    let reference = protoc_encode(&format!("{TEXT} [legacy.weight]: 5"));
    let decoded = Record::decode_from_slice(&reference).unwrap();
    assert_eq!(decoded.unknown_fields.as_bytes(), [0xa0, 0x06, 0x05]);
    assert_eq!(
        Record {
            unknown_fields: Default::default(),
            ..decoded.clone()
        },
        record()
    );
    assert_eq!(decoded.encode_to_vec(), reference);

    // `level: 3` (field 2, varint 3) is not a `Level`: a closed enum keeps
    // it among the unknown fields, leaving the field unset.
    let decoded = Record::decode_from_slice(&[0x10, 0x03]).unwrap();
    assert_eq!(decoded.level, None);
    assert_eq!(decoded.level(), Level::High);
    assert_eq!(decoded.unknown_fields.as_bytes(), [0x10, 0x03]);
    assert_eq!(decoded.encode_to_vec(), [0x10, 0x03]);
}
