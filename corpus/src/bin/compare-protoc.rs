//! `compare-protoc`: compiles real schemas with buffa-compile and with
//! protoc and compares the descriptor sets byte for byte, with and without
//! source info; prints one line per unit that differs and a summary, and
//! exits non-zero on any difference.
//!
//! ```text
//! compare-protoc [--googleapis ROOT] [--protobuf SRC] [--conformance DIR]
//!                [--sample N] [--only PREFIX,...] [--jobs N]
//! compare-protoc --googleapis ROOT --whole-tree [--runs N]
//! ```
//!
//! - `--googleapis ROOT`: every package (directory) of a googleapis tree
//!   is one unit, its files compiled together (`corpus/compare-protoc.sh`
//!   fetches the tree).
//! - `--protobuf SRC`: every `.proto` under SRC (protobuf's `src/`; `auto`:
//!   that of the protobuf-src crate's sources) is one unit, compiled alone.
//! - `--conformance DIR`: the same for protobuf 33.2's conformance protos.
//! - `--sample N`: every Nth unit of each corpus (the CI sample).
//! - `--only`: units whose name starts with one of the prefixes.
//! - `--whole-tree`: the files of every googleapis unit (every `.proto`
//!   under ROOT outside `google/protobuf`, the well-known types' own
//!   directory) compiled in one call by each compiler, with and without
//!   source info, best of `--runs N` (default 3) runs each; prints the
//!   seconds (wall clock, and CPU time from `/proc/self/stat`) and files
//!   per second of each, whether the bytes are equal,
//!   and each compiler's peak memory with source info (buffa-compile's
//!   runs come first, and its figure is this process's peak, the sets it
//!   wrote included; protoc's is that of one more run, under
//!   `/usr/bin/time`).
//!
//! A unit agrees when both accept it and the sets are equal with and
//! without `--include_source_info`, or when both reject it with the first
//! error on the same line. The summary gives the files per second of each
//! compiler over the units both accept (protoc's time includes starting
//! the process, as a build script's does).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use buffa::Message;
use buffa_compile::Compiler;
use buffa_corpus::packages;
use buffa_corpus::protoc;
use buffa_types::google::protobuf::FileDescriptorSet;

/// Files compiled together, under one include root.
struct Unit {
    /// `corpus:name`, for the report.
    name: String,
    root: PathBuf,
    files: Vec<String>,
}

/// How one unit compared.
enum Verdict {
    Identical,
    BothReject,
    Differs(String),
}

#[derive(Default)]
struct Totals {
    identical: usize,
    both_reject: usize,
    differ: Vec<(String, String)>,
    files: usize,
    ours: Duration,
    protoc: Duration,
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("compare-protoc: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, String> {
    let mut units = Vec::new();
    let mut sample = 1;
    let mut only: Option<Vec<String>> = None;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut whole_tree = false;
    let mut runs = 3;
    let mut googleapis_root = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "--googleapis" => {
                let root = PathBuf::from(value("--googleapis")?);
                googleapis_root = Some(root.clone());
                let found =
                    packages::discover(&root).map_err(|e| format!("{}: {e}", root.display()))?;
                units.push(
                    found
                        .into_iter()
                        .map(|p| Unit {
                            name: format!("googleapis:{}", p.dir),
                            root: root.clone(),
                            files: p.files,
                        })
                        .collect::<Vec<_>>(),
                );
            }
            "--protobuf" | "--conformance" => {
                let mut root = PathBuf::from(value(&arg)?);
                if arg == "--protobuf" && root == Path::new("auto") {
                    root = protobuf_sources::protobuf_source_dir()?.join("src");
                }
                let corpus = arg.trim_start_matches("--");
                units.push(single_files(corpus, &root)?);
            }
            "--sample" => {
                sample = value("--sample")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--sample needs a positive number")?
            }
            "--only" => only = Some(value("--only")?.split(',').map(str::to_owned).collect()),
            "--jobs" => {
                jobs = value("--jobs")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--jobs needs a positive number")?
            }
            "--whole-tree" => whole_tree = true,
            "--runs" => {
                runs = value("--runs")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--runs needs a positive number")?
            }
            other => return Err(format!("unexpected argument {other}")),
        }
    }
    if whole_tree {
        let root = googleapis_root.ok_or("--whole-tree needs --googleapis")?;
        let files = units.into_iter().flatten().flat_map(|u| u.files).collect();
        return compare_whole_tree(&root, files, runs);
    }
    if units.is_empty() {
        return Err("name at least one corpus (--googleapis, --protobuf, --conformance)".into());
    }
    let units: Vec<Unit> = units
        .into_iter()
        .flat_map(|corpus| corpus.into_iter().step_by(sample))
        .filter(|u| {
            only.as_ref()
                .is_none_or(|o| o.iter().any(|p| u.name.contains(p.as_str())))
        })
        .collect();

    let next = AtomicUsize::new(0);
    let totals = Mutex::new(Totals::default());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                while let Some(unit) = units.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (verdict, ours, protoc) = compare(unit);
                    let mut totals = totals.lock().unwrap();
                    match verdict {
                        Verdict::Identical => {
                            totals.identical += 1;
                            totals.files += unit.files.len();
                            totals.ours += ours;
                            totals.protoc += protoc;
                        }
                        Verdict::BothReject => totals.both_reject += 1,
                        Verdict::Differs(why) => {
                            println!("DIFFERS {}: {why}", unit.name);
                            totals.differ.push((unit.name.clone(), why));
                        }
                    }
                }
            });
        }
    });
    let totals = totals.into_inner().unwrap();
    let rate = |time: Duration| totals.files as f64 / time.as_secs_f64().max(1e-9);
    println!(
        "{} units: {} identical, {} rejected by both at the same line, {} differ",
        units.len(),
        totals.identical,
        totals.both_reject,
        totals.differ.len()
    );
    println!(
        "speed over the identical units ({} files, each compiled twice): buffa-compile {:.0} files/s, protoc {:.0} files/s",
        totals.files,
        rate(totals.ours) * 2.0,
        rate(totals.protoc) * 2.0
    );
    Ok(totals.differ.is_empty())
}

