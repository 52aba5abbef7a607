//! The packages of a googleapis tree: every directory holding `.proto`
//! files is one unit, as a user's build script would name them
//! (`google/pubsub/v1`); `google/protobuf`, the well-known types, is
//! buffa-types' and protoc's own.

use std::fs;
use std::io;
use std::path::Path;

/// One directory of `.proto` files, named relative to the tree's root.
#[derive(Clone, Debug)]
pub struct Package {
    /// The directory, relative to the root (`google/pubsub/v1`).
    pub dir: String,
    /// Its `.proto` files, relative to the root, sorted.
    pub files: Vec<String>,
}

/// The directories under `root` whose names the well-known types do not
/// own, each with its `.proto` files, sorted by directory.
pub fn discover(root: &Path) -> io::Result<Vec<Package>> {
    let mut packages = discover_all(root)?;
    packages.retain(|p| p.dir != "google/protobuf" && !p.dir.starts_with("google/protobuf/"));
    Ok(packages)
}

/// Every directory under `root` holding `.proto` files, each with its
/// files, sorted by directory.
pub fn discover_all(root: &Path) -> io::Result<Vec<Package>> {
    let mut packages = Vec::new();
    walk(root, root, &mut packages)?;
    packages.sort_by(|a, b| a.dir.cmp(&b.dir));
    Ok(packages)
}

fn walk(root: &Path, dir: &Path, packages: &mut Vec<Package>) -> io::Result<()> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, packages)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            files.push(relative(root, &path));
        }
    }
    let dir = relative(root, dir);
    if !files.is_empty() {
        packages.push(Package { dir, files });
    }
    Ok(())
}

/// `path` relative to `root`, with `/` separators, as protoc names files.
fn relative(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
