//! Parses arbitrary bytes as proto3 JSON into `fuzzjson.Root` (every field
//! kind of sink.proto and three.proto, recursion, and every well-known type
//! with a special form, Any included) under three sets of options: the
//! defaults, `ignore_unknown_fields`, and a recursion limit of
//! [`SHALLOW`]. Checks:
//!
//! - what the defaults accept, `ignore_unknown_fields` accepts as the same
//!   message, and so does the lower limit unless it fails on the recursion
//!   limit; what the lower limit accepts, the defaults accept;
//! - every accepted message prints (under the default options, and with
//!   proto field names, enums as numbers and default values), and the
//!   printed JSON parses back to the same message;
//! - the printed JSON is at most [`MAX_GROWTH`] times the input plus
//!   [`MAX_GROWTH_SLACK`] bytes long;
//! - a `DynamicMessage` of `fuzzjson.Root` (from the descriptor set
//!   build.rs has protoc write, its `Any`s resolved from that pool rather
//!   than the registry) accepts what the generated type accepts, prints
//!   the same JSON, and fails on the rest with the same error at the same
//!   place (except for message-typed extension keys, which only the
//!   dynamic message reads).
#![no_main]

use std::sync::{Arc, OnceLock};

use buffa::Message;
use buffa::json::{self, DeserializeOptions, JsonError, SerializeOptions, TypeRegistry};
use buffa_fuzz::json_schema::{fuzzjson, sink};
use buffa_reflect::{DescriptorPool, MessageDescriptor};
use libfuzzer_sys::fuzz_target;

type Root = fuzzjson::Root;

/// The recursion limit of the third parse: low enough that the fuzzer
/// reaches it easily.
const SHALLOW: u32 = 4;

/// How much longer than its input the printed JSON of a parsed message may
/// be (default options). Printing rewrites values, never adds any; the
/// largest growth per input byte is an enum given by number in a list:
/// `0,` (2 bytes) printed as its name, of up to 16 characters in this
/// schema (`MOOD_UNSPECIFIED`), quoted: `"MOOD_UNSPECIFIED",` (19 bytes),
/// 9.5 times. Everything else grows less: a 64-bit integer as an exponent
/// (`1e19,`, 5 bytes) becomes a quoted decimal (`"10000000000000000000",`,
/// 23 bytes, 4.6 times); a double as an exponent (`1e15,`) is printed in
/// full (`1000000000000000.0,`, 3.8 times); a float inside an Any is
/// printed through a double (`1e-9,` as `1.0000000031710769e-9,`, 4.4
/// times); a `Value` integer gains `.0` (`1,` as `1.0,`, 2 times); base64
/// gains its padding (`"AA",` as `"AA==",`); names never grow (a
/// json_name is never longer than the proto name, and the input may use
/// either). 16 leaves room beyond the worst case.
const MAX_GROWTH: usize = 16;

/// The constant part of the bound: a short top level whose one value
/// grows (a 1-byte enum number to a 16-character name) is above
/// `MAX_GROWTH` times its few bytes.
const MAX_GROWTH_SLACK: usize = 1024;

/// The message types an Any in the schema may hold, beyond the well-known
/// types.
fn registry() -> Arc<TypeRegistry> {
    static REGISTRY: OnceLock<Arc<TypeRegistry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let mut registry = TypeRegistry::new();
            fuzzjson::register_types(&mut registry);
            sink::register_types(&mut registry);
            sink::three::register_types(&mut registry);
            Arc::new(registry)
        })
        .clone()
}

/// `fuzzjson.Root` in the pool of the schema's descriptor set.
fn root_descriptor() -> &'static MessageDescriptor {
    static ROOT: OnceLock<MessageDescriptor> = OnceLock::new();
    ROOT.get_or_init(|| {
        let set = include_bytes!(concat!(env!("OUT_DIR"), "/descriptor_set.pb"));
        DescriptorPool::decode(set)
            .expect("build.rs writes a valid descriptor set")
            .get_message_by_name("fuzzjson.Root")
            .expect("fuzzjson.Root is in the set")
    })
}

/// Checks the dynamic message's parse of `data` against the generated
/// type's (`generated`): the same verdict, the same JSON printed, the same
/// error.
fn same_as_dynamic(data: &[u8], generated: &Result<Root, JsonError>) {
    // No registry: the dynamic message resolves Anys from its pool.
    let dynamic =
        buffa_reflect::json::from_slice_with(root_descriptor(), data, &DeserializeOptions::new());
    match (generated, dynamic) {
        (Ok(generated), Ok(dynamic)) => {
            let printed = buffa_reflect::json::to_string(&dynamic)
                .unwrap_or_else(|e| panic!("a parsed dynamic message does not print: {e}"));
            let printed: serde_json::Value = serde_json::from_str(&printed)
                .unwrap_or_else(|e| panic!("printed invalid JSON: {e}\n{printed}"));
            let options = SerializeOptions::new().with_type_registry(registry());
            assert_eq!(
                printed,
                json_value(generated, &options),
                "the dynamic message prints differently"
            );
        }
        (Err(generated), Err(dynamic)) => assert_eq!(
            (dynamic.to_string(), dynamic.line(), dynamic.column()),
            (generated.to_string(), generated.line(), generated.column()),
            "the dynamic message fails differently"
        ),
        (Err(generated), Ok(_)) => assert!(
            generated.to_string().contains("unknown field \"[sink."),
            "the dynamic message accepts what the generated type rejects: {generated}"
        ),
        (Ok(_), Err(dynamic)) => {
            panic!("the dynamic message rejects what the generated type accepts: {dynamic}")
        }
    }
}

