//! The symbol table: every name the linked files define (packages and their
//! prefixes, messages, enums, enum values, fields, oneofs, extensions,
//! services and methods), which file defines it, and which files a file
//! may see.
//!
//! A new file's symbols are collected in protoc's order (so that of two
//! clashing definitions the same one is reported) into a [`Staged`] table,
//! and committed only once the file links.

use foldhash::{HashMap, HashSet};
use std::cell::RefCell;

use buffa::Enumeration as _;
use buffa_types::google::protobuf::feature_set::visibility_feature::DefaultSymbolVisibility;
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, FileDescriptorProto, SymbolVisibility,
};

use super::locate::{ErrorLocation, Located};
use super::scope::SymbolKind;

/// One defined name: what it is and the index of the file defining it (for
/// a package, the first file that declared it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Symbol {
    /// What the name denotes.
    pub(crate) kind: SymbolKind,
    /// Index of the defining file in [`SymbolTable::files`].
    pub(crate) file: usize,
}

/// What the table remembers of a linked file.
#[derive(Debug, Clone)]
pub(crate) struct FileEntry {
    /// The file's name as imported.
    pub(crate) name: String,
    /// The file's package, empty without one.
    pub(crate) package: String,
    /// Indices of the files it imports with `import public`.
    pub(crate) public_dependencies: Vec<usize>,
}

/// The symbols of every linked file.
#[derive(Debug, Default)]
pub(crate) struct SymbolTable {
    /// The linked files, in the order they were added.
    pub(crate) files: Vec<FileEntry>,
    /// File indices by name.
    pub(crate) by_name: HashMap<String, usize>,
    /// Every symbol by full name (without leading dot).
    symbols: HashMap<String, Symbol>,
    /// Every enum value, as `enum_full_name value_name`.
    enum_values: HashSet<String>,
    /// The extension ranges (start, end exclusive) of every message that
    /// has some, by full name.
    extension_ranges: HashMap<String, Vec<(i32, i32)>>,
    /// The messages and enums other files may not use (`local`, or local
    /// by the file's `default_symbol_visibility`), with protoc's reason.
    local_types: HashMap<String, String>,
}

/// The symbols of the file being linked, on top of the table.
pub(crate) struct Staged<'a> {
    /// The linked files' symbols.
    table: &'a SymbolTable,
    /// The new file as the table will remember it.
    entry: FileEntry,
    /// The new file's index.
    index: usize,
    /// The new file's symbols.
    symbols: HashMap<String, Symbol>,
    /// The new file's enum values, as `enum_full_name value_name`.
    enum_values: HashSet<String>,
    /// The new file's messages' extension ranges.
    extension_ranges: HashMap<String, Vec<(i32, i32)>>,
    /// Files whose symbols the new file sees: itself, its imports and what
    /// they re-export with `import public`, transitively.
    visible: Vec<bool>,
    /// The packages of those files and their prefixes (`a` and `a.b` of
    /// `a.b`): the packages the new file sees whoever declared them first.
    visible_packages: HashSet<String>,
    /// The last name found only in a file that is not imported, and that
    /// file's index, as protoc remembers them during one lookup.
    pub(crate) undeclared: RefCell<Option<(String, usize)>>,
}

