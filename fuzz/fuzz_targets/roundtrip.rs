//! Decodes arbitrary bytes as `sink.KitchenSink`; whatever buffa accepts
//! must survive encode -> decode -> encode unchanged, in both layouts.
#![no_main]

use buffa::Message;
use buffa_fuzz::{boxed, encode, inline, same_values};
use libfuzzer_sys::fuzz_target;

/// Decodes, encodes and decodes again. `ordered` says whether the layout's
/// encoding is a function of its value; `HashMap` fields are written in hash
/// order, which differs between two maps, so without it only the lengths
/// of the two encodings must match.
fn roundtrip<M: Message + PartialEq>(data: &[u8], ordered: bool) {
    let Ok(first) = M::decode_from_slice(data) else {
        return;
    };
    let first_bytes = encode(&first);
    let second = match M::decode_from_slice(&first_bytes) {
        Ok(second) => second,
        Err(e) => panic!("{}: the re-encoding does not decode: {e}", M::NAME),
    };
    assert!(
        same_values(&first, &second),
        "{}: the round trip changed the message",
        M::NAME
    );
    let second_bytes = encode(&second);
    if ordered {
        assert_eq!(
            first_bytes,
            second_bytes,
            "{}: the two encodings differ",
            M::NAME
        );
    } else {
        assert_eq!(
            first_bytes.len(),
            second_bytes.len(),
            "{}: the two encodings differ",
            M::NAME
        );
    }
}

fuzz_target!(|data: &[u8]| {
    roundtrip::<boxed::sink::KitchenSink>(data, false);
    roundtrip::<inline::sink::KitchenSink>(data, true);
});
