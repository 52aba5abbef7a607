//! `encode_to_slice` (one pass, back to front) on the four datasets, in
//! every buffa configuration: prost's bytes (which `prost_encoding.rs`
//! pins by SHA-256) with no heap allocation at all into a large enough
//! slice, from the owned message and from the view, and the exact length
//! in the error for a slice one byte short.
//!
//! One test per dataset in its own binary; allocations are counted per
//! thread, so the tests may run side by side.

use benchmarks::harness::Prepared;
use benchmarks::{
    BuffaBox, BuffaInline, BuffaShared, Codec, Dataset, Logs, Mesh, Players, Prost, Updates,
    ViewCodec,
};
use buffa::{EncodeErrorKind, Message, MessageView};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

use alloc_count::counted;

/// The owned message of configuration `C` encodes into an exact and a
/// larger slice to `expected` without allocating, and names the exact
/// length for a slice one byte short.
fn owned<D: Dataset, C: Codec<D, Msg: Message>>(native: &D, expected: &[u8]) {
    let message = C::populate(native);
    for extra in [0, 64] {
        let mut buf = vec![0u8; expected.len() + extra];
        let (written, allocations) = counted(|| message.encode_to_slice(&mut buf).map(<[u8]>::len));
        assert_eq!(allocations, 0, "{}/{}: allocated", D::NAME, C::NAME);
        assert_eq!(written, Ok(expected.len()), "{}/{}", D::NAME, C::NAME);
        assert!(
            &buf[extra..] == expected,
            "{}/{}: other bytes",
            D::NAME,
            C::NAME
        );
    }
    let mut short = vec![0u8; expected.len() - 1];
    let (error, allocations) = counted(|| message.encode_to_slice(&mut short).map(|_| ()));
    assert_eq!(
        allocations,
        0,
        "{}/{}: the error allocated",
        D::NAME,
        C::NAME
    );
    assert_eq!(
        error.unwrap_err().kind(),
        &EncodeErrorKind::BufferTooSmall {
            required: expected.len(),
            remaining: expected.len() - 1,
        }
    );
}

/// The view of `expected` encodes back to it without allocating.
fn view<D: Dataset, C: ViewCodec<D>>(expected: &[u8])
where
    for<'a> C::View<'a>: MessageView<'a>,
{
    let view = C::decode_view(expected);
    let mut buf = vec![0u8; expected.len()];
    let (written, allocations) = counted(|| view.encode_to_slice(&mut buf).map(<[u8]>::len));
    assert_eq!(allocations, 0, "{}/{} view: allocated", D::NAME, C::NAME);
    assert_eq!(written, Ok(expected.len()));
    assert!(buf == expected, "{}/{} view: other bytes", D::NAME, C::NAME);
}

fn check<D: Dataset>()
where
    Prost: Codec<D>,
    BuffaBox: Codec<D, Msg: Message>,
    BuffaInline: ViewCodec<D, Msg: Message>,
    BuffaShared: Codec<D, Msg: Message>,
    for<'a> <BuffaInline as ViewCodec<D>>::View<'a>: MessageView<'a>,
{
    let native = D::generate();
    let prost = Prepared::<D, Prost>::new(native.clone());
    let expected = prost.encoded();
    owned::<D, BuffaBox>(&native, expected);
    owned::<D, BuffaInline>(&native, expected);
    owned::<D, BuffaShared>(&native, expected);
    view::<D, BuffaInline>(expected);
}

#[test]
fn log() {
    check::<Logs>();
}

#[test]
fn mesh() {
    check::<Mesh>();
}

#[test]
fn minecraft_savedata() {
    check::<Players>();
}

#[test]
fn mk48() {
    check::<Updates>();
}