impl SymbolTable {
    /// Starts linking `file`: its imports must all be in the table.
    pub(crate) fn stage(&self, file: &FileDescriptorProto) -> Staged<'_> {
        let index = self.files.len();
        let imports: Vec<usize> = file
            .dependency
            .iter()
            .filter_map(|d| self.by_name.get(d).copied())
            .collect();
        let public_dependencies = file
            .public_dependency
            .iter()
            .filter_map(|&i| file.dependency.get(usize::try_from(i).ok()?))
            .filter_map(|d| self.by_name.get(d).copied())
            .collect();
        let mut visible = vec![false; index + 1];
        visible[index] = true;
        let mut visible_packages = HashSet::default();
        add_package_prefixes(file.package(), &mut visible_packages);
        let mut queue = imports;
        while let Some(f) = queue.pop() {
            if !visible[f] {
                visible[f] = true;
                add_package_prefixes(&self.files[f].package, &mut visible_packages);
                queue.extend(self.files[f].public_dependencies.iter().copied());
            }
        }
        Staged {
            table: self,
            entry: FileEntry {
                name: file.name().to_owned(),
                package: file.package().to_owned(),
                public_dependencies,
            },
            index,
            symbols: HashMap::default(),
            enum_values: HashSet::default(),
            extension_ranges: HashMap::default(),
            visible,
            visible_packages,
            undeclared: RefCell::new(None),
        }
    }

    /// Adds the staged file's symbols for good; `file` is the file as
    /// linked, options interpreted (its visibility features known).
    pub(crate) fn commit(&mut self, staged: StagedParts, file: &FileDescriptorProto) {
        let default = default_visibility(file);
        let package = file.package();
        for message in &file.message_type {
            self.message_visibility(message, package, false, default);
        }
        for enumeration in &file.enum_type {
            let full = join(package, enumeration.name());
            self.type_visibility(full, enumeration.visibility, false, default);
        }
        self.by_name
            .insert(staged.entry.name.clone(), self.files.len());
        self.files.push(staged.entry);
        self.symbols.extend(staged.symbols);
        self.enum_values.extend(staged.enum_values);
        self.extension_ranges.extend(staged.extension_ranges);
    }

    /// Records whether a message and what it nests are visible to other
    /// files.
    fn message_visibility(
        &mut self,
        message: &DescriptorProto,
        scope: &str,
        nested: bool,
        default: DefaultSymbolVisibility,
    ) {
        let full = join(scope, message.name());
        for enumeration in &message.enum_type {
            let name = join(&full, enumeration.name());
            self.type_visibility(name, enumeration.visibility, true, default);
        }
        for inner in &message.nested_type {
            self.message_visibility(inner, &full, true, default);
        }
        self.type_visibility(full, message.visibility, nested, default);
    }

    /// Records a message's or enum's visibility (protoc's
    /// `Symbol::GetEffectiveVisibility`) when it is local.
    fn type_visibility(
        &mut self,
        full_name: String,
        keyword: Option<SymbolVisibility>,
        nested: bool,
        default: DefaultSymbolVisibility,
    ) {
        let reason = match keyword {
            Some(SymbolVisibility::VisibilityLocal) => "It is explicitly marked 'local'".to_owned(),
            Some(SymbolVisibility::VisibilityExport) => return,
            _ => {
                let local = match default {
                    DefaultSymbolVisibility::ExportTopLevel => nested,
                    DefaultSymbolVisibility::LocalAll | DefaultSymbolVisibility::Strict => true,
                    _ => false,
                };
                if !local {
                    return;
                }
                format!(
                    "It defaulted to local from file-level 'option \
                     features.default_symbol_visibility = '{}';",
                    default.proto_name()
                )
            }
        };
        self.local_types.insert(full_name, reason);
    }
}

/// The `default_symbol_visibility` of `file`'s types: its
/// `features.default_symbol_visibility`, else its edition's (`EXPORT_ALL`
/// before 2024, `EXPORT_TOP_LEVEL` in 2024, `STRICT` from 2026).
pub(crate) fn default_visibility(file: &FileDescriptorProto) -> DefaultSymbolVisibility {
    let declared = file
        .options
        .as_option()
        .and_then(|o| o.features.as_option())
        .and_then(|f| f.default_symbol_visibility)
        .filter(|v| *v as i32 != 0);
    declared.unwrap_or(match file.edition.map(|e| e as i32) {
        Some(e) if e >= Edition::Edition2026 as i32 => DefaultSymbolVisibility::Strict,
        Some(e) if e >= Edition::Edition2024 as i32 => DefaultSymbolVisibility::ExportTopLevel,
        _ => DefaultSymbolVisibility::ExportAll,
    })
}

/// What [`Staged::finish`] hands back for [`SymbolTable::commit`], free of
/// the borrow of the table.
pub(crate) struct StagedParts {
    /// The new file's entry.
    entry: FileEntry,
    /// The new file's symbols.
    symbols: HashMap<String, Symbol>,
    /// The new file's enum values.
    enum_values: HashSet<String>,
    /// The new file's extension ranges.
    extension_ranges: HashMap<String, Vec<(i32, i32)>>,
}

/// Adds `package` and each package it is inside (`a.b` and `a` for
/// `a.b`) to `packages`.
fn add_package_prefixes(package: &str, packages: &mut HashSet<String>) {
    let mut end = package.len();
    while end > 0 && packages.insert(package[..end].to_owned()) {
        end = package[..end].rfind('.').unwrap_or(0);
    }
}

