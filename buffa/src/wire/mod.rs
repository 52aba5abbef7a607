//! The protobuf wire format, below any schema: field keys, varints, and
//! the cursor and writer that every encoded message goes through.
//!
//! This is the layer generated code, [`buffa-reflect`]'s dynamic messages
//! and hand-written codecs share, in the spirit of protobuf-go's
//! `protowire`: it knows the encoding (varints, fixed-width values,
//! length-delimited payloads, groups) and the limits that make hostile
//! input safe, and nothing about messages.
//!
//! - [`Decoder`] reads: a cursor over a byte slice that returns [`Tag`]s
//!   and values, narrows itself to nested payloads, counts nesting depth
//!   against the recursion limit and charges allocations to the budget of
//!   [`DecodeOptions`](crate::DecodeOptions). Every malformed input is an
//!   [`Err`](crate::DecodeError) that says what and at which offset.
//! - [`SizeCache`] and [`Encoder`] write, in two passes: the size pass
//!   records the length of every nested message once, in the order the
//!   write pass needs them, and the write pass fills a buffer reserved at
//!   the exact size.
//! - [`BackwardEncoder`] writes in one pass into a fixed slice, from its
//!   end: each nested value is written before its length prefix, so no
//!   sizes are cached and nothing is allocated.
//! - [`FieldWriter`] writes a message field by field into a fixed slice,
//!   front to back, sub-messages as scopes whose length goes in front of
//!   them once they are written: for producers without a generated
//!   struct.
//! - [`Tag`], [`WireType`], [`varint_len`], [`tag_len`] and the ZigZag
//!   functions are the arithmetic both sides share.
//!
//! A hand-written message (one that implements [`Message`](crate::Message)
//! itself) or a codec for another schema representation is written
//! against this module:
//!
//! ```
//! use buffa::wire::{Decoder, Encoder, Tag, WireType, tag_len, varint_len};
//! use buffa::DecodeOptions;
//!
//! // Field 1, varint 150: the example of the protobuf encoding guide.
//! let size = tag_len(1) + varint_len(150);
//! let mut buf = vec![0u8; size];
//! let mut encoder = Encoder::from_slice(&mut buf);
//! encoder.put_key_and_varint(1, 150);
//! assert_eq!(buf, [0x08, 0x96, 0x01]);
//!
//! let mut decoder = Decoder::new(&buf, &DecodeOptions::new())?;
//! let tag = decoder.read_tag()?.expect("one field");
//! assert_eq!(tag, Tag::new(1, WireType::Varint));
//! assert_eq!(decoder.read_varint()?, 150);
//! assert!(decoder.read_tag()?.is_none());
//! # Ok::<(), buffa::DecodeError>(())
//! ```
//!
//! [`buffa-reflect`]: https://docs.rs/buffa-reflect

mod backward_encoder;
mod decoder;
mod encoder;
mod field_writer;
mod nesting;
mod size_cache;
mod tag;
mod varint;

pub use crate::unknown_fields::{DiscardUnknown, UnknownSink};
pub use backward_encoder::BackwardEncoder;
pub use decoder::Decoder;
pub use encoder::Encoder;
pub use field_writer::FieldWriter;
pub use size_cache::SizeCache;
pub use tag::{MAX_FIELD_NUMBER, MIN_FIELD_NUMBER, Tag, WireType};
pub use varint::{
    tag_len, varint_len, zigzag_decode32, zigzag_decode64, zigzag_encode32, zigzag_encode64,
};
