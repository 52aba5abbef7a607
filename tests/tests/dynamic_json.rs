//! Proto3 JSON of dynamic messages (`buffa_reflect::json`) against the
//! generated serde impls of the same schemas: for the same data both print
//! the same text, byte for byte, under every option; the same JSON parses
//! to the same message (compared as binary), and bad JSON fails with the
//! same error at the same line and column. The schemas: the JSON test
//! protos (every scalar, maps, oneofs with null values, recursion, every
//! well-known type, `Any` holding an `Any`), the cross-check protos with
//! random values (`common::strategies`), and protobuf's unittest messages
//! (no generated JSON there: their dynamic JSON must read back to the
//! same bytes). The descriptors come from protoc.

mod common;

use std::fmt::Debug;
use std::sync::{Arc, OnceLock};

use buffa::json::{
    self, DeserializeOptions, JsonError, JsonMessage, SerializeOptions, TypeRegistry,
};
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use buffa_tests::crosscheck::crosscheck as b;
use buffa_tests::prost_crosscheck::crosscheck as p;
use common::strategies::*;
use common::{local_protos, protoc_descriptor_set, protoc_encode, unittest_include};
use proptest::prelude::*;
use serde::de::DeserializeSeed;

#[allow(dead_code, clippy::all)]
mod schema {
    include!(concat!(env!("OUT_DIR"), "/json/include.rs"));
}

use schema::{json2, json3};

/// One pool of the JSON, cross-check and unittest protos, built by protoc.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool = DescriptorPool::decode(&protoc_descriptor_set(
            &local_protos().join("json"),
            &["json.proto", "json2.proto"],
        ))
        .expect("the JSON protos make a pool");
        for (include, files) in [
            (
                local_protos().join("crosscheck"),
                &["proto2.proto", "proto3.proto"][..],
            ),
            (
                unittest_include(),
                &[
                    "google/protobuf/unittest.proto",
                    "google/protobuf/map_unittest.proto",
                ][..],
            ),
        ] {
            let set = DescriptorPool::decode(&protoc_descriptor_set(&include, files))
                .expect("the protos make a pool")
                .file_descriptor_set();
            pool.add_file_descriptor_set(set)
                .expect("the sets share only identical files");
        }
        pool
    })
}

fn descriptor(full_name: &str) -> MessageDescriptor {
    pool()
        .get_message_by_name(full_name)
        .unwrap_or_else(|| panic!("{full_name} is in the pool"))
}

/// The registry the generated code needs for `Any`s holding json3 types
/// (dynamic messages find them in their pool).
fn registry() -> Arc<TypeRegistry> {
    let mut registry = TypeRegistry::new();
    json3::register_types(&mut registry);
    Arc::new(registry)
}

/// The option sets outputs are compared under.
fn print_options() -> Vec<SerializeOptions> {
    let all = SerializeOptions::new()
        .with_emit_default_values(true)
        .with_enums_as_ints(true)
        .with_proto_field_names(true);
    vec![
        SerializeOptions::new(),
        SerializeOptions::new().with_emit_default_values(true),
        SerializeOptions::new().with_enums_as_ints(true),
        SerializeOptions::new().with_proto_field_names(true),
        all,
    ]
}

/// `generated` and the dynamic message decoded from its encoding print the
/// same JSON under every option set; with `exact`, byte for byte, else as
/// the same JSON value (maps held in `HashMap`s print in any order).
fn same_output<M: JsonMessage>(generated: &M, exact: bool) {
    let dynamic = DynamicMessage::decode(descriptor(M::NAME), &generated.encode_to_vec())
        .expect("dynamic decode");
    for options in print_options() {
        let expected =
            json::to_string_with(generated, &options.clone().with_type_registry(registry()))
                .expect("generated print");
        let actual = buffa_reflect::json::to_string_with(&dynamic, &options)
            .unwrap_or_else(|e| panic!("dynamic print of {expected}: {e}"));
        if exact {
            assert_eq!(actual, expected, "{options:?}");
        } else {
            let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
            assert_eq!(parse(&actual), parse(&expected), "{options:?}");
        }
    }
}

