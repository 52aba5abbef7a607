//! `googleapis`: generates every package of a googleapis tree with every
//! option set, as a user's build script would, and builds a selection of
//! them; prints a per-package report and exits non-zero on any failure.
//!
//! ```text
//! googleapis ROOT [--sample | --only DIR,DIR...] [--sets NAME,NAME...]
//!                 [--build | --check] [--chunk N] [--work DIR] [--jobs N]
//! ```
//!
//! - `ROOT`: the tree's root, holding `google/` (the npm package
//!   `google-proto-files`; `corpus/googleapis.sh` fetches it).
//! - `--sample`: only the packages of [`SAMPLE`], which cover googleapis'
//!   conventions; `--only`: the packages named (directories under ROOT).
//! - `--sets`: the option sets (default: all; see [`OptionSet`]).
//! - `--build`: also build, per option set, one crate holding the selected
//!   packages, and report its warnings; `--check`: the same with
//!   `cargo check` (every error and warning, no code generation).
//! - `--chunk N`: build crates of at most N packages each rather than one
//!   (for the whole tree, whose single crate would not fit in memory).
//! - `--work`: where crates, the shared target directory and the report
//!   go (default: `target/corpus` of this checkout).
//! - `--jobs`: generation threads (default: the number of CPUs).

mod build_crate;
mod generate;
mod option_set;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use buffa_corpus::packages::{self, Package};
use buffa_corpus::protoc::{self, Protoc};
use build_crate::Cargo;
use generate::Outcome;
use option_set::OptionSet;

/// Packages that together show googleapis' conventions: resource views
/// beside their resources (AIP-157: `WriteStreamView`, `SecretView`),
/// `google.api.http` annotations, field masks in `Update` methods,
/// long-running operations, `google.rpc.Status` with `Any` details,
/// streaming rpcs, and the common types.
const SAMPLE: &[&str] = &[
    "google/api",
    "google/cloud/bigquery/storage/v1",
    "google/cloud/secretmanager/v1",
    "google/longrunning",
    "google/pubsub/v1",
    "google/rpc",
    "google/type",
];

