//! Compares the benchmarked configurations without criterion.
//!
//! For each dataset and operation, every configuration runs a batch of
//! iterations sized to take about `--batch-ms` milliseconds, `--samples`
//! times, the configurations interleaved (their order rotates every sample)
//! so that machine noise affects them alike. The median time per iteration is
//! reported. Then come the heap allocations per decode, the encoded sizes,
//! and a summary line.
//!
//! Output is whitespace-separated; lines starting with `#` are headers:
//!
//! ```text
//! dataset op buffa_box_ns buffa_inline_ns prost_ns inline_vs_prost
//! ```
//!
//! A configuration left out of [`configurations`] (`None`) prints `-`, as
//! does a ratio that needs it.
//!
//! Usage: `cargo run --release -p benchmarks --bin compare -- [--samples N]
//! [--batch-ms MS] [DATASET...]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use benchmarks::harness::{Op, Runner, runner};
use benchmarks::{BuffaBox, BuffaInline, Codec, Dataset, Logs, Mesh, Players, Prost, Updates};

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

/// Report columns, in order. `INLINE` and `PROST` give the ratio column.
const COLUMNS: [&str; 3] = ["buffa_box", "buffa_inline", "prost"];
const INLINE: usize = 1;
const PROST: usize = 2;

/// The configurations for dataset `D`, one per entry of [`COLUMNS`]; `None`
/// would print `-` for a configuration.
///
/// Adding a library: implement `Library` and `Codec<D>` for the four datasets
/// on its marker type, add a column to [`COLUMNS`] (and widen the report
/// arrays of 3), the bound here and in [`run_dataset`], and
/// `Some(runner::<D, Marker>(native.clone()))`.
fn configurations<D: Dataset>(native: &D) -> Vec<Option<Box<dyn Runner>>>
where
    BuffaBox: Codec<D>,
    BuffaInline: Codec<D>,
    Prost: Codec<D>,
{
    vec![
        Some(runner::<D, BuffaBox>(native.clone())),
        Some(runner::<D, BuffaInline>(native.clone())),
        Some(runner::<D, Prost>(native.clone())),
    ]
}

