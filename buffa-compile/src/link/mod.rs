//! Stage two: unlinked `FileDescriptorProto`s to the ones protoc writes.
//!
//! Linking a file follows protoc's `DescriptorBuilder`: its symbols join
//! the table ([`symbols`]), every name it writes is resolved
//! ([`resolve`]), its options are interpreted, and the result is checked
//! by a [`DescriptorPool`] holding the files linked before, which applies
//! protoc's rules once for the compiler and for reflection, by the checks
//! protoc alone makes of options ([`option_checks`], [`declarations`],
//! [`feature_support`]), and last for edition 2024's naming style
//! ([`naming`]), edition 2026's limits ([`limits`]) and `STRICT` symbol
//! visibility ([`visibility`]). The file is then written as
//! protoc's `CopyTo` writes it ([`copy`]).

mod checks;
mod copy;
mod declarations;
mod feature_support;
mod limits;
mod locate;
mod naming;
mod option_checks;
mod options;
mod pending;
mod ranges;
mod resolve;
mod scope;
mod symbols;
mod visibility;

use buffa_descriptor::{DescriptorError, DescriptorPool};
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
};

use crate::diagnostic::Diagnostic;
use locate::{ErrorLocation, Located};
use symbols::SymbolTable;

/// The files linked so far, against which the next file is linked.
#[derive(Debug, Default)]
pub(crate) struct Linker {
    /// Every symbol of the linked files.
    symbols: SymbolTable,
    /// The linked files, checked.
    pool: DescriptorPool,
}

impl Linker {
    /// A linker that has linked no file.
    pub(crate) fn new() -> Linker {
        Linker::default()
    }

    /// Links `file`, whose imports were all added before: resolves its
    /// names, interprets its options and checks it, returning it as protoc
    /// writes it (with its source info, which the compiler may drop).
    pub(crate) fn add(
        &mut self,
        mut file: FileDescriptorProto,
    ) -> Result<FileDescriptorProto, Vec<Diagnostic>> {
        let mut staged = self.symbols.stage(&file);
        let mut errors = staged.add_file(&file);
        errors.extend(checks::build(&file));
        errors.extend(resolve::cross_link(&mut file, &staged));
        if !errors.is_empty() {
            return Err(errors.iter().map(|e| e.diagnostic(&file)).collect());
        }
        copy::copy_to(&mut file);
        let lifetimes = interpret_options(&mut self.pool, &mut file)?;
        let mut errors = option_checks::feature_resolution(&mut file);
        errors.extend(checks::validate(&file));
        errors.extend(option_checks::validate(&file, &self.pool));
        errors.extend(declarations::validate(&file, &self.pool));
        errors.extend(feature_support::validate(&file, &self.pool));
        if !errors.is_empty() {
            return Err(errors.iter().map(|e| e.diagnostic(&file)).collect());
        }
        // protoc checks the naming style of a file with no other error,
        // after the checks the pool makes, then edition 2026's limits and
        // STRICT visibility (each only of a file the ones before passed),
        // and the lifetimes of its options last, once it is built: a file
        // refused by any of them stays out of the pool.
        let mut last_checks = naming::validate(&file, &self.pool);
        if last_checks.is_empty() {
            last_checks = limits::validate(&file);
        }
        if last_checks.is_empty() {
            last_checks = visibility::validate(&file);
        }
        let checked = if last_checks.is_empty() && lifetimes.is_empty() {
            self.pool
                .add_file_descriptor_proto(without_source_info(&mut file))
        } else {
            self.pool.with_file(without_source_info(&mut file), |_| ())
        };
        if let Err(error) = checked {
            return Err(vec![pool_diagnostic(&file, &error)]);
        }
        if !last_checks.is_empty() {
            return Err(last_checks.iter().map(|e| e.diagnostic(&file)).collect());
        }
        if !lifetimes.is_empty() {
            return Err(lifetimes);
        }
        // What protoc writes: source-retention options stripped (the pool
        // keeps them, as protoc's does, for the files that import this one).
        options::strip_source_retention(&mut file, &self.pool);
        let parts = staged.finish();
        self.symbols.commit(parts, &file);
        Ok(file)
    }
}

