//! Running the measured operations for one (dataset, library) pair.

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::{Codec, Dataset, ReadAll, Sum, ViewCodec};

/// Capacity of the reused encode buffer, as in the original benchmark.
pub const BUFFER_CAPACITY: usize = 10_000_000;

/// One of the four measured operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Encode a message that was populated in advance into the reused buffer.
    Encode,
    /// Populate the message from the native data, then encode it.
    PopulateEncode,
    /// Decode the message from its encoding.
    Decode,
    /// Decode the message, then convert it to the native data.
    DecodeConvert,
}

impl Op {
    /// All operations, in report order.
    pub const ALL: [Op; 4] = [
        Op::Encode,
        Op::PopulateEncode,
        Op::Decode,
        Op::DecodeConvert,
    ];

    /// Name as used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Op::Encode => "encode",
            Op::PopulateEncode => "populate+encode",
            Op::Decode => "decode",
            Op::DecodeConvert => "decode+convert",
        }
    }
}

/// Everything one (dataset, library) pair needs for its measurements: the
/// native data, the message populated in advance, its encoding and the
/// reused encode buffer.
pub struct Prepared<D: Dataset, C: Codec<D>> {
    native: D,
    message: C::Msg,
    encoded: Bytes,
    buffer: Vec<u8>,
    codec: PhantomData<C>,
}

impl<D: Dataset, C: Codec<D>> Prepared<D, C> {
    /// Populates and encodes `native` once, and checks that decode + convert
    /// gives it back.
    ///
    /// # Panics
    ///
    /// If the round trip does not give back equal data.
    pub fn new(native: D) -> Self {
        let message = C::populate(&native);
        let mut encoded = Vec::new();
        C::encode(&message, &mut encoded);
        let prepared = Self {
            native,
            message,
            encoded: Bytes::from(encoded),
            buffer: Vec::with_capacity(BUFFER_CAPACITY),
            codec: PhantomData,
        };
        assert!(
            C::convert(C::decode(&prepared.encoded)) == prepared.native,
            "{}/{}: decode + convert does not give back the original data",
            D::NAME,
            C::NAME,
        );
        prepared
    }

    /// The native data.
    pub fn native(&self) -> &D {
        &self.native
    }

    /// The encoding of the data.
    pub fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    /// [`Op::Encode`]: clears the reused buffer and encodes the prepared
    /// message into it. Returns the encoded bytes.
    pub fn encode(&mut self) -> &[u8] {
        self.buffer.clear();
        C::encode(black_box(&self.message), &mut self.buffer);
        &self.buffer
    }

    /// [`Op::PopulateEncode`]: populates a message from the native data,
    /// clears the reused buffer and encodes the message into it.
    pub fn populate_encode(&mut self) -> &[u8] {
        let message = C::populate(black_box(&self.native));
        self.buffer.clear();
        C::encode(&message, &mut self.buffer);
        &self.buffer
    }

    /// [`Op::Decode`]: decodes the message from the encoding.
    pub fn decode(&self) -> C::Msg {
        C::decode(black_box(&self.encoded))
    }

    /// [`Op::DecodeConvert`]: decodes the message and converts it to the
    /// native data.
    pub fn decode_convert(&self) -> D {
        C::convert(C::decode(black_box(&self.encoded)))
    }

    /// Runs `op` once. Results, including decoded messages, are dropped
    /// inside the call, as in a criterion iteration.
    pub fn run_once(&mut self, op: Op) {
        match op {
            Op::Encode => {
                black_box(self.encode());
            }
            Op::PopulateEncode => {
                black_box(self.populate_encode());
            }
            Op::Decode => {
                black_box(self.decode());
            }
            Op::DecodeConvert => {
                black_box(self.decode_convert());
            }
        }
    }
}

/// A type-erased [`Prepared`], so that reports can hold several libraries
/// for one dataset side by side.
pub trait Runner {
    /// The library's name.
    fn library(&self) -> &'static str;

    /// The dataset's name.
    fn dataset(&self) -> &'static str;

    /// The encoding of the data.
    fn encoded(&self) -> &[u8];

