//! Decodes arbitrary bytes as a borrowed view of `sink.KitchenSink`, eager
//! (the boxed build's views) and lazy (the inline build's), and checks both
//! against the owned decode:
//!
//! - the eager view accepts and rejects exactly what the owned decode does,
//!   with the same error; an accepted view copies into the owned message
//!   and encodes to the owned message's bytes, which reads every element
//!   of its repeated and map fields (`RepeatedView`, `MapView`: checked
//!   when decoded, read again when iterated); its `Debug` form iterates
//!   them once more, maps in key order;
//! - the lazy view accepts everything the owned decode accepts, copies into
//!   the same message and encodes to the same bytes. For an input the owned
//!   decode rejects, decoding the lazy view or copying it must fail (the
//!   error may wait until the bad field is read), unless the error lies
//!   inside a oneof member (see [`DISCARDABLE`]); encoding it, which writes
//!   undecodable fields back as read, must not panic.
#![no_main]

use buffa::{DecodeError, Message, MessageView};
use buffa_fuzz::{boxed, encode, encode_view, inline, same_values};
use libfuzzer_sys::fuzz_target;

type Boxed = boxed::sink::KitchenSink;
type Inline = inline::sink::KitchenSink;
type EagerView<'a> = boxed::sink::KitchenSinkView<'a>;
type LazyView<'a> = inline::sink::KitchenSinkView<'a>;

/// The message-typed oneof members whose type has message fields, as
/// (message, field number): a later member of the same oneof discards
/// them, and with them the lazy payloads they hold, which are then never
/// read. An error in such a payload stops the owned decode but never
/// reaches the lazy view, so an owned error whose field path passes
/// through one of these may go unseen by the lazy view.
const DISCARDABLE: &[(&str, u32)] = &[
    ("sink.Oneofs", 5),       // c_node
    ("sink.Oneofs", 6),       // CGroup
    ("sink.KitchenSink", 15), // top_leaf
    ("sink.Portable", 15),    // top_leaf
    ("sink.three.Open", 44),  // k_open
];

/// The eager view against the owned decode; `expected` is the owned
/// message's (inline, key-ordered) encoding when it decoded.
fn check_eager(data: &[u8], expected: Option<&[u8]>) {
    let owned = Boxed::decode_from_slice(data);
    let view = EagerView::decode_view(data);
    assert_eq!(
        owned.as_ref().err(),
        view.as_ref().err(),
        "the eager view and the owned message disagree on the input"
    );
    let (Ok(owned), Ok(view)) = (owned, view) else {
        return;
    };
    let copied = view
        .to_owned_message()
        .expect("an eager view copies without decoding");
    assert!(!format!("{view:?}").is_empty());
    assert!(
        same_values(&copied, &owned),
        "the eager view copies into a different message"
    );
    let expected = expected.expect("the inline layout accepts what the boxed one does");
    assert_eq!(
        encode_view(&view),
        expected,
        "the eager view encodes to different bytes"
    );
}

/// The lazy view against the owned (inline) decode: `owned` is the
/// message and its encoding when it decoded, the decode error otherwise.
fn check_lazy(data: &[u8], owned: Result<&(Inline, Vec<u8>), &DecodeError>) {
    let view = LazyView::decode_view(data);
    let (owned, expected) = match owned {
        Ok((owned, expected)) => (owned, expected.as_slice()),
        Err(error) => {
            if let Ok(view) = view {
                let discardable = error.field_path().any(|hop| DISCARDABLE.contains(&hop));
                assert!(
                    view.to_owned_message().is_err() || discardable,
                    "the lazy view copies an input the owned decode rejects ({error})"
                );
                encode_view(&view);
            }
            return;
        }
    };
    let view = view.expect("the lazy view rejects an input the owned decode accepts");
    let copied = view
        .to_owned_message()
        .expect("a lazy field fails to decode where the owned decode did not");
    assert!(
        same_values(&copied, owned),
        "the lazy view copies into a different message"
    );
    assert_eq!(
        encode_view(&view),
        expected,
        "the lazy view encodes to different bytes"
    );
}

fuzz_target!(|data: &[u8]| {
    let owned = Inline::decode_from_slice(data).map(|message| {
        let bytes = encode(&message);
        (message, bytes)
    });
    check_eager(data, owned.as_ref().ok().map(|(_, bytes)| bytes.as_slice()));
    check_lazy(data, owned.as_ref());
});
