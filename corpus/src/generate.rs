//! Generation of one package: protoc once (the files and their imports),
//! then buffa-build's code generation with each option set, as a build
//! script calling `Config::generate` would.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::option_set::OptionSet;
use crate::packages::Package;

/// What generating one package gave.
pub struct Outcome {
    /// protoc's verdict on the package's files: an error means the corpus
    /// itself does not compile, which is not buffa's to fix.
    pub protoc: Result<(), String>,
    /// Per option set: the generated lines, or why generation failed.
    pub sets: Vec<(OptionSet, Result<usize, String>)>,
}

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
        let mut command = Command::new(&self.binary);
        for include in &self.includes {
            command.arg("-I").arg(include);
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

/// Generates `package` with each of `sets`, using `scratch` for its
/// descriptor set.
pub fn generate(protoc: &Protoc, package: &Package, sets: &[OptionSet], scratch: &Path) -> Outcome {
    let descriptor_set = scratch.join(format!("{}.pb", package.dir.replace('/', "_")));
    if let Err(e) = protoc.descriptor_set(&package.files, &descriptor_set) {
        return Outcome {
            protoc: Err(e),
            sets: Vec::new(),
        };
    }
    let sets = sets
        .iter()
        .map(|&set| {
            let generated = set
                .config()
                .descriptor_set(&descriptor_set)
                .generate()
                .map(|files| files.iter().map(|f| f.content.lines().count()).sum())
                .map_err(|e| e.to_string());
            (set, generated)
        })
        .collect();
    let _ = std::fs::remove_file(&descriptor_set);
    Outcome {
        protoc: Ok(()),
        sets,
    }
}
