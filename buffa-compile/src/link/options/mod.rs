//! Option interpretation: every `uninterpreted_option` the parser leaves
//! in a file turned into what protoc's `OptionInterpreter` leaves in the
//! options messages, and the file's source info moved to the interpreted
//! options' paths.
//!
//! protoc interprets in two passes over the file's elements: first the
//! options whose name starts with a field of the options message
//! (`java_package`, `features.(pb.cpp).legacy_closed_enum`), then those
//! that start with an extension (`(my.ext).a`). Each option becomes one
//! record (sub-field options wrapped in a record per enclosing message);
//! the records are then decoded into the options message, where the pool
//! knows them all, and written in canonical order ([`wire::canonical`]).
//! When protoc writes the descriptor set it also strips source-retention
//! options: [`strip_source_retention`] does that on the output.

mod lifetimes;
mod names;
mod required;
mod slot;
mod source_info;
mod value;
mod wire;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod tests;

use foldhash::HashMap;
use std::cell::RefCell;

use buffa_descriptor::{Cardinality, DescriptorPool, FieldDescriptor, Kind};
use buffa_types::google::protobuf::{FileDescriptorProto, UninterpretedOption};

use crate::diagnostic::Diagnostic;

use names::Symbols;
use slot::{Element, Which, walk};
use wire::{Canon, LEN, START_GROUP, Trace, put_tag};

/// Field number of `uninterpreted_option` in every options message.
const UNINTERPRETED_OPTION: i32 = 999;

/// Interprets every option of `file` against `pool` (the file's imports
/// and the file itself, names resolved, this file's options still
/// uninterpreted), as protoc does; the errors are protoc's, at protoc's
/// positions.
///
/// What it returns are the lifetime errors of the interpreted options
/// (see [`lifetimes`]): protoc reports them only once the file is built
/// with no other error, so the linker reports them last.
pub(crate) fn interpret(
    file: &mut FileDescriptorProto,
    pool: &DescriptorPool,
) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    run(file, pool, &[false, true])
}

/// Interprets only the options named by a field of the options message
/// (`allow_alias`, `message_set_wire_format`, `packed`, `features.*`),
/// dropping the custom ones, against `pool` holding `file`'s imports (not
/// the file), and ignores errors: for the copy of the file that the pool
/// [`interpret`] runs against checks, whose rules depend on those options.
pub(crate) fn interpret_builtin(file: &mut FileDescriptorProto, pool: &DescriptorPool) {
    let _ = run(file, pool, &[false]);
}

/// Interprets the options of `file` in the given passes (`false`: names
/// starting with a field, `true`: names starting with an extension);
/// returns the lifetime errors, checked after the last pass.
fn run(
    file: &mut FileDescriptorProto,
    pool: &DescriptorPool,
    passes: &[bool],
) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let mut pending = Vec::new();
    walk(file, Which::WithOptions, &mut |element, slot| {
        let options = slot.uninterpreted();
        if !options.is_empty() {
            pending.push(Pending {
                element: element.clone(),
                options: options.to_vec(),
                base: slot.encode_without_uninterpreted(),
                records: Vec::new(),
            });
        }
    });
    if pending.is_empty() {
        return Ok(Vec::new());
    }
    let name = file.name.clone().unwrap_or_default();
    // Interpretation reads the file (its names, for `Symbols`) and
    // changes it only once every option is interpreted.
    let symbols = Symbols::new(pool, file);
    let mut interpreter = Interpreter {
        pool,
        file: &name,
        symbols: &symbols,
        errors: Vec::new(),
        moved: HashMap::default(),
        repeated_counts: HashMap::default(),
    };
    for &extensions in passes {
        for target in &mut pending {
            interpreter.interpret_pass(target, extensions);
        }
    }
    if !interpreter.errors.is_empty() {
        let errors = interpreter
            .errors
            .iter()
            .map(|e| e.diagnostic(file))
            .collect();
        return Err(errors);
    }
    let moved = std::mem::take(&mut interpreter.moved);
    let mut results = pending.into_iter();
    let mut failed = Vec::new();
    walk(file, Which::WithOptions, &mut |element, slot| {
        if slot.uninterpreted().is_empty() {
            return;
        }
        let Some(target) = results.next() else {
            return;
        };
        let mut bytes = target.base;
        bytes.extend_from_slice(&target.records);
        if let Some(options) = names::options_type(pool, slot.type_name()) {
            let canon = Canon {
                strip_source_retention: false,
                trace: None,
            };
            bytes = wire::canonical(&bytes, &options, pool, canon);
        }
        if slot.replace(&bytes).is_err() {
            failed.push(element.options_path.clone());
        }
    });
    if let Some(info) = file.source_code_info.as_option_mut() {
        source_info::move_interpreted(&mut info.location, &moved);
    }
    if failed.is_empty() && passes.contains(&true) {
        return Ok(lifetime_errors(file, pool));
    }
    if !failed.is_empty() {
        let errors = failed
            .into_iter()
            .map(|path| {
                Diagnostic::at_path(
                    file,
                    &path,
                    "Some options could not be correctly parsed using the proto descriptors compiled into this binary.",
                )
            })
            .collect();
        return Err(errors);
    }
    Ok(Vec::new())
}

