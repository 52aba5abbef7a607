//! Proto3 JSON of generated messages (`Config::json()`) and of the
//! well-known types (`buffa-types` with `json`), on the schema in
//! `proto/json`: round trips of every field kind, the exact output against
//! hand-written `serde_json` values (the mapping's text, not our printer's),
//! the input leniency the mapping asks for, errors and where they point,
//! `ignore_unknown_fields`, the recursion limit, and serde interop.
//!
//! - this file: helpers and round trips;
//! - `json/output.rs`: the exact output under each option;
//! - `json/input.rs`: what the reader accepts, with and without
//!   `ignore_unknown_fields`;
//! - `json/errors.rs`: what it rejects, and where the error points;
//! - `json/limits.rs`: the recursion and length limits;
//! - `json/well_known.rs`: the special forms of the well-known types;
//! - `json/interop.rs`: the generated `Serialize`/`Deserialize` impls with
//!   `serde_json` directly.

use std::collections::HashMap;
use std::fmt::Debug;

use buffa::EnumValue;
use buffa::json::{self, DeserializeOptions, JsonError, JsonMessage, SerializeOptions};
use buffa_types::google::protobuf as wkt;
use serde_json::{Value, json};

#[allow(dead_code, clippy::all)]
mod schema {
    include!(concat!(env!("OUT_DIR"), "/json/include.rs"));
}

#[path = "json/errors.rs"]
mod errors;
#[path = "json/input.rs"]
mod input;
#[path = "json/interop.rs"]
mod interop;
#[path = "json/limits.rs"]
mod limits;
#[path = "json/output.rs"]
mod output;
#[path = "json/well_known.rs"]
mod well_known;

use schema::json2;
use schema::json3::{self, Choice, Maps, Mood, Nested, Node, Repeated, Scalars, WellKnown};

// --- helpers -----------------------------------------------------------------

/// The JSON text of `message` under the default options.
fn print<M: JsonMessage>(message: &M) -> String {
    json::to_string(message).unwrap_or_else(|e| panic!("printing failed: {e}"))
}

/// The JSON of `message` under `options`, as a `serde_json::Value`.
fn printed_with<M: JsonMessage>(message: &M, options: &SerializeOptions) -> Value {
    let text = json::to_string_with(message, options).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON: {e}: {text}"))
}

/// The JSON of `message` under the default options, as a `serde_json::Value`.
fn printed<M: JsonMessage>(message: &M) -> Value {
    printed_with(message, &SerializeOptions::new())
}