/// `text` parses as `M` and as a dynamic message of `M`'s type to the same
/// message (the dynamic decode of the generated encoding: map order aside,
/// the same data), under `options`; returns the generated message.
fn same_parse_with<M: JsonMessage>(text: &str, options: &DeserializeOptions) -> M {
    let generated: M = json::from_str_with(text, &options.clone().with_type_registry(registry()))
        .unwrap_or_else(|e| panic!("generated parse of {text}: {e}"));
    let dynamic = buffa_reflect::json::from_str_with(&descriptor(M::NAME), text, options)
        .unwrap_or_else(|e| panic!("dynamic parse of {text}: {e}"));
    // Compared as encodings (NaN is not equal to itself, and fields
    // without presence may hold their default unseen): the dynamic
    // encoding writes map entries in key order, whatever order the
    // generated maps were in.
    let expected = DynamicMessage::decode(descriptor(M::NAME), &generated.encode_to_vec()).unwrap();
    assert_eq!(dynamic.encode_to_vec(), expected.encode_to_vec(), "{text}");
    generated
}

/// [`same_parse_with`] under the default options, then [`same_output`] of
/// what was read.
fn same_both_ways<M: JsonMessage>(text: &str, exact: bool) {
    let generated: M = same_parse_with(text, &DeserializeOptions::new());
    same_output(&generated, exact);
}

/// `text` fails to parse as `M` and as a dynamic message of `M`'s type with
/// the same error, at the same place.
#[track_caller]
fn same_error_with<M: JsonMessage + Debug>(text: &str, options: &DeserializeOptions) {
    let generated = json::from_str_with::<M>(text, &options.clone().with_type_registry(registry()))
        .map(|m| format!("{m:?}"));
    let dynamic = buffa_reflect::json::from_str_with(&descriptor(M::NAME), text, options);
    let describe = |e: &JsonError| (e.to_string(), e.line(), e.column());
    match (generated, dynamic) {
        (Err(generated), Err(dynamic)) => {
            assert_eq!(describe(&dynamic), describe(&generated), "{text}")
        }
        (generated, dynamic) => panic!(
            "{text}: generated {:?}, dynamic {:?}",
            generated.map_err(|e| describe(&e)),
            dynamic.map_err(|e| describe(&e))
        ),
    }
}

#[track_caller]
fn same_error<M: JsonMessage + Debug>(text: &str) {
    same_error_with::<M>(text, &DeserializeOptions::new());
}

// --- the JSON test schema -----------------------------------------------------

#[test]
fn scalars_print_and_parse_alike() {
    same_both_ways::<json3::Scalars>(
        r#"{"fDouble": 1.5, "fFloat": 0.25, "fInt32": -7, "fInt64": "-8000000000",
            "fUint32": 4000000000, "fUint64": "18000000000000000000", "fSint32": -9,
            "fSint64": "-10", "fFixed32": 11, "fFixed64": "12", "fSfixed32": -13,
            "fSfixed64": "-14", "fBool": true, "fString": "h\u00e9llo \"w\"\n\u0001",
            "fBytes": "APv/gA==", "fMood": "MOOD_HAPPY", "fNested": {"id": 1, "label": "one"},
            "oDouble": 0, "oFloat": -0.0, "oInt32": 0, "oInt64": "0", "oUint32": 0,
            "oUint64": 0, "oSint32": 0, "oSint64": 0, "oFixed32": 0, "oFixed64": 0,
            "oSfixed32": 0, "oSfixed64": 0, "oBool": false, "oString": "", "oBytes": "",
            "oMood": "MOOD_UNSPECIFIED", "customName": 40}"#,
        true,
    );
    // Special floats, an undeclared open-enum number, 64-bit extremes,
    // proto names and exponents on input.
    same_both_ways::<json3::Scalars>(
        r#"{"f_double": "NaN", "f_float": "-Infinity", "o_double": "Infinity",
            "o_float": "NaN", "f_int64": "-9223372036854775808",
            "f_uint64": "18446744073709551615", "f_int32": 1e3, "f_mood": 7,
            "o_mood": -1, "renamed": "5"}"#,
        true,
    );
    same_both_ways::<json3::Scalars>("{}", true);
    same_both_ways::<json3::Scalars>(r#"{"fFloat": 3.4028235e38, "fDouble": 5e-324}"#, true);
}

