//! The files of `src/` form a graph without cycles: file A points at file
//! B when A names a `crate::` path (in a `use` or inline) that lies in B,
//! or imports from `super::` at file level. A folder's `mod.rs` stands
//! for the folder. `lib.rs` and `mod.rs` files that only declare and
//! re-export modules are no nodes of the graph, and no file may reach an
//! item through them: naming the module that defines an item keeps every
//! dependency visible here.
//!
//! Plain string scanning, no parser: good enough for rustfmt-formatted
//! code, and a test that fails is the signal to look.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One source file: its module path (`["emit", "message"]`), its text,
/// and whether it only declares and re-exports modules.
struct File {
    module: Vec<String>,
    text: String,
    declarations_only: bool,
}

fn read_files(dir: &Path, module: &[String], out: &mut Vec<File>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() {
            let mut inner = module.to_vec();
            inner.push(name);
            read_files(&path, &inner, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut file_module = module.to_vec();
            if stem != "mod" && stem != "lib" {
                file_module.push(stem.to_owned());
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let declarations_only = (stem == "mod" || stem == "lib") && only_declares(&text);
            out.push(File {
                module: file_module,
                text,
                declarations_only,
            });
        }
    }
}

/// Whether `text` holds nothing but comments, attributes, `mod` items and
/// `use` items.
fn only_declares(text: &str) -> bool {
    let mut in_use = false;
    for line in text.lines().map(str::trim) {
        if in_use {
            in_use = !line.ends_with(';');
            continue;
        }
        let item = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        if line.is_empty() || line.starts_with("//") || line.starts_with("#") {
            continue;
        }
        if item.starts_with("mod ") && item.ends_with(';') {
            continue;
        }
        if item.starts_with("use ") {
            in_use = !item.ends_with(';');
            continue;
        }
        return false;
    }
    true
}

/// `text` without `//` comments (doc comments name paths of other crates)
/// and without its `#[cfg(test)]` modules: unit tests may drive the whole
/// pipeline through the crate's public functions.
fn code(text: &str) -> String {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line == "#[cfg(test)]" {
            // rustfmt puts the module's closing brace alone at column 0.
            for inner in lines.by_ref() {
                if inner == "}" || inner.ends_with(';') && inner.starts_with("mod ") {
                    break;
                }
            }
            continue;
        }
        out.push(match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        });
    }
    out.join("\n")
}

/// The paths of a use tree starting at `text` (just after `crate::`),
/// each as its segments.
fn use_tree(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut path = prefix.to_vec();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == b'{' {
            at += 1;
            loop {
                at += use_tree(&text[at..], &path, out);
                while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b',') {
                    at += 1;
                }
                if at >= bytes.len() || bytes[at] == b'}' {
                    return at + 1;
                }
            }
        }
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        if start == at {
            out.push(path);
            return at;
        }
        let segment = &text[start..at];
        if segment != "self" {
            path.push(segment.to_owned());
        }
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            out.push(path);
            return at;
        }
    }
}

/// Every `crate::` path in `file`, and its file-level `super::` imports,
/// as absolute module paths.
fn paths(file: &File) -> Vec<Vec<String>> {
    let code = code(&file.text);
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        use_tree(rest, &[], &mut out);
    }
    // `super` of `a/b.rs` is `a`; of `a/b/mod.rs`, also `a` (its module
    // path is `a::b` too).
    let mut parent = file.module.clone();
    parent.pop();
    for line in code.lines() {
        for prefix in ["use super::", "pub use super::", "pub(crate) use super::"] {
            if let Some(tree) = line.strip_prefix(prefix) {
                use_tree(tree, &parent, &mut out);
            }
        }
    }
    out
}

#[test]
fn source_files_form_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_files(&src, &[], &mut files);
    let index: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    let name = |i: usize| match files[i].module.join("::") {
        m if m.is_empty() => "lib".to_owned(),
        m => m,
    };
    let mut problems = Vec::new();
    let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (i, file) in files.iter().enumerate() {
        if file.declarations_only {
            continue;
        }
        for path in paths(file) {
            let target = (0..=path.len())
                .rev()
                .find_map(|n| index.get(&path[..n]).copied());
            let Some(target) = target else { continue };
            if files[target].declarations_only {
                if !path.is_empty() {
                    problems.push(format!(
                        "{} names crate::{} through the re-exports of {}; name the module \
                         that defines it",
                        name(i),
                        path.join("::"),
                        name(target)
                    ));
                }
                continue;
            }
            if target != i {
                edges.entry(i).or_default().insert(target);
            }
        }
    }
    let graph: String = edges
        .iter()
        .map(|(from, to)| {
            let to: Vec<_> = to.iter().map(|&t| name(t)).collect();
            format!("  {} -> {}\n", name(*from), to.join(", "))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "{}\n\nthe graph:\n{graph}",
        problems.join("\n")
    );
    if let Some(cycle) = find_cycle(files.len(), &edges) {
        let cycle: Vec<_> = cycle.into_iter().map(name).collect();
        panic!(
            "the source files import each other in a circle: {}\n\nthe graph:\n{graph}",
            cycle.join(" -> ")
        );
    }
}

/// A cycle of `edges` as the nodes along it, the first repeated at the end.
fn find_cycle(nodes: usize, edges: &BTreeMap<usize, BTreeSet<usize>>) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    fn visit(
        node: usize,
        edges: &BTreeMap<usize, BTreeSet<usize>>,
        state: &mut [State],
        stack: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[node] = State::Open;
        stack.push(node);
        for &next in edges.get(&node).into_iter().flatten() {
            match state[next] {
                State::Open => {
                    let start = stack.iter().position(|&n| n == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next);
                    return Some(cycle);
                }
                State::New => {
                    if let Some(cycle) = visit(next, edges, state, stack) {
                        return Some(cycle);
                    }
                }
                State::Done => {}
            }
        }
        stack.pop();
        state[node] = State::Done;
        None
    }
    let mut state = vec![State::New; nodes];
    for node in 0..nodes {
        if state[node] == State::New {
            let mut stack = Vec::new();
            if let Some(cycle) = visit(node, edges, &mut state, &mut stack) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn scanner_reads_use_trees() {
    let mut out = Vec::new();
    use_tree("a::{self, b::C, d::{e, f}};", &[], &mut out);
    let out: Vec<String> = out.into_iter().map(|p| p.join("::")).collect();
    assert_eq!(out, ["a", "a::b::C", "a::d::e", "a::d::f"]);
    let cycle = find_cycle(
        3,
        &BTreeMap::from([
            (0, BTreeSet::from([1])),
            (1, BTreeSet::from([2])),
            (2, BTreeSet::from([0])),
        ]),
    );
    assert_eq!(cycle, Some(vec![0, 1, 2, 0]));
}
