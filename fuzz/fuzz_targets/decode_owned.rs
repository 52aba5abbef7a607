//! Decodes arbitrary bytes as `sink.KitchenSink` in buffa's two layouts,
//! boxed and inline, and through both decode entry points (a slice, and
//! shared `Bytes`). They must accept and reject the same inputs with the
//! same error, and accepted messages must encode to the same bytes.
#![no_main]

use buffa::Message;
use buffa_fuzz::{boxed, encode, inline};
use bytes::Bytes;
use libfuzzer_sys::fuzz_target;

type Boxed = boxed::sink::KitchenSink;
type Inline = inline::sink::KitchenSink;

/// The error message of a failed decode, `None` for a success.
fn error<M>(result: &Result<M, buffa::DecodeError>) -> Option<String> {
    result.as_ref().err().map(ToString::to_string)
}

fuzz_target!(|data: &[u8]| {
    let boxed = Boxed::decode_from_slice(data);
    let inline = Inline::decode_from_slice(data);
    let shared = Inline::decode(Bytes::copy_from_slice(data));
    assert_eq!(
        error(&boxed),
        error(&inline),
        "boxed and inline layouts disagree"
    );
    assert_eq!(
        error(&inline),
        error(&shared),
        "slice and Bytes decoding disagree"
    );
    let (Ok(boxed), Ok(inline), Ok(shared)) = (boxed, inline, shared) else {
        return;
    };

    let inline_bytes = encode(&inline);
    assert_eq!(
        encode(&shared),
        inline_bytes,
        "slice and Bytes decoding read different values"
    );
    // The boxed layout's `HashMap`s write entries in hash order; decoding
    // its encoding in the inline layout puts them in key order.
    let boxed_bytes = encode(&boxed);
    let reordered = Inline::decode_from_slice(&boxed_bytes).expect("the boxed encoding decodes");
    assert_eq!(
        encode(&reordered),
        inline_bytes,
        "boxed and inline layouts read different values"
    );
});