/// Parses `text` as `M` under the default options.
fn parse<M: JsonMessage>(text: &str) -> M {
    json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Parses `text` as `M` under `options`.
fn parse_with<M: JsonMessage>(text: &str, options: &DeserializeOptions) -> M {
    json::from_str_with(text, options).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The error of parsing `text` as `M` under `options`.
fn parse_err_with<M: JsonMessage + Debug>(text: &str, options: &DeserializeOptions) -> JsonError {
    match json::from_str_with::<M>(text, options) {
        Ok(message) => panic!("accepted {text}: {message:?}"),
        Err(e) => e,
    }
}

/// The error of parsing `text` as `M` under the default options.
fn parse_err<M: JsonMessage + Debug>(text: &str) -> JsonError {
    parse_err_with::<M>(text, &DeserializeOptions::new())
}

/// Prints `message`, parses the text back and checks the result equals
/// `message`; returns the text. (`PartialEq` says `-0.0 == 0.0`: the sign
/// of zero is checked by bits where it matters.)
fn round_trip<M: JsonMessage + PartialEq + Debug>(message: &M) -> String {
    let text = print(message);
    let back: M = parse(&text);
    assert_eq!(&back, message, "through {text}");
    text
}

fn ignore_unknown() -> DeserializeOptions {
    DeserializeOptions::new().with_ignore_unknown_fields(true)
}

fn nested(id: i32, label: &str) -> Nested {
    Nested {
        id,
        label: label.into(),
        ..Default::default()
    }
}

/// `Some` of a known open-enum value.
fn mood(known: Mood) -> EnumValue<Mood> {
    EnumValue::Known(known)
}

fn number(v: f64) -> wkt::Value {
    wkt::Value {
        kind: Some(wkt::value::Kind::NumberValue(v)),
        ..Default::default()
    }
}

fn string(v: &str) -> wkt::Value {
    wkt::Value {
        kind: Some(wkt::value::Kind::StringValue(v.into())),
        ..Default::default()
    }
}

fn null() -> wkt::Value {
    wkt::Value {
        kind: Some(wkt::value::Kind::NullValue(EnumValue::Known(
            wkt::NullValue::NullValue,
        ))),
        ..Default::default()
    }
}

/// A `Scalars` with every field set to a value other than its default.
fn full_scalars() -> Scalars {
    Scalars {
        f_double: 1.5,
        f_float: 0.25,
        f_int32: -7,
        f_int64: -8_000_000_000,
        f_uint32: 4_000_000_000,
        f_uint64: 18_000_000_000_000_000_000,
        f_sint32: -9,
        f_sint64: -10,
        f_fixed32: 11,
        f_fixed64: 12,
        f_sfixed32: -13,
        f_sfixed64: -14,
        f_bool: true,
        f_string: "héllo \"wörld\"\n\u{1}".into(),
        f_bytes: vec![0, 0xfb, 0xff, 0x80],
        f_mood: mood(Mood::Happy),
        f_nested: nested(1, "one").into(),
        o_double: Some(0.0),
        o_float: Some(-0.0),
        o_int32: Some(0),
        o_int64: Some(0),
        o_uint32: Some(0),
        o_uint64: Some(0),
        o_sint32: Some(0),
        o_sint64: Some(0),
        o_fixed32: Some(0),
        o_fixed64: Some(0),
        o_sfixed32: Some(0),
        o_sfixed64: Some(0),
        o_bool: Some(false),
        o_string: Some(String::new()),
        o_bytes: Some(Vec::new()),
        o_mood: Some(mood(Mood::Unspecified)),
        renamed: 40,
        ..Default::default()
    }
}

/// A `Repeated` with two or more elements in every field.
fn full_repeated() -> Repeated {
    Repeated {
        r_double: vec![1.0, -2.5, f64::MAX],
        r_float: vec![0.5, f32::MIN_POSITIVE],
        r_int32: vec![i32::MIN, 0, i32::MAX],
        r_int64: vec![i64::MIN, 0, i64::MAX],
        r_uint32: vec![0, u32::MAX],
        r_uint64: vec![0, u64::MAX],
        r_sint32: vec![i32::MIN, -1, i32::MAX],
        r_sint64: vec![i64::MIN, -1, i64::MAX],
        r_fixed32: vec![0, u32::MAX],
        r_fixed64: vec![0, u64::MAX],
        r_sfixed32: vec![i32::MIN, i32::MAX],
        r_sfixed64: vec![i64::MIN, i64::MAX],
        r_bool: vec![true, false, true],
        r_mood: vec![
            mood(Mood::Sad),
            mood(Mood::Negative),
            EnumValue::Unknown(42),
        ],
        r_string: vec![String::new(), "x".into(), "ü".into()],
        r_bytes: vec![Vec::new(), vec![0xff], vec![1, 2, 3]],
        r_nested: vec![Nested::default(), nested(2, "two")],
        ..Default::default()
    }
}

/// A `Maps` with entries in every field, keys at the ends of their ranges.
fn full_maps() -> Maps {
    Maps {
        m_int32: HashMap::from([(i32::MIN, "min".into()), (-5, "neg".into()), (0, "".into())]),
        m_int64: HashMap::from([(i64::MIN, "min".into()), (i64::MAX, "max".into())]),
        m_uint32: HashMap::from([(u32::MAX, "max".into())]),
        m_uint64: HashMap::from([(u64::MAX, "max".into()), (0, "zero".into())]),
        m_sint32: HashMap::from([(-5, "neg".into())]),
        m_sint64: HashMap::from([(i64::MIN, "min".into())]),
        m_fixed32: HashMap::from([(7, "seven".into())]),
        m_fixed64: HashMap::from([(u64::MAX, "max".into())]),
        m_sfixed32: HashMap::from([(-1, "minus one".into())]),
        m_sfixed64: HashMap::from([(-2, "minus two".into())]),
        m_bool: HashMap::from([(true, "yes".into()), (false, "no".into())]),
        m_string: HashMap::from([
            (String::new(), "empty key".into()),
            ("k".into(), "v".into()),
        ]),
        m_nested: HashMap::from([
            ("a".into(), nested(1, "a")),
            ("b".into(), Nested::default()),
        ]),
        m_mood: HashMap::from([
            ("happy".into(), mood(Mood::Happy)),
            ("unknown".into(), EnumValue::Unknown(99)),
        ]),
        m_bytes: HashMap::from([(1, vec![0xfb, 0xff]), (2, Vec::new())]),
        ..Default::default()
    }
}

/// Every member of the oneof, and the oneof unset.
fn choices() -> Vec<Choice> {
    use json3::choice::Choice as C;
    let members = [
        C::ChoiceInt32(0),
        C::ChoiceInt32(-3),
        C::ChoiceString(String::new()),
        C::ChoiceNested(Box::default()),
        C::ChoiceNested(Box::new(nested(3, "three"))),
        C::ChoiceMood(mood(Mood::Unspecified)),
        C::ChoiceMood(EnumValue::Unknown(12)),
        C::ChoiceNull(EnumValue::Known(wkt::NullValue::NullValue)),
        C::ChoiceValue(Box::new(number(2.5))),
        C::ChoiceValue(Box::new(null())),
    ];
    let mut all: Vec<Choice> = members
        .into_iter()
        .map(|member| Choice {
            choice: Some(member),
            after: 1,
            ..Default::default()
        })
        .collect();
    all.push(Choice::default());
    all
}

// --- round trips ---------------------------------------------------------------

#[test]
fn every_scalar_field_round_trips() {
    round_trip(&full_scalars());
    round_trip(&Scalars::default());
    // Explicit presence set to the default is kept through JSON.
    let text = round_trip(&Scalars {
        o_int32: Some(0),
        ..Default::default()
    });
    assert_eq!(text, r#"{"oInt32":0}"#);
}

#[test]
fn repeated_maps_and_oneofs_round_trip() {
    round_trip(&full_repeated());
    round_trip(&Repeated::default());
    round_trip(&full_maps());
    round_trip(&Maps::default());
    for choice in choices() {
        round_trip(&choice);
    }
}

#[test]
fn unknown_open_enum_numbers_are_printed_as_numbers() {
    let message = Scalars {
        f_mood: EnumValue::Unknown(7),
        o_mood: Some(EnumValue::Unknown(-100)),
        ..Default::default()
    };
    round_trip(&message);
    assert_eq!(printed(&message), json!({"fMood": 7, "oMood": -100}));
    let repeated = Repeated {
        r_mood: vec![mood(Mood::Happy), EnumValue::Unknown(3)],
        ..Default::default()
    };
    assert_eq!(printed(&repeated), json!({"rMood": ["MOOD_HAPPY", 3]}));
}

#[test]
fn special_floats_are_strings_and_negative_zero_survives() {
    let message = Repeated {
        r_double: vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0],
        r_float: vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0],
        ..Default::default()
    };
    assert_eq!(
        printed(&message),
        json!({
            "rDouble": ["NaN", "Infinity", "-Infinity", -0.0, 0.0],
            "rFloat": ["NaN", "Infinity", "-Infinity", -0.0],
        })
    );
    let back: Repeated = parse(&print(&message));
    let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert!(back.r_double[0].is_nan());
    assert_eq!(bits(&back.r_double[1..]), bits(&message.r_double[1..]));
    assert!(back.r_float[0].is_nan());
    assert_eq!(back.r_float[3].to_bits(), (-0.0f32).to_bits());
    // Singular fields too: -0.0 is not the default, so it is printed.
    let scalars = Scalars {
        f_double: -0.0,
        f_float: f32::NAN,
        o_double: Some(f64::NEG_INFINITY),
        ..Default::default()
    };
    let text = print(&scalars);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"fDouble": -0.0, "fFloat": "NaN", "oDouble": "-Infinity"})
    );
    let back: Scalars = parse(&text);
    assert_eq!(back.f_double.to_bits(), (-0.0f64).to_bits());
    assert!(back.f_float.is_nan());
    assert_eq!(back.o_double, Some(f64::NEG_INFINITY));
}

