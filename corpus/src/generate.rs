//! Generation of one package: protoc once (the files and their imports),
//! then buffa-build's code generation with each option set, as a build
//! script calling `Config::generate` would.

use std::path::Path;

use buffa_corpus::protoc::{self, Protoc};

use crate::option_set::OptionSet;
use buffa_corpus::packages::Package;

/// What generating one package gave.
pub struct Outcome {
    /// protoc's verdict on the package's files: an error means the corpus
    /// itself does not compile, which is not buffa's to fix.
    pub protoc: Result<(), String>,
    /// Per option set: the generated lines, or why generation failed.
    pub sets: Vec<(OptionSet, Result<usize, String>)>,
}

/// Generates `package` with each of `sets`, using `scratch` for its
/// descriptor set.
pub fn generate(protoc: &Protoc, package: &Package, sets: &[OptionSet], scratch: &Path) -> Outcome {
    let descriptor_set = scratch.join(format!("{}.pb", package.dir.replace('/', "_")));
    if let Err(e) = protoc::write_descriptor_set(protoc, &package.files, &descriptor_set) {
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
