//! Criterion benchmarks: for each dataset and each library, the four
//! operations of rust_serialization_benchmark (encode, populate + encode,
//! decode, decode + convert), and for buffa_inline (generated with views)
//! the view operations `view` and `view+read`. The encoded size is printed,
//! and used as the throughput of each benchmark.
//!
//! The group `lazy` holds the lazy-view case ([`benchmarks::lazy`]), with ids
//! `<op>/<payload bytes>`.
//!
//! Run with `cargo bench -p benchmarks --bench datasets`; pass a filter such
//! as `mesh/prost` or `buffa_inline/view` to run a subset.

use std::hint::black_box;
use std::time::Duration;

use benchmarks::harness::{Prepared, PreparedView, ViewOp};
use benchmarks::lazy::{LazyOp, PAYLOAD_SIZES, envelope_bytes};
use benchmarks::{
    BuffaBox, BuffaInline, Codec, Dataset, Logs, Mesh, Players, Prost, Updates, ViewCodec,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Benchmarks one library on one dataset, in the group named after the
/// dataset, with ids `<library>/<op>`.
fn bench_library<D: Dataset, C: Codec<D>>(c: &mut Criterion, native: &D) {
    let mut prepared = Prepared::<D, C>::new(native.clone());
    let size = prepared.encoded().len();
    println!("{}/{}: encoded size {size} bytes", D::NAME, C::NAME);

    let mut group = c.benchmark_group(D::NAME);
    group.throughput(Throughput::Bytes(size as u64));
    group.bench_function(format!("{}/encode", C::NAME), |b| {
        b.iter(|| black_box(prepared.encode().len()))
    });
    group.bench_function(format!("{}/populate+encode", C::NAME), |b| {
        b.iter(|| black_box(prepared.populate_encode().len()))
    });
    group.bench_function(format!("{}/decode", C::NAME), |b| {
        b.iter(|| prepared.decode())
    });
    group.bench_function(format!("{}/decode+convert", C::NAME), |b| {
        b.iter(|| prepared.decode_convert())
    });
    group.finish();
}

/// Benchmarks the view operations of one library on one dataset, in the
/// group named after the dataset, with ids `<library>/view` and
/// `<library>/view+read`.
fn bench_views<D: Dataset, C: ViewCodec<D>>(c: &mut Criterion, native: &D) {
    let prepared = PreparedView::<D, C>::new(native);
    let mut group = c.benchmark_group(D::NAME);
    group.throughput(Throughput::Bytes(prepared.encoded().len() as u64));
    for op in ViewOp::ALL {
        group.bench_function(format!("{}/{}", C::NAME, op.name()), |b| {
            b.iter(|| prepared.run_once(op))
        });
    }
    group.finish();
}

/// Benchmarks every library on dataset `D`. A new library is one more line
/// here (and one more bound).
fn bench_dataset<D: Dataset>(c: &mut Criterion)
where
    BuffaBox: Codec<D>,
    BuffaInline: ViewCodec<D>,
    Prost: Codec<D>,
{
    let native = D::generate();
    bench_library::<D, BuffaBox>(c, &native);
    bench_library::<D, BuffaInline>(c, &native);
    bench_views::<D, BuffaInline>(c, &native);
    bench_library::<D, Prost>(c, &native);
}

/// The lazy-view case: each way of reading the header, at each payload
/// size, in the group `lazy`. No throughput: the point is that reading the
/// header through the lazy view does not depend on the payload's size.
fn bench_lazy(c: &mut Criterion) {
    let mut group = c.benchmark_group("lazy");
    for size in PAYLOAD_SIZES {
        let bytes = envelope_bytes(size);
        for op in LazyOp::ALL {
            group.bench_with_input(BenchmarkId::new(op.name(), size), &bytes, |b, bytes| {
                b.iter(|| op.run(bytes))
            });
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_dataset::<Logs>(c);
    bench_dataset::<Mesh>(c);
    bench_dataset::<Players>(c);
    bench_dataset::<Updates>(c);
    bench_lazy(c);
}

criterion_group! {
    name = datasets;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(datasets);
