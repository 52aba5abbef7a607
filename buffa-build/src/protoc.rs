//! Finding and running protoc.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// Where protoc comes from: `PROTOC`, else the vendored binary (feature
/// `vendored-protoc`), else `protoc` on `PATH`.
pub fn locate(configured: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(path) = configured {
        return Ok(path.to_owned());
    }
    if let Some(path) = std::env::var_os("PROTOC") {
        return Ok(PathBuf::from(path));
    }
    #[cfg(feature = "vendored-protoc")]
    {
        match protoc_bin_vendored::protoc_bin_path() {
            Ok(path) => return Ok(path),
            Err(e) => println!(
                "cargo:warning=buffa-build: no vendored protoc for this platform ({e}); trying protoc on PATH"
            ),
        }
    }
    Ok(PathBuf::from("protoc"))
}

/// The include directory holding `google/protobuf/*.proto`, when known.
pub fn well_known_includes() -> Option<PathBuf> {
    #[cfg(feature = "vendored-protoc")]
    {
        if let Ok(path) = protoc_bin_vendored::include_path() {
            return Some(path);
        }
    }
    None
}

/// Runs protoc to produce an encoded `FileDescriptorSet` of `files` and all
/// their imports, with source info (for doc comments).
pub fn descriptor_set(
    protoc: &Path,
    includes: &[PathBuf],
    files: &[PathBuf],
    extra_args: &[String],
) -> Result<Vec<u8>, Error> {
    // The process id and a per-process counter make the name unique even
    // when several threads of one build script (or test binary) run protoc
    // in the same clock tick.
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!("buffa-build-{}-{run}.pb", std::process::id()));
    let mut command = Command::new(protoc);
    command
        .arg("--include_imports")
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", out.display()));
    for include in includes {
        command.arg(format!("--proto_path={}", include.display()));
    }
    if let Some(wkt) = well_known_includes() {
        command.arg(format!("--proto_path={}", wkt.display()));
    }
    command.args(extra_args);
    command.args(files);
    let output = command.output().map_err(|e| {
        Error::Protoc(format!(
            "could not run protoc at {}: {e} (set PROTOC to a protoc binary)",
            protoc.display()
        ))
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Error::Protoc(format!(
            "protoc failed ({}):\n{}",
            output.status,
            stderr.trim_end()
        )));
    }
    let bytes = std::fs::read(&out).map_err(|e| Error::Io(out.clone(), e));
    let _ = std::fs::remove_file(&out);
    bytes
}
