//! The special JSON forms of the well-known types: Timestamp and Duration
//! as strings, FieldMask as one string, Struct/Value/ListValue as any
//! JSON, the wrappers as bare values, and Any with its "@type".

use std::sync::Arc;

use buffa::Message;
use buffa::json::TypeRegistry;

use super::*;

fn timestamp(seconds: i64, nanos: i32) -> wkt::Timestamp {
    wkt::Timestamp {
        seconds,
        nanos,
        ..Default::default()
    }
}

fn duration(seconds: i64, nanos: i32) -> wkt::Duration {
    wkt::Duration {
        seconds,
        nanos,
        ..Default::default()
    }
}

fn list(values: Vec<wkt::Value>) -> wkt::Value {
    wkt::Value {
        kind: Some(wkt::value::Kind::ListValue(Box::new(wkt::ListValue {
            values,
            ..Default::default()
        }))),
        ..Default::default()
    }
}

fn object(fields: Vec<(&str, wkt::Value)>) -> wkt::Struct {
    wkt::Struct {
        fields: fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        ..Default::default()
    }
}

fn boolean(v: bool) -> wkt::Value {
    wkt::Value {
        kind: Some(wkt::value::Kind::BoolValue(v)),
        ..Default::default()
    }
}

fn any_of<M: Message>(message: &M) -> wkt::Any {
    wkt::Any {
        type_url: format!("type.googleapis.com/{}", M::NAME),
        value: message.encode_to_vec(),
        ..Default::default()
    }
}

/// The registry of json3's messages.
fn registry() -> Arc<TypeRegistry> {
    let mut registry = TypeRegistry::new();
    json3::register_types(&mut registry);
    Arc::new(registry)
}

fn with_registry() -> SerializeOptions {
    SerializeOptions::new().with_type_registry(registry())
}

fn read_with_registry() -> DeserializeOptions {
    DeserializeOptions::new().with_type_registry(registry())
}

/// A timestamp field holding `(seconds, nanos)`, as JSON.
fn timestamp_json(seconds: i64, nanos: i32) -> Result<String, JsonError> {
    json::to_string(&WellKnown {
        timestamp: timestamp(seconds, nanos).into(),
        ..Default::default()
    })
}

/// A `WellKnown` with every field set (no Any holding a registered type).
pub(super) fn full_well_known() -> WellKnown {
    WellKnown {
        timestamp: timestamp(1, 2).into(),
        duration: duration(-3, -4).into(),
        field_mask: wkt::FieldMask {
            paths: vec!["a.b_c".into(), "d".into()],
            ..Default::default()
        }
        .into(),
        struct_value: object(vec![("s", string("t")), ("n", null())]).into(),
        value: list(vec![number(1.0), boolean(false)]).into(),
        list_value: wkt::ListValue {
            values: vec![string("x")],
            ..Default::default()
        }
        .into(),
        any: any_of(&duration(5, 0)).into(),
        empty: wkt::Empty::default().into(),
        null_value: EnumValue::Known(wkt::NullValue::NullValue),
        optional_null: Some(EnumValue::Known(wkt::NullValue::NullValue)),
        double_value: wkt::DoubleValue {
            value: 0.5,
            ..Default::default()
        }
        .into(),
        float_value: wkt::FloatValue::default().into(),
        int64_value: wkt::Int64Value {
            value: i64::MIN,
            ..Default::default()
        }
        .into(),
        uint64_value: wkt::UInt64Value::default().into(),
        int32_value: wkt::Int32Value {
            value: -1,
            ..Default::default()
        }
        .into(),
        uint32_value: wkt::UInt32Value::default().into(),
        bool_value: wkt::BoolValue::default().into(),
        string_value: wkt::StringValue::default().into(),
        bytes_value: wkt::BytesValue {
            value: vec![1, 2],
            ..Default::default()
        }
        .into(),
        values: vec![null(), string("")],
        anys: vec![any_of(&wkt::Empty::default()), wkt::Any::default()],
        value_map: HashMap::from([("k".into(), number(-2.0))]),
        int32_values: vec![wkt::Int32Value::default()],
        timestamps: vec![timestamp(0, 0)],
        nulls: vec![EnumValue::Known(wkt::NullValue::NullValue)],
        ..Default::default()
    }
}

