//! Where `.proto` text comes from: include directories searched in order,
//! as protoc's `--proto_path`, files added in memory, and the bundled
//! well-known types (`google/protobuf/*.proto`, as protoc's release ships
//! them), searched last.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::diagnostic::Diagnostic;

/// The `.proto` files protoc 36.2 installs beside its binary, bundled so
/// that `import "google/protobuf/timestamp.proto";` needs no include
/// directory.
const BUNDLED: &[(&str, &str)] = &[
    bundled!("google/protobuf/any.proto"),
    bundled!("google/protobuf/api.proto"),
    bundled!("google/protobuf/c_sharp_features.proto"),
    bundled!("google/protobuf/compiler/plugin.proto"),
    bundled!("google/protobuf/cpp_features.proto"),
    bundled!("google/protobuf/cpp_file_options.proto"),
    bundled!("google/protobuf/cpp_options.proto"),
    bundled!("google/protobuf/descriptor.proto"),
    bundled!("google/protobuf/duration.proto"),
    bundled!("google/protobuf/empty.proto"),
    bundled!("google/protobuf/field_mask.proto"),
    bundled!("google/protobuf/go_features.proto"),
    bundled!("google/protobuf/java_features.proto"),
    bundled!("google/protobuf/json_enumvalue_options.proto"),
    bundled!("google/protobuf/json_options.proto"),
    bundled!("google/protobuf/source_context.proto"),
    bundled!("google/protobuf/struct.proto"),
    bundled!("google/protobuf/timestamp.proto"),
    bundled!("google/protobuf/type.proto"),
    bundled!("google/protobuf/wrappers.proto"),
];

macro_rules! bundled {
    ($name:literal) => {
        ($name, include_str!(concat!("../include/", $name)))
    };
}
use bundled;

/// The files a compilation may read.
#[derive(Debug, Clone, Default)]
pub(crate) struct SourceTree {
    includes: Vec<PathBuf>,
    in_memory: BTreeMap<String, String>,
    bundled: bool,
}

impl SourceTree {
    pub(crate) fn new() -> SourceTree {
        SourceTree {
            includes: Vec::new(),
            in_memory: BTreeMap::new(),
            bundled: true,
        }
    }

    pub(crate) fn include(&mut self, dir: PathBuf) {
        self.includes.push(dir);
    }

    pub(crate) fn add(&mut self, name: String, text: String) {
        self.in_memory.insert(name, text);
    }

    pub(crate) fn set_bundled(&mut self, bundled: bool) {
        self.bundled = bundled;
    }

    /// The bytes of the file imported as `name`: from memory, else from the
    /// first include directory holding it, else from the bundled files.
    /// Like protoc, the compiler reads bytes: text outside string literals
    /// and identifiers (a Latin-1 comment) need not be UTF-8.
    pub(crate) fn read(&self, name: &str) -> Result<Option<Vec<u8>>, Diagnostic> {
        if let Some(text) = self.in_memory.get(name) {
            return Ok(Some(text.clone().into_bytes()));
        }
        if is_canonical(name) {
            for dir in &self.includes {
                let path = dir.join(name);
                if path.is_file() {
                    return std::fs::read(&path)
                        .map(Some)
                        .map_err(|e| Diagnostic::file(name, format!("Read error: {e}")));
                }
            }
        }
        if self.bundled
            && let Some((_, text)) = BUNDLED.iter().find(|(n, _)| *n == name)
        {
            return Ok(Some(text.as_bytes().to_vec()));
        }
        Ok(None)
    }

    /// The name a file given to the compiler is known by, as protoc maps
    /// its command line: a path on disk inside an include directory
    /// becomes the path relative to that directory; anything else is
    /// taken as the name itself (a file in memory or under an include).
    pub(crate) fn virtual_name(&self, file: &Path) -> Result<String, Diagnostic> {
        let text = file.to_string_lossy();
        if self.in_memory.contains_key(text.as_ref()) {
            return Ok(text.into_owned());
        }
        if file.is_file() {
            let absolute = absolute(file);
            for dir in &self.includes {
                if let Ok(relative) = absolute.strip_prefix(absolute_dir(dir)) {
                    return Ok(slash_path(relative));
                }
            }
            if is_canonical(&text) && self.read(&text)?.is_some() {
                return Ok(text.into_owned());
            }
            return Err(Diagnostic::file(
                &text,
                "File does not reside within any path specified using --proto_path (or -I).",
            ));
        }
        Ok(slash_path(file))
    }
}

/// Whether `name` is a relative path without `.`, `..` or empty parts, the
/// only names protoc looks up under an include directory.
fn is_canonical(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && name
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

fn absolute(path: &Path) -> PathBuf {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    normalize(&path)
}

fn absolute_dir(dir: &Path) -> PathBuf {
    absolute(dir)
}

/// `path` without `.` parts and with each `..` removing the part before.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn slash_path(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_wins_over_bundled_files() {
        let mut tree = SourceTree::new();
        tree.add("google/protobuf/empty.proto".into(), "x".into());
        assert_eq!(
            tree.read("google/protobuf/empty.proto").unwrap().as_deref(),
            Some(&b"x"[..])
        );
    }

    #[test]
    fn bundled_well_known_types_are_found() {
        let tree = SourceTree::new();
        let text = tree
            .read("google/protobuf/timestamp.proto")
            .unwrap()
            .unwrap();
        assert!(
            String::from_utf8(text)
                .unwrap()
                .contains("message Timestamp")
        );
        let mut without = SourceTree::new();
        without.set_bundled(false);
        assert_eq!(
            without.read("google/protobuf/timestamp.proto").unwrap(),
            None
        );
    }

    #[test]
    fn names_outside_the_tree_are_not_looked_up() {
        assert!(is_canonical("a/b.proto"));
        for bad in ["", "/a.proto", "a/../b.proto", "./a.proto", "a//b.proto"] {
            assert!(!is_canonical(bad), "{bad}");
        }
    }

    #[test]
    fn a_disk_path_maps_to_its_include_relative_name() {
        let dir = std::env::temp_dir().join(format!("buffa-compile-source-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("pkg/a.proto"), "syntax = \"proto3\";").unwrap();
        let mut tree = SourceTree::new();
        tree.include(dir.clone());
        assert_eq!(
            tree.virtual_name(&dir.join("pkg/a.proto")).unwrap(),
            "pkg/a.proto"
        );
        assert_eq!(
            tree.virtual_name(Path::new("pkg/a.proto")).unwrap(),
            "pkg/a.proto"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
