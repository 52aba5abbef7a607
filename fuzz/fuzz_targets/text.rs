//! Parses arbitrary text as the text format into a `DynamicMessage` of
//! `fuzzjson.Root` (every field kind of sink.proto and three.proto:
//! groups, closed and open enums, extensions, maps, oneofs, recursion, and
//! the well-known types, Any included), from the descriptor set build.rs
//! has protoc write. Checks:
//!
//! - what the default options accept, `allow_unknown_fields` and
//!   `allow_singular_overwrites` accept as the same message, and a
//!   recursion limit of [`SHALLOW`] too unless it fails on that limit;
//! - every accepted message prints (multi-line, single-line, and without
//!   expanding Anys), and each printed text parses back to a message that
//!   prints the same text, and encodes to the same bytes unless it holds a
//!   NaN (printed `nan`, whatever its sign and payload).
#![no_main]

use std::sync::OnceLock;

use buffa_reflect::text::{self, ParseOptions, PrintOptions};
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use libfuzzer_sys::fuzz_target;

/// The recursion limit of the shallow parse: low enough that the fuzzer
/// reaches it easily.
const SHALLOW: u32 = 4;

fn root() -> &'static MessageDescriptor {
    static ROOT: OnceLock<MessageDescriptor> = OnceLock::new();
    ROOT.get_or_init(|| {
        let set = include_bytes!(concat!(env!("OUT_DIR"), "/descriptor_set.pb"));
        DescriptorPool::decode(set)
            .expect("build.rs writes a valid descriptor set")
            .get_message_by_name("fuzzjson.Root")
            .expect("fuzzjson.Root is in the set")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let root = root();
    let parsed = text::parse(root, input);

    let lenient = ParseOptions::new()
        .with_allow_unknown_fields(true)
        .with_allow_singular_overwrites(true);
    let lenient_parsed = text::parse_with(root, input, &lenient);
    let shallow = ParseOptions::new().with_recursion_limit(SHALLOW);
    match (&parsed, text::parse_with(root, input, &shallow)) {
        (Ok(message), Ok(shallow)) => assert_same(message, &shallow),
        (Ok(_), Err(e)) => assert!(
            e.message().contains("recursion limit"),
            "the shallow parse fails otherwise than on the limit: {e}"
        ),
        (Err(_), Ok(_)) => panic!("the shallow parse accepts what the default rejects"),
        (Err(_), Err(_)) => {}
    }
    let Ok(message) = parsed else {
        return;
    };
    match lenient_parsed {
        Ok(lenient) => assert_same(&message, &lenient),
        Err(e) => panic!("the lenient parse rejects what the default accepts: {e}"),
    }

    for options in [
        PrintOptions::new(),
        PrintOptions::new().with_single_line(true),
        PrintOptions::new().with_expand_any(true),
    ] {
        let printed = text::to_string_with(&message, &options);
        let again = text::parse(root, &printed)
            .unwrap_or_else(|e| panic!("printed text does not parse: {e}\n{printed}"));
        assert_eq!(
            text::to_string_with(&again, &options),
            printed,
            "the printed text's message prints differently"
        );
        assert_same(&message, &again);
    }
});

/// Asserts that `a` and `b` are the same message: the same text, and the
/// same encoding unless the message holds a NaN (the text format prints
/// every NaN as `nan`, whatever its sign and payload, which may come from
/// the bytes of an Any).
fn assert_same(a: &DynamicMessage, b: &DynamicMessage) {
    let printed = text::to_string(a);
    assert_eq!(printed, text::to_string(b));
    if !printed.contains("nan") {
        assert_eq!(a.encode_to_vec(), b.encode_to_vec());
    }
}
