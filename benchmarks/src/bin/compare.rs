//! Compares the benchmarked configurations without criterion.
//!
//! For each dataset and operation, every configuration runs a batch of
//! iterations sized to take about `--batch-ms` milliseconds, `--samples`
//! times, the configurations interleaved (their order rotates every sample)
//! so that machine noise affects them alike. The median time per iteration is
//! reported. Then come the heap allocations per decode, the encoded sizes,
//! the decode rows as throughput (GB/s of encoding and ns per field, a
//! field being every scalar, string and bytes value of the data), the
//! lazy-view case and the summary lines.
//!
//! Output is whitespace-separated; lines starting with `#` are headers:
//!
//! ```text
//! dataset op buffa_box_ns buffa_inline_ns buffa_shared_ns prost_ns inline_vs_prost shared_vs_prost
//! ```
//!
//! A configuration left out of [`configurations`] (`None`) prints `-`, as
//! does a ratio that needs it.
//!
//! Each dataset also has the rows `view` and `view+read`: decoding a
//! borrowed view (buffa_inline's types, generated with views) and decoding
//! it then reading every field once ([`benchmarks::ReadAll`]). Their
//! buffa_inline column is the view's time, their prost column prost's
//! (owned) decode, measured interleaved with the two view operations, and
//! the ratio is view / prost decode. They stay out of the
//! `inline_vs_prost` geomean and have a summary line of their own.
//!
//! Each dataset also has the rows `json_encode` and `json_decode`
//! ([`benchmarks::json`]): printing the populated message as proto3 JSON
//! into a new `Vec<u8>`, and parsing a message from JSON. Their prost
//! column is prost with pbjson's serde impls (through serde_json), their
//! buffa_inline column buffa's own JSON support; both parse the same input,
//! the JSON pbjson prints, and the ratio is buffa / pbjson. They stay out of
//! the `inline_vs_prost` geomean and have summary lines of their own.
//!
//! The lazy case ([`benchmarks::lazy`], named `lazy` on the command line)
//! reads the small header fields of an envelope with a 1 KiB, 64 KiB and
//! 1 MiB payload through the lazy view, the eager view and the owned
//! message, and reports time and allocations for each.
//!
//! `--suite-order` runs the configurations one after another instead, as
//! the shared suite's `run.sh` does: operation after operation, and for
//! each the libraries in the suite's order (prost first), every one warmed
//! up and sampled to the end, so that each sees the heap as that suite
//! leaves it.
//!
//! Build it with the `bench` profile, which has fat LTO like
//! rust_serialization_benchmark's: `cargo run --profile bench -p benchmarks
//! --bin compare -- [--samples N] [--batch-ms MS] [--suite-order]
//! [DATASET|lazy...]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use std::hint::black_box;

use benchmarks::harness::{self, Op, Runner, ViewOp, runner, view_runner};
use benchmarks::json::{JsonOp, JsonRunner, json_differences, json_runner};
use benchmarks::lazy::{LazyOp, PAYLOAD_SIZES, envelope_bytes};
use benchmarks::{
    BuffaBox, BuffaInline, BuffaShared, Codec, Dataset, JsonCodec, Logs, Mesh, Players, Prost,
    Updates, ViewCodec,
};

/// Counts allocator calls (alloc, alloc_zeroed, realloc) while
/// [`COUNTING`] is set; forwards everything to [`System`].
struct CountingAlloc;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