#[test]
fn repeated_fields_print_and_parse_alike() {
    same_both_ways::<json3::Repeated>(
        r#"{"rDouble": [1, -2.5, 1.7976931348623157e308, "NaN"], "rFloat": [0.5, "Infinity"],
            "rInt32": [-2147483648, 0, 2147483647], "rInt64": ["-9223372036854775808", 0],
            "rUint32": [0, 4294967295], "rUint64": ["18446744073709551615"],
            "rSint32": [-1], "rSint64": ["-1"], "rFixed32": [1], "rFixed64": ["2"],
            "rSfixed32": [-3], "rSfixed64": ["-4"], "rBool": [true, false],
            "rMood": ["MOOD_SAD", "MOOD_NEGATIVE", 42, 0], "rString": ["", "x", "\u00fc"],
            "rBytes": ["", "AQ==", "_-8"], "rNested": [{}, {"id": 2}, {"label": "l"}]}"#,
        true,
    );
    same_both_ways::<json3::Repeated>(r#"{"rInt32": [], "rNested": null}"#, true);
}

#[test]
fn maps_print_and_parse_alike() {
    // One entry per map: the generated HashMaps then print in one order.
    same_both_ways::<json3::Maps>(
        r#"{"mInt32": {"-1": "a"}, "mInt64": {"-9223372036854775808": "b"},
            "mUint32": {"4294967295": "c"}, "mUint64": {"18446744073709551615": "d"},
            "mSint32": {"-2": "e"}, "mSint64": {"3": "f"}, "mFixed32": {"4": "g"},
            "mFixed64": {"5": "h"}, "mSfixed32": {"-6": "i"}, "mSfixed64": {"7": "j"},
            "mBool": {"true": "k"}, "mString": {"": "l"},
            "mNested": {"n": {"id": 8, "label": "m"}}, "mMood": {"x": "MOOD_SAD"},
            "mBytes": {"9": "/w=="}}"#,
        true,
    );
    same_both_ways::<json3::Maps>(
        r#"{"mInt32": {"3": "c", "-1": "a", "2": "b"}, "mBool": {"true": "t", "false": "f"},
            "mString": {"b": "2", "a": "1", "": "0"}, "mMood": {"a": 0, "b": 5},
            "mNested": {"z": {}, "y": {"id": 1}}}"#,
        false,
    );
}

#[test]
fn oneofs_print_and_parse_alike() {
    for text in [
        r#"{"choiceInt32": 0, "after": 1}"#,
        r#"{"choiceString": ""}"#,
        r#"{"choiceNested": {}}"#,
        r#"{"choiceMood": "MOOD_HAPPY"}"#,
        // `null` is a value of NullValue and Value: it sets the oneof.
        r#"{"choiceNull": null}"#,
        r#"{"choiceValue": null}"#,
        r#"{"choiceValue": {"a": [1, "x", null, true]}}"#,
        // `null` for any other member sets nothing, and a member may follow.
        r#"{"choiceInt32": null, "choiceString": "s"}"#,
    ] {
        same_both_ways::<json3::Choice>(text, true);
    }
}

#[test]
fn recursive_messages_print_and_parse_alike() {
    same_both_ways::<json3::Node>(
        r#"{"depth": 1, "child": {"depth": 2, "child": {"children": [{"depth": 4}]}},
            "children": [{}, {"named": {"k": {"depth": 5}}}], "named": {"a": {"child": {}}}}"#,
        true,
    );
}

#[test]
fn well_known_types_print_and_parse_alike() {
    same_both_ways::<json3::WellKnown>(
        r#"{"timestamp": "1970-01-01T00:00:01.500Z", "duration": "-1.000000001s",
            "fieldMask": "a.bC,d", "structValue": {"a": {"b": [null, 1.5, "s", false]}},
            "value": [1, {"x": null}], "listValue": [[], {}], "empty": {},
            "nullValue": null, "optionalNull": null, "doubleValue": "NaN",
            "floatValue": 0.1, "int64Value": "-5", "uint64Value": "5", "int32Value": -6,
            "uint32Value": 6, "boolValue": false, "stringValue": "", "bytesValue": "AA==",
            "values": [null, 2, "three"], "valueMap": {"k": null},
            "int32Values": [1, 0], "timestamps": ["2000-02-29T23:59:59Z"],
            "nulls": [null, "NULL_VALUE", 0]}"#,
        true,
    );
    same_both_ways::<json3::WellKnown>(r#"{"value": null, "timestamp": null}"#, true);
}

