//! Benchmarks of protobuf libraries on the four protobuf datasets of
//! [rust_serialization_benchmark](https://github.com/djkoloski/rust_serialization_benchmark):
//! `log`, `mesh`, `minecraft_savedata` and `mk48`.
//!
//! - [`datasets`] holds the native data and reproduces its generation exactly
//!   (see `shared/datasets/rust_serialization_benchmark/GENERATION.md`).
//! - A protobuf library takes part by implementing [`Library`] once and
//!   [`Codec<D>`] for each dataset `D` on a marker type, like [`Prost`],
//!   [`BuffaBox`], [`BuffaInline`] and [`BuffaShared`].
//! - [`harness`] runs the four measured operations for any such pair; the
//!   criterion bench (`benches/datasets.rs`) and the `compare` binary use it.
//! - A configuration with borrowed views also implements [`ViewCodec<D>`]
//!   ([`BuffaInline`] does): [`harness::PreparedView`] runs the `view` and
//!   `view+read` operations, the latter reading every field once through
//!   [`view_read::ReadAll`].
//! - A configuration that prints and parses proto3 JSON also implements
//!   [`JsonCodec<D>`] ([`Prost`] does, through pbjson): [`json`] runs the
//!   `json_encode` and `json_decode` operations.
//! - [`lazy`] is the lazy-view case: reading the small fields of a message
//!   whose large payload is a lazy field, at several payload sizes.

pub mod buffa_codec;
pub mod datasets;
pub mod harness;
pub mod json;
pub mod lazy;
pub mod pb_buffa;
pub mod pb_prost;
pub mod prost_codec;
pub mod view_read;

use std::fmt::Debug;

use bytes::Bytes;

pub use buffa_codec::{BuffaBox, BuffaInline, BuffaShared};
pub use datasets::log::Logs;
pub use datasets::mesh::Mesh;
pub use datasets::minecraft_savedata::Players;
pub use datasets::mk48::Updates;
pub use json::JsonCodec;
pub use prost_codec::Prost;
pub use view_read::{ReadAll, Sum};

/// A benchmark dataset: the native top-level struct of one of the four
/// datasets.
pub trait Dataset: Clone + PartialEq + Debug + 'static {
    /// Dataset name as used in reports (`log`, `mesh`, ...).
    const NAME: &'static str;

    /// Generates the dataset from a fresh, fixed-seed RNG.
    fn generate() -> Self;
}

impl Dataset for Logs {
    const NAME: &'static str = "log";
    fn generate() -> Self {
        datasets::log::generate()
    }
}

impl Dataset for Mesh {
    const NAME: &'static str = "mesh";
    fn generate() -> Self {
        datasets::mesh::generate()
    }
}

impl Dataset for Players {
    const NAME: &'static str = "minecraft_savedata";
    fn generate() -> Self {
        datasets::minecraft_savedata::generate()
    }
}

impl Dataset for Updates {
    const NAME: &'static str = "mk48";
    fn generate() -> Self {
        datasets::mk48::generate()
    }
}

/// A benchmarked configuration (a protobuf library, possibly with particular
/// code generation options), usually a zero-sized marker type.
pub trait Library {
    /// Configuration name as used in reports (`prost`, `buffa_box`, ...).
    const NAME: &'static str;
}

/// How a [`Library`] handles dataset `D`: its message type and the four
/// steps the benchmark measures.
///
/// Implementations must not cache anything between calls: every call does the
/// full work.
pub trait Codec<D: Dataset>: Library {
    /// The library's top-level message type for this dataset.
    type Msg;

    /// Converts the native data to the message ("populate",
    /// `serialize_pb` in the original).
    fn populate(native: &D) -> Self::Msg;

    /// Appends the encoding of `msg` to `buf` (which the harness has cleared).
    fn encode(msg: &Self::Msg, buf: &mut Vec<u8>);

    /// Decodes a message from its encoding, held as shared [`Bytes`] so
    /// that a configuration whose strings and bytes share the input (see
    /// [`BuffaShared`]) can slice it; the others read it as a `&[u8]`, as
    /// rust_serialization_benchmark does. Panics on invalid input.
    fn decode(bytes: &Bytes) -> Self::Msg;

    /// Converts a decoded message back to the native data ("convert").
    fn convert(msg: Self::Msg) -> D;
}

/// A [`Codec`] whose messages also have borrowed views (buffa's
/// `MessageView`), for the `view` and `view+read` operations.
pub trait ViewCodec<D: Dataset>: Codec<D> {
    /// The view of the top-level message, borrowing the input.
    type View<'a>: ReadAll;

    /// Decodes a view of the message from its encoding. Panics on invalid
    /// input.
    fn decode_view(bytes: &[u8]) -> Self::View<'_>;

    /// Copies a view into the owned message.
    fn view_to_owned(view: &Self::View<'_>) -> Self::Msg;
}