/// Compiles `files` under `root` in one call with each compiler, with and
/// without source info, `runs` times each; prints the best times, files
/// per second and peak memory, and whether the sets are equal.
fn compare_whole_tree(root: &Path, files: Vec<String>, runs: usize) -> Result<bool, String> {
    let protoc = protoc::over(root);
    let mut compiler = Compiler::new();
    compiler.include(root);
    println!(
        "whole tree: {} files in one call, best of {runs} runs (wall clock; CPU time in brackets)",
        files.len()
    );
    let modes = [false, true];
    // Ours first, so that this process's peak is buffa-compile's.
    let mut ours = Vec::new();
    for source_info in modes {
        compiler.include_source_info(source_info);
        ours.push(best_of(runs, CpuOf::ThisProcess, || {
            compiler.compile_to_bytes(&files).map_err(|e| e.to_string())
        })?);
    }
    let ours_peak = peak_memory_of_this_process();
    let mut agree = true;
    for (source_info, (ours_time, actual)) in modes.into_iter().zip(ours) {
        let (protoc_time, expected) = best_of(runs, CpuOf::Children, || {
            protoc::descriptor_set_bytes(&protoc.clone().include_source_info(source_info), &files)
        })?;
        let verdict = if expected == actual {
            "identical".to_owned()
        } else {
            agree = false;
            format!(
                "DIFFER: {}",
                first_difference(&expected, &actual, source_info)
            )
        };
        let rate = |time: Duration| files.len() as f64 / time.as_secs_f64().max(1e-9);
        let show = |t: &Times| {
            format!(
                "{:.2} s ({:.2} s), {:.0} files/s",
                t.wall.as_secs_f64(),
                t.cpu.as_secs_f64(),
                rate(t.wall)
            )
        };
        println!(
            "{}: buffa-compile {}; protoc {}; protoc/buffa-compile {:.2}x ({:.2}x CPU); {verdict}",
            if source_info {
                "with source info"
            } else {
                "without source info"
            },
            show(&ours_time),
            show(&protoc_time),
            protoc_time.wall.as_secs_f64() / ours_time.wall.as_secs_f64().max(1e-9),
            protoc_time.cpu.as_secs_f64() / ours_time.cpu.as_secs_f64().max(1e-9),
        );
    }
    let megabytes =
        |kib: Option<u64>| kib.map_or("unknown".to_owned(), |k| format!("{} MB", k / 1024));
    println!(
        "peak memory with source info: buffa-compile {}, protoc {}",
        megabytes(ours_peak),
        megabytes(protoc::peak_memory(
            &protoc.clone().include_source_info(true),
            &files
        ))
    );
    Ok(agree)
}

/// The best wall-clock and CPU times of a compilation's runs (each the
/// least of its runs).
struct Times {
    wall: Duration,
    cpu: Duration,
}

/// Whose CPU time a run takes: this process's (buffa-compile, in
/// process) or that of the child processes it waited for (protoc).
#[derive(Clone, Copy)]
enum CpuOf {
    ThisProcess,
    Children,
}

impl CpuOf {
    /// The CPU time (user and system) so far, from Linux's
    /// `/proc/self/stat` (zero elsewhere), in its clock ticks of 10 ms.
    fn now(self) -> Duration {
        let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
            return Duration::ZERO;
        };
        // The fields after the command's name, which ends at the last `)`:
        // state is field 3, utime and stime 14 and 15, cutime and cstime
        // 16 and 17.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        let first = match self {
            CpuOf::ThisProcess => 14,
            CpuOf::Children => 16,
        };
        let ticks: u64 = (first..first + 2)
            .filter_map(|field| fields.get(field - 3)?.parse::<u64>().ok())
            .sum();
        Duration::from_millis(ticks * 10)
    }
}