/// The lifetime errors of every element's options (see [`lifetimes`]),
/// each at the element's name, as protoc reports them once the file is
/// built.
fn lifetime_errors(file: &mut FileDescriptorProto, pool: &DescriptorPool) -> Vec<Diagnostic> {
    let edition = match file.syntax.as_deref() {
        Some("editions") => file.edition.map_or(0, |e| e as i32),
        Some("proto3") => 999,
        _ => 998,
    };
    let mut found = Vec::new();
    walk(file, Which::WithOptions, &mut |element, slot| {
        if !slot.is_set() {
            return;
        }
        let Some(options) = names::options_type(pool, slot.type_name()) else {
            return;
        };
        let errors = lifetimes::errors(&slot.encode(), &options, pool, edition);
        if errors.is_empty() {
            return;
        }
        let path = &element.options_path[..element.options_path.len() - 1];
        let name_path = if path.is_empty() {
            vec![2]
        } else {
            [path, &[1]].concat()
        };
        found.extend(errors.into_iter().map(|e| (name_path.clone(), e)));
    });
    let located = |path: &[i32]| {
        file.source_code_info
            .as_option()
            .is_some_and(|info| info.location.iter().any(|l| l.path == path))
    };
    found
        .into_iter()
        .map(|(path, message)| {
            if located(&path) {
                Diagnostic::at_path(file, &path, message)
            } else {
                Diagnostic::file(file.name.as_deref().unwrap_or_default(), message)
            }
        })
        .collect()
}

/// Strips what protoc strips from each file it writes: options declared
/// with `retention = RETENTION_SOURCE` (custom ones included, at any
/// depth), and options messages left empty by that, with their source
/// info; and writes every options message in canonical order against
/// `pool`, which must hold the file with its options interpreted (so
/// that the retention and packing of its own extensions are known).
pub(crate) fn strip_source_retention(file: &mut FileDescriptorProto, pool: &DescriptorPool) {
    let mut stripped = Vec::new();
    walk(file, Which::WithOptions, &mut |element, slot| {
        if !slot.is_set() {
            return;
        }
        let Some(options) = names::options_type(pool, slot.type_name()) else {
            return;
        };
        let before = slot.encode();
        let trace = RefCell::new(Trace {
            path: element.options_path.clone(),
            stripped: Vec::new(),
        });
        let canon = Canon {
            strip_source_retention: true,
            trace: Some(&trace),
        };
        let after = wire::canonical(&before, &options, pool, canon);
        if after == before {
            return;
        }
        stripped.extend(trace.into_inner().stripped);
        if after.is_empty() {
            slot.clear();
            stripped.push(element.options_path.clone());
        } else {
            let _ = slot.replace(&after);
        }
    });
    if let Some(info) = file.source_code_info.as_option_mut() {
        source_info::remove_stripped(&mut info.location, &stripped);
    }
}

/// The options of one element, being interpreted.
struct Pending {
    /// Where the element is and what it is.
    element: Element,
    /// Its uninterpreted options, as the parser wrote them.
    options: Vec<UninterpretedOption>,
    /// Its options message without them, encoded.
    base: Vec<u8>,
    /// The records interpreted so far, in order.
    records: Vec<u8>,
}

/// An error of one option: its message, and the source info paths of its
/// position, first found wins.
struct OptionError {
    /// Paths to try, in order.
    paths: Vec<Vec<i32>>,
    /// protoc's words.
    message: String,
}

impl OptionError {
    /// The diagnostic, located through `file`'s source info.
    fn diagnostic(&self, file: &FileDescriptorProto) -> Diagnostic {
        let found = file.source_code_info.as_option().and_then(|info| {
            self.paths
                .iter()
                .find(|path| info.location.iter().any(|l| &l.path == *path))
        });
        let path = found
            .or(self.paths.last())
            .map_or(&[][..], |p| p.as_slice());
        Diagnostic::at_path(file, path, self.message.clone())
    }
}

/// The state of one file's interpretation.
struct Interpreter<'a> {
    /// The file's imports and the file.
    pool: &'a DescriptorPool,
    /// The file's name.
    file: &'a str,
    /// The names the file sees.
    symbols: &'a Symbols<'a>,
    /// The errors so far, in protoc's order.
    errors: Vec<OptionError>,
    /// Source info paths of uninterpreted options, to the paths of the
    /// options they became.
    moved: HashMap<Vec<i32>, Vec<i32>>,
    /// How many values each repeated option has been given, by path.
    repeated_counts: HashMap<Vec<i32>, i32>,
}

