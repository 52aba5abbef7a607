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
        let out = std::env::temp_dir().join(format!(
            "buffa-corpus-{}-{}.pb",
            std::process::id(),
            RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let result = self.run(files, &out, source_info).and_then(|()| {
            std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))
        });
        let _ = std::fs::remove_file(&out);
        result
    }

    fn run(&self, files: &[String], out: &Path, source_info: bool) -> Result<(), String> {
        let mut command = Command::new(&self.binary);
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
        let output = command
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
        }
    }
}