/// Interprets the options of `file` (linked, not yet in the pool), as
/// protoc does after cross-linking and before validating the file,
/// against a pool holding its imports and the file itself; returns the
/// lifetime errors of its options, which protoc reports last.
fn interpret_options(
    pool: &mut DescriptorPool,
    file: &mut FileDescriptorProto,
) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    if !has_uninterpreted_options(file) {
        return Ok(Vec::new());
    }
    // The pool checks rules that depend on builtin options (`allow_alias`,
    // `message_set_wire_format`, features): it gets the file with those
    // interpreted, and the checks they could relax relaxed.
    let mut linked = pending::for_interpretation(without_source_info(file));
    options::interpret_builtin(&mut linked, pool);
    // protoc resolves features (and refuses them outside editions) once
    // builtin options are interpreted, before extension options are.
    let errors = option_checks::feature_resolution(&mut linked);
    if !errors.is_empty() {
        return Err(errors.iter().map(|e| e.diagnostic(file)).collect());
    }
    pending::after_builtin_options(&mut linked);
    match pool.with_file(linked, |pool| options::interpret(file, pool)) {
        Ok(result) => result,
        Err(error) => Err(vec![pool_diagnostic(file, &error)]),
    }
}

/// A copy of `file` without its source info, for the pool, which reads
/// none: copying the locations would double the work and the memory of
/// the largest part of most files.
pub(crate) fn without_source_info(file: &mut FileDescriptorProto) -> FileDescriptorProto {
    let info = std::mem::take(&mut file.source_code_info);
    let copy = file.clone();
    file.source_code_info = info;
    copy
}

/// Whether any element of `file` has options still to interpret.
fn has_uninterpreted_options(file: &FileDescriptorProto) -> bool {
    fn message(m: &DescriptorProto) -> bool {
        m.options
            .as_option()
            .is_some_and(|o| !o.uninterpreted_option.is_empty())
            || m.field.iter().chain(&m.extension).any(field)
            || m.oneof_decl.iter().any(|o| {
                o.options
                    .as_option()
                    .is_some_and(|o| !o.uninterpreted_option.is_empty())
            })
            || m.extension_range.iter().any(|r| {
                r.options
                    .as_option()
                    .is_some_and(|o| !o.uninterpreted_option.is_empty())
            })
            || m.enum_type.iter().any(enumeration)
            || m.nested_type.iter().any(message)
    }
    fn field(f: &FieldDescriptorProto) -> bool {
        f.options
            .as_option()
            .is_some_and(|o| !o.uninterpreted_option.is_empty())
    }
    fn enumeration(e: &EnumDescriptorProto) -> bool {
        e.options
            .as_option()
            .is_some_and(|o| !o.uninterpreted_option.is_empty())
            || e.value.iter().any(|v| {
                v.options
                    .as_option()
                    .is_some_and(|o| !o.uninterpreted_option.is_empty())
            })
    }
    file.options
        .as_option()
        .is_some_and(|o| !o.uninterpreted_option.is_empty())
        || file.message_type.iter().any(message)
        || file.enum_type.iter().any(enumeration)
        || file.extension.iter().any(field)
        || file.service.iter().any(|s| {
            s.options
                .as_option()
                .is_some_and(|o| !o.uninterpreted_option.is_empty())
                || s.method.iter().any(|m| {
                    m.options
                        .as_option()
                        .is_some_and(|o| !o.uninterpreted_option.is_empty())
                })
        })
}

/// A pool error as a diagnostic at the element it names (the file's start
/// when it names none).
fn pool_diagnostic(file: &FileDescriptorProto, error: &DescriptorError) -> Diagnostic {
    let path = error
        .element_name()
        .and_then(|name| locate::element_path(file, name))
        .unwrap_or_default();
    Located::new(path, ErrorLocation::Name, error.message().to_owned()).diagnostic(file)
}

#[cfg(test)]
mod tests;