#[test]
fn every_well_known_field_has_its_special_form() {
    assert_eq!(
        printed(&full_well_known()),
        json!({
            "timestamp": "1970-01-01T00:00:01.000000002Z",
            "duration": "-3.000000004s",
            "fieldMask": "a.bC,d",
            "structValue": {"s": "t", "n": null},
            "value": [1.0, false],
            "listValue": ["x"],
            "any": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "5s"},
            "empty": {},
            // "nullValue" holds NULL_VALUE, its default, and is left out;
            // an optional NullValue is printed when set.
            "optionalNull": null,
            "doubleValue": 0.5,
            // Wrappers are messages: set to the default, they are printed.
            "floatValue": 0.0,
            "int64Value": "-9223372036854775808",
            "uint64Value": "0",
            "int32Value": -1,
            "uint32Value": 0,
            "boolValue": false,
            "stringValue": "",
            "bytesValue": "AQI=",
            "values": [null, ""],
            "anys": [{"@type": "type.googleapis.com/google.protobuf.Empty"}, {}],
            "valueMap": {"k": -2.0},
            "int32Values": [0],
            "timestamps": ["1970-01-01T00:00:00Z"],
            "nulls": [null],
        })
    );
}

#[test]
fn timestamps() {
    let cases = [
        ((0, 10_000_000), "1970-01-01T00:00:00.010Z"),
        ((0, 10_000), "1970-01-01T00:00:00.000010Z"),
        ((-1, 999_999_999), "1969-12-31T23:59:59.999999999Z"),
        ((951_782_400, 0), "2000-02-29T00:00:00Z"),
        ((-62_135_596_800, 0), "0001-01-01T00:00:00Z"),
        (
            (253_402_300_799, 999_999_999),
            "9999-12-31T23:59:59.999999999Z",
        ),
    ];
    for ((seconds, nanos), text) in cases {
        let json = timestamp_json(seconds, nanos).unwrap();
        assert_eq!(json, format!(r#"{{"timestamp":"{text}"}}"#));
        let back: WellKnown = parse(&json);
        assert_eq!(*back.timestamp, timestamp(seconds, nanos), "{text}");
    }
    // Offsets are applied.
    let back: WellKnown = parse(r#"{"timestamp": "1970-01-01T01:00:00.5+01:00"}"#);
    assert_eq!(*back.timestamp, timestamp(0, 500_000_000));
    // Out of range in both directions, printing and parsing.
    for (seconds, nanos) in [
        (-62_135_596_801, 0),
        (253_402_300_800, 0),
        (0, -1),
        (0, 1_000_000_000),
    ] {
        let err = timestamp_json(seconds, nanos).unwrap_err();
        assert!(err.to_string().contains("Timestamp"), "{err}");
    }
    for text in ["0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01"] {
        let input = format!(r#"{{"timestamp": "{text}"}}"#);
        let err = parse_err::<WellKnown>(&input);
        assert!(
            err.to_string().contains("is outside 0001-01-01T00:00:00Z"),
            "{text}: {err}"
        );
    }
    for text in [
        "0000-12-31T23:59:59Z",
        "10000-01-01T00:00:00Z",
        "2001-02-29T00:00:00Z",
    ] {
        parse_err::<WellKnown>(&format!(r#"{{"timestamp": "{text}"}}"#));
    }
}

#[test]
fn durations() {
    let cases = [
        ((0, -500_000_000), "-0.500s"),
        ((1, 340_012), "1.000340012s"),
        ((1, 0), "1s"),
        ((0, 0), "0s"),
        ((-315_576_000_000, -999_999_999), "-315576000000.999999999s"),
        ((315_576_000_000, 0), "315576000000s"),
        ((0, 10_000), "0.000010s"),
    ];
    for ((seconds, nanos), text) in cases {
        let message = WellKnown {
            duration: duration(seconds, nanos).into(),
            ..Default::default()
        };
        assert_eq!(print(&message), format!(r#"{{"duration":"{text}"}}"#));
        assert_eq!(round_trip(&message), print(&message));
    }
    for (seconds, nanos) in [(315_576_000_001, 0), (1, -1), (-1, 1), (0, 1_000_000_000)] {
        let message = WellKnown {
            duration: duration(seconds, nanos).into(),
            ..Default::default()
        };
        json::to_string(&message).unwrap_err();
    }
    for text in [
        "315576000001s",
        "-315576000001s",
        "1",
        "1.5 s",
        "1.1234567891s",
    ] {
        parse_err::<WellKnown>(&format!(r#"{{"duration": "{text}"}}"#));
    }
    let back: WellKnown = parse(r#"{"duration": "-1.5s"}"#);
    assert_eq!(*back.duration, duration(-1, -500_000_000));
}

#[test]
fn field_masks() {
    let message = WellKnown {
        field_mask: wkt::FieldMask {
            paths: vec!["foo".into(), "bar_baz".into()],
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    assert_eq!(print(&message), r#"{"fieldMask":"foo,barBaz"}"#);
    round_trip(&message);
    let empty = WellKnown {
        field_mask: wkt::FieldMask::default().into(),
        ..Default::default()
    };
    assert_eq!(round_trip(&empty), r#"{"fieldMask":""}"#);
    // Paths whose camelCase would not read back as the same path.
    for path in ["fooBar", "foo__bar", "foo_", "foo_1"] {
        let message = WellKnown {
            field_mask: wkt::FieldMask {
                paths: vec![path.into()],
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        let err = json::to_string(&message).unwrap_err();
        assert!(
            err.to_string().contains("has no lowerCamelCase form"),
            "{path}: {err}"
        );
    }
}

#[test]
fn struct_value_and_list_value_nest() {
    let inner = object(vec![(
        "c",
        wkt::Value {
            kind: Some(wkt::value::Kind::StructValue(Box::new(object(vec![])))),
            ..Default::default()
        },
    )]);
    let message = WellKnown {
        struct_value: object(vec![
            ("a", number(1.5)),
            (
                "b",
                list(vec![
                    boolean(true),
                    null(),
                    string("x"),
                    wkt::Value {
                        kind: Some(wkt::value::Kind::StructValue(Box::new(inner))),
                        ..Default::default()
                    },
                    list(vec![]),
                ]),
            ),
        ])
        .into(),
        list_value: wkt::ListValue::default().into(),
        ..Default::default()
    };
    assert_eq!(
        printed(&message),
        json!({
            "structValue": {"a": 1.5, "b": [true, null, "x", {"c": {}}, []]},
            "listValue": [],
        })
    );
    round_trip(&message);
    // Any JSON reads into a Value; integers become doubles.
    let back: WellKnown = parse(r#"{"value": {"n": 3, "big": 1e300, "neg": -0.0}}"#);
    let Some(wkt::value::Kind::StructValue(fields)) = &back.value.kind else {
        panic!("{back:?}")
    };
    assert_eq!(fields.fields["n"], number(3.0));
    assert_eq!(fields.fields["big"], number(1e300));
    // A Struct must be an object, a ListValue an array.
    parse_err::<WellKnown>(r#"{"structValue": [1]}"#);
    parse_err::<WellKnown>(r#"{"listValue": {}}"#);
}

#[test]
fn wrappers_are_bare_values() {
    let message: WellKnown = parse(
        r#"{"doubleValue": "NaN", "floatValue": 1, "int64Value": "-5", "uint64Value": 7,
            "int32Value": "8", "uint32Value": 9.0, "boolValue": true,
            "stringValue": "s", "bytesValue": "-_8"}"#,
    );
    assert!(message.double_value.value.is_nan());
    assert_eq!(message.float_value.value, 1.0);
    assert_eq!(message.int64_value.value, -5);
    assert_eq!(message.uint64_value.value, 7);
    assert_eq!(message.int32_value.value, 8);
    assert_eq!(message.uint32_value.value, 9);
    assert!(message.bool_value.value);
    assert_eq!(message.string_value.value, "s");
    assert_eq!(message.bytes_value.value, [0xfb, 0xff]);
    assert_eq!(
        printed(&message),
        json!({
            "doubleValue": "NaN", "floatValue": 1.0, "int64Value": "-5", "uint64Value": "7",
            "int32Value": 8, "uint32Value": 9, "boolValue": true,
            "stringValue": "s", "bytesValue": "+/8=",
        })
    );
    // null leaves a wrapper unset, unlike a wrapped default.
    let message: WellKnown = parse(r#"{"int32Value": null, "boolValue": false}"#);
    assert!(!message.int32_value.is_set());
    assert!(message.bool_value.is_set());
    assert_eq!(print(&message), r#"{"boolValue":false}"#);
    // In a repeated field, null is not a wrapper.
    parse_err::<WellKnown>(r#"{"int32Values": [1, null]}"#);
}

#[test]
fn any_holding_a_registered_message() {
    let packed = nested(7, "seven");
    let message = WellKnown {
        any: any_of(&packed).into(),
        ..Default::default()
    };
    let expected =
        json!({"any": {"@type": "type.googleapis.com/json3.Nested", "id": 7, "label": "seven"}});
    assert_eq!(printed_with(&message, &with_registry()), expected);
    let text = json::to_string_with(&message, &with_registry()).unwrap();
    let back: WellKnown = parse_with(&text, &read_with_registry());
    assert_eq!(back, message);
    // "@type" may come last.
    let text =
        r#"{"any": {"id": 7, "label": "seven", "@type": "type.googleapis.com/json3.Nested"}}"#;
    assert_eq!(
        parse_with::<WellKnown>(text, &read_with_registry()),
        message
    );
    // The options reach the packed message.
    let options = with_registry()
        .with_proto_field_names(true)
        .with_emit_default_values(true);
    let printed = printed_with(&any_of(&Nested::default()), &options);
    assert_eq!(
        printed,
        json!({"@type": "type.googleapis.com/json3.Nested", "id": 0, "label": ""})
    );
    let options = with_registry().with_enums_as_ints(true);
    let scalars = Scalars {
        f_mood: mood(Mood::Sad),
        ..Default::default()
    };
    assert_eq!(printed_with(&any_of(&scalars), &options)["fMood"], json!(2));
}

#[test]
fn any_holding_a_message_prints_its_fields_as_the_message_alone() {
    let packed = full_scalars();
    let alone = printed(&packed);
    let mut inside = printed_with(&any_of(&packed), &with_registry());
    let Value::Object(fields) = &mut inside else {
        panic!("{inside}")
    };
    assert_eq!(
        fields.remove("@type"),
        Some(json!("type.googleapis.com/json3.Scalars"))
    );
    assert_eq!(inside, alone);
}

#[test]

fn any_holding_a_message_prints_floats_as_the_message_alone() {
    let packed = Scalars {
        f_float: 0.1,
        ..Default::default()
    };
    assert_eq!(print(&packed), r#"{"fFloat":0.1}"#);
    let text = json::to_string_with(&any_of(&packed), &with_registry()).unwrap();
    assert_eq!(
        text,
        r#"{"@type":"type.googleapis.com/json3.Scalars","fFloat":0.1}"#
    );
}

#[test]
fn any_holding_a_well_known_type_uses_value() {
    let cases: Vec<(wkt::Any, Value)> = vec![
        (any_of(&timestamp(0, 0)), json!("1970-01-01T00:00:00Z")),
        (any_of(&duration(1, 500_000_000)), json!("1.500s")),
        (any_of(&object(vec![("a", null())])), json!({"a": null})),
        (any_of(&boolean(true)), json!(true)),
        (
            any_of(&wkt::Int64Value {
                value: 5,
                ..Default::default()
            }),
            json!("5"),
        ),
        (
            any_of(&wkt::FieldMask {
                paths: vec!["a_b".into()],
                ..Default::default()
            }),
            json!("aB"),
        ),
        (
            any_of(&any_of(&duration(2, 0))),
            json!({"@type": "type.googleapis.com/google.protobuf.Duration", "value": "2s"}),
        ),
    ];
    for (any, value) in cases {
        let expected = json!({"@type": any.type_url, "value": value});
        assert_eq!(printed(&any), expected);
        let back: wkt::Any = parse(&print(&any));
        assert_eq!(back, any);
    }
    // Empty is an ordinary message: its (no) fields beside "@type".
    let empty = any_of(&wkt::Empty::default());
    assert_eq!(
        printed(&empty),
        json!({"@type": "type.googleapis.com/google.protobuf.Empty"})
    );
    assert_eq!(parse::<wkt::Any>(&print(&empty)), empty);
    // A well-known type with a special form needs its "value".
    let err = parse_err::<wkt::Any>(r#"{"@type": "type.googleapis.com/google.protobuf.Duration"}"#);
    assert!(err.to_string().contains("needs a \"value\""), "{err}");
}

#[test]
fn any_with_an_unregistered_type_is_an_error() {
    let message = any_of(&nested(1, ""));
    let err = json::to_string(&message).unwrap_err();
    assert!(
        err.to_string().contains(
            "Any holds json3.Nested, which is not a well-known type nor in the type registry"
        ),
        "{err}"
    );
    let text = r#"{"@type": "type.googleapis.com/json3.Nested", "id": 1}"#;
    let err = parse_err::<wkt::Any>(text);
    assert!(err.to_string().contains("Any holds json3.Nested"), "{err}");
    // With the registry, both work.
    let options = with_registry();
    let text = json::to_string_with(&message, &options).unwrap();
    assert_eq!(
        parse_with::<wkt::Any>(&text, &read_with_registry()),
        message
    );
    // Other malformed Anys.
    for (text, cause) in [
        (r#"{"id": 1}"#, "no \"@type\""),
        (r#"{"@type": 1}"#, "must be a string"),
        (r#"{"@type": "nothing"}"#, "invalid Any type URL"),
        (
            r#"{"@type": "type.googleapis.com/"}"#,
            "invalid Any type URL",
        ),
    ] {
        let err = parse_err::<wkt::Any>(text);
        assert!(err.to_string().contains(cause), "{text}: {err}");
    }
}

#[test]
fn any_rejects_what_the_packed_message_rejects() {
    let options = read_with_registry();
    let any =
        |fields: &str| format!(r#"{{"@type": "type.googleapis.com/json3.Nested", {fields}}}"#);
    for (fields, cause) in [
        (r#""id": 1, "bogus": 2"#, "unknown field \"bogus\""),
        (r#""id": "x""#, "int32"),
    ] {
        let err = parse_err_with::<wkt::Any>(&any(fields), &options);
        assert!(err.to_string().contains(cause), "{fields}: {err}");
    }
    // Unknown fields in the packed message are skipped on request.
    let options = read_with_registry().with_ignore_unknown_fields(true);
    let back: wkt::Any = parse_with(&any(r#""id": 1, "bogus": 2"#), &options);
    assert_eq!(back, any_of(&nested(1, "")));
}

#[test]

fn any_rejects_duplicate_fields() {
    let options = read_with_registry();
    for text in [
        r#"{"@type": "type.googleapis.com/json3.Nested", "id": 1, "id": 2}"#,
        r#"{"@type": "type.googleapis.com/json3.Nested", "id": 1, "label": "", "label": "x"}"#,
        r#"{"@type": "type.googleapis.com/json3.Nested", "@type": "type.googleapis.com/json3.Node"}"#,
        r#"{"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s", "value": "2s"}"#,
    ] {
        let err = parse_err_with::<wkt::Any>(text, &options);
        assert!(err.to_string().contains("more than once"), "{text}: {err}");
    }
}