/// The best times of `runs` runs of `compile`, with its output.
fn best_of<T>(
    runs: usize,
    cpu_of: CpuOf,
    mut compile: impl FnMut() -> Result<T, String>,
) -> Result<(Times, T), String> {
    let mut best: Option<(Times, T)> = None;
    for _ in 0..runs {
        let (start, cpu_start) = (Instant::now(), cpu_of.now());
        let output = compile()?;
        let times = Times {
            wall: start.elapsed(),
            cpu: cpu_of.now().saturating_sub(cpu_start),
        };
        best = Some(match best {
            None => (times, output),
            Some((best, _)) => (
                Times {
                    wall: best.wall.min(times.wall),
                    cpu: best.cpu.min(times.cpu),
                },
                output,
            ),
        });
    }
    best.ok_or_else(|| "no runs".to_owned())
}

/// This process's peak resident memory so far, in KiB (Linux's
/// `VmHWM`; `None` elsewhere).
fn peak_memory_of_this_process() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Every `.proto` under `root`, each a unit of its own.
fn single_files(corpus: &str, root: &Path) -> Result<Vec<Unit>, String> {
    let mut files = Vec::new();
    for package in packages::discover_all(root).map_err(|e| format!("{}: {e}", root.display()))? {
        files.extend(package.files);
    }
    Ok(files
        .into_iter()
        .map(|file| Unit {
            name: format!("{corpus}:{file}"),
            root: root.to_owned(),
            files: vec![file],
        })
        .collect())
}

/// Compiles `unit` with both compilers, with and without source info.
fn compare(unit: &Unit) -> (Verdict, Duration, Duration) {
    let protoc = protoc::over(&unit.root);
    let mut compiler = Compiler::new();
    compiler.include(&unit.root);
    let (mut ours_time, mut protoc_time) = (Duration::ZERO, Duration::ZERO);
    for source_info in [false, true] {
        let start = Instant::now();
        let expected = protoc::descriptor_set_bytes(
            &protoc.clone().include_source_info(source_info),
            &unit.files,
        );
        protoc_time += start.elapsed();
        let start = Instant::now();
        let actual = compiler
            .include_source_info(source_info)
            .compile_to_bytes(&unit.files);
        ours_time += start.elapsed();
        let verdict = match (expected, actual) {
            (Ok(expected), Ok(actual)) if expected == actual => continue,
            (Ok(expected), Ok(actual)) => {
                Verdict::Differs(first_difference(&expected, &actual, source_info))
            }
            (Err(expected), Err(actual)) => {
                // protoc names a file found on disk by its disk path.
                let ours = &actual.diagnostics()[0];
                let same_place = first_position(expected.lines().next().unwrap_or_default())
                    .is_some_and(|(file, line)| file.ends_with(&ours.file) && line == ours.line);
                if same_place {
                    Verdict::BothReject
                } else {
                    Verdict::Differs(format!(
                        "both reject, at different places: protoc `{}`, ours `{ours}`",
                        expected.lines().next().unwrap_or_default()
                    ))
                }
            }
            (Ok(_), Err(actual)) => {
                Verdict::Differs(format!("protoc accepts, ours rejects: {actual}"))
            }
            (Err(expected), Ok(_)) => Verdict::Differs(format!(
                "protoc rejects (`{}`), ours accepts",
                expected.lines().next().unwrap_or_default()
            )),
        };
        return (verdict, ours_time, protoc_time);
    }
    (Verdict::Identical, ours_time, protoc_time)
}

/// The file and 1-based line of protoc's `file:line:column: message`, or
/// line 0 for a problem of a whole file (`file: message`).
fn first_position(line: &str) -> Option<(String, u32)> {
    let mut parts = line.splitn(3, ':');
    let file = parts.next()?.to_owned();
    let number = parts.next()?.parse().unwrap_or(0);
    Some((file, number))
}

/// Where two sets first differ: the file, and the first line of their
/// debug renderings that differs.
fn first_difference(expected: &[u8], actual: &[u8], source_info: bool) -> String {
    let (Ok(expected), Ok(actual)) = (
        FileDescriptorSet::decode_from_slice(expected),
        FileDescriptorSet::decode_from_slice(actual),
    ) else {
        return "one of the sets does not decode".into();
    };
    let label = if source_info {
        " (with source info)"
    } else {
        ""
    };
    if expected.file.len() != actual.file.len() {
        let names = |set: &FileDescriptorSet| {
            set.file
                .iter()
                .map(|f| f.name.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return format!(
            "files{label}: protoc [{}], ours [{}]",
            names(&expected),
            names(&actual)
        );
    }
    for (e, a) in expected.file.iter().zip(&actual.file) {
        if e == a {
            continue;
        }
        let name = e.name.clone().unwrap_or_default();
        let (e, a) = (format!("{e:#?}"), format!("{a:#?}"));
        let line = e
            .lines()
            .zip(a.lines())
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("protoc `{}`, ours `{}`", x.trim(), y.trim()))
            .unwrap_or_else(|| "one rendering is a prefix of the other".into());
        return format!("{name}{label}: {line}");
    }
    format!("same files{label}, different bytes (field order or encoding)")
}
