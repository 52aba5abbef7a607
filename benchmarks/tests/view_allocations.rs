//! Views allocate nothing on the four datasets: decoding the view of
//! prost's encoding and reading every field of it (`ReadAll`, the
//! `view+read` operation of the benchmarks) makes no heap allocation.
//! That the read sees every field, with the native data's values, is
//! `view_read`'s own test.
//!
//! Allocations are counted per thread by a global allocator, so the tests
//! may run side by side.

use benchmarks::harness::Prepared;
use benchmarks::{
    BuffaInline, Codec, Dataset, Logs, Mesh, Players, Prost, ReadAll, Sum, Updates, ViewCodec,
};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

fn check<D: Dataset>()
where
    Prost: Codec<D>,
    BuffaInline: ViewCodec<D>,
{
    let prost = Prepared::<D, Prost>::new(D::generate());
    let bytes = prost.encoded();
    let (sum, allocations) = alloc_count::counted(|| {
        let view = <BuffaInline as ViewCodec<D>>::decode_view(bytes);
        let mut sum = Sum::default();
        view.read_all(&mut sum);
        sum
    });
    assert_eq!(allocations, 0, "{}: view+read allocated", D::NAME);
    assert_ne!(sum, Sum::default(), "{}: nothing read", D::NAME);
    // The counter counts: the owned copy of the view allocates.
    let view = <BuffaInline as ViewCodec<D>>::decode_view(bytes);
    let (_, allocations) = alloc_count::counted(|| BuffaInline::view_to_owned(&view));
    assert!(allocations > 0, "{}: the counter saw nothing", D::NAME);
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
