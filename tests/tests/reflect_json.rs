//! JSON over reflection (`buffa_reflect::json`) on generated messages
//! (`Config::reflection()`, the schema in `proto/reflect`): a generated
//! message prints, through its `ReflectMessage` impl, the JSON its dynamic
//! copy prints, and JSON merged into a generated message through
//! reflection sets what a dynamic parse sets. One implementation serves
//! both kinds of message.

use buffa::Message;
use buffa::json::{DeserializeOptions, SerializeOptions};
use buffa_reflect::{DynamicMessage, ReflectMessage};

#[allow(dead_code, clippy::all)]
mod schema {
    include!(concat!(env!("OUT_DIR"), "/reflect/include.rs"));
}

use schema::reflect::{ed, v2, v3};

/// Every field kind of `reflect.v3.Rich` (maps with one entry, so that
/// `HashMap`s print in one order), a well-known type among them.
const RICH: &str = r#"{
    "fDouble": "NaN", "fFloat": -0.5, "fInt32": -3, "fInt64": "-4", "fUint32": 5,
    "fUint64": "18446744073709551615", "fSint32": -7, "fSint64": "8", "fFixed32": 9,
    "fFixed64": "10", "fSfixed32": -11, "fSfixed64": "-12", "fBool": true,
    "fString": "s\u00fc", "fBytes": "AP8=", "mood": 7, "optInt32": 0, "optString": "",
    "optMood": "MOOD_UNSPECIFIED", "child": {"id": 1, "tags": ["a", ""]},
    "inlineChild": {"id": 2}, "point": {"x": 3}, "when": "2001-02-03T04:05:06.700Z",
    "rInt32": [1, -1], "rDouble": ["Infinity", 0.1], "rString": ["x"], "rBytes": ["", "AQ=="],
    "rMood": [1, 99], "rNested": [{}, {"id": 4}], "mStringInt32": {"k": -1},
    "mInt32Nested": {"-5": {"tags": ["t"]}}, "mBoolMood": {"true": 2},
    "mUint64Bytes": {"18446744073709551615": "/w=="}, "mSorted": {"-9": "n", "9": "p"},
    "cUnboxed": {"id": 6}, "sharedText": "shared", "sharedBlob": "AQID",
    "sharedMap": {"a": "b"}
}"#;

/// `json` read as a dynamic message of `M`'s type; `M` decoded from its
/// encoding prints the same JSON through reflection under every option
/// set, and `json` merged into an empty `M` through reflection encodes to
/// the dynamic message's bytes.
fn same_through_reflection<M: Message + ReflectMessage + Default>(json: &str) {
    let descriptor = M::default().descriptor();
    let options = DeserializeOptions::new();
    let dynamic = buffa_reflect::json::from_str_with(&descriptor, json, &options)
        .unwrap_or_else(|e| panic!("{json}: {e}"));
    let generated = M::decode_from_slice(&dynamic.encode_to_vec()).unwrap();
    for options in [
        SerializeOptions::new(),
        SerializeOptions::new()
            .with_emit_default_values(true)
            .with_enums_as_ints(true)
            .with_proto_field_names(true),
    ] {
        assert_eq!(
            buffa_reflect::json::to_string_with(&generated, &options).unwrap(),
            buffa_reflect::json::to_string_with(&dynamic, &options).unwrap(),
            "{options:?}"
        );
    }
    let mut merged = M::default();
    buffa_reflect::json::merge_from_str_with(&mut merged, json, &options)
        .unwrap_or_else(|e| panic!("merging {json}: {e}"));
    let merged = DynamicMessage::decode(descriptor, &merged.encode_to_vec()).unwrap();
    assert_eq!(merged.encode_to_vec(), dynamic.encode_to_vec(), "{json}");
}

#[test]
fn generated_messages_print_and_parse_as_dynamic_ones() {
    same_through_reflection::<v3::Rich>(RICH);
    for member in [
        r#"{"cString": ""}"#,
        r#"{"cNested": {"id": 1}}"#,
        r#"{"cMood": "MOOD_HAPPY"}"#,
        "{}",
    ] {
        same_through_reflection::<v3::Rich>(member);
    }
}

#[test]
fn proto2_and_editions_messages_print_and_parse_as_dynamic_ones() {
    same_through_reflection::<v2::Legacy>(
        r#"{"id": 0, "name": "anon", "color": "NO_COLOR", "colors": ["RED", 3],
            "packed": [1, -2], "item": {"quantity": 4}, "line": [{"text": "t"}, {}],
            "byId": {"7": "GREEN"}, "pickNumber": "-5",
            "next": {"id": 1, "pickColor": "BLUE", "next": {"id": 2}}}"#,
    );
    same_through_reflection::<ed::Tuned>(
        r#"{"explicit": 0, "implicit": 3, "level": "LEVEL_HIGH",
            "delimited": {"x": 1}, "expanded": [1, 2], "withDefault": "dflt"}"#,
    );
}