/// Command-line options.
struct Options {
    samples: usize,
    batch: Duration,
    datasets: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        samples: 7,
        batch: Duration::from_millis(120),
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
            "-h" | "--help" => {
                return Err(
                    "usage: compare [--samples N] [--batch-ms MS] [log|mesh|minecraft_savedata|mk48]..."
                        .to_owned(),
                );
            }
            name if ["log", "mesh", "minecraft_savedata", "mk48"].contains(&name) => {
                options.datasets.push(name.to_owned())
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

/// Results for one dataset.
struct DatasetReport {
    name: &'static str,
    /// Median ns per iteration, per op (in `Op::ALL` order) and column.
    times: Vec<[Option<f64>; 3]>,
    /// Allocator calls per decode and per decode + convert, per column.
    allocations: [[Option<u64>; 3]; 2],
    /// Encoded size per column.
    sizes: [Option<usize>; 3],
}

/// Median time per iteration of `op` for each configuration, interleaved.
fn measure(configs: &mut [Option<Box<dyn Runner>>], op: Op, options: &Options) -> [Option<f64>; 3] {
    // Warm up and size the batch from a second, warm run.
    let mut iters = [0u64; 3];
    for (i, config) in configs.iter_mut().enumerate() {
        if let Some(runner) = config {
            runner.time(op, 1);
            let once = runner.time(op, 1).max(Duration::from_nanos(1));
            iters[i] = (options.batch.as_nanos() / once.as_nanos()).max(1) as u64;
        }
    }
    let mut samples: [Vec<f64>; 3] = Default::default();
    let present: Vec<usize> = (0..configs.len())
        .filter(|&i| configs[i].is_some())
        .collect();
    for sample in 0..options.samples {
        for k in 0..present.len() {
            let i = present[(sample + k) % present.len()];
            let runner = configs[i].as_mut().unwrap();
            let elapsed = runner.time(op, iters[i]);
            samples[i].push(elapsed.as_nanos() as f64 / iters[i] as f64);
        }
    }
    let mut medians = [None; 3];
    for (median, mut times) in medians.iter_mut().zip(samples) {
        if !times.is_empty() {
            times.sort_by(f64::total_cmp);
            *median = Some(times[times.len() / 2]);
        }
    }
    medians
}

/// Allocator calls during one run of `op`.
fn count_allocations(runner: &mut dyn Runner, op: Op) -> u64 {
    runner.time(op, 1); // Warm up lazily initialised state.
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    runner.time(op, 1);
    COUNTING.store(false, Ordering::SeqCst);
    ALLOCATIONS.load(Ordering::SeqCst)
}

fn run_dataset<D: Dataset>(options: &Options) -> Option<DatasetReport>
where
    BuffaBox: Codec<D>,
    BuffaInline: Codec<D>,
    Prost: Codec<D>,
{
    if !options.datasets.is_empty() && !options.datasets.iter().any(|d| d == D::NAME) {
        return None;
    }
    let native = D::generate();
    let mut configs = configurations(&native);
    drop(native);

    let mut sizes = [None; 3];
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

    let mut times = Vec::new();
    for op in Op::ALL {
        let medians = measure(&mut configs, op, options);
        print_time_row(D::NAME, op.name(), &medians);
        times.push(medians);
    }

    let mut allocations = [[None; 3]; 2];
    for (row, op) in allocations.iter_mut().zip([Op::Decode, Op::DecodeConvert]) {
        for (count, config) in row.iter_mut().zip(configs.iter_mut()) {
            *count = config
                .as_mut()
                .map(|runner| count_allocations(runner.as_mut(), op));
        }
    }

    Some(DatasetReport {
        name: D::NAME,
        times,
        allocations,
        sizes,
    })
}

fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

fn ratio(row: &[Option<f64>; 3]) -> Option<f64> {
    Some(row[INLINE]? / row[PROST]?)
}

fn print_time_row(dataset: &str, op: &str, row: &[Option<f64>; 3]) {
    println!(
        "{dataset} {op} {} {} {} {}",
        cell(row[0].map(|ns| ns.round() as u64)),
        cell(row[1].map(|ns| ns.round() as u64)),
        cell(row[2].map(|ns| ns.round() as u64)),
        cell(ratio(row).map(|r| format!("{r:.3}"))),
    );
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

    println!(
        "# median ns per iteration of {} samples (batches of ~{} ms, configurations interleaved)",
        options.samples,
        options.batch.as_millis()
    );
    println!(
        "# dataset op {}_ns {}_ns {}_ns inline_vs_prost",
        COLUMNS[0], COLUMNS[1], COLUMNS[2]
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
    println!("# dataset op {} {} {}", COLUMNS[0], COLUMNS[1], COLUMNS[2]);
    for report in &reports {
        for (op, row) in ["decode", "decode+convert"].iter().zip(&report.allocations) {
            println!(
                "{} {op} {} {} {}",
                report.name,
                cell(row[0]),
                cell(row[1]),
                cell(row[2])
            );
        }
    }

    println!("# encoded size in bytes");
    println!(
        "# dataset size {} {} {}",
        COLUMNS[0], COLUMNS[1], COLUMNS[2]
    );
    for report in &reports {
        let s = &report.sizes;
        println!(
            "{} size {} {} {}",
            report.name,
            cell(s[0]),
            cell(s[1]),
            cell(s[2])
        );
    }

    // Geometric mean of inline_vs_prost over the rows that have one.
    let ratios: Vec<f64> = reports
        .iter()
        .flat_map(|r| r.times.iter().filter_map(ratio))
        .collect();
    let geomean = (!ratios.is_empty())
        .then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp());
    println!(
        "summary inline_vs_prost_geomean {} rows {} elapsed_s {:.1}",
        cell(geomean.map(|g| format!("{g:.3}"))),
        ratios.len(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