#[test]
fn sixty_four_bit_integers_are_strings_at_their_extremes() {
    let message = Scalars {
        f_int64: i64::MIN,
        f_uint64: u64::MAX,
        f_sint64: i64::MAX,
        f_fixed64: u64::MAX,
        f_sfixed64: i64::MIN,
        o_int64: Some(i64::MAX),
        o_uint64: Some(u64::MAX),
        ..Default::default()
    };
    round_trip(&message);
    assert_eq!(
        printed(&message),
        json!({
            "fInt64": "-9223372036854775808",
            "fUint64": "18446744073709551615",
            "fSint64": "9223372036854775807",
            "fFixed64": "18446744073709551615",
            "fSfixed64": "-9223372036854775808",
            "oInt64": "9223372036854775807",
            "oUint64": "18446744073709551615",
        })
    );
    // 32-bit integers stay numbers.
    let small = Scalars {
        f_int32: i32::MIN,
        f_uint32: u32::MAX,
        ..Default::default()
    };
    assert_eq!(
        printed(&small),
        json!({"fInt32": -2147483648i64, "fUint32": 4294967295u32})
    );
}

#[test]
fn bytes_are_padded_standard_base64_out_and_any_base64_in() {
    let message = Scalars {
        f_bytes: vec![0xfb, 0xff],
        o_bytes: Some(b"f".to_vec()),
        ..Default::default()
    };
    assert_eq!(
        printed(&message),
        json!({"fBytes": "+/8=", "oBytes": "Zg=="})
    );
    round_trip(&message);
    for input in ["+/8=", "-_8=", "+/8", "-_8"] {
        let back: Scalars = parse(&format!(r#"{{"fBytes": "{input}"}}"#));
        assert_eq!(back.f_bytes, [0xfb, 0xff], "{input}");
    }
}

#[test]
fn map_keys_are_strings() {
    let maps = Maps {
        m_bool: HashMap::from([(true, "t".into()), (false, "f".into())]),
        m_sint32: HashMap::from([(-5, "x".into())]),
        m_int64: HashMap::from([(i64::MIN, "min".into())]),
        m_uint64: HashMap::from([(u64::MAX, "max".into())]),
        m_mood: HashMap::from([("m".into(), mood(Mood::Sad))]),
        m_nested: HashMap::from([("n".into(), nested(1, ""))]),
        m_bytes: HashMap::from([(-1, vec![1])]),
        ..Default::default()
    };
    assert_eq!(
        printed(&maps),
        json!({
            "mBool": {"true": "t", "false": "f"},
            "mSint32": {"-5": "x"},
            "mInt64": {"-9223372036854775808": "min"},
            "mUint64": {"18446744073709551615": "max"},
            "mMood": {"m": "MOOD_SAD"},
            "mNested": {"n": {"id": 1}},
            "mBytes": {"-1": "AQ=="},
        })
    );
    round_trip(&maps);
}

#[test]
fn recursive_and_well_known_messages_round_trip() {
    let leaf = |depth| Node {
        depth,
        ..Default::default()
    };
    let node = Node {
        depth: 1,
        child: Node {
            depth: 2,
            child: leaf(3).into(),
            ..Default::default()
        }
        .into(),
        children: vec![leaf(4), Node::default()],
        named: HashMap::from([("x".into(), leaf(5))]),
        ..Default::default()
    };
    round_trip(&node);
    round_trip(&well_known::full_well_known());
}

#[test]
fn proto2_fields_round_trip() {
    use json2::legacy::{Entry, Item};
    let legacy = json2::Legacy {
        id: Some(1),
        name: Some(String::new()),
        count: Some(7),
        color: Some(json2::Color::Blue),
        colors: vec![json2::Color::Red, json2::Color::Unset],
        color_map: HashMap::from([("g".into(), json2::Color::Green)]),
        ratio: Some(0.5),
        item: Item {
            x: Some(3),
            y: None,
            ..Default::default()
        }
        .into(),
        entry: vec![
            Entry {
                k: Some(1),
                ..Default::default()
            },
            Entry::default(),
        ],
        ..Default::default()
    };
    assert_eq!(
        printed(&legacy),
        json!({
            "id": 1,
            "name": "",
            "count": 7,
            "color": "BLUE",
            "colors": ["RED", "UNSET"],
            "colorMap": {"g": "GREEN"},
            "ratio": 0.5,
            "item": {"x": 3},
            "entry": [{"k": 1}, {}],
        })
    );
    round_trip(&legacy);
    round_trip(&json2::Legacy::default());
}
