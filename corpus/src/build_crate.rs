//! Building generated code: crates holding selected packages (their
//! imports generated once per crate, as in a user's crate that compiles
//! several APIs), built or checked with cargo against this checkout's
//! runtime crates.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::option_set::OptionSet;
use buffa_corpus::packages::Package;

/// What building one option set's crate gave.
pub struct Built {
    /// Lines of generated code in the crate.
    pub lines: usize,
    /// The compiler's warnings (`warning:` lines, the summary excluded).
    pub warnings: Vec<String>,
    /// Why generation or the build failed, if it did.
    pub error: Option<String>,
}

/// The checkout this binary belongs to, whose runtime crates the built
/// crates use.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("corpus/ sits in the workspace")
        .to_owned()
}

/// How a crate is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cargo {
    /// `cargo build`, the dev profile: code generation and linking too.
    Build,
    /// `cargo check`: every type and borrow check and every warning,
    /// without code generation (several times faster, for the whole tree).
    Check,
}

/// Generates `packages` with `set` into the crate directory `dir` and
/// compiles it with `cargo` (`target` is shared by all crates, so the
/// runtime crates compile once).
pub fn build(
    root: &Path,
    packages: &[Package],
    set: OptionSet,
    dir: &Path,
    target: &Path,
    cargo: Cargo,
) -> Built {
    match write_crate(root, packages, set, dir) {
        Ok(lines) => {
            let (warnings, error) = cargo_build(dir, target, cargo);
            Built {
                lines,
                warnings,
                error,
            }
        }
        Err(error) => Built {
            lines: 0,
            warnings: Vec::new(),
            error: Some(error),
        },
    }
}

/// Writes the crate; returns the number of generated lines.
fn write_crate(
    root: &Path,
    packages: &[Package],
    set: OptionSet,
    dir: &Path,
) -> Result<usize, String> {
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    let _ = fs::remove_dir_all(dir);
    let generated = dir.join("src/generated");
    fs::create_dir_all(&generated).map_err(io)?;
    let files: Vec<&String> = packages.iter().flat_map(|p| &p.files).collect();
    set.config()
        .files(&files)
        .includes(&[root])
        .out_dir(&generated)
        .include_file("mod.rs")
        .compile()
        .map_err(|e| format!("generation: {e}"))?;
    let mut lines = 0;
    for entry in fs::read_dir(&generated).map_err(io)? {
        lines += fs::read_to_string(entry.map_err(io)?.path())
            .map_err(io)?
            .lines()
            .count();
    }
    let repo = repo();
    let path = |name: &str| repo.join(name).display().to_string();
    // What a user of these packages enables in buffa-types: `descriptor`,
    // since googleapis' custom options (google/api/annotations.proto, ...)
    // extend descriptor.proto's options messages; `views` where the
    // generated views name the well-known types' views.
    let types_features = match set {
        OptionSet::ViewsJson => r#"["json", "descriptor", "views"]"#,
        _ => r#"["json", "descriptor"]"#,
    };
    let manifest = format!(
        r#"[package]
name = "corpus-{name}"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
buffa = {{ path = "{buffa}", features = ["json"] }}
buffa-types = {{ path = "{types}", features = {types_features} }}
buffa-reflect = {{ path = "{reflect}", features = ["json"] }}
buffa-tonic = {{ path = "{tonic}" }}
tonic = "0.14.9"
"#,
        name = set.name().replace('+', "-"),
        buffa = path("buffa"),
        types = path("buffa-types"),
        reflect = path("buffa-reflect"),
        tonic = path("buffa-tonic"),
    );
    fs::write(dir.join("Cargo.toml"), manifest).map_err(io)?;
    // The checkout's lock file pins what its own tests built with.
    fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).map_err(io)?;
    fs::write(
        dir.join("src/lib.rs"),
        "//! Generated googleapis packages.\ninclude!(\"generated/mod.rs\");\n",
    )
    .map_err(io)?;
    Ok(lines)
}

/// Runs `cargo build` or `cargo check` in `dir`; returns the warnings
/// and, if it failed, the compiler's errors.
fn cargo_build(dir: &Path, target: &Path, cargo: Cargo) -> (Vec<String>, Option<String>) {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let command = match cargo {
        Cargo::Build => "build",
        Cargo::Check => "check",
    };
    let output = Command::new(program)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .args([command, "--quiet", "--message-format=short"])
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return (Vec::new(), Some(format!("cannot run cargo: {e}"))),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warnings = stderr
        .lines()
        // Not cargo's summary (``warning: `crate` (lib) generated 2 warnings``).
        .filter(|line| line.contains("warning:") && !line.starts_with("warning: `"))
        .map(str::to_owned)
        .collect();
    let error = (!output.status.success()).then(|| {
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
        let shown = errors
            .iter()
            .take(20)
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        format!(
            "cargo {command} failed ({} error lines):\n{shown}",
            errors.len()
        )
    });
    (warnings, error)
}
