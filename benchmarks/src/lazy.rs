//! The lazy-view case: reading the small header fields of a message whose
//! one large field is lazy.
//!
//! `proto/lazy.proto` declares an `Envelope` of four small fields around a
//! `Payload` of many records. It is generated twice ([`pb::lazy`], with
//! `Envelope.payload` lazy in the view, and [`pb::eager`]), and the header
//! is read three ways ([`LazyOp`]): through the lazy view, which skips the
//! payload by its length prefix and allocates nothing, so its cost should
//! not depend on the payload's size; through the eager view and through the
//! owned message, which both decode the whole payload.
//! [`LazyOp::LazyViewPayload`] then shows what reading the payload through
//! the lazy view costs.

use std::hint::black_box;

use buffa::{Message, MessageView};

use crate::Sum;

/// The generated `bench.lazy` types.
// The views' generated `to_owned_value` assigns the fields of a
// `Default::default()` message, which clippy flags.
#[allow(missing_docs, clippy::field_reassign_with_default)]
pub mod pb {
    /// Views with `Envelope.payload` lazy (`LazyField<PayloadView>`).
    pub mod lazy {
        include!(concat!(env!("OUT_DIR"), "/lazy/bench.lazy.rs"));
    }

    /// Views all eager; the owned types are the same in both modules.
    pub mod eager {
        include!(concat!(env!("OUT_DIR"), "/eager/bench.lazy.rs"));
    }
}

/// The payload sizes measured, in bytes (approximate, see
/// [`envelope_bytes`]): 1 KiB, 64 KiB, 1 MiB.
pub const PAYLOAD_SIZES: [usize; 3] = [1 << 10, 64 << 10, 1 << 20];

/// Bytes a [`pb::eager::Record`] takes inside its `Payload`: 64 bytes of
/// fields, a key and a length byte.
pub const RECORD_SIZE: usize = 66;

/// Record `i` of every payload: a 6-byte varint key, a 15-byte name, four
/// 3-byte varints and 24 bytes of blob.
fn record(i: usize) -> pb::eager::Record {
    pb::eager::Record {
        key: (1 << 40) + i as u64,
        name: format!("record-{:08}", i % 100_000_000),
        values: (0..4)
            .map(|k| (1 << 20) + (i as u32 * 4 + k) % (1 << 20))
            .collect(),
        blob: (0..24).map(|k| (i + k) as u8).collect(),
        ..Default::default()
    }
}

/// An envelope whose payload takes `payload_size` bytes, rounded down to
/// whole records ([`RECORD_SIZE`]).
pub fn envelope(payload_size: usize) -> pb::eager::Envelope {
    let mut envelope = pb::eager::Envelope {
        id: 0x1234_5678,
        kind: "telemetry".to_owned(),
        version: 3,
        timestamp: 1_700_000_000_000,
        ..Default::default()
    };
    envelope.payload.get_or_insert_default().records =
        (0..payload_size / RECORD_SIZE).map(record).collect();
    envelope
}

/// The encoding of [`envelope`]`(payload_size)`.
pub fn envelope_bytes(payload_size: usize) -> Vec<u8> {
    envelope(payload_size).encode_to_vec()
}

/// Adds the four header fields of an envelope (view or owned) to a [`Sum`].
macro_rules! read_header {
    ($envelope:expr) => {{
        let envelope = &$envelope;
        let mut sum = Sum::default();
        sum.uint(envelope.id);
        sum.len(envelope.kind.as_bytes());
        sum.uint(envelope.version);
        sum.uint(envelope.timestamp);
        sum
    }};
}

/// One way of reading an envelope's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LazyOp {
    /// Decode the view with the lazy payload, read the header.
    LazyView,
    /// Decode the eager view, read the header.
    EagerView,
    /// Decode the owned message, read the header.
    Owned,
    /// Decode the view with the lazy payload, read the header, then decode
    /// the payload's view and count its records.
    LazyViewPayload,
}

impl LazyOp {
    /// All ways, in report order.
    pub const ALL: [LazyOp; 4] = [
        LazyOp::LazyView,
        LazyOp::EagerView,
        LazyOp::Owned,
        LazyOp::LazyViewPayload,
    ];

    /// Name as used in reports.
    pub fn name(self) -> &'static str {
        match self {
            LazyOp::LazyView => "lazy_view",
            LazyOp::EagerView => "eager_view",
            LazyOp::Owned => "owned",
            LazyOp::LazyViewPayload => "lazy_view+payload",
        }
    }

    /// Decodes `bytes` this way and returns the [`Sum`] of the header (and,
    /// for [`LazyOp::LazyViewPayload`], the number of records). Panics on
    /// invalid input.
    pub fn run(self, bytes: &[u8]) -> Sum {
        let bytes = black_box(bytes);
        match self {
            LazyOp::LazyView => read_header!(pb::lazy::EnvelopeView::decode_view(bytes).unwrap()),
            LazyOp::EagerView => {
                read_header!(pb::eager::EnvelopeView::decode_view(bytes).unwrap())
            }
            LazyOp::Owned => read_header!(pb::eager::Envelope::decode_from_slice(bytes).unwrap()),
            LazyOp::LazyViewPayload => {
                let view = pb::lazy::EnvelopeView::decode_view(bytes).unwrap();
                let mut sum = read_header!(view);
                sum.uint(view.payload.get().unwrap().records.len() as u64);
                sum
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_sizes_and_round_trips() {
        for size in PAYLOAD_SIZES {
            let owned = envelope(size);
            let bytes = owned.encode_to_vec();
            assert_eq!(
                owned.payload.encoded_len(),
                size / RECORD_SIZE * RECORD_SIZE
            );
            assert!(
                bytes.len().abs_diff(size) < 64 + RECORD_SIZE,
                "{size}: {}",
                bytes.len()
            );

            let lazy = pb::lazy::EnvelopeView::decode_view(&bytes).unwrap();
            assert_eq!(lazy.to_owned_message().unwrap().encode_to_vec(), bytes);
            assert_eq!(lazy.encode_to_vec(), bytes);
            let eager = pb::eager::EnvelopeView::decode_view(&bytes).unwrap();
            assert_eq!(eager.to_owned_message().unwrap(), owned);

            let header = LazyOp::Owned.run(&bytes);
            for op in [LazyOp::LazyView, LazyOp::EagerView] {
                assert_eq!(op.run(&bytes), header, "{size} {op:?}");
            }
            let mut with_payload = header;
            with_payload.uint(owned.payload.records.len() as u64);
            assert_eq!(LazyOp::LazyViewPayload.run(&bytes), with_payload);
        }
    }
}
