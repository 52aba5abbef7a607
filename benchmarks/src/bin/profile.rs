//! Runs one operation of one configuration on one dataset a fixed number of
//! times, for profilers (`valgrind --tool=callgrind`, `perf record`), whose
//! instruction counts do not depend on machine noise.
//!
//! Usage: `profile DATASET CONFIG[,CONFIG...] OP [ITERATIONS]`, with CONFIG one of
//! `prost`, `buffa_box`, `buffa_inline`, `buffa_shared` (several, comma-separated,
//! run one after another in one process, as the suite runs a cell's libraries)
//! and OP one of the compare
//! command's operations (`encode`, `populate+encode`, `decode`,
//! `decode+convert`), `populate` alone, or, for `buffa_inline` only (the configuration generated with
//! views), `view` (decode a borrowed view) and `view+read` (decode a view,
//! then read every field once); for `prost` (with pbjson) and
//! `buffa_inline`, `json_encode` and `json_decode` (of pbjson's JSON); for
//! buffa's configurations, `encode_slice` (`encode_to_slice`, one pass back
//! to front, into a reused buffer).
//!
//! Per-iteration instruction counts: run twice under
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null` with
//! ITERATIONS 1 and 4, and take a third of the difference (which cancels
//! the dataset generation and the set-up).

use std::hint::black_box;

use benchmarks::harness::{PreparedView, ViewOp};
use benchmarks::{
    BuffaBox, BuffaInline, BuffaShared, Codec, Dataset, JsonCodec, Logs, Mesh, Players, Prost,
    Updates, ViewCodec,
};

fn run<D: Dataset, C: Codec<D>>(op: &str, iterations: usize) {
    let native = D::generate();
    let message = C::populate(&native);
    let mut encoded = Vec::new();
    C::encode(&message, &mut encoded);
    let encoded = bytes::Bytes::from(encoded);
    let mut buffer = Vec::with_capacity(encoded.len());
    for _ in 0..iterations {
        match op {
            "encode" => {
                buffer.clear();
                C::encode(black_box(&message), &mut buffer);
                black_box(&buffer);
            }
            "decode" => {
                black_box(C::decode(black_box(&encoded)));
            }
            "populate" => {
                black_box(C::populate(black_box(&native)));
            }
            "populate+encode" => {
                let message = C::populate(black_box(&native));
                buffer.clear();
                C::encode(&message, &mut buffer);
                black_box(&buffer);
            }
            "decode+convert" => {
                black_box(C::convert(C::decode(black_box(&encoded))));
            }
            _ => panic!(
                "unknown op {op}: use encode, populate+encode, decode, decode+convert, populate, view or view+read"
            ),
        }
    }
}

/// Runs a JSON op (`json_encode`, `json_decode`) of `C` on dataset `D`;
/// every configuration decodes pbjson's JSON.
fn run_json<D: Dataset, C: JsonCodec<D>>(op: &str, iterations: usize)
where
    Prost: JsonCodec<D>,
{
    let native = D::generate();
    let message = C::populate(&native);
    let json = <Prost as JsonCodec<D>>::to_json(&<Prost as Codec<D>>::populate(&native));
    for _ in 0..iterations {
        match op {
            "json_encode" => {
                black_box(C::to_json(black_box(&message)));
            }
            _ => {
                black_box(C::from_json(black_box(&json)));
            }
        }
    }
}

/// Runs `encode_slice` of a buffa configuration: the one-pass
/// back-to-front `encode_to_slice` into a buffer reused across iterations,
/// to compare with `encode` (the two-pass encoder).
fn run_slice<D: Dataset, C: Codec<D, Msg: buffa::Message>>(iterations: usize) {
    let message = C::populate(&D::generate());
    let mut buffer = vec![0u8; buffa::Message::encoded_len(&message)];
    for _ in 0..iterations {
        let written = buffa::Message::encode_to_slice(black_box(&message), &mut buffer).unwrap();
        black_box(written);
    }
}

/// Runs a view op (`view`, `view+read`) of `C` on dataset `D`.
fn run_view<D: Dataset, C: ViewCodec<D>>(op: ViewOp, iterations: usize) {
    let prepared = PreparedView::<D, C>::new(&D::generate());
    for _ in 0..iterations {
        prepared.run_once(op);
    }
}

fn dispatch<D: Dataset>(config: &str, op: &str, iterations: usize)
where
    Prost: Codec<D>,
    BuffaBox: Codec<D>,
    BuffaInline: ViewCodec<D> + JsonCodec<D>,
    BuffaShared: Codec<D>,
    Prost: JsonCodec<D>,
    BuffaBox: Codec<D, Msg: buffa::Message>,
    BuffaInline: Codec<D, Msg: buffa::Message>,
    BuffaShared: Codec<D, Msg: buffa::Message>,
{
    if op == "json_encode" || op == "json_decode" {
        match config {
            "prost" => run_json::<D, Prost>(op, iterations),
            "buffa_inline" => run_json::<D, BuffaInline>(op, iterations),
            _ => panic!("{op}: only prost and buffa_inline have JSON"),
        }
        return;
    }
    if let Some(view_op) = ViewOp::ALL.into_iter().find(|v| v.name() == op) {
        match config {
            "buffa_inline" => run_view::<D, BuffaInline>(view_op, iterations),
            _ => panic!("{op}: only buffa_inline has views"),
        }
        return;
    }
    if op == "encode_slice" {
        match config {
            "buffa_box" => run_slice::<D, BuffaBox>(iterations),
            "buffa_inline" => run_slice::<D, BuffaInline>(iterations),
            "buffa_shared" => run_slice::<D, BuffaShared>(iterations),
            _ => panic!("{op}: only buffa's configurations encode into a slice"),
        }
        return;
    }
    match config {
        "prost" => run::<D, Prost>(op, iterations),
        "buffa_box" => run::<D, BuffaBox>(op, iterations),
        "buffa_inline" => run::<D, BuffaInline>(op, iterations),
        "buffa_shared" => run::<D, BuffaShared>(op, iterations),
        _ => panic!("unknown configuration {config}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dataset, config, op] = [0, 1, 2].map(|i| args.get(i).cloned().unwrap_or_default());
    let iterations = args
        .get(3)
        .map_or(1, |n| n.parse().expect("ITERATIONS must be a number"));
    for config in config.split(',') {
        let started = std::time::Instant::now();
        match dataset.as_str() {
            "log" => dispatch::<Logs>(config, &op, iterations),
            "mesh" => dispatch::<Mesh>(config, &op, iterations),
            "minecraft_savedata" => dispatch::<Players>(config, &op, iterations),
            "mk48" => dispatch::<Updates>(config, &op, iterations),
            _ => panic!("usage: profile DATASET CONFIG[,CONFIG...] OP [ITERATIONS]"),
        }
        // Set-up included: for comparing orders by wall time, run enough
        // iterations that it does not matter.
        eprintln!("{config}: {:.3?} in all", started.elapsed());
    }
}