#[test]
fn any_resolves_from_the_pool_like_a_registry() {
    // A json3 message, a well-known type (under "value"), an Any holding an
    // Any holding a message, and an empty Any.
    same_both_ways::<json3::WellKnown>(
        r#"{"any": {"@type": "type.googleapis.com/json3.Scalars", "fInt64": "7",
                    "fNested": {"id": 1}, "fMood": "MOOD_SAD", "fDouble": "NaN"},
            "anys": [
              {"@type": "type.googleapis.com/google.protobuf.Timestamp",
               "value": "2020-01-01T00:00:00Z"},
              {"@type": "type.googleapis.com/google.protobuf.Any",
               "value": {"@type": "type.googleapis.com/json3.Node", "depth": 3,
                         "named": {"n": {"depth": 4}}}},
              {"fNested": {"label": "x"}, "@type": "type.googleapis.com/json3.Scalars"},
              {}
            ]}"#,
        true,
    );
    // A dynamic message resolves Any from its pool without a registry; an
    // unknown type is an error that says so.
    let dynamic = buffa_reflect::json::from_str(
        &descriptor("json3.WellKnown"),
        r#"{"any": {"@type": "type.googleapis.com/json2.Legacy", "id": 1, "item": {"x": 2}}}"#,
    )
    .unwrap();
    assert_eq!(
        buffa_reflect::json::to_string(&dynamic).unwrap(),
        r#"{"any":{"@type":"type.googleapis.com/json2.Legacy","id":1,"item":{"x":2}}}"#
    );
    let error = buffa_reflect::json::from_str(
        &descriptor("json3.WellKnown"),
        r#"{"any": {"@type": "type.googleapis.com/no.Such"}}"#,
    )
    .unwrap_err();
    assert!(error.to_string().contains("Any holds no.Such"), "{error}");
}