struct Args {
    root: PathBuf,
    only: Option<Vec<String>>,
    sets: Vec<OptionSet>,
    build: Option<Cargo>,
    chunk: Option<usize>,
    work: PathBuf,
    jobs: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut root = None;
    let mut only = None;
    let mut sets = OptionSet::ALL.to_vec();
    let mut build = None;
    let mut chunk = None;
    let mut work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/corpus");
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let list = |value: Option<String>, flag: &str| {
        value
            .map(|v| v.split(',').map(str::to_owned).collect::<Vec<_>>())
            .ok_or_else(|| format!("{flag} needs a value"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--sample" => only = Some(SAMPLE.iter().map(|s| s.to_string()).collect()),
            "--only" => only = Some(list(args.next(), "--only")?),
            "--sets" => {
                sets = list(args.next(), "--sets")?
                    .iter()
                    .map(|name| {
                        OptionSet::from_name(name).ok_or_else(|| {
                            let known: Vec<_> = OptionSet::ALL.iter().map(|s| s.name()).collect();
                            format!("unknown option set {name:?} (known: {})", known.join(", "))
                        })
                    })
                    .collect::<Result<_, _>>()?
            }
            "--build" => build = Some(Cargo::Build),
            "--check" => build = Some(Cargo::Check),
            "--chunk" => {
                chunk = Some(
                    args.next()
                        .and_then(|n| n.parse().ok())
                        .filter(|&n| n > 0)
                        .ok_or("--chunk needs a positive number")?,
                )
            }
            "--work" => work = args.next().ok_or("--work needs a value")?.into(),
            "--jobs" => {
                jobs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--jobs needs a positive number")?
            }
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            path if root.is_none() => root = Some(PathBuf::from(path)),
            extra => return Err(format!("unexpected argument {extra}")),
        }
    }
    let root = root.ok_or(
        "usage: googleapis ROOT [--sample | --only DIR,...] [--sets NAME,...] \
         [--build | --check] [--chunk N] [--work DIR] [--jobs N]",
    )?;
    Ok(Args {
        root,
        only,
        sets,
        build,
        chunk,
        work,
        jobs,
    })
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("googleapis: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the corpus; `Ok(false)` when any package failed.
fn run() -> Result<bool, String> {
    let args = parse_args()?;
    let mut packages = packages::discover(&args.root)
        .map_err(|e| format!("reading {}: {e}", args.root.display()))?;
    if let Some(only) = &args.only {
        for dir in only {
            if !packages.iter().any(|p| &p.dir == dir) {
                return Err(format!(
                    "no package directory {dir} under {}",
                    args.root.display()
                ));
            }
        }
        packages.retain(|p| only.contains(&p.dir));
    }
    std::fs::create_dir_all(&args.work).map_err(|e| format!("{}: {e}", args.work.display()))?;
    let protoc = protoc::over(&args.root);

    let started = Instant::now();
    let outcomes = generate_all(&protoc, &packages, &args)?;
    let ok = report_generation(&packages, &outcomes, &args.sets);
    println!(
        "generated {} packages x {} option sets in {:.1} s",
        packages.len(),
        args.sets.len(),
        started.elapsed().as_secs_f64()
    );

    let mut built_ok = true;
    if let Some(cargo) = args.build {
        let target = args.work.join("target");
        let chunk = args.chunk.unwrap_or(packages.len()).max(1);
        for &set in &args.sets {
            for (index, chunk) in packages.chunks(chunk).enumerate() {
                let started = Instant::now();
                let mut dir = format!("crate-{}", set.name().replace('+', "-"));
                if args.chunk.is_some() {
                    dir.push_str(&format!("-{index}"));
                }
                let built = build_crate::build(
                    &args.root,
                    chunk,
                    set,
                    &args.work.join(dir),
                    &target,
                    cargo,
                );
                let span = match chunk {
                    [only] => only.dir.clone(),
                    [first, .., last] => format!("{} .. {}", first.dir, last.dir),
                    [] => String::new(),
                };
                println!(
                    "{:?} {:<11} {:>8} lines  {:>3} warnings  {:>6.1} s  {}  ({} packages: {span})",
                    cargo,
                    set.name(),
                    built.lines,
                    built.warnings.len(),
                    started.elapsed().as_secs_f64(),
                    if built.error.is_none() {
                        "ok"
                    } else {
                        "FAILED"
                    },
                    chunk.len(),
                );
                for warning in built.warnings.iter().take(10) {
                    println!("    {warning}");
                }
                if let Some(error) = &built.error {
                    println!("    {}", error.replace('\n', "\n    "));
                }
                built_ok &= built.error.is_none() && built.warnings.is_empty();
            }
        }
    }
    Ok(ok && built_ok)
}

/// Generates every package on `args.jobs` threads.
fn generate_all(
    protoc: &Protoc,
    packages: &[Package],
    args: &Args,
) -> Result<Vec<Outcome>, String> {
    let scratch = args.work.join("descriptor-sets");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<Outcome>>> = Mutex::new(packages.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(package) = packages.get(index) else {
                        break;
                    };
                    let outcome = generate::generate(protoc, package, &args.sets, &scratch);
                    outcomes.lock().expect("no thread panics holding it")[index] = Some(outcome);
                }
            });
        }
    });
    Ok(outcomes
        .into_inner()
        .expect("no thread panicked holding it")
        .into_iter()
        .map(|outcome| outcome.expect("every package was generated"))
        .collect())
}

/// Prints one line per package that protoc or generation failed on, and
/// the totals; returns whether generation succeeded everywhere protoc did.
fn report_generation(packages: &[Package], outcomes: &[Outcome], sets: &[OptionSet]) -> bool {
    let mut protoc_failures = 0;
    let mut failures = 0;
    let mut lines = vec![0usize; sets.len()];
    for (package, outcome) in packages.iter().zip(outcomes) {
        if let Err(e) = &outcome.protoc {
            protoc_failures += 1;
            let first = e.lines().next().unwrap_or_default();
            println!("protoc rejects {}: {first}", package.dir);
            continue;
        }
        for (index, (set, result)) in outcome.sets.iter().enumerate() {
            match result {
                Ok(n) => lines[index] += n,
                Err(e) => {
                    failures += 1;
                    println!("FAILED {} with {}: {e}", package.dir, set.name());
                }
            }
        }
    }
    for (set, lines) in sets.iter().zip(&lines) {
        println!(
            "{:<11} generated lines (imports counted per package): {lines}",
            set.name()
        );
    }
    println!(
        "{} packages: {} generation failures, {} rejected by protoc",
        packages.len(),
        failures,
        protoc_failures
    );
    failures == 0
}
