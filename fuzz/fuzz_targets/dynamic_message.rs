//! Decodes arbitrary bytes as a `DynamicMessage` of `fuzzdyn.Root`
//! (`proto/dynamic.proto`: every scalar kind, groups, closed and open
//! enums, packed and unpacked repeated fields, maps with message and
//! closed-enum values, oneofs, recursion, extensions, and an editions
//! file's delimited messages), from the descriptor set checked in as
//! `proto/dynamic.pb`. Checks:
//!
//! - under an allocation limit of [`ALLOCATION_LIMIT`] bytes, the decode
//!   accepts what the default one accepts, as the same message, unless it
//!   fails on the limit; it rejects what the default one rejects, with the
//!   same error unless it ran out of budget first;
//! - an accepted message encodes to `encoded_len` bytes, which decode to
//!   the same message, whose encoding is the same bytes.
#![no_main]

use std::sync::OnceLock;

use buffa::{DecodeErrorKind, DecodeOptions};
use buffa_fuzz::same_values;
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use libfuzzer_sys::fuzz_target;

/// The allocation limit of the second decode: small enough that the
/// fuzzer reaches it easily.
const ALLOCATION_LIMIT: usize = 512;

fn root() -> &'static MessageDescriptor {
    static ROOT: OnceLock<MessageDescriptor> = OnceLock::new();
    ROOT.get_or_init(|| {
        DescriptorPool::decode(include_bytes!("../proto/dynamic.pb"))
            .expect("proto/dynamic.pb is a valid descriptor set")
            .get_message_by_name("fuzzdyn.Root")
            .expect("fuzzdyn.Root is in proto/dynamic.pb")
    })
}

fuzz_target!(|data: &[u8]| {
    let root = root();
    let decoded = DynamicMessage::decode(root.clone(), data);

    let limited = DecodeOptions::new().with_allocation_limit(Some(ALLOCATION_LIMIT));
    match (
        &decoded,
        DynamicMessage::decode_with_options(root.clone(), data, &limited),
    ) {
        (Ok(message), Ok(within)) => assert!(
            same_values(message, &within),
            "the limited decode reads another message"
        ),
        (Err(_), Ok(_)) => panic!("the limited decode accepts what the default one rejects"),
        (_, Err(e)) if matches!(e.kind(), DecodeErrorKind::AllocationLimitExceeded { .. }) => {}
        (Ok(_), Err(e)) => panic!("the limited decode fails otherwise than on the limit: {e}"),
        (Err(e), Err(limited)) => assert_eq!(*e, limited, "the two decodes fail differently"),
    }

    let Ok(message) = decoded else {
        return;
    };
    let bytes = message.encode_to_vec();
    assert_eq!(
        message.encoded_len(),
        bytes.len(),
        "encoded_len() differs from the length written"
    );
    let again = DynamicMessage::decode(root.clone(), &bytes)
        .unwrap_or_else(|e| panic!("the re-encoding does not decode: {e}"));
    assert!(
        same_values(&message, &again),
        "the round trip changed the message:\n{message:?}\n{again:?}"
    );
    assert_eq!(
        again.encode_to_vec(),
        bytes,
        "the re-encoding does not encode to itself"
    );
});