impl Staged<'_> {
    /// The symbols, for [`SymbolTable::commit`].
    pub(crate) fn finish(self) -> StagedParts {
        StagedParts {
            entry: self.entry,
            symbols: self.symbols,
            enum_values: self.enum_values,
            extension_ranges: self.extension_ranges,
        }
    }

    /// The name of the file at `index` (the new file included).
    pub(crate) fn file_name(&self, index: usize) -> &str {
        if index == self.index {
            &self.entry.name
        } else {
            &self.table.files[index].name
        }
    }

    /// The symbol `full_name`, in any file.
    fn get(&self, full_name: &str) -> Option<Symbol> {
        self.symbols
            .get(full_name)
            .or_else(|| self.table.symbols.get(full_name))
            .copied()
    }

    /// What `full_name` denotes among the symbols the new file sees, as
    /// protoc's `FindSymbol` answers; a symbol of a file not imported is
    /// remembered in [`Staged::undeclared`].
    pub(crate) fn find(&self, full_name: &str) -> Option<SymbolKind> {
        let symbol = self.get(full_name)?;
        if self.visible[symbol.file] {
            return Some(symbol.kind);
        }
        // A package may be declared by several files: any visible one will
        // do.
        if symbol.kind == SymbolKind::Package && self.visible_packages.contains(full_name) {
            return Some(symbol.kind);
        }
        *self.undeclared.borrow_mut() = Some((full_name.to_owned(), symbol.file));
        None
    }

    /// The name of the file being linked.
    pub(crate) fn name(&self) -> &str {
        &self.entry.name
    }

    /// protoc's error when the message or enum `full_name`, found by a
    /// lookup, is local to another file; `usage` says how it is used
    /// (`"target of extend"`, or nothing).
    pub(crate) fn visibility_error(&self, full_name: &str, usage: &str) -> Option<String> {
        let symbol = self.get(full_name)?;
        if symbol.file == self.index {
            return None;
        }
        let reason = self.table.local_types.get(full_name)?;
        Some(format!(
            "Symbol \"{full_name}\", defined in \"{}\" {usage} is not visible from \"{}\". \
             {reason} and cannot be accessed outside its own file",
            self.file_name(symbol.file),
            self.entry.name
        ))
    }

    /// Whether the message `message` (full name) declares `number` as an
    /// extension number.
    pub(crate) fn is_extension_number(&self, message: &str, number: i32) -> bool {
        self.extension_ranges
            .get(message)
            .or_else(|| self.table.extension_ranges.get(message))
            .is_some_and(|ranges| ranges.iter().any(|&(s, e)| s <= number && number < e))
    }

    /// Whether the enum `enum_name` (full name) has a value named `value`.
    pub(crate) fn enum_has_value(&self, enum_name: &str, value: &str) -> bool {
        let key = format!("{enum_name} {value}");
        self.enum_values.contains(&key) || self.table.enum_values.contains(&key)
    }

    /// Adds the file's package and its prefixes, as protoc's `AddPackage`.
    fn add_package(&mut self, errors: &mut Vec<Located>) {
        let package = self.entry.package.clone();
        if package.is_empty() {
            return;
        }
        let mut end = package.len();
        loop {
            let name = &package[..end];
            match self.get(name) {
                None => {
                    self.symbols.insert(
                        name.to_owned(),
                        Symbol {
                            kind: SymbolKind::Package,
                            file: self.index,
                        },
                    );
                }
                Some(existing) if existing.kind == SymbolKind::Package => {}
                Some(existing) => {
                    errors.push(Located::new(
                        vec![2],
                        ErrorLocation::Other,
                        format!(
                            "\"{name}\" is already defined (as something other than a package) \
                             in file \"{}\".",
                            self.file_name(existing.file)
                        ),
                    ));
                    // protoc stops at the clash: its parents were added by
                    // whoever defined it.
                    return;
                }
            }
            match name.rfind('.') {
                Some(dot) => end = dot,
                None => return,
            }
        }
    }

    /// Adds one symbol, or the error protoc reports when the name is taken;
    /// whether it was added.
    fn add(
        &mut self,
        full_name: String,
        kind: SymbolKind,
        path: &[i32],
        errors: &mut Vec<Located>,
    ) -> bool {
        let Some(existing) = self.get(&full_name) else {
            self.symbols.insert(
                full_name,
                Symbol {
                    kind,
                    file: self.index,
                },
            );
            return true;
        };
        let message = if existing.file == self.index {
            match full_name.rfind('.') {
                Some(dot) => format!(
                    "\"{}\" is already defined in \"{}\".",
                    &full_name[dot + 1..],
                    &full_name[..dot]
                ),
                None => format!("\"{full_name}\" is already defined."),
            }
        } else {
            format!(
                "\"{full_name}\" is already defined in file \"{}\".",
                self.file_name(existing.file)
            )
        };
        errors.push(Located::new(path.to_vec(), ErrorLocation::Name, message));
        false
    }

    /// Adds every symbol of `file` in the order protoc's `DescriptorBuilder`
    /// builds them, returning the clashes.
    pub(crate) fn add_file(&mut self, file: &FileDescriptorProto) -> Vec<Located> {
        let mut errors = Vec::new();
        self.add_package(&mut errors);
        let package = self.entry.package.clone();
        let mut path = Vec::new();
        for (i, message) in file.message_type.iter().enumerate() {
            path.clear();
            path.extend([4, i as i32]);
            self.add_message(message, &package, &mut path, &mut errors);
        }
        for (i, enumeration) in file.enum_type.iter().enumerate() {
            path.clear();
            path.extend([5, i as i32]);
            self.add_enum(enumeration, &package, &path, &mut errors);
        }
        for (i, service) in file.service.iter().enumerate() {
            let full = join(&package, service.name());
            for (j, method) in service.method.iter().enumerate() {
                let path = [6, i as i32, 2, j as i32];
                self.add(
                    join(&full, method.name()),
                    SymbolKind::Method,
                    &path,
                    &mut errors,
                );
            }
            self.add(full, SymbolKind::Service, &[6, i as i32], &mut errors);
        }
        for (i, extension) in file.extension.iter().enumerate() {
            let path = [7, i as i32];
            self.add(
                join(&package, extension.name()),
                SymbolKind::Extension,
                &path,
                &mut errors,
            );
        }
        errors
    }

    /// Adds a message's symbols: oneofs, fields, enums, extensions, nested
    /// messages, then the message itself.
    fn add_message(
        &mut self,
        message: &DescriptorProto,
        scope: &str,
        path: &mut Vec<i32>,
        errors: &mut Vec<Located>,
    ) {
        let full = join(scope, message.name());
        let base = path.len();
        for (i, oneof) in message.oneof_decl.iter().enumerate() {
            path.extend([8, i as i32]);
            self.add(join(&full, oneof.name()), SymbolKind::Oneof, path, errors);
            path.truncate(base);
        }
        for (i, field) in message.field.iter().enumerate() {
            path.extend([2, i as i32]);
            self.add(join(&full, field.name()), SymbolKind::Field, path, errors);
            path.truncate(base);
        }
        for (i, enumeration) in message.enum_type.iter().enumerate() {
            path.extend([4, i as i32]);
            self.add_enum(enumeration, &full, path, errors);
            path.truncate(base);
        }
        for (i, extension) in message.extension.iter().enumerate() {
            path.extend([6, i as i32]);
            self.add(
                join(&full, extension.name()),
                SymbolKind::Extension,
                path,
                errors,
            );
            path.truncate(base);
        }
        for (i, nested) in message.nested_type.iter().enumerate() {
            path.extend([3, i as i32]);
            self.add_message(nested, &full, path, errors);
            path.truncate(base);
        }
        if !message.extension_range.is_empty() {
            let ranges = message
                .extension_range
                .iter()
                .map(|r| (r.start(), r.end()))
                .collect();
            self.extension_ranges.insert(full.clone(), ranges);
        }
        self.add(full, SymbolKind::Message, path, errors);
    }

    /// Adds an enum's values (in the scope enclosing the enum, as C++
    /// scopes them), then the enum.
    fn add_enum(
        &mut self,
        enumeration: &EnumDescriptorProto,
        scope: &str,
        path: &[i32],
        errors: &mut Vec<Located>,
    ) {
        let full = join(scope, enumeration.name());
        let mut seen_in_enum: HashSet<&str> = HashSet::default();
        for (i, value) in enumeration.value.iter().enumerate() {
            let mut value_path = path.to_vec();
            value_path.extend([2, i as i32]);
            let added = self.add(
                join(scope, value.name()),
                SymbolKind::EnumValue,
                &value_path,
                errors,
            );
            let unique_in_enum = seen_in_enum.insert(value.name());
            self.enum_values.insert(format!("{full} {}", value.name()));
            if !added && unique_in_enum {
                let outer = if scope.is_empty() {
                    "the global scope".to_owned()
                } else {
                    format!("\"{scope}\"")
                };
                errors.push(Located::new(
                    value_path,
                    ErrorLocation::Name,
                    format!(
                        "Note that enum values use C++ scoping rules, meaning that enum values \
                         are siblings of their type, not children of it.  Therefore, \"{}\" must \
                         be unique within {outer}, not just within \"{}\".",
                        value.name(),
                        enumeration.name()
                    ),
                ));
            }
        }
        self.add(full, SymbolKind::Enum, path, errors);
    }
}

/// `scope.name`, or `name` at the root.
pub(crate) fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_owned()
    } else {
        format!("{scope}.{name}")
    }
}
