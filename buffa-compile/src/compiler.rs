//! The compiler's front door: which files to compile, where their imports
//! are found, and what the output holds.

use foldhash::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use buffa::Message;
use buffa_types::google::protobuf::{FileDescriptorProto, FileDescriptorSet};

use crate::diagnostic::{CompileError, Diagnostic};
use crate::link::Linker;
use crate::parse::parse_file;
use crate::source::SourceTree;

/// Compiles `.proto` files into the `FileDescriptorSet` protoc writes for
/// `protoc --include_imports --descriptor_set_out` (and, with
/// [`Compiler::include_source_info`], `--include_source_info`), byte for
/// byte.
///
/// ```
/// use buffa_compile::Compiler;
///
/// let mut compiler = Compiler::new();
/// compiler.source(
///     "shop/v1/order.proto",
///     "syntax = \"proto3\";\npackage shop.v1;\nmessage Order { string id = 1; }\n",
/// );
/// let set = compiler.compile(&["shop/v1/order.proto"]).unwrap();
/// assert_eq!(set.file[0].message_type[0].name.as_deref(), Some("Order"));
/// ```
#[derive(Debug, Clone)]
pub struct Compiler {
    tree: SourceTree,
    include_imports: bool,
    include_source_info: bool,
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler::new()
    }
}

impl Compiler {
    /// A compiler with no include directories that finds the well-known
    /// types (`google/protobuf/*.proto`) among its bundled files, writes
    /// imports into its output and leaves source info out.
    pub fn new() -> Compiler {
        Compiler {
            tree: SourceTree::new(),
            include_imports: true,
            include_source_info: false,
        }
    }

    /// Adds a directory imports are looked up in (protoc's `-I`), after
    /// those added before.
    pub fn include(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.tree.include(dir.into());
        self
    }

    /// Adds directories imports are looked up in, in order.
    pub fn includes(&mut self, dirs: impl IntoIterator<Item = impl Into<PathBuf>>) -> &mut Self {
        for dir in dirs {
            self.include(dir);
        }
        self
    }

    /// Adds a file held in memory, imported as `name`; it wins over a file
    /// of the same name under an include directory.
    pub fn source(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Self {
        self.tree.add(name.into(), text.into());
        self
    }

    /// Whether the bundled well-known types are found after the include
    /// directories (default: yes). Without them, `google/protobuf/*.proto`
    /// must be under an include directory, as for protoc built from source.
    pub fn bundled_includes(&mut self, bundled: bool) -> &mut Self {
        self.tree.set_bundled(bundled);
        self
    }

    /// Whether the output holds every file the compiled files import,
    /// directly or not, before the files that import them (protoc's
    /// `--include_imports`; default: yes).
    pub fn include_imports(&mut self, include: bool) -> &mut Self {
        self.include_imports = include;
        self
    }

    /// Whether each file of the output keeps its `SourceCodeInfo`:
    /// locations, spans and comments (protoc's `--include_source_info`;
    /// default: no).
    pub fn include_source_info(&mut self, include: bool) -> &mut Self {
        self.include_source_info = include;
        self
    }

    /// Compiles `files` (paths on disk under an include directory, or names
    /// as imported) and their imports.
    pub fn compile(&self, files: &[impl AsRef<Path>]) -> Result<FileDescriptorSet, CompileError> {
        let mut compilation = Compilation::new(&self.tree, self.include_source_info);
        let mut roots = Vec::new();
        for file in files {
            match self.tree.virtual_name(file.as_ref()) {
                Ok(name) => roots.push(name),
                Err(d) => compilation.diagnostics.push(d),
            }
        }
        if compilation.diagnostics.is_empty() {
            for name in &roots {
                compilation.load(name, None);
            }
        }
        if !compilation.diagnostics.is_empty() {
            return Err(CompileError::new(
                compilation.diagnostics,
                compilation.sources,
            ));
        }
        let order = if self.include_imports {
            compilation.transitive_order(&roots)
        } else {
            let mut seen = Vec::new();
            for name in roots {
                if !seen.contains(&name) {
                    seen.push(name);
                }
            }
            seen
        };
        // Each file is in the order once: it is moved out, not copied.
        let file = order
            .iter()
            .filter_map(|name| compilation.linked.remove(name))
            .collect();
        Ok(FileDescriptorSet {
            file,
            ..Default::default()
        })
    }

    /// [`Compiler::compile`], encoded: the bytes protoc writes with
    /// `--descriptor_set_out`.
    pub fn compile_to_bytes(&self, files: &[impl AsRef<Path>]) -> Result<Vec<u8>, CompileError> {
        Ok(self.compile(files)?.encode_to_vec())
    }
}

/// The files of one compilation, loaded depth first from the roots, each
/// parsed and then linked once all its imports are.
struct Compilation<'a> {
    tree: &'a SourceTree,
    linker: Linker,
    /// Linked files by name, with source info when it is kept.
    linked: HashMap<String, FileDescriptorProto>,
    /// Whether linked files keep their source info (the parser records
    /// it anyway: errors are placed by it).
    keep_source_info: bool,
    /// Files that could not be read, parsed or linked.
    failed: Vec<String>,
    /// The import chain being loaded, for recursive imports: each file
    /// with the position of the import statement being followed.
    stack: Vec<(String, Diagnostic)>,
    diagnostics: Vec<Diagnostic>,
    /// The text of every file read and not linked (those being loaded
    /// and those that failed), for rendering diagnostics: a linked file
    /// gets none, and the text of a large compilation is not kept.
    sources: Vec<(String, String)>,
}

