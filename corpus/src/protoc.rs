//! protoc, as the corpus tools run it: the vendored binary (or `PROTOC`)
//! reading a corpus root and the well-known types.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicU64;

/// Numbers the scratch files of concurrent runs.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// Where protoc is and which directories it reads.
pub struct Protoc {
    /// The protoc binary: `PROTOC` or the vendored one.
    pub binary: PathBuf,
    /// The corpus root, then the well-known types' directory.
    pub includes: Vec<PathBuf>,
}

impl Protoc {
    /// protoc as buffa-build finds it (`PROTOC`, else the vendored
    /// binary), reading `root` and the well-known types.
    pub fn new(root: &Path) -> Result<Protoc, String> {
        let binary = match std::env::var_os("PROTOC") {
            Some(path) => PathBuf::from(path),
            None => protoc_bin_vendored::protoc_bin_path().map_err(|e| e.to_string())?,
        };
        let mut includes = vec![root.to_owned()];
        includes.extend(protoc_bin_vendored::include_path().ok());
        Ok(Protoc { binary, includes })
    }

    /// Writes the descriptor set of `files` and their imports to `out`.
    pub fn descriptor_set(&self, files: &[String], out: &Path) -> Result<(), String> {
        self.run(files, out, false)
    }

    /// The descriptor set of `files` and their imports, with source info
    /// when asked (`--include_source_info`), or protoc's error output.
    pub fn descriptor_set_bytes(
        &self,
        files: &[String],
        source_info: bool,
    ) -> Result<Vec<u8>, String> {
        let out = scratch_file();
        let result = self.run(files, &out, source_info).and_then(|()| {
            std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))
        });
        let _ = std::fs::remove_file(&out);
        result
    }

    /// The peak resident memory, in KiB, of protoc writing the descriptor
    /// set of `files` (to a scratch file), as `/usr/bin/time` reports it;
    /// `None` without `/usr/bin/time` or when protoc fails.
    pub fn peak_memory(&self, files: &[String], source_info: bool) -> Option<u64> {
        let out = scratch_file();
        let mut command = Command::new("/usr/bin/time");
        command.arg("-f").arg("%M").arg(&self.binary);
        self.arguments(&mut command, files, &out, source_info);
        let output = command.output().ok();
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

    /// Runs protoc, writing the set to `out`; its error output on failure.
    fn run(&self, files: &[String], out: &Path, source_info: bool) -> Result<(), String> {
        let mut command = Command::new(&self.binary);
        self.arguments(&mut command, files, out, source_info);
        let output = command
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
        }
    }

    /// protoc's arguments: the include directories, the output and `files`.
    fn arguments(&self, command: &mut Command, files: &[String], out: &Path, source_info: bool) {
        for include in &self.includes {
            command.arg("-I").arg(include);
        }
        if source_info {
            command.arg("--include_source_info");
        }
        command
            .arg("--include_imports")
            .arg("--descriptor_set_out")
            .arg(out)
            .args(files);
    }
}

/// A scratch file for one run's output, unique among concurrent runs.
fn scratch_file() -> PathBuf {
    std::env::temp_dir().join(format!(
        "buffa-corpus-{}-{}.pb",
        std::process::id(),
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ))
}
