//! What the reader accepts beyond what the printer writes, as the JSON
//! mapping requires, and what `ignore_unknown_fields` skips.

use super::*;

#[test]
fn proto_names_and_json_names_are_both_accepted() {
    let expected = Scalars {
        f_int32: 1,
        o_string: Some("s".into()),
        renamed: 3,
        ..Default::default()
    };
    for text in [
        r#"{"fInt32": 1, "oString": "s", "customName": 3}"#,
        r#"{"f_int32": 1, "o_string": "s", "renamed": 3}"#,
        r#"{"f_int32": 1, "oString": "s", "renamed": 3}"#,
    ] {
        assert_eq!(parse::<Scalars>(text), expected, "{text}");
    }
    // The lowerCamelCase form of a field with a json_name of its own is
    // not one of its names.
    let err = parse_err::<Scalars>(r#"{"renamed": 1, "Renamed": 2}"#);
    assert!(
        err.to_string().contains("unknown field \"Renamed\""),
        "{err}"
    );
}

#[test]
fn integers_are_accepted_as_strings_exponents_and_integral_fractions() {
    let cases: &[(&str, i32)] = &[
        (r#""123""#, 123),
        (r#""-123""#, -123),
        ("1e2", 100),
        (r#""1e2""#, 100),
        ("1.0", 1),
        (r#""1.0""#, 1),
        ("-2.5e1", -25),
        ("2147483647", i32::MAX),
        (r#""-2147483648""#, i32::MIN),
    ];
    for (input, want) in cases {
        let message: Scalars = parse(&format!(r#"{{"fInt32": {input}, "fSfixed32": {input}}}"#));
        assert_eq!(
            (message.f_int32, message.f_sfixed32),
            (*want, *want),
            "{input}"
        );
    }
    // 64-bit integers as numbers too, not only as strings.
    let message: Scalars = parse(
        r#"{"fInt64": -9223372036854775808, "fUint64": 18446744073709551615,
            "fFixed64": "18446744073709551615", "fSint64": "1e15", "oUint64": 1e3}"#,
    );
    assert_eq!(message.f_int64, i64::MIN);
    assert_eq!(message.f_uint64, u64::MAX);
    assert_eq!(message.f_fixed64, u64::MAX);
    assert_eq!(message.f_sint64, 1_000_000_000_000_000);
    assert_eq!(message.o_uint64, Some(1000));
    // Beyond 2^53, a fraction or exponent form may stand for a neighbouring
    // integer (as a double): refused, as protobuf's C++ parser does.
    for input in [
        r#""1e18""#,
        "9007199254740993.0",
        r#""12345678901234567.0""#,
    ] {
        let err = buffa::json::from_str::<Scalars>(&format!(r#"{{"fSint64": {input}}}"#))
            .unwrap_err()
            .to_string();
        assert!(err.contains("below 2^53"), "{input}: {err}");
    }
}

#[test]
fn floats_are_accepted_as_numbers_and_strings() {
    let message: Scalars = parse(
        r#"{"fDouble": "1.5", "fFloat": "-Infinity", "oDouble": "NaN",
            "oFloat": 3, "fInt32": 0}"#,
    );
    assert_eq!(message.f_double, 1.5);
    assert_eq!(message.f_float, f32::NEG_INFINITY);
    assert!(message.o_double.unwrap().is_nan());
    assert_eq!(message.o_float, Some(3.0));
    let message: Repeated = parse(r#"{"rDouble": ["Infinity", 1e308, "-1e-3", -0.0]}"#);
    assert_eq!(message.r_double[..3], [f64::INFINITY, 1e308, -1e-3]);
    assert_eq!(message.r_double[3].to_bits(), (-0.0f64).to_bits());
}

#[test]
fn enums_are_accepted_by_name_and_by_number() {
    let message: Scalars = parse(r#"{"fMood": 2, "oMood": "MOOD_NEGATIVE"}"#);
    assert_eq!(message.f_mood, mood(Mood::Sad));
    assert_eq!(message.o_mood, Some(mood(Mood::Negative)));
    // An open enum keeps a number it does not declare.
    let message: Repeated = parse(r#"{"rMood": [-1, 77, "MOOD_HAPPY"]}"#);
    assert_eq!(
        message.r_mood,
        [
            mood(Mood::Negative),
            EnumValue::Unknown(77),
            mood(Mood::Happy)
        ]
    );
    let message: Maps = parse(r#"{"mMood": {"a": 1, "b": "MOOD_SAD"}}"#);
    assert_eq!(
        message.m_mood,
        HashMap::from([
            ("a".into(), mood(Mood::Happy)),
            ("b".into(), mood(Mood::Sad))
        ])
    );
    // A closed enum takes declared numbers.
    let legacy: json2::Legacy = parse(r#"{"color": 3, "colors": ["RED", 2]}"#);
    assert_eq!(legacy.color, Some(json2::Color::Blue));
    assert_eq!(legacy.colors, [json2::Color::Red, json2::Color::Green]);
}

#[test]
fn null_leaves_fields_unset_or_empty() {
    let text = r#"{
        "fInt32": null, "fString": null, "fMood": null, "fNested": null,
        "oInt32": null, "oBytes": null, "oMood": null, "customName": null
    }"#;
    assert_eq!(parse::<Scalars>(text), Scalars::default());
    let text = r#"{"rInt32": null, "rString": null, "rNested": null, "rMood": null}"#;
    assert_eq!(parse::<Repeated>(text), Repeated::default());
    let text = r#"{"mInt32": null, "mNested": null, "mMood": null}"#;
    assert_eq!(parse::<Maps>(text), Maps::default());
    let legacy: json2::Legacy = parse(r#"{"name": null, "color": null, "item": null}"#);
    assert_eq!(legacy, json2::Legacy::default());
    // The proto2 defaults are what the accessors read for unset fields.
    assert_eq!(legacy.name(), "anon");
    assert_eq!(legacy.count(), 7);
    assert_eq!(legacy.color(), json2::Color::Green);
    assert_eq!(legacy.ratio(), 0.5);
}

#[test]
fn null_for_a_oneof_member_does_not_set_the_oneof() {
    use json3::choice::Choice as C;
    for member in ["choiceInt32", "choiceString", "choiceNested", "choiceMood"] {
        let message: Choice = parse(&format!(r#"{{"{member}": null, "after": 1}}"#));
        assert_eq!(message.choice, None, "{member}");
        // And it leaves the oneof free for another member.
        if member != "choiceInt32" {
            let message: Choice = parse(&format!(r#"{{"{member}": null, "choiceInt32": 5}}"#));
            assert_eq!(message.choice, Some(C::ChoiceInt32(5)), "{member}");
        }
    }
    // For NullValue and Value members, null is a value: it sets the oneof.
    let message: Choice = parse(r#"{"choiceNull": null}"#);
    assert_eq!(
        message.choice,
        Some(C::ChoiceNull(EnumValue::Known(wkt::NullValue::NullValue)))
    );
    let message: Choice = parse(r#"{"choiceValue": null}"#);
    assert_eq!(message.choice, Some(C::ChoiceValue(Box::new(null()))));
}

#[test]
fn null_is_a_value_of_value_and_null_value_fields() {
    let message: WellKnown = parse(
        r#"{"value": null, "nullValue": null, "optionalNull": null,
            "values": [null, 1], "nulls": [null, "NULL_VALUE", 0],
            "valueMap": {"k": null}}"#,
    );
    assert_eq!(message.value.as_option(), Some(&null()));
    assert_eq!(
        message.optional_null,
        Some(EnumValue::Known(wkt::NullValue::NullValue))
    );
    assert_eq!(message.values, [null(), number(1.0)]);
    assert_eq!(message.nulls.len(), 3);
    assert_eq!(message.value_map, HashMap::from([("k".into(), null())]));
    assert_eq!(
        printed(&message),
        json!({
            "value": null,
            "optionalNull": null,
            "values": [null, 1.0],
            "nulls": [null, null, null],
            "valueMap": {"k": null},
        })
    );
}

#[test]
fn ignore_unknown_fields_skips_unknown_fields_at_any_depth() {
    let text = r#"{
        "bogus": {"deep": [1, {"x": null}], "more": "text"},
        "fInt32": 5,
        "fNested": {"id": 2, "unknownInside": [true]},
        "@type": "not an Any"
    }"#;
    let message: Scalars = parse_with(text, &ignore_unknown());
    assert_eq!(
        message,
        Scalars {
            f_int32: 5,
            f_nested: nested(2, "").into(),
            ..Default::default()
        }
    );
    // Inside repeated and map values as well.
    let text = r#"{"rNested": [{"x": 1, "id": 3}], "junk": null}"#;
    let message: Repeated = parse_with(text, &ignore_unknown());
    assert_eq!(message.r_nested, [nested(3, "")]);
    let text = r#"{"mNested": {"k": {"x": 1}}}"#;
    let message: Maps = parse_with(text, &ignore_unknown());
    assert_eq!(
        message.m_nested,
        HashMap::from([("k".into(), Nested::default())])
    );
    // A known field that is malformed is still an error.
    parse_err_with::<Scalars>(r#"{"bogus": 1, "fInt32": "x"}"#, &ignore_unknown());
}

#[test]
fn ignore_unknown_fields_skips_unknown_enum_names() {
    let text = r#"{"fMood": "MOOD_GRUMPY", "oMood": "MOOD_GRUMPY", "fInt32": 1}"#;
    let message: Scalars = parse_with(text, &ignore_unknown());
    assert_eq!(
        message,
        Scalars {
            f_int32: 1,
            ..Default::default()
        }
    );
    // A repeated field drops the element, a map the entry.
    let text = r#"{"rMood": ["MOOD_HAPPY", "MOOD_GRUMPY", 2]}"#;
    let message: Repeated = parse_with(text, &ignore_unknown());
    assert_eq!(message.r_mood, [mood(Mood::Happy), mood(Mood::Sad)]);
    let text = r#"{"mMood": {"a": "MOOD_GRUMPY", "b": "MOOD_SAD"}}"#;
    let message: Maps = parse_with(text, &ignore_unknown());
    assert_eq!(
        message.m_mood,
        HashMap::from([("b".into(), mood(Mood::Sad))])
    );
    // A oneof member is left unset.
    let message: Choice = parse_with(r#"{"choiceMood": "MOOD_GRUMPY"}"#, &ignore_unknown());
    assert_eq!(message.choice, None);
    // A closed enum skips unknown names and undeclared numbers alike.
    let text =
        r#"{"color": 9, "colors": ["RED", "PURPLE", 42, 3], "colorMap": {"x": "PURPLE", "y": 1}}"#;
    let legacy: json2::Legacy = parse_with(text, &ignore_unknown());
    assert_eq!(legacy.color, None);
    assert_eq!(legacy.colors, [json2::Color::Red, json2::Color::Blue]);
    assert_eq!(
        legacy.color_map,
        HashMap::from([("y".into(), json2::Color::Red)])
    );
}
