//! The exact JSON of representative messages under each serialize option,
//! against values written by hand from the JSON mapping.

use super::*;

/// The JSON mapping of `full_scalars()` under the default options.
fn full_scalars_json() -> Value {
    json!({
        "fDouble": 1.5,
        "fFloat": 0.25,
        "fInt32": -7,
        "fInt64": "-8000000000",
        "fUint32": 4000000000u32,
        "fUint64": "18000000000000000000",
        "fSint32": -9,
        "fSint64": "-10",
        "fFixed32": 11,
        "fFixed64": "12",
        "fSfixed32": -13,
        "fSfixed64": "-14",
        "fBool": true,
        "fString": "héllo \"wörld\"\n\u{1}",
        "fBytes": "APv/gA==",
        "fMood": "MOOD_HAPPY",
        "fNested": {"id": 1, "label": "one"},
        // Explicit presence: printed because set, though to the default.
        "oDouble": 0.0,
        "oFloat": -0.0,
        "oInt32": 0,
        "oInt64": "0",
        "oUint32": 0,
        "oUint64": "0",
        "oSint32": 0,
        "oSint64": "0",
        "oFixed32": 0,
        "oFixed64": "0",
        "oSfixed32": 0,
        "oSfixed64": "0",
        "oBool": false,
        "oString": "",
        "oBytes": "",
        "oMood": "MOOD_UNSPECIFIED",
        "customName": 40,
    })
}

