//! protoc as the corpus tools run it: [`protoc_runner::Protoc`] over a
//! corpus root, writing descriptor sets to scratch files (so the time
//! measured is protoc's, not a pipe's), and measuring its peak memory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

pub use protoc_runner::Protoc;

/// Numbers the scratch files of concurrent runs.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// protoc reading `root` and the well-known types; its descriptor sets
/// hold the imports of the files named.
pub fn over(root: &Path) -> Protoc {
    Protoc::new([root]).include_imports(true)
}

/// Writes the descriptor set of `files` to `out`; protoc's error output
/// on failure.
pub fn write_descriptor_set(protoc: &Protoc, files: &[String], out: &Path) -> Result<(), String> {
    protoc
        .run(&protoc.descriptor_set_args(files, out), &[])
        .map(drop)
        .map_err(|e| e.trim().to_owned())
}

/// The descriptor set of `files`, written by protoc to a scratch file
/// and read back; protoc's error output on failure.
pub fn descriptor_set_bytes(protoc: &Protoc, files: &[String]) -> Result<Vec<u8>, String> {
    let out = scratch_file();
    let result = write_descriptor_set(protoc, files, &out).and_then(|()| {
        std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))
    });
    let _ = std::fs::remove_file(&out);
    result
}

/// The peak resident memory, in KiB, of protoc writing the descriptor set
/// of `files` (to a scratch file), as `/usr/bin/time` reports it; `None`
/// without `/usr/bin/time` or when protoc fails.
pub fn peak_memory(protoc: &Protoc, files: &[String]) -> Option<u64> {
    let out = scratch_file();
    let output = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(protoc_runner::binary())
        .args(protoc.include_args())
        .args(protoc.descriptor_set_args(files, &out))
        .output()
        .ok();
    let _ = std::fs::remove_file(&out);
    let output = output.filter(|o| o.status.success())?;
    // time writes its figure after whatever protoc wrote (warnings).
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}

/// A scratch file for one run's output, unique among concurrent runs.
fn scratch_file() -> PathBuf {
    std::env::temp_dir().join(format!(
        "buffa-corpus-{}-{}.pb",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ))
}
