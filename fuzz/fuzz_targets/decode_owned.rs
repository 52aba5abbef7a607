//! Decodes arbitrary bytes as `sink.KitchenSink` in buffa's two layouts,
//! boxed and inline, and through both decode entry points (a slice, and
//! shared `Bytes`). They must accept and reject the same inputs with the
//! same error, and accepted messages must encode to the same bytes. The
//! typed extensions of an accepted message read without panicking, and a
//! value read sets and reads back unchanged.
#![no_main]

use std::fmt::Debug;

use buffa::extension::ExtensionValue;
use buffa::{ExtendableMessage, Extension, Message};
use buffa_fuzz::{boxed, encode, inline};
use bytes::Bytes;
use libfuzzer_sys::fuzz_target;

type Boxed = boxed::sink::KitchenSink;
type Inline = inline::sink::KitchenSink;
type Extendable = inline::sink::Extendable;

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
    check_extensions(&inline.extendable);

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

/// Reads every typed extension of `message`: whatever the bytes, each read
/// returns a value or an error, `has_extension` says whether it found
/// either, and a value read, set again, reads back unchanged.
fn check_extensions(message: &Extendable) {
    use inline::sink::{EXT_BIG, EXT_INT32, EXT_NODE, EXT_PACKED, EXT_STRING, EXTGROUP};
    singular(message, &EXT_INT32);
    singular(message, &EXT_STRING);
    singular(message, &EXTGROUP);
    singular(message, &EXT_NODE);
    repeated(message, &EXT_PACKED);
    repeated(message, &EXT_BIG);
}

fn singular<T, K>(message: &Extendable, extension: &Extension<Extendable, T>)
where
    T: ExtensionValue<K, Output = Option<T>> + PartialEq + Debug,
{
    let read = message.extension(extension);
    assert_eq!(
        message.has_extension(extension),
        !matches!(read, Ok(None)),
        "has_extension disagrees with extension"
    );
    if let Ok(Some(value)) = read {
        let mut copy = message.clone();
        copy.set_extension(extension, value);
        let again = copy.extension(extension).expect("a value set reads back");
        assert_eq!(
            again,
            message.extension(extension).unwrap(),
            "set changed the value"
        );
    }
}

fn repeated<U, K>(message: &Extendable, extension: &Extension<Extendable, Vec<U>>)
where
    Vec<U>: ExtensionValue<K, Output = Vec<U>>,
    U: PartialEq + Debug,
{
    let read = message.extension(extension);
    assert_eq!(
        message.has_extension(extension),
        !matches!(&read, Ok(values) if values.is_empty()),
        "has_extension disagrees with extension"
    );
    if let Ok(values) = read {
        let mut copy = message.clone();
        copy.set_extension(extension, values);
        let again = copy.extension(extension).expect("values set read back");
        assert_eq!(
            again,
            message.extension(extension).unwrap(),
            "set changed the values"
        );
    }
}