impl CountingAlloc {
    #[inline]
    fn count() {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is forwarded unchanged to `System`.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::count();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::count();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::count();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Report columns, in order. `INLINE` and `SHARED` over `PROST` give the
/// ratio columns.
const COLUMNS: [&str; WIDTH] = ["buffa_box", "buffa_inline", "buffa_shared", "prost"];
const WIDTH: usize = 4;
const BOX: usize = 0;
const INLINE: usize = 1;
const SHARED: usize = 2;
const PROST: usize = 3;
/// The aim of the layout work: at most this fraction of prost's time.
const TARGET_RATIO: f64 = 0.8;

/// The configurations for dataset `D`, one per entry of [`COLUMNS`]; `None`
/// would print `-` for a configuration.
///
/// Adding a library: implement `Library` and `Codec<D>` for the four datasets
/// on its marker type, add a column to [`COLUMNS`] (and [`WIDTH`]), the
/// bound here and in [`run_dataset`], and
/// `Some(runner::<D, Marker>(native.clone()))`.
fn configurations<D: Dataset>(native: &D) -> Vec<Option<Box<dyn Runner>>>
where
    BuffaBox: Codec<D>,
    BuffaInline: Codec<D>,
    BuffaShared: Codec<D>,
    Prost: Codec<D>,
{
    vec![
        Some(runner::<D, BuffaBox>(native.clone())),
        Some(runner::<D, BuffaInline>(native.clone())),
        Some(runner::<D, BuffaShared>(native.clone())),
        Some(runner::<D, Prost>(native.clone())),
    ]
}

/// The JSON configurations for dataset `D`, one per entry of [`COLUMNS`]:
/// prost with pbjson, and buffa_inline; `None` prints `-`. prost's is made
/// first: its JSON is the input every configuration parses.
fn json_configurations<D: Dataset>(native: &D) -> Vec<Option<Box<dyn JsonRunner>>>
where
    BuffaInline: JsonCodec<D>,
    Prost: JsonCodec<D>,
{
    let prost = json_runner::<D, Prost>(native, None);
    let mut configs: Vec<Option<Box<dyn JsonRunner>>> = (0..WIDTH).map(|_| None).collect();
    configs[INLINE] = Some(json_runner::<D, BuffaInline>(native, Some(prost.json())));
    configs[PROST] = Some(prost);
    configs
}

/// Command-line options.
struct Options {
    samples: usize,
    batch: Duration,
    /// Run the configurations one after another, as the criterion groups
    /// of rust_serialization_benchmark do, instead of interleaving them.
    suite_order: bool,
    datasets: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        samples: 7,
        batch: Duration::from_millis(120),
        suite_order: false,
        datasets: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a positive integer"))
        };
        match arg.as_str() {
            "--samples" => options.samples = value("--samples")?.max(1) as usize,
            "--batch-ms" => options.batch = Duration::from_millis(value("--batch-ms")?.max(1)),
            "--suite-order" => options.suite_order = true,
            "-h" | "--help" => {
                return Err(
                    "usage: compare [--samples N] [--batch-ms MS] [--suite-order] [log|mesh|minecraft_savedata|mk48|lazy]..."
                        .to_owned(),
                );
            }
            name if ["log", "mesh", "minecraft_savedata", "mk48", "lazy"].contains(&name) => {
                options.datasets.push(name.to_owned())
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

impl Options {
    /// Whether the command line selects `name` (all when it names none).
    fn selects(&self, name: &str) -> bool {
        self.datasets.is_empty() || self.datasets.iter().any(|d| d == name)
    }
}

/// Results for one dataset.
struct DatasetReport {
    name: &'static str,
    /// Median ns per iteration, per op (in `Op::ALL` order) and column.
    times: Vec<[Option<f64>; WIDTH]>,
    /// Median ns per iteration of the view ops (in `ViewOp::ALL` order) in
    /// the buffa_inline column, and of prost's decode measured beside them.
    view_times: Vec<[Option<f64>; WIDTH]>,
    /// Allocator calls per decode and per decode + convert, per column.
    allocations: [[Option<u64>; WIDTH]; 2],
    /// Allocator calls per view op (in `ViewOp::ALL` order).
    view_allocations: [u64; 2],
    /// Encoded size per column.
    sizes: [Option<usize>; WIDTH],
    /// How many fields the data holds ([`harness::ViewRunner::fields`]).
    fields: u64,
    /// Median ns per iteration of the JSON ops (in `JsonOp::ALL` order),
    /// per column.
    json_times: Vec<[Option<f64>; WIDTH]>,
    /// Allocator calls per JSON op (in `JsonOp::ALL` order), per column.
    json_allocations: Vec<[Option<u64>; WIDTH]>,
    /// Size of each column's own JSON.
    json_sizes: [Option<usize>; WIDTH],
}

/// A measured operation: runs it the given number of times and returns the
/// elapsed time.
type Timer<'t> = Box<dyn FnMut(u64) -> Duration + 't>;

/// Median time per iteration of each timer, interleaved: every sample runs
/// one batch of each, in an order that rotates from sample to sample.
fn interleaved_medians(timers: &mut [Timer<'_>], options: &Options) -> Vec<f64> {
    // Warm up and size the batch from a second, warm run.
    let iters: Vec<u64> = timers
        .iter_mut()
        .map(|timer| {
            timer(1);
            let once = timer(1).max(Duration::from_nanos(1));
            (options.batch.as_nanos() / once.as_nanos()).max(1) as u64
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(options.samples); timers.len()];
    for sample in 0..options.samples {
        for k in 0..timers.len() {
            let i = (sample + k) % timers.len();
            let elapsed = timers[i](iters[i]);
            samples[i].push(elapsed.as_nanos() as f64 / iters[i] as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut times| {
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        })
        .collect()
}

/// The operations in the order the shared suite's `run.sh` runs them: one
/// cell (operation) after another, and within a cell the libraries back to
/// back in the suite's order (prost first, then `ours`, buffa_inline's
/// layout, and `ours_shared`, buffa_shared's; buffa_box, which the suite
/// lacks, last), each warmed up and sampled to the end before the next
/// starts. The order is not neutral in the suite: there a library's decode
/// measured right after another library's can be slower than alone
/// (`benchmarks/README.md` has the measurements).
/// Returns the medians per op (in `Op::ALL` order) and configuration.
fn measure_in_suite_order(
    configs: &mut [Option<Box<dyn Runner>>],
    options: &Options,
) -> Vec<[Option<f64>; WIDTH]> {
    const SUITE_OPS: [Op; 4] = [
        Op::Encode,
        Op::PopulateEncode,
        Op::Decode,
        Op::DecodeConvert,
    ];
    const SUITE_LIBRARIES: [usize; WIDTH] = [PROST, INLINE, SHARED, BOX];
    let mut rows = vec![[None; WIDTH]; Op::ALL.len()];
    for op in SUITE_OPS {
        let index = Op::ALL.iter().position(|&o| o == op).expect("an op");
        for column in SUITE_LIBRARIES {
            let Some(runner) = configs[column].as_mut() else {
                continue;
            };
            let mut timer: Timer<'_> = Box::new(|iters| runner.time(op, iters));
            let median = interleaved_medians(std::slice::from_mut(&mut timer), options)[0];
            rows[index][column] = Some(median);
        }
    }
    rows
}

/// Median time per iteration for each configuration, interleaved;
/// `time(runner, iters)` runs the measured operation `iters` times.
fn measure<'t, R: ?Sized + 't>(
    configs: &'t mut [Option<Box<R>>],
    time: impl Fn(&mut R, u64) -> Duration + Copy + 't,
    options: &Options,
) -> [Option<f64>; WIDTH] {
    let present: Vec<usize> = (0..configs.len())
        .filter(|&i| configs[i].is_some())
        .collect();
    let mut timers: Vec<Timer<'t>> = configs
        .iter_mut()
        .flatten()
        .map(|runner| Box::new(move |iters| time(runner, iters)) as Timer<'t>)
        .collect();
    let medians = interleaved_medians(&mut timers, options);
    let mut row = [None; WIDTH];
    for (&i, median) in present.iter().zip(medians) {
        row[i] = Some(median);
    }
    row
}

/// Allocator calls during one call of `run`.
fn count_allocations(mut run: impl FnMut()) -> u64 {
    run(); // Warm up lazily initialised state.
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    run();
    COUNTING.store(false, Ordering::SeqCst);
    ALLOCATIONS.load(Ordering::SeqCst)
}

fn run_dataset<D: Dataset>(options: &Options) -> Option<DatasetReport>
where
    BuffaBox: Codec<D>,
    BuffaInline: ViewCodec<D> + JsonCodec<D>,
    BuffaShared: Codec<D>,
    Prost: JsonCodec<D>,
{
    if !options.selects(D::NAME) {
        return None;
    }
    let native = D::generate();
    let mut configs = configurations(&native);
    let views = view_runner::<D, BuffaInline>(&native);
    let fields = views.fields();
    drop(native);

    let mut sizes = [None; WIDTH];
    for (size, config) in sizes.iter_mut().zip(&configs) {
        *size = config.as_ref().map(|runner| runner.encoded().len());
    }
    let reference = configs
        .iter()
        .flatten()
        .next()
        .map(|r| r.encoded().to_vec());
    for runner in configs.iter().flatten() {
        if Some(runner.encoded()) != reference.as_deref() {
            eprintln!(
                "warning: {}: the {} encoding differs from the others",
                D::NAME,
                runner.library()
            );
        }
    }

    let times: Vec<[Option<f64>; WIDTH]> = if options.suite_order {
        measure_in_suite_order(&mut configs, options)
    } else {
        Op::ALL
            .into_iter()
            .map(|op| measure(&mut configs, |r, n| r.time(op, n), options))
            .collect()
    };
    for (op, row) in Op::ALL.into_iter().zip(&times) {
        print_time_row(D::NAME, op.name(), row);
    }

    // The view ops, interleaved with prost's decode as the reference.
    let prost = configs[PROST]
        .as_mut()
        .expect("the view rows need the prost configuration");
    let mut timers: Vec<Timer<'_>> = Vec::new();
    for op in ViewOp::ALL {
        let views = &views;
        timers.push(Box::new(move |iters| views.time(op, iters)));
    }
    timers.push(Box::new(|iters| prost.time(Op::Decode, iters)));
    let medians = interleaved_medians(&mut timers, options);
    drop(timers);
    let prost_decode = medians[ViewOp::ALL.len()];
    let mut view_times = Vec::new();
    for (op, view) in ViewOp::ALL.into_iter().zip(medians) {
        let mut row = [None; WIDTH];
        row[INLINE] = Some(view);
        row[PROST] = Some(prost_decode);
        print_time_row(D::NAME, op.name(), &row);
        view_times.push(row);
    }

    let mut allocations = [[None; WIDTH]; 2];
    for (row, op) in allocations.iter_mut().zip([Op::Decode, Op::DecodeConvert]) {
        for (count, config) in row.iter_mut().zip(configs.iter_mut()) {
            *count = config.as_mut().map(|runner| {
                count_allocations(|| {
                    runner.time(op, 1);
                })
            });
        }
    }
    let view_allocations = ViewOp::ALL.map(|op| {
        count_allocations(|| {
            views.time(op, 1);
        })
    });

    // The JSON ops, every configuration interleaved, after a check that all
    // print the same data as prost + pbjson. They come last, with the
    // runners above dropped and the data generated anew, so that they leave
    // the heap of the measurements above as it was before they existed.
    drop(configs);
    drop(views);
    let native = D::generate();
    let mut json_configs = json_configurations(&native);
    drop(native);
    let mut json_sizes = [None; WIDTH];
    for (size, config) in json_sizes.iter_mut().zip(&json_configs) {
        *size = config.as_ref().map(|runner| runner.json().len());
    }
    check_json::<D>(&json_configs);
    let json_times: Vec<[Option<f64>; WIDTH]> = JsonOp::ALL
        .into_iter()
        .map(|op| {
            let row = measure(&mut json_configs, |r, n| r.time(op, n), options);
            print_time_row(D::NAME, op.name(), &row);
            row
        })
        .collect();
    let mut json_allocations = vec![[None; WIDTH]; JsonOp::ALL.len()];
    for (row, op) in json_allocations.iter_mut().zip(JsonOp::ALL) {
        for (count, config) in row.iter_mut().zip(&json_configs) {
            *count = config.as_ref().map(|runner| {
                count_allocations(|| {
                    runner.time(op, 1);
                })
            });
        }
    }

    Some(DatasetReport {
        name: D::NAME,
        times,
        view_times,
        allocations,
        view_allocations,
        sizes,
        fields,
        json_times,
        json_allocations,
        json_sizes,
    })
}

/// Warns about every JSON configuration whose JSON differs from prost's as
/// proto3 JSON values ([`json_differences`]).
fn check_json<D: Dataset>(configs: &[Option<Box<dyn JsonRunner>>]) {
    let parse = |runner: &dyn JsonRunner| -> serde_json::Value {
        serde_json::from_slice(runner.json()).unwrap_or_else(|e| {
            panic!(
                "{}/{}: the JSON does not parse: {e}",
                D::NAME,
                runner.library()
            )
        })
    };
    let reference = parse(
        configs[PROST]
            .as_deref()
            .expect("the prost JSON configuration"),
    );
    for runner in configs.iter().flatten() {
        let differences = json_differences(&parse(runner.as_ref()), &reference);
        if !differences.is_empty() {
            eprintln!(
                "warning: {}: the {} JSON differs from pbjson's in {} places, first {}",
                D::NAME,
                runner.library(),
                differences.len(),
                differences[0]
            );
        }
    }
}

fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// The time of column `column` over prost's.
fn ratio_of(column: usize, row: &[Option<f64>; WIDTH]) -> Option<f64> {
    Some(row[column]? / row[PROST]?)
}

fn ratio(row: &[Option<f64>; WIDTH]) -> Option<f64> {
    ratio_of(INLINE, row)
}

/// The cells of `row`, space-separated.
fn cells<T: ToString + Copy>(row: &[Option<T>; WIDTH]) -> String {
    row.iter().map(|&v| cell(v)).collect::<Vec<_>>().join(" ")
}

fn print_time_row(dataset: &str, op: &str, row: &[Option<f64>; WIDTH]) {
    println!(
        "{dataset} {op} {} {} {}",
        cells(&row.map(|ns| ns.map(|ns| ns.round() as u64))),
        cell(ratio(row).map(|r| format!("{r:.3}"))),
        cell(ratio_of(SHARED, row).map(|r| format!("{r:.3}"))),
    );
}

/// Prints the decode rows as throughput: GB/s of encoding read (10^9
/// bytes per second) and ns per field.
fn print_throughput(reports: &[DatasetReport]) {
    println!(
        "# decode throughput: gb_per_s = encoded bytes / time (10^9 bytes/s), ns_per_field = time / fields"
    );
    println!(
        "# fields: every scalar, string and bytes value of the data, each element of a repeated field counted"
    );
    println!("# dataset op metric {}", COLUMNS.join(" "));
    let decode = Op::ALL
        .iter()
        .position(|&op| op == Op::Decode)
        .expect("decode is an op");
    for report in reports {
        println!("{} fields {}", report.name, report.fields);
        let rows = [("decode", &report.times[decode])].into_iter().chain(
            ViewOp::ALL
                .iter()
                .map(|op| op.name())
                .zip(&report.view_times),
        );
        for (op, row) in rows {
            let metric = |per_ns: &dyn Fn(usize, f64) -> f64| {
                row.iter()
                    .zip(&report.sizes)
                    .map(|(ns, size)| {
                        cell(
                            ns.zip(*size)
                                .map(|(ns, size)| format!("{:.3}", per_ns(size, ns))),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!(
                "{} {op} gb_per_s {}",
                report.name,
                metric(&|size, ns| size as f64 / ns)
            );
            println!(
                "{} {op} ns_per_field {}",
                report.name,
                metric(&|_, ns| ns / report.fields as f64)
            );
        }
    }
}

/// Results of the lazy case for one payload size.
struct LazyReport {
    payload: usize,
    encoded: usize,
    /// Median ns per iteration, per op (in `LazyOp::ALL` order).
    times: Vec<f64>,
    /// Allocator calls per iteration, per op.
    allocations: Vec<u64>,
}

/// Measures the lazy case ([`benchmarks::lazy`]) at each payload size, the
/// ops interleaved.
fn run_lazy(options: &Options) -> Vec<LazyReport> {
    PAYLOAD_SIZES
        .iter()
        .map(|&payload| {
            let bytes = envelope_bytes(payload);
            let bytes = &bytes;
            let mut timers: Vec<Timer<'_>> = LazyOp::ALL
                .iter()
                .map(|&op| {
                    Box::new(move |iters: u64| {
                        let start = Instant::now();
                        for _ in 0..iters {
                            black_box(op.run(bytes));
                        }
                        start.elapsed()
                    }) as Timer<'_>
                })
                .collect();
            let times = interleaved_medians(&mut timers, options);
            let allocations = LazyOp::ALL
                .iter()
                .map(|&op| {
                    count_allocations(|| {
                        black_box(op.run(bytes));
                    })
                })
                .collect();
            LazyReport {
                payload,
                encoded: bytes.len(),
                times,
                allocations,
            }
        })
        .collect()
}

/// Puts the allocator in the state rust_serialization_benchmark measures
/// in. Its first benchmark group frees its 10 MB encode buffer; freeing a
/// block that large (glibc serves it with `mmap`) makes glibc raise its
/// mmap threshold to the block's size and its trim threshold to twice that
/// (the "dynamic mmap threshold"), so every later benchmark runs with
/// blocks of up to 10 MB on the heap and freed memory kept rather than
/// returned to the system. Without this, this process would measure with
/// glibc's initial thresholds (128 KiB), where every large `Vec` is a fresh
/// mapping that page-faults in each iteration.
fn settle_heap_like_the_suite() {
    let buffer: Vec<u8> = Vec::with_capacity(harness::BUFFER_CAPACITY);
    drop(black_box(buffer));
}

/// Geometric mean of `ratios`, if any.
fn geomean(ratios: &[f64]) -> Option<f64> {
    (!ratios.is_empty())
        .then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    settle_heap_like_the_suite();

    println!(
        "# median ns per iteration of {} samples (batches of ~{} ms, {})",
        options.samples,
        options.batch.as_millis(),
        if options.suite_order {
            "configurations one after another, in the suite's order"
        } else {
            "configurations interleaved"
        }
    );
    println!(
        "# dataset op {} inline_vs_prost shared_vs_prost",
        COLUMNS.map(|c| format!("{c}_ns")).join(" ")
    );
    println!(
        "# view rows: {} = the view op, {} = prost decode measured beside it, ratio = view / prost decode",
        COLUMNS[INLINE], COLUMNS[PROST]
    );
    println!(
        "# json rows: {} = buffa's JSON, {} = prost + pbjson (serde_json), both parsing pbjson's JSON, ratio = buffa / pbjson",
        COLUMNS[INLINE], COLUMNS[PROST]
    );
    let reports: Vec<DatasetReport> = [
        run_dataset::<Logs>(&options),
        run_dataset::<Mesh>(&options),
        run_dataset::<Players>(&options),
        run_dataset::<Updates>(&options),
    ]
    .into_iter()
    .flatten()
    .collect();

    println!("# heap allocations per call (alloc + alloc_zeroed + realloc)");
    println!("# dataset op {}", COLUMNS.join(" "));
    for report in &reports {
        for (op, row) in ["decode", "decode+convert"].iter().zip(&report.allocations) {
            println!("{} {op} {}", report.name, cells(row));
        }
        for (op, count) in ViewOp::ALL.iter().zip(report.view_allocations) {
            let mut row = [None; WIDTH];
            row[INLINE] = Some(count);
            println!("{} {} {}", report.name, op.name(), cells(&row));
        }
        for (op, row) in JsonOp::ALL.iter().zip(&report.json_allocations) {
            println!("{} {} {}", report.name, op.name(), cells(row));
        }
    }

    println!("# encoded size in bytes");
    println!("# dataset size {}", COLUMNS.join(" "));
    for report in &reports {
        println!("{} size {}", report.name, cells(&report.sizes));
        println!("{} json_size {}", report.name, cells(&report.json_sizes));
    }

    print_throughput(&reports);

    let lazy = if options.selects("lazy") {
        run_lazy(&options)
    } else {
        Vec::new()
    };
    if !lazy.is_empty() {
        println!(
            "# lazy case: read the 4 header fields of a bench.lazy.Envelope; median ns per iteration and allocator calls"
        );
        println!("# lazy payload_bytes encoded_bytes op ns allocations");
        for report in &lazy {
            for ((op, ns), count) in LazyOp::ALL
                .iter()
                .zip(&report.times)
                .zip(&report.allocations)
            {
                println!(
                    "lazy {} {} {} {} {count}",
                    report.payload,
                    report.encoded,
                    op.name(),
                    ns.round() as u64
                );
            }
        }
    }

    // Geometric mean of inline_vs_prost over the rows that have one.
    let ratios: Vec<f64> = reports
        .iter()
        .flat_map(|r| r.times.iter().filter_map(ratio))
        .collect();
    let inline_geomean = geomean(&ratios);
    for column in [INLINE, SHARED] {
        let column_ratios: Vec<f64> = reports
            .iter()
            .flat_map(|r| r.times.iter().filter_map(|row| ratio_of(column, row)))
            .collect();
        let within = column_ratios.iter().filter(|&&r| r <= TARGET_RATIO).count();
        println!(
            "summary {}_vs_prost cells_at_or_below_{TARGET_RATIO} {within} of {} max {}",
            COLUMNS[column],
            column_ratios.len(),
            cell(
                column_ratios
                    .iter()
                    .copied()
                    .reduce(f64::max)
                    .map(|m| format!("{m:.3}"))
            ),
        );
    }
    for (i, op) in ViewOp::ALL.iter().enumerate() {
        let ratios: Vec<f64> = reports
            .iter()
            .filter_map(|r| ratio(&r.view_times[i]))
            .collect();
        println!(
            "summary {}_vs_prost_decode_geomean {} max {}",
            op.name(),
            cell(geomean(&ratios).map(|g| format!("{g:.3}"))),
            cell(
                ratios
                    .iter()
                    .copied()
                    .reduce(f64::max)
                    .map(|m| format!("{m:.3}"))
            ),
        );
    }
    for (i, op) in JsonOp::ALL.iter().enumerate() {
        let ratios: Vec<f64> = reports
            .iter()
            .filter_map(|r| ratio(&r.json_times[i]))
            .collect();
        println!(
            "summary {}_vs_pbjson_geomean {} faster {} of {} max {}",
            op.name(),
            cell(geomean(&ratios).map(|g| format!("{g:.3}"))),
            ratios.iter().filter(|&&r| r < 1.0).count(),
            ratios.len(),
            cell(
                ratios
                    .iter()
                    .copied()
                    .reduce(f64::max)
                    .map(|m| format!("{m:.3}"))
            ),
        );
    }
    println!(
        "summary inline_vs_prost_geomean {} rows {} elapsed_s {:.1}",
        cell(inline_geomean.map(|g| format!("{g:.3}"))),
        ratios.len(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
