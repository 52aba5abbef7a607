//! Runs one operation of one configuration on one dataset a fixed number of
//! times, for profilers (`valgrind --tool=callgrind`, `perf record`), whose
//! instruction counts do not depend on machine noise.
//!
//! Usage: `profile DATASET CONFIG OP [ITERATIONS]`, with CONFIG one of
//! `prost`, `buffa_box`, `buffa_inline` and OP one of `encode`, `decode`,
//! `populate`.

use std::hint::black_box;

use benchmarks::{BuffaBox, BuffaInline, Codec, Dataset, Logs, Mesh, Players, Prost, Updates};

fn run<D: Dataset, C: Codec<D>>(op: &str, iterations: usize) {
    let native = D::generate();
    let message = C::populate(&native);
    let mut encoded = Vec::new();
    C::encode(&message, &mut encoded);
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
            _ => panic!("unknown op {op}: use encode, decode or populate"),
        }
    }
}

fn dispatch<D: Dataset>(config: &str, op: &str, iterations: usize)
where
    Prost: Codec<D>,
    BuffaBox: Codec<D>,
    BuffaInline: Codec<D>,
{
    match config {
        "prost" => run::<D, Prost>(op, iterations),
        "buffa_box" => run::<D, BuffaBox>(op, iterations),
        "buffa_inline" => run::<D, BuffaInline>(op, iterations),
        _ => panic!("unknown configuration {config}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dataset, config, op] = [0, 1, 2].map(|i| args.get(i).cloned().unwrap_or_default());
    let iterations = args
        .get(3)
        .map_or(1, |n| n.parse().expect("ITERATIONS must be a number"));
    match dataset.as_str() {
        "log" => dispatch::<Logs>(&config, &op, iterations),
        "mesh" => dispatch::<Mesh>(&config, &op, iterations),
        "minecraft_savedata" => dispatch::<Players>(&config, &op, iterations),
        "mk48" => dispatch::<Updates>(&config, &op, iterations),
        _ => panic!("usage: profile DATASET CONFIG OP [ITERATIONS]"),
    }
}