    /// Runs `op` `iters` times and returns the elapsed time.
    fn time(&mut self, op: Op, iters: u64) -> Duration;
}

impl<D: Dataset, C: Codec<D>> Runner for Prepared<D, C> {
    fn library(&self) -> &'static str {
        C::NAME
    }

    fn dataset(&self) -> &'static str {
        D::NAME
    }

    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn time(&mut self, op: Op, iters: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..iters {
            self.run_once(op);
        }
        start.elapsed()
    }
}

/// One of the two measured view operations of a [`ViewCodec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewOp {
    /// Decode a view of the encoding.
    View,
    /// Decode a view, then read every field of it once
    /// ([`ReadAll`]).
    ViewRead,
}

impl ViewOp {
    /// Both operations, in report order.
    pub const ALL: [ViewOp; 2] = [ViewOp::View, ViewOp::ViewRead];

    /// Name as used in reports.
    pub fn name(self) -> &'static str {
        match self {
            ViewOp::View => "view",
            ViewOp::ViewRead => "view+read",
        }
    }
}

/// The encoding of one dataset for the view operations of `C`.
pub struct PreparedView<D: Dataset, C: ViewCodec<D>> {
    encoded: Vec<u8>,
    marker: PhantomData<(D, C)>,
}

impl<D: Dataset, C: ViewCodec<D>> PreparedView<D, C> {
    /// Populates and encodes `native` once, and checks that the view gives
    /// it back (view, to owned, convert).
    ///
    /// # Panics
    ///
    /// If the view does not give back equal data.
    pub fn new(native: &D) -> Self {
        let mut encoded = Vec::new();
        C::encode(&C::populate(native), &mut encoded);
        let view = C::decode_view(&encoded);
        assert!(
            C::convert(C::view_to_owned(&view)) == *native,
            "{}/{}: view + to owned + convert does not give back the original data",
            D::NAME,
            C::NAME,
        );
        drop(view);
        Self {
            encoded,
            marker: PhantomData,
        }
    }

    /// The encoding of the data.
    pub fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    /// [`ViewOp::View`]: decodes a view of the encoding.
    pub fn view(&self) -> C::View<'_> {
        C::decode_view(black_box(&self.encoded))
    }

    /// [`ViewOp::ViewRead`]: decodes a view of the encoding and reads every
    /// field of it once.
    pub fn view_read(&self) -> Sum {
        C::decode_view(black_box(&self.encoded)).sum()
    }

    /// Runs `op` once; the view is dropped inside the call.
    pub fn run_once(&self, op: ViewOp) {
        match op {
            ViewOp::View => {
                black_box(self.view());
            }
            ViewOp::ViewRead => {
                black_box(self.view_read());
            }
        }
    }

    /// Runs `op` `iters` times and returns the elapsed time.
    pub fn time(&self, op: ViewOp, iters: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..iters {
            self.run_once(op);
        }
        start.elapsed()
    }
}

/// A type-erased [`PreparedView`].
pub trait ViewRunner {
    /// Runs `op` `iters` times and returns the elapsed time.
    fn time(&self, op: ViewOp, iters: u64) -> Duration;

    /// How many fields the data holds: every scalar, string and bytes
    /// value, each element of a repeated field counted ([`Sum::values`]).
    fn fields(&self) -> u64;
}

impl<D: Dataset, C: ViewCodec<D>> ViewRunner for PreparedView<D, C> {
    fn time(&self, op: ViewOp, iters: u64) -> Duration {
        PreparedView::time(self, op, iters)
    }

    fn fields(&self) -> u64 {
        self.view_read().values
    }
}

/// Boxes a [`PreparedView`] for `native` as a [`ViewRunner`].
pub fn view_runner<D: Dataset, C: ViewCodec<D> + 'static>(native: &D) -> Box<dyn ViewRunner> {
    Box::new(PreparedView::<D, C>::new(native))
}

/// Boxes a [`Prepared`] for `native` as a [`Runner`].
pub fn runner<D: Dataset, C: Codec<D> + 'static>(native: D) -> Box<dyn Runner>
where
    C::Msg: 'static,
{
    Box::new(Prepared::<D, C>::new(native))
}