impl Interpreter<'_> {
    /// Interprets the options of `target` of one pass: those whose name
    /// starts with an extension, or those that do not. Stops at the first
    /// error, as protoc does.
    fn interpret_pass(&mut self, target: &mut Pending, extensions: bool) {
        let Some(options_type) = names::options_type(self.pool, target.element.type_name) else {
            return;
        };
        let mut pass_records = Vec::new();
        for (index, option) in target.options.iter().enumerate() {
            let mut src = target.element.options_path.clone();
            src.extend([UNINTERPRETED_OPTION, index as i32]);
            let name_error = |message: String| OptionError {
                paths: vec![[src.as_slice(), &[2]].concat(), src.clone()],
                message,
            };
            let Some(first) = option.name.first() else {
                if extensions {
                    self.errors
                        .push(name_error("Option must have a name.".to_owned()));
                    return;
                }
                continue;
            };
            if first.name_part() == "uninterpreted_option" {
                if extensions {
                    self.errors.push(name_error(
                        "Option must not use reserved name \"uninterpreted_option\".".to_owned(),
                    ));
                    return;
                }
                continue;
            }
            if first.is_extension() != extensions {
                continue;
            }
            let resolved = match names::resolve(
                option,
                &options_type,
                &target.element.scope,
                self.file,
                self.symbols,
                self.pool,
            ) {
                Ok(resolved) => resolved,
                Err(message) => {
                    self.errors.push(name_error(message));
                    return;
                }
            };
            let (leaf, intermediate) = resolved
                .fields
                .split_last()
                .expect("a resolved name has a field");
            if leaf.cardinality() != Cardinality::Repeated
                && is_set(&pass_records, intermediate, leaf.number())
            {
                self.errors.push(name_error(format!(
                    "Option \"{}\" was already set.",
                    resolved.display
                )));
                return;
            }
            let record = match value::encode(leaf, option, self.pool, self.symbols) {
                Ok(record) => record,
                Err(message) => {
                    let paths = [3, 4, 5, 6, 7, 8]
                        .iter()
                        .map(|k| [src.as_slice(), &[*k]].concat())
                        .chain([src.clone()])
                        .collect();
                    self.errors.push(OptionError { paths, message });
                    return;
                }
            };
            let record = wrap(intermediate, &record);
            pass_records.extend_from_slice(&record);
            let mut dest = target.element.options_path.clone();
            dest.extend(resolved.fields.iter().map(|f| f.number() as i32));
            if leaf.cardinality() == Cardinality::Repeated {
                let count = self.repeated_counts.entry(dest.clone()).or_insert(0);
                let index = *count;
                *count += 1;
                dest.push(index);
            }
            self.moved.insert(src, dest);
        }
        target.records.extend_from_slice(&pass_records);
    }
}

/// `record` wrapped in a record per message of `intermediate` (the
/// outermost first): length-delimited, or a group. Built in one pass, so
/// that a name of many parts costs time in proportion to its length.
fn wrap(intermediate: &[FieldDescriptor], record: &[u8]) -> Vec<u8> {
    let varint_len = |v: u64| (64 - (v | 1).leading_zeros()).div_ceil(7) as usize;
    let tag_len = |n: u32| varint_len(u64::from(n) << 3);
    // sizes[i]: the size of what the i-th wrapper holds.
    let mut sizes = vec![0; intermediate.len()];
    let mut inner = record.len();
    for (i, field) in intermediate.iter().enumerate().rev() {
        sizes[i] = inner;
        inner += if field.is_group() {
            2 * tag_len(field.number())
        } else {
            tag_len(field.number()) + varint_len(inner as u64)
        };
    }
    let mut out = Vec::with_capacity(inner);
    for (field, size) in intermediate.iter().zip(&sizes) {
        if field.is_group() {
            put_tag(&mut out, field.number(), START_GROUP);
        } else {
            put_tag(&mut out, field.number(), LEN);
            wire::put_varint(&mut out, *size as u64);
        }
    }
    out.extend_from_slice(record);
    for field in intermediate.iter().rev() {
        if field.is_group() {
            put_tag(&mut out, field.number(), wire::END_GROUP);
        }
    }
    out
}

/// Whether `records` (one pass's records of an options message) already
/// set the field numbered `number` in the message reached through
/// `intermediate` (protoc's `ExamineIfOptionIsSet`).
fn is_set(records: &[u8], intermediate: &[FieldDescriptor], number: u32) -> bool {
    let mut level = vec![records];
    for field in intermediate {
        if !matches!(field.kind(), Kind::Message(_)) {
            return false;
        }
        let expected = if field.is_group() { START_GROUP } else { LEN };
        let mut next = Vec::new();
        for bytes in level {
            for record in wire::records(bytes).unwrap_or_default() {
                if record.number == field.number() && record.wire_type == expected {
                    next.push(record.value);
                }
            }
        }
        level = next;
    }
    level.iter().any(|bytes| {
        wire::records(bytes)
            .unwrap_or_default()
            .iter()
            .any(|r| r.number == number)
    })
}