impl<'a> Compilation<'a> {
    fn new(tree: &'a SourceTree, keep_source_info: bool) -> Compilation<'a> {
        Compilation {
            tree,
            keep_source_info,
            linker: Linker::new(),
            linked: HashMap::default(),
            failed: Vec::new(),
            stack: Vec::new(),
            diagnostics: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// Loads `name` and its imports; whether it linked. `importer` is the
    /// importing file and the index of the import, for the position of
    /// errors.
    fn load(&mut self, name: &str, importer: Option<Import<'_>>) -> bool {
        if self.linked.contains_key(name) {
            return true;
        }
        if self.failed.iter().any(|f| f == name) {
            return false;
        }
        if let Some(start) = self.stack.iter().position(|(f, _)| f == name) {
            // protoc reports a cycle at the import that enters it, in the
            // file it starts from, then the failed import that closes it.
            let chain: Vec<&str> = self.stack[start..]
                .iter()
                .map(|(f, _)| f.as_str())
                .collect();
            let mut entry = self.stack[start].1.clone();
            entry.message = format!(
                "File recursively imports itself: {} -> {name}",
                chain.join(" -> ")
            );
            self.diagnostics.push(entry);
            if importer.is_some() {
                let message = format!("Import \"{name}\" was not found or had errors.");
                self.diagnostics
                    .push(import_diagnostic(name, importer, message));
            }
            return false;
        }
        let text = match self.tree.read(name) {
            Ok(Some(text)) => text,
            Ok(None) => {
                self.diagnostics
                    .push(Diagnostic::file(name, "File not found."));
                return self.fail_import(name, importer);
            }
            Err(d) => {
                self.diagnostics.push(d);
                return self.fail_import(name, importer);
            }
        };
        self.sources
            .push((name.to_owned(), String::from_utf8_lossy(&text).into_owned()));
        let parsed = match parse_file(name, &text) {
            Ok(parsed) => parsed,
            Err(diagnostics) => {
                self.diagnostics.extend(diagnostics);
                return self.fail_import(name, importer);
            }
        };
        // Edition 2024's `import option "...";` statements are loaded after
        // the plain imports, as protoc loads them.
        let imports = (parsed.dependency.iter().enumerate())
            .map(|(index, name)| (name, Import::new(&parsed, DEPENDENCY, index)))
            .chain(
                (parsed.option_dependency.iter().enumerate())
                    .map(|(index, name)| (name, Import::new(&parsed, OPTION_DEPENDENCY, index))),
            );
        let mut imports_ok = true;
        for (dependency, import) in imports {
            if self.stack.len() >= MAX_IMPORT_DEPTH {
                // Loading recurses once per level; protoc's does too, with
                // no limit but the stack's.
                self.diagnostics.push(import_diagnostic(
                    name,
                    Some(import),
                    format!("Imports nest more than {MAX_IMPORT_DEPTH} files deep."),
                ));
                imports_ok = false;
                break;
            }
            let at = import_diagnostic(name, Some(import), String::new());
            self.stack.push((name.to_owned(), at));
            imports_ok &= self.load(dependency, Some(import));
            self.stack.pop();
        }
        if !imports_ok {
            self.failed.push(name.to_owned());
            return self.fail_import(name, importer);
        }
        match self.linker.add(parsed) {
            Ok(mut linked) => {
                // Its imports all linked, so their texts are gone and its
                // own is the last.
                self.sources.pop();
                if !self.keep_source_info {
                    linked.source_code_info = Default::default();
                }
                self.linked.insert(name.to_owned(), linked);
                true
            }
            Err(diagnostics) => {
                self.diagnostics.extend(diagnostics);
                self.fail_import(name, importer)
            }
        }
    }

    /// Records that `name` failed and reports it at its import, as protoc
    /// does; returns `false`.
    fn fail_import(&mut self, name: &str, importer: Option<Import<'_>>) -> bool {
        if !self.failed.iter().any(|f| f == name) {
            self.failed.push(name.to_owned());
        }
        if importer.is_some() {
            let message = format!("Import \"{name}\" was not found or had errors.");
            self.diagnostics
                .push(import_diagnostic(name, importer, message));
        }
        false
    }

    /// The roots and everything they import, each after its imports (in
    /// the order of its `import` statements, then its `import option`
    /// statements), each once: the order of protoc's `--include_imports`.
    fn transitive_order(&self, roots: &[String]) -> Vec<String> {
        fn visit<'a>(
            name: &'a str,
            linked: &'a HashMap<String, FileDescriptorProto>,
            seen: &mut HashSet<&'a str>,
            order: &mut Vec<String>,
        ) {
            if !seen.insert(name) {
                return;
            }
            let file = &linked[name];
            for dependency in file.dependency.iter().chain(&file.option_dependency) {
                visit(dependency, linked, seen, order);
            }
            order.push(name.to_owned());
        }
        let mut seen = HashSet::default();
        let mut order = Vec::new();
        for root in roots {
            visit(root, &self.linked, &mut seen, &mut order);
        }
        order
    }
}

/// How deep imports may nest (a file importing a file importing ...):
/// loading and ordering recurse once per level, so the limit bounds the
/// stack they use; real schemas nest a few dozen files at most.
const MAX_IMPORT_DEPTH: usize = 128;

/// `FileDescriptorProto.dependency`'s field number, the start of an
/// import's source path.
const DEPENDENCY: i32 = 3;
/// `FileDescriptorProto.option_dependency`'s field number.
const OPTION_DEPENDENCY: i32 = 15;

/// An import statement: the importing file and the statement's source
/// path (`[3, i]` for the i-th `import`, `[15, i]` for `import option`).
#[derive(Clone, Copy)]
struct Import<'a> {
    file: &'a FileDescriptorProto,
    path: [i32; 2],
}

impl<'a> Import<'a> {
    fn new(file: &'a FileDescriptorProto, field: i32, index: usize) -> Import<'a> {
        Import {
            file,
            path: [field, index as i32],
        }
    }
}

/// A diagnostic at the import statement `importer` names, or of the file
/// `name` itself when it was not imported.
fn import_diagnostic(name: &str, importer: Option<Import<'_>>, message: String) -> Diagnostic {
    match importer {
        Some(import) => Diagnostic::at_path(import.file, &import.path, message),
        None => Diagnostic::file(name, message),
    }
}
