//! Input the reader rejects, and output the printer refuses: each error
//! says why, and errors in the input say where (line and column).

use super::*;

/// Asserts that `err` says `cause` and points at `at`, which occurs once in
/// `input`: on its line, at a column from just before its first character
/// (serde_json gives the column of the last character it read, which for
/// an error found on peeking at a value is the one before it) to just past
/// its last.
#[track_caller]
fn assert_points_at(err: &JsonError, input: &str, at: &str, cause: &str) {
    let message = err.to_string();
    assert!(
        message.contains(cause),
        "{message:?} does not say {cause:?}"
    );
    assert_eq!(
        input.matches(at).count(),
        1,
        "{at:?} is not unique in the input"
    );
    let offset = input.find(at).unwrap();
    let before = &input[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let first = input[line_start..offset].chars().count() + 1;
    let past_last = first + at.chars().count();
    assert_eq!(
        (err.line(), (first - 1..=past_last).contains(&err.column())),
        (line, true),
        "{message:?} is at {}:{}, {at:?} at {line}:{}..={past_last}",
        err.line(),
        err.column(),
        first - 1,
    );
}

/// Parses `input` as `M`, expecting an error about `at` that says `cause`.
#[track_caller]
fn rejects<M: JsonMessage + Debug>(input: &str, at: &str, cause: &str) {
    let err = parse_err::<M>(input);
    assert_points_at(&err, input, at, cause);
}

#[test]
fn unknown_field() {
    rejects::<Scalars>(
        "{\n  \"fInt32\": 1,\n  \"bogus\": 2\n}",
        "\"bogus\"",
        "unknown field \"bogus\" in message json3.Scalars",
    );
    // In a nested message, the error names the nested message.
    rejects::<Scalars>(
        "{\"fNested\": {\n  \"id\": 1, \"nope\": 2}}",
        "\"nope\"",
        "unknown field \"nope\" in message json3.Nested",
    );
}

#[test]
fn unknown_enum_name() {
    rejects::<Scalars>(
        "{\n  \"fMood\": \"MOOD_GRUMPY\"}",
        "\"MOOD_GRUMPY\"",
        "unknown enum value name",
    );
    rejects::<Repeated>(
        "{\"rMood\": [\"MOOD_HAPPY\",\n \"happy\"]}",
        "\"happy\"",
        "unknown enum value name",
    );
    // A closed enum rejects undeclared numbers too.
    rejects::<json2::Legacy>(
        "{\"id\": 1,\n \"color\": 9}",
        "9",
        "9 is not a value of the closed enum",
    );
}

#[test]
fn duplicate_field_under_either_name() {
    for (first, second) in [
        ("fInt32", "fInt32"),
        ("fInt32", "f_int32"),
        ("f_int32", "fInt32"),
        ("customName", "renamed"),
    ] {
        let input = format!("{{\"{first}\": 1,\n  \"{second}\": 2}}");
        let at = format!("  \"{second}\"");
        rejects::<Scalars>(&input, &at, "is given more than once");
    }
    // Repeated fields and maps too: they would be merged otherwise.
    rejects::<Repeated>(
        "{\"rInt32\": [1],\n \"r_int32\": [2]}",
        "\"r_int32\"",
        "field \"r_int32\" of json3.Repeated is given more than once",
    );
    rejects::<Maps>(
        "{\"mBool\": {},\n \"mBool\": {}}",
        " \"mBool\"",
        "is given more than once",
    );
}

#[test]
fn two_members_of_a_oneof() {
    rejects::<Choice>(
        "{\"choiceInt32\": 1,\n  \"choiceString\": \"x\"}",
        "\"x\"",
        "sets oneof \"choice\", which another field already set",
    );
    // Even when both are null-valued members with a value.
    rejects::<Choice>(
        "{\"choiceNull\": null,\n  \"choiceValue\": 1}",
        "1}",
        "sets oneof",
    );
}

#[test]
fn integers_out_of_range_or_not_integral() {
    rejects::<Scalars>(
        "{\n\"fInt32\": 2147483648}",
        "2147483648",
        "2147483648 is not an int32",
    );
    rejects::<Scalars>(
        "{\n\"fInt32\": \"-2147483649\"}",
        "\"-2147483649\"",
        "-2147483649 is out of range of an int32",
    );
    rejects::<Scalars>("{\n\"fInt32\": 1.5}", "1.5", "1.5 is not an int32");
    rejects::<Scalars>("{\n\"fUint32\": -1}", "-1", "-1 is not a uint32");
    rejects::<Scalars>(
        "{\n\"fUint64\": \"18446744073709551616\"}",
        "\"18446744073709551616\"",
        "out of range of a uint64",
    );
    rejects::<Scalars>("{\n\"fInt64\": \"0x10\"}", "\"0x10\"", "0x10");
    rejects::<Scalars>("{\n\"fInt32\": \" 1\"}", "\" 1\"", "int32");
    rejects::<Scalars>("{\n\"fInt32\": true}", "true", "int32");
    rejects::<Scalars>("{\n\"fFloat\": 1e39}", "1e39", "out of range of a float");
    rejects::<Scalars>("{\n\"fDouble\": \"nan\"}", "\"nan\"", "invalid number");
}

#[test]
fn invalid_base64() {
    rejects::<Scalars>("{\n  \"fBytes\": \"Zm9v!\"}", "\"Zm9v!\"", "invalid base64");
    rejects::<Repeated>("{\"rBytes\": [\"\",\n \"Z\"]}", "\"Z\"", "invalid base64");
}

#[test]
fn malformed_timestamp_duration_and_field_mask() {
    rejects::<WellKnown>(
        "{\n\"timestamp\": \"1970-01-01 00:00:00Z\"}",
        "\"1970-01-01 00:00:00Z\"",
        "invalid Timestamp",
    );
    rejects::<WellKnown>("{\n\"duration\": \"1.5\"}", "\"1.5\"", "invalid Duration");
    rejects::<WellKnown>(
        "{\n\"fieldMask\": \"foo,bar_baz\"}",
        "\"foo,bar_baz\"",
        "invalid FieldMask path \"bar_baz\"",
    );
    rejects::<WellKnown>(
        "{\n\"timestamp\": 0}",
        "0}",
        "a Timestamp as an RFC 3339 string",
    );
}

#[test]
fn null_in_a_list_or_as_a_map_value() {
    rejects::<Repeated>("{\"rInt32\": [1,\n null]}", "null", "invalid type: null");
    rejects::<Repeated>("{\"rNested\": [{},\n null]}", "null", "invalid type: null");
    rejects::<Maps>(
        "{\"mNested\": {\n\"k\": null}}",
        "null",
        "invalid type: null",
    );
}

#[test]
fn bad_map_keys() {
    rejects::<Maps>(
        "{\"mInt32\": {\n\"01\": \"\"}}",
        "\"01\"",
        "map key \"01\" is not an int32",
    );
    rejects::<Maps>(
        "{\"mBool\": {\n\"True\": \"\"}}",
        "\"True\"",
        "is not a bool",
    );
    rejects::<Maps>(
        "{\"mUint32\": {\n\"-1\": \"\"}}",
        "\"-1\"",
        "map key \"-1\" is not a uint32",
    );
}

#[test]
fn not_an_object_at_the_top() {
    let err = parse_err::<Scalars>("null");
    assert_points_at(&err, "null", "null", "invalid type: null");
    assert!(err.to_string().contains("json3.Scalars"), "{err}");
    let err = parse_err::<Scalars>("[]");
    assert_points_at(&err, "[]", "[]", "invalid type: sequence");
    let err = parse_err::<Scalars>("");
    assert!(err.is_eof(), "{err}");
}

#[test]
fn trailing_characters() {
    let input = "{\"fInt32\": 1}\n  x";
    let err = parse_err::<Scalars>(input);
    assert_points_at(&err, input, "x", "trailing characters");
    assert!(err.is_syntax());
    // Whitespace after the object is fine.
    assert_eq!(parse::<Scalars>("\n {} \n\t").f_int32, 0);
}

#[test]
fn syntax_errors() {
    let input = "{\"fInt32\": 1,\n  }";
    let err = parse_err::<Scalars>(input);
    assert!(err.is_syntax(), "{err}");
    assert_eq!(err.line(), 2, "{err}");
    let input = "{\"fInt32\": 1";
    assert!(parse_err::<Scalars>(input).is_eof());
}

#[test]
fn printing_a_value_without_a_json_form_fails() {
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let message = WellKnown {
            value: number(v).into(),
            ..Default::default()
        };
        let err = json::to_string(&message).unwrap_err();
        assert!(
            err.to_string()
                .contains("has no JSON form (NaN and infinities do not)"),
            "{err}"
        );
        assert_eq!((err.line(), err.column()), (0, 0));
    }
    // Deep inside a Struct, too.
    let message = WellKnown {
        struct_value: wkt::Struct {
            fields: HashMap::from([(
                "list".to_string(),
                wkt::Value {
                    kind: Some(wkt::value::Kind::ListValue(Box::new(wkt::ListValue {
                        values: vec![number(1.0), number(f64::NAN)],
                        ..Default::default()
                    }))),
                    ..Default::default()
                },
            )]),
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    let err = json::to_string(&message).unwrap_err();
    assert!(err.to_string().contains("NaN"), "{err}");
    // A Value with no kind set has no JSON form either.
    let message = WellKnown {
        value: wkt::Value::default().into(),
        ..Default::default()
    };
    let err = json::to_string(&message).unwrap_err();
    assert!(err.to_string().contains("no kind set"), "{err}");
}

/// Errors about a key or value followed by a line break: they point at
/// the key or value, not at the next token. (A line break between a key
/// and its colon still moves a key error to the colon's line.)
#[test]

fn errors_point_at_the_value_not_at_the_next_token() {
    rejects::<Scalars>(
        "{\n  \"fMood\": \"MOOD_GRUMPY\"\n}",
        "\"MOOD_GRUMPY\"",
        "unknown enum value name",
    );
    rejects::<json2::Legacy>("{\"color\": 9\n}", "9", "is not a value of the closed enum");
    rejects::<Choice>(
        "{\"choiceInt32\": 1,\n  \"choiceString\": \"x\"\n}",
        "\"x\"",
        "sets oneof",
    );
    rejects::<Repeated>("{\"rInt32\": [1,\n null\n]}", "null", "invalid type: null");
    rejects::<Maps>(
        "{\"mNested\": {\n\"k\": null\n}}",
        "null",
        "invalid type: null",
    );
    rejects::<Scalars>("{\"bogus\": 1\n}", "\"bogus\"", "unknown field");
    rejects::<Scalars>(
        "{\"fInt32\": 1, \"f_int32\": 1\n}",
        "\"f_int32\"",
        "is given more than once",
    );
    rejects::<Maps>(
        "{\"mInt32\": {\"01\": \"\"\n}}",
        "\"01\"",
        "is not an int32",
    );
}

/// The same for errors found while the value is read: they are right.
#[test]
fn errors_found_inside_a_value_point_at_it_before_a_line_break() {
    rejects::<Scalars>("{\"fInt32\": 1.5\n}", "1.5", "1.5 is not an int32");
    rejects::<Scalars>("{\"fBytes\": \"!\"\n}", "\"!\"", "invalid base64");
    rejects::<WellKnown>("{\"duration\": \"1\"\n}", "\"1\"", "invalid Duration");
}

/// protobuf's C++ parser rejects a map key given twice ("got
/// unexpectedly-repeated repeated map key", json/internal/parser.cc), in
/// maps and in `Struct`s alike; buffa keeps the last value.
#[test]

fn duplicate_map_keys() {
    rejects::<Maps>(
        "{\"mString\": {\"k\": \"a\",\n \"k\": \"b\"}}",
        " \"k\"",
        "more than once",
    );
    rejects::<Maps>(
        "{\"mInt32\": {\"1\": \"a\",\n \"1\": \"b\"}}",
        " \"1\"",
        "more than once",
    );
    rejects::<WellKnown>(
        "{\"structValue\": {\"k\": 1,\n \"k\": 2}}",
        " \"k\"",
        "more than once",
    );
}
