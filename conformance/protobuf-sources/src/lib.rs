//! Locates the protobuf 27.1 source tree for build scripts that need the
//! official test `.proto` files (`conformance/conformance.proto`,
//! `src/google/protobuf/test_messages_proto{2,3}.proto`,
//! `editions/golden/*.proto`, ...).
//!
//! The sources come from the crates.io crate `protobuf-src` version
//! `2.1.1+27.1`. This crate declares it as an optional dependency behind a
//! feature that nothing enables, so it is never compiled, but `Cargo.lock`
//! pins it and `cargo fetch` downloads and extracts it into
//! `$CARGO_HOME/registry/src/`.
//!
//! Use it as a build-dependency:
//!
//! ```no_run
//! // build.rs
//! println!("cargo:rerun-if-env-changed=PROTOBUF_SRC_DIR");
//! let dir = protobuf_sources::protobuf_source_dir().unwrap_or_else(|e| panic!("{e}"));
//! let proto = dir.join("conformance/conformance.proto");
//! # let _ = proto;
//! ```

#![warn(missing_docs)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Name of the environment variable that overrides the source location.
///
/// When set, it must point at the `protobuf` directory of a protobuf 27.x
/// source tree (the directory containing `CMakeLists.txt` and
/// `conformance/`). Build scripts should emit
/// `cargo:rerun-if-env-changed=PROTOBUF_SRC_DIR`.
pub const PROTOBUF_SRC_DIR_ENV: &str = "PROTOBUF_SRC_DIR";

/// Directory name of the pinned crate inside `$CARGO_HOME/registry/src/<registry>/`.
pub const PROTOBUF_SRC_CRATE_DIR: &str = "protobuf-src-2.1.1+27.1";

/// A file that every usable source tree contains; used to validate candidates.
const MARKER: &str = "conformance/conformance.proto";

/// Returns the `protobuf` directory of the protobuf 27.1 source tree.
///
/// Lookup order:
/// 1. the `PROTOBUF_SRC_DIR` environment variable, if set (it is an error if
///    it does not contain `conformance/conformance.proto`);
/// 2. `$CARGO_HOME/registry/src/*/protobuf-src-2.1.1+27.1/protobuf`, with
///    `CARGO_HOME` defaulting to `~/.cargo`;
/// 3. if not found there, runs `$CARGO fetch --manifest-path <workspace
///    Cargo.toml>` (which downloads and extracts the crate pinned in
///    `Cargo.lock`) and looks again. Running this nested `cargo fetch` from a
///    build script does not deadlock on cargo's package-cache lock (verified
///    with cargo 1.95 and an empty `CARGO_HOME`: the nested fetch downloads
///    and extracts the crate in a few seconds). Note that cargo does not pass
///    `--offline` on to build scripts, so the nested fetch uses the network
///    unless `CARGO_NET_OFFLINE=true` is set in the environment.
///
/// The returned error message says which command to run by hand.
pub fn protobuf_source_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(PROTOBUF_SRC_DIR_ENV) {
        let dir = PathBuf::from(dir);
        return if dir.join(MARKER).is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "{PROTOBUF_SRC_DIR_ENV}={} does not contain {MARKER}; it must point at the \
                 `protobuf` directory of the protobuf 27.1 sources",
                dir.display()
            ))
        };
    }

    let cargo_home = cargo_home().ok_or_else(|| {
        "cannot determine the cargo home directory: neither CARGO_HOME nor HOME is set".to_string()
    })?;
    if let Some(dir) = find_in_registry(&cargo_home) {
        return Ok(dir);
    }

    let manifest = workspace_manifest();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    // Cargo does not tell build scripts about `--offline`; honour the
    // environment form of it at least.
    let offline = std::env::var("CARGO_NET_OFFLINE").is_ok_and(|v| v == "true");
    let mut fetch = Command::new(&cargo);
    fetch.arg("fetch").arg("--manifest-path").arg(&manifest);
    if offline {
        fetch.arg("--offline");
    }
    let fetch_cmd = format!(
        "{} fetch --manifest-path {}",
        Path::new(&cargo).display(),
        manifest.display()
    );
    let fetch_result = fetch
        // The outer cargo's jobserver is of no use to `fetch`, and inheriting
        // it only produces a spurious "-j argument was passed" warning.
        .env_remove("CARGO_MAKEFLAGS")
        // Keep stdout clean: inside a build script, stdout carries `cargo:`
        // directives. Cargo's progress output goes to stderr anyway.
        .stdout(std::process::Stdio::null())
        .status();
    if let Some(dir) = find_in_registry(&cargo_home) {
        return Ok(dir);
    }
    let outcome = match fetch_result {
        Ok(status) if status.success() => "succeeded but did not extract it".to_string(),
        Ok(status) => format!("failed ({status})"),
        Err(e) => format!("could not be started ({e})"),
    };
    Err(format!(
        "protobuf 27.1 sources ({PROTOBUF_SRC_CRATE_DIR}) not found under {}; running \
         `{fetch_cmd}` {outcome}. Run that command by hand (it needs access to crates.io), \
         or set {PROTOBUF_SRC_DIR_ENV} to the `protobuf` directory of a protobuf 27.1 checkout.",
        cargo_home.join("registry").join("src").display(),
    ))
}

/// `$CARGO_HOME`, defaulting to `$HOME/.cargo` (`%USERPROFILE%\.cargo` on Windows).
fn cargo_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(home));
    }
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cargo"))
}

/// Searches `<cargo_home>/registry/src/*/protobuf-src-2.1.1+27.1/protobuf`.
///
/// Registries are visited in sorted order so the result is deterministic.
fn find_in_registry(cargo_home: &Path) -> Option<PathBuf> {
    let mut registries: Vec<PathBuf> = std::fs::read_dir(cargo_home.join("registry").join("src"))
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    registries.sort();
    registries
        .into_iter()
        .map(|registry| registry.join(PROTOBUF_SRC_CRATE_DIR).join("protobuf"))
        .find(|dir| dir.join(MARKER).is_file())
}

/// The manifest of the workspace this crate belongs to, whose `Cargo.lock`
/// pins `protobuf-src`. Falls back to this crate's own manifest (cargo finds
/// the workspace from there) if the layout is unexpected.
fn workspace_manifest() -> PathBuf {
    let own_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    own_dir
        .parent()
        .and_then(Path::parent)
        .map(|root| root.join("Cargo.toml"))
        .filter(|manifest| manifest.is_file())
        .unwrap_or_else(|| own_dir.join("Cargo.toml"))
}

/// Unit tests.
#[cfg(test)]
mod tests {
    use super::*;

    /// The located tree contains the conformance protocol definition.
    #[test]
    fn source_dir_contains_conformance_proto() {
        let dir = protobuf_source_dir().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            dir.join("conformance/conformance.proto").is_file(),
            "{} does not contain conformance/conformance.proto",
            dir.display()
        );
    }
}