#[test]
fn fields_are_named_by_json_name() {
    assert_eq!(printed(&full_scalars()), full_scalars_json());
    // Control characters and quotes are escaped; the rest is UTF-8 as is.
    let text = print(&Scalars {
        f_string: "é\"\u{1}".into(),
        ..Default::default()
    });
    assert_eq!(text, r#"{"fString":"é\"\u0001"}"#);
}

#[test]
fn fields_are_written_in_field_number_order() {
    let message = Scalars {
        f_int32: 1,
        f_bool: true,
        o_int32: Some(2),
        renamed: 3,
        ..Default::default()
    };
    assert_eq!(
        print(&message),
        r#"{"fInt32":1,"fBool":true,"oInt32":2,"customName":3}"#
    );
}

#[test]
fn proto_field_names_option_writes_snake_case() {
    let options = SerializeOptions::new().with_proto_field_names(true);
    let expected = full_scalars_json();
    let Value::Object(fields) = expected else {
        unreachable!()
    };
    // The hand-written proto names of the fields above, in the same order.
    let proto_names = [
        "f_double",
        "f_float",
        "f_int32",
        "f_int64",
        "f_uint32",
        "f_uint64",
        "f_sint32",
        "f_sint64",
        "f_fixed32",
        "f_fixed64",
        "f_sfixed32",
        "f_sfixed64",
        "f_bool",
        "f_string",
        "f_bytes",
        "f_mood",
        "f_nested",
        "o_double",
        "o_float",
        "o_int32",
        "o_int64",
        "o_uint32",
        "o_uint64",
        "o_sint32",
        "o_sint64",
        "o_fixed32",
        "o_fixed64",
        "o_sfixed32",
        "o_sfixed64",
        "o_bool",
        "o_string",
        "o_bytes",
        "o_mood",
        "renamed",
    ];
    let by_json_name = [
        "fDouble",
        "fFloat",
        "fInt32",
        "fInt64",
        "fUint32",
        "fUint64",
        "fSint32",
        "fSint64",
        "fFixed32",
        "fFixed64",
        "fSfixed32",
        "fSfixed64",
        "fBool",
        "fString",
        "fBytes",
        "fMood",
        "fNested",
        "oDouble",
        "oFloat",
        "oInt32",
        "oInt64",
        "oUint32",
        "oUint64",
        "oSint32",
        "oSint64",
        "oFixed32",
        "oFixed64",
        "oSfixed32",
        "oSfixed64",
        "oBool",
        "oString",
        "oBytes",
        "oMood",
        "customName",
    ];
    let renamed: serde_json::Map<String, Value> = proto_names
        .iter()
        .zip(by_json_name)
        .map(|(proto, json_name)| (proto.to_string(), fields[json_name].clone()))
        .collect();
    assert_eq!(renamed.len(), fields.len());
    assert_eq!(
        printed_with(&full_scalars(), &options),
        Value::Object(renamed)
    );
    // Nested messages, repeated fields, maps and oneofs too.
    let choice = Choice {
        choice: Some(json3::choice::Choice::ChoiceNested(Box::new(nested(
            1, "x",
        )))),
        after: 2,
        ..Default::default()
    };
    assert_eq!(
        printed_with(&choice, &options),
        json!({"choice_nested": {"id": 1, "label": "x"}, "after": 2})
    );
    let maps = Maps {
        m_nested: HashMap::from([("k".into(), nested(0, "v"))]),
        ..Default::default()
    };
    assert_eq!(
        printed_with(&maps, &options),
        json!({"m_nested": {"k": {"label": "v"}}})
    );
    // Each name reads back.
    let text = json::to_string_with(&full_scalars(), &options).unwrap();
    assert_eq!(parse::<Scalars>(&text), full_scalars());
}

#[test]
fn enums_as_ints_option_writes_numbers_everywhere() {
    let options = SerializeOptions::new().with_enums_as_ints(true);
    let repeated = Repeated {
        r_mood: vec![
            mood(Mood::Happy),
            mood(Mood::Negative),
            EnumValue::Unknown(5),
        ],
        ..Default::default()
    };
    assert_eq!(
        printed_with(&repeated, &options),
        json!({"rMood": [1, -1, 5]})
    );
    let scalars = Scalars {
        f_mood: mood(Mood::Sad),
        o_mood: Some(mood(Mood::Unspecified)),
        ..Default::default()
    };
    assert_eq!(
        printed_with(&scalars, &options),
        json!({"fMood": 2, "oMood": 0})
    );
    let maps = Maps {
        m_mood: HashMap::from([("a".into(), mood(Mood::Happy))]),
        ..Default::default()
    };
    assert_eq!(printed_with(&maps, &options), json!({"mMood": {"a": 1}}));
    let choice = Choice {
        choice: Some(json3::choice::Choice::ChoiceMood(mood(Mood::Negative))),
        ..Default::default()
    };
    assert_eq!(printed_with(&choice, &options), json!({"choiceMood": -1}));
    let legacy = json2::Legacy {
        color: Some(json2::Color::Blue),
        colors: vec![json2::Color::Red],
        ..Default::default()
    };
    assert_eq!(
        printed_with(&legacy, &options),
        json!({"color": 3, "colors": [1]})
    );
    // NullValue stays null.
    let well_known = WellKnown {
        optional_null: Some(EnumValue::Known(wkt::NullValue::NullValue)),
        ..Default::default()
    };
    assert_eq!(
        printed_with(&well_known, &options),
        json!({"optionalNull": null})
    );
}

#[test]
fn emit_default_values_prints_fields_without_presence_only() {
    let options = SerializeOptions::new().with_emit_default_values(true);
    assert_eq!(
        printed_with(&Scalars::default(), &options),
        json!({
            "fDouble": 0.0,
            "fFloat": 0.0,
            "fInt32": 0,
            "fInt64": "0",
            "fUint32": 0,
            "fUint64": "0",
            "fSint32": 0,
            "fSint64": "0",
            "fFixed32": 0,
            "fFixed64": "0",
            "fSfixed32": 0,
            "fSfixed64": "0",
            "fBool": false,
            "fString": "",
            "fBytes": "",
            "fMood": "MOOD_UNSPECIFIED",
            "customName": 0,
        })
    );
    assert_eq!(
        printed_with(&Repeated::default(), &options),
        json!({
            "rDouble": [], "rFloat": [], "rInt32": [], "rInt64": [], "rUint32": [],
            "rUint64": [], "rSint32": [], "rSint64": [], "rFixed32": [], "rFixed64": [],
            "rSfixed32": [], "rSfixed64": [], "rBool": [], "rMood": [], "rString": [],
            "rBytes": [], "rNested": [],
        })
    );
    assert_eq!(
        printed_with(&Maps::default(), &options),
        json!({
            "mInt32": {}, "mInt64": {}, "mUint32": {}, "mUint64": {}, "mSint32": {},
            "mSint64": {}, "mFixed32": {}, "mFixed64": {}, "mSfixed32": {}, "mSfixed64": {},
            "mBool": {}, "mString": {}, "mNested": {}, "mMood": {}, "mBytes": {},
        })
    );
    // An unset oneof, unset messages and unset optional fields stay out;
    // an implicit NullValue is null.
    assert_eq!(
        printed_with(&Choice::default(), &options),
        json!({"after": 0})
    );
    assert_eq!(
        printed_with(&WellKnown::default(), &options),
        json!({
            "nullValue": null,
            "values": [],
            "anys": [],
            "valueMap": {},
            "int32Values": [],
            "timestamps": [],
            "nulls": [],
        })
    );
    // Nested messages print their defaults too.
    let with_nested = Scalars {
        f_nested: Nested::default().into(),
        ..Default::default()
    };
    assert_eq!(
        printed_with(&with_nested, &options)["fNested"],
        json!({"id": 0, "label": ""})
    );
    // proto2: every singular field has presence; only the repeated ones
    // and the map appear.
    assert_eq!(
        printed_with(&json2::Legacy::default(), &options),
        json!({"colors": [], "colorMap": {}, "entry": []})
    );
    // Without the option, the defaults are all left out.
    assert_eq!(print(&Scalars::default()), "{}");
    assert_eq!(print(&WellKnown::default()), "{}");
}