/// The JSON of `message` as a `serde_json::Value`, which compares objects
/// regardless of key order.
fn json_value(message: &Root, options: &SerializeOptions) -> serde_json::Value {
    let text = json::to_string_with(message, options)
        .unwrap_or_else(|e| panic!("a parsed message does not print: {e}\n{message:?}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("printed invalid JSON: {e}\n{text}"))
}

/// Asserts that `a` and `b` hold the same values.
///
/// `PartialEq` compares everything exactly, with two exceptions where it
/// says no for equal messages: a NaN anywhere (NaN != NaN), and an Any
/// whose packed bytes hold a `google.protobuf.Struct`, whose `HashMap`
/// encodes its entries in an order of its own. Where the message holds
/// either (a NaN, or an Any at all), the two must instead have the same
/// encoded length and print the same JSON (as a `serde_json::Value`, so
/// key order does not matter, and a NaN prints as `"NaN"`).
fn assert_same(a: &Root, b: &Root, what: &str) {
    assert_eq!(
        a.encoded_len(),
        b.encoded_len(),
        "{what}: the encoded lengths differ\n{a:?}\n{b:?}"
    );
    if a == b {
        return;
    }
    let debug = format!("{a:?}");
    assert!(
        debug.contains("NaN") || debug.contains("type_url"),
        "{what}: the messages differ\n{a:?}\n{b:?}"
    );
    let options = SerializeOptions::new().with_type_registry(registry());
    assert_eq!(
        json_value(a, &options),
        json_value(b, &options),
        "{what}: the messages print differently"
    );
}

/// Prints `message` under `options`, parses the text back under `read`
/// and checks the result is the same message; returns the text.
fn round_trip(
    message: &Root,
    options: &SerializeOptions,
    read: &DeserializeOptions,
    what: &str,
) -> String {
    let text = json::to_string_with(message, options)
        .unwrap_or_else(|e| panic!("{what}: a parsed message does not print: {e}\n{message:?}"));
    let back: Root = json::from_str_with(&text, read)
        .unwrap_or_else(|e| panic!("{what}: the printed JSON does not parse: {e}\n{text}"));
    if holds_unknown_null_value(message) && message != &back {
        // JSON has one form for every NullValue, `null` (as in protobuf-go
        // and C++): a number other than 0 read from JSON or binary prints
        // as `null` and reads back as 0 (and an implicit-presence field
        // then as absent). The message read back, which holds only 0s,
        // must round-trip instead.
        assert!(
            !holds_unknown_null_value(&back),
            "{what}: JSON null reads back as a NullValue other than 0\n{back:?}"
        );
        round_trip(&back, options, read, what);
    } else {
        assert_same(message, &back, what);
    }
    text
}

/// Whether a `google.protobuf.NullValue` field of `message` (or of a
/// `Value` in it) holds a number other than 0. Every other enum field
/// prints an unknown number as the number, so this is the only unknown
/// enum value JSON cannot keep.
fn holds_unknown_null_value(message: &Root) -> bool {
    let debug = format!("{message:?}");
    [
        "null_value: Unknown(",
        "optional_null: Some(Unknown(",
        "PickNull(Unknown(",
        "NullValue(Unknown(",
    ]
    .iter()
    .any(|pattern| debug.contains(pattern))
        || debug.contains("nulls: [") && debug.contains("Unknown(")
}

fuzz_target!(|data: &[u8]| {
    let strict = DeserializeOptions::new().with_type_registry(registry());
    let lenient = strict.clone().with_ignore_unknown_fields(true);
    let shallow = strict.clone().with_recursion_limit(SHALLOW);

    let parsed = json::from_slice_with::<Root>(data, &strict);
    let ignoring = json::from_slice_with::<Root>(data, &lenient);
    let limited = json::from_slice_with::<Root>(data, &shallow);
    same_as_dynamic(data, &parsed);

    if let Ok(message) = &parsed {
        match &ignoring {
            Ok(other) => assert_same(message, other, "ignore_unknown_fields"),
            Err(e) => panic!("ignore_unknown_fields rejects what the defaults accept: {e}"),
        }
        match &limited {
            Ok(other) => assert_same(message, other, "recursion limit"),
            Err(e) => assert!(
                e.to_string().contains("(the recursion limit)"),
                "a lower recursion limit fails for another reason: {e}"
            ),
        }
    } else if let (Err(e), Ok(_)) = (&parsed, &limited) {
        panic!("a lower recursion limit accepts what the defaults reject: {e}");
    }

    let default_print = SerializeOptions::new().with_type_registry(registry());
    let other_print = SerializeOptions::new()
        .with_type_registry(registry())
        .with_proto_field_names(true)
        .with_enums_as_ints(true)
        .with_emit_default_values(true);
    for message in [parsed, ignoring].iter().flatten() {
        let text = round_trip(message, &default_print, &strict, "default options");
        assert!(
            text.len() <= MAX_GROWTH * data.len() + MAX_GROWTH_SLACK,
            "{} bytes of input printed as {} bytes",
            data.len(),
            text.len()
        );
        round_trip(
            message,
            &other_print,
            &strict,
            "proto names, enum numbers, defaults",
        );
    }
});