/// An Any's type name is everything after the last `/`, taken literally,
/// as protobuf-go and C++ take it: with a leading dot it is no message's
/// full name, so the Any holds an unknown type, read or written, for the
/// generated types (whose registry matches names exactly) and the dynamic
/// message (whose pool would otherwise read `.pkg.Msg` as `pkg.Msg`)
/// alike. The first input is the `json` fuzz target's finding
/// (`fuzz/seeds/json/crash-any-type-name-leading-dot`).
#[test]
fn any_type_names_are_taken_literally() {
    use buffa::Message;

    for (text, name) in [
        (
            r#"{"any": {"@type": "type.googleapisomc/.google.protobuf.Duration"}}"#,
            ".google.protobuf.Duration",
        ),
        (
            r#"{"any": {"@type": "type.googleapis.com/.google.protobuf.Duration", "value": "1s"}}"#,
            ".google.protobuf.Duration",
        ),
        (
            r#"{"any": {"@type": "type.googleapis.com/.json3.Scalars", "fInt32": 1}}"#,
            ".json3.Scalars",
        ),
        (
            r#"{"any": {"@type": "/.json2.Legacy", "id": 1}}"#,
            ".json2.Legacy",
        ),
    ] {
        same_error::<json3::WellKnown>(text);
        let error = buffa_reflect::json::from_str(&descriptor("json3.WellKnown"), text)
            .unwrap_err()
            .to_string();
        let unknown = format!("Any holds {name}, which is not a well-known type");
        assert!(error.starts_with(&unknown), "{text}: {error}");
    }

    // Written: an Any decoded from binary with such a type URL fails the
    // same way both ways.
    let scalars = json3::Scalars {
        f_int32: 1,
        ..Default::default()
    };
    for type_url in [
        "type.googleapis.com/.json3.Scalars",
        "type.googleapis.com/.google.protobuf.Empty",
    ] {
        let generated = json3::WellKnown {
            any: buffa_types::google::protobuf::Any {
                type_url: type_url.to_owned(),
                value: scalars.encode_to_vec(),
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        let options = SerializeOptions::new().with_type_registry(registry());
        let expected = json::to_string_with(&generated, &options).unwrap_err();
        let dynamic = DynamicMessage::decode(
            descriptor(json3::WellKnown::NAME),
            &generated.encode_to_vec(),
        )
        .unwrap();
        let actual = buffa_reflect::json::to_string(&dynamic).unwrap_err();
        assert_eq!(actual.to_string(), expected.to_string(), "{type_url}");
        assert!(
            expected.to_string().starts_with("Any holds ."),
            "{type_url}: {expected}"
        );
    }

    // The pool as a resolver matches names exactly, as a registry does.
    let bytes = scalars.encode_to_vec();
    let resolver = buffa_reflect::json::PoolResolver::new(pool().clone());
    let resolve = |name| {
        buffa::json::AnyResolver::message_to_json(&resolver, name, &bytes, &SerializeOptions::new())
    };
    assert!(resolve("json3.Scalars").is_some());
    assert!(resolve(".json3.Scalars").is_none());
}

#[test]
fn proto2_messages_print_and_parse_alike() {
    same_both_ways::<json2::Legacy>(
        r#"{"id": 0, "name": "anon", "count": 7, "color": "GREEN", "colors": ["RED", 3],
            "colorMap": {"a": "BLUE"}, "ratio": 0.5, "item": {"x": 9, "y": ""},
            "entry": [{"k": 1}, {}]}"#,
        true,
    );
    same_both_ways::<json2::Legacy>(r#"{"id": 1}"#, true);
}

#[test]
fn ignore_unknown_fields_skips_alike() {
    let options = DeserializeOptions::new().with_ignore_unknown_fields(true);
    for text in [
        r#"{"bogus": {"deep": [1, {"x": null}]}, "fInt32": 3, "fMood": "NOT_A_MOOD"}"#,
        r#"{"fNested": {"nope": 1, "id": 2}, "oMood": "NOPE"}"#,
    ] {
        same_parse_with::<json3::Scalars>(text, &options);
    }
    same_parse_with::<json3::Repeated>(r#"{"rMood": ["MOOD_SAD", "NOPE", 1]}"#, &options);
    same_parse_with::<json3::Maps>(r#"{"mMood": {"a": "NOPE", "b": "MOOD_SAD"}}"#, &options);
    // Closed enums: undeclared numbers are skipped too.
    same_parse_with::<json2::Legacy>(
        r#"{"id": 1, "color": 9, "colors": [1, 9, "NOPE"], "colorMap": {"a": 9}}"#,
        &options,
    );
}

#[test]
fn errors_say_the_same_at_the_same_place() {
    for text in [
        "{\n  \"fInt32\": 1,\n  \"bogus\": 2\n}",
        "{\"fNested\": {\n  \"id\": 1, \"nope\": 2}}",
        r#"{"fInt32": 1, "f_int32": 2}"#,
        r#"{"customName": 1, "renamed": 2}"#,
        r#"{"fInt32": 2147483648}"#,
        r#"{"fInt32": 1.5}"#,
        r#"{"fInt64": "1e30"}"#,
        r#"{"fUint32": -1}"#,
        r#"{"fFloat": 1e39}"#,
        r#"{"fDouble": "nan"}"#,
        r#"{"fBool": "true"}"#,
        r#"{"fString": 1}"#,
        r#"{"fBytes": "!!"}"#,
        r#"{"fMood": "MOOD_BAD"}"#,
        r#"{"fMood": 1e10}"#,
        r#"{"fNested": []}"#,
        r#"{"fNested": {"id": "x"}}"#,
        r#"{"fInt32": }"#,
        r#"[]"#,
        r#"{"fInt32": 1} x"#,
        r#"{"fInt32": 1"#,
    ] {
        same_error::<json3::Scalars>(text);
    }
    for text in [
        r#"{"rInt32": [1, null]}"#,
        r#"{"rInt32": {}}"#,
        r#"{"rNested": [null]}"#,
        r#"{"rMood": ["MOOD_SAD", "X"]}"#,
    ] {
        same_error::<json3::Repeated>(text);
    }
    for text in [
        r#"{"mInt32": {"01": "a"}}"#,
        r#"{"mInt32": {"1": "a", "1": "b"}}"#,
        r#"{"mBool": {"yes": "a"}}"#,
        r#"{"mUint64": {"-1": "a"}}"#,
        r#"{"mString": {"a": null}}"#,
        r#"{"mNested": {"a": null}}"#,
        r#"{"mInt32": []}"#,
    ] {
        same_error::<json3::Maps>(text);
    }
    for text in [
        r#"{"choiceInt32": 1, "choiceString": "x"}"#,
        r#"{"choiceInt32": 1, "choiceNull": null}"#,
        r#"{"choiceNested": {}, "choiceValue": null}"#,
        r#"{"choiceMood": "MOOD_HAPPY", "choiceNested": null, "choiceInt32": 2}"#,
    ] {
        same_error::<json3::Choice>(text);
    }
    for text in [
        r#"{"timestamp": "yesterday"}"#,
        r#"{"duration": "1"}"#,
        r#"{"any": {"fInt32": 1}}"#,
        r#"{"any": {"@type": "type.googleapis.com/json3.Scalars", "bogus": 1}}"#,
        r#"{"any": {"@type": "type.googleapis.com/json3.Scalars", "a": 1, "a": 2}}"#,
        r#"{"nulls": [{}]}"#,
        r#"{"int32Values": [null]}"#,
        r#"{"structValue": []}"#,
    ] {
        same_error::<json3::WellKnown>(text);
    }
    for text in [
        r#"{"color": 9}"#,
        r#"{"colors": [1, 9]}"#,
        r#"{"colorMap": {"a": 9}}"#,
        r#"{"item": {"x": 1, "x": 2}}"#,
    ] {
        same_error::<json2::Legacy>(text);
    }
}

#[test]
fn limits_fail_alike() {
    let deep = format!(
        "{}{}",
        "{\"child\": ".repeat(100),
        "{}".to_owned() + &"}".repeat(100)
    );
    same_error::<json3::Node>(&deep);
    let shallow = DeserializeOptions::new().with_recursion_limit(3);
    same_error_with::<json3::Node>(r#"{"child": {"child": {"child": {}}}}"#, &shallow);
    same_error_with::<json3::Node>(
        r#"{"children": [{"named": {"a": {"child": {}}}}]}"#,
        &shallow,
    );
    let short = DeserializeOptions::new().with_max_len(8);
    same_error_with::<json3::Node>(r#"{"depth": 1}"#, &short);
}

// --- the cross-check schema, random values -------------------------------------

/// prost's encoding of `value` as a generated `B` and as a dynamic message
/// print the same JSON (maps are `BTreeMap`s: byte for byte), which parses
/// back to the same message through both.
fn same_as_generated<P: prost::Message, B: JsonMessage>(value: &P) {
    let generated = B::decode_from_slice(&value.encode_to_vec()).expect("generated decode");
    same_output(&generated, true);
    let text = json::to_string(&generated).unwrap();
    same_parse_with::<B>(&text, &DeserializeOptions::new());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn everything_proto3(value in everything()) {
        same_as_generated::<p::Everything, b::Everything>(&value)
    }

    #[test]
    fn everything_proto2(value in everything2()) {
        same_as_generated::<p::two::Everything2, b::two::Everything2>(&value)
    }

    #[test]
    fn maps_and_oneofs(maps in maps(), oneofs in oneofs(), closed in closed_maps()) {
        same_as_generated::<p::Maps, b::Maps>(&maps);
        same_as_generated::<p::Oneofs, b::Oneofs>(&oneofs);
        same_as_generated::<p::two::ClosedMaps, b::two::ClosedMaps>(&closed);
    }
}

// --- unittest messages (no generated JSON): JSON round trips --------------------

/// The dynamic message of `message_type` protoc encodes from `text` prints
/// as JSON that parses back to the same message, under every option set.
fn json_round_trip(file: &str, message_type: &str, text: &str) -> String {
    let bytes = protoc_encode(file, message_type, text);
    let message = DynamicMessage::decode(descriptor(message_type), &bytes).unwrap();
    for options in print_options() {
        let json = buffa_reflect::json::to_string_with(&message, &options).unwrap();
        let back = buffa_reflect::json::from_str(&descriptor(message_type), &json)
            .unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(back.encode_to_vec(), bytes, "{json}");
    }
    buffa_reflect::json::to_string(&message).unwrap()
}

#[test]
fn unittest_messages_round_trip() {
    let json = json_round_trip(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllTypes",
        r#"optional_int32: -101 optional_int64: -102 optional_uint64: 104
           optional_float: 111.5 optional_double: -112.25 optional_bool: true
           optional_string: "115 \xe2\x82\xac" optional_bytes: "\001\377"
           OptionalGroup { a: 117 } optional_nested_message { bb: 118 }
           optional_nested_enum: BAZ optional_foreign_enum: FOREIGN_BAR
           repeated_int32: [201, -301] repeated_string: ["215", ""]
           RepeatedGroup { a: 217 } RepeatedGroup { a: 317 }
           repeated_nested_enum: [BAR, BAZ] default_int32: 401
           oneof_nested_message { bb: 601 }"#,
    );
    // Groups are named by their field (lowercase), 64-bit integers quoted.
    assert!(json.contains(r#""optionalgroup":{"a":117}"#), "{json}");
    assert!(json.contains(r#""optionalInt64":"-102""#), "{json}");
    // Extensions, scalar and message, by their full names in brackets.
    let json = json_round_trip(
        "google/protobuf/unittest.proto",
        "protobuf_unittest.TestAllExtensions",
        r#"[protobuf_unittest.optional_int32_extension]: 5
           [protobuf_unittest.optional_nested_message_extension] { bb: 6 }
           [protobuf_unittest.repeated_string_extension]: ["a", "b"]
           [protobuf_unittest.optionalgroup_extension] { a: 7 }"#,
    );
    assert!(
        json.contains(r#""[protobuf_unittest.optional_int32_extension]":5"#),
        "{json}"
    );
    json_round_trip(
        "google/protobuf/map_unittest.proto",
        "protobuf_unittest.TestMap",
        r#"map_int32_int32 { key: -1 value: 2 } map_int32_int32 { key: 3 value: 4 }
           map_string_string { key: "k" value: "v" } map_int32_bytes { key: 1 value: "\377" }
           map_int32_enum { key: 5 value: MAP_ENUM_BAZ }
           map_int32_foreign_message { key: 6 value { c: 7 } }
           map_bool_bool { key: true value: true } map_uint64_uint64 { key: 18446744073709551615 value: 1 }"#,
    );
}

#[test]
fn an_extension_given_twice_is_refused() {
    let message_type = descriptor("protobuf_unittest.TestAllExtensions");
    let distinct = r#"{"[protobuf_unittest.optional_int32_extension]": 1,
                       "[protobuf_unittest.optional_int64_extension]": "2",
                       "[protobuf_unittest.optional_uint32_extension]": 3}"#;
    let message = buffa_reflect::json::from_str(&message_type, distinct).unwrap();
    assert_eq!(
        message.encode_to_vec(),
        protoc_encode(
            "google/protobuf/unittest.proto",
            "protobuf_unittest.TestAllExtensions",
            "[protobuf_unittest.optional_int32_extension]: 1
             [protobuf_unittest.optional_int64_extension]: 2
             [protobuf_unittest.optional_uint32_extension]: 3",
        )
    );
    let twice = r#"{"[protobuf_unittest.optional_int64_extension]": "2",
                    "[protobuf_unittest.optional_int64_extension]": "3"}"#;
    let error = buffa_reflect::json::from_str(&message_type, twice).unwrap_err();
    assert!(
        error.to_string().contains(
            "field \"[protobuf_unittest.optional_int64_extension]\" of \
             protobuf_unittest.TestAllExtensions is given more than once"
        ),
        "{error}"
    );
}

#[test]
fn serde_entry_points_agree_with_the_functions() {
    let message = buffa_reflect::json::from_str(
        &descriptor("json3.Scalars"),
        r#"{"fInt64": "3", "fNested": {"id": 1}}"#,
    )
    .unwrap();
    // `Serialize` of a dynamic message: the default options.
    assert_eq!(
        serde_json::to_string(&message).unwrap(),
        buffa_reflect::json::to_string(&message).unwrap()
    );
    // `MessageSeed` with serde_json's own deserializer.
    let options = DeserializeOptions::new();
    let descriptor = descriptor("json3.Scalars");
    let seed = buffa_reflect::json::MessageSeed::new(&descriptor, &options);
    let mut deserializer =
        serde_json::Deserializer::from_str(r#"{"f_int64": 3, "fNested": {"id": 1}}"#);
    let read = DeserializeSeed::deserialize(seed, &mut deserializer).unwrap();
    assert_eq!(read, message);
    // Merging into a message that is set already: lists append, singular
    // message fields merge.
    let mut merged = message.clone();
    buffa_reflect::json::merge_from_str_with(
        &mut merged,
        r#"{"fNested": {"label": "x"}}"#,
        &options,
    )
    .unwrap();
    assert_eq!(
        buffa_reflect::json::to_string(&merged).unwrap(),
        r#"{"fInt64":"3","fNested":{"id":1,"label":"x"}}"#
    );
    assert_eq!(merged.descriptor(), message.descriptor());
}
