//! Cross-linking, as protoc's `DescriptorBuilder::CrossLinkFile`: every type
//! name, extendee and method type resolved to its full name with C++'s
//! scoping rules, field types set from what the names denote, and the
//! errors protoc reports on the way, in its order (nested messages before
//! the fields of their parent, then extensions, then services).

use std::collections::HashMap;

use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};

use super::locate::{ErrorLocation, Located};
use super::scope::{Lookup, LookupMode, SymbolKind, lookup};
use super::symbols::{Staged, join};

/// Resolves the names of `file` against `symbols`, returning the errors.
pub(crate) fn cross_link(file: &mut FileDescriptorProto, symbols: &Staged<'_>) -> Vec<Located> {
    let mut linker = CrossLinker {
        symbols,
        errors: Vec::new(),
        extension_numbers: HashMap::new(),
    };
    let package = file.package().to_owned();
    let mut path = Vec::new();
    for (i, message) in file.message_type.iter_mut().enumerate() {
        path.clear();
        path.extend([4, i as i32]);
        linker.message(message, &package, &mut path);
    }
    for (i, extension) in file.extension.iter_mut().enumerate() {
        linker.field(extension, &package, &[7, i as i32], None);
    }
    for (i, service) in file.service.iter_mut().enumerate() {
        let service_name = join(&package, service.name());
        for (j, method) in service.method.iter_mut().enumerate() {
            let full = join(&service_name, method.name());
            let path = [6, i as i32, 2, j as i32];
            if let Some(name) =
                linker.resolve_message(method.input_type(), &full, &path, ErrorLocation::InputType)
            {
                method.input_type = Some(name);
            }
            if let Some(name) = linker.resolve_message(
                method.output_type(),
                &full,
                &path,
                ErrorLocation::OutputType,
            ) {
                method.output_type = Some(name);
            }
        }
    }
    linker.errors
}

/// The state of one cross-linking pass.
struct CrossLinker<'a, 'b> {
    /// The symbols the file sees.
    symbols: &'a Staged<'b>,
    /// Errors found so far, in protoc's order.
    errors: Vec<Located>,
    /// The file's extensions so far by extendee and number, with their
    /// full names.
    extension_numbers: HashMap<(String, i32), String>,
}

impl CrossLinker<'_, '_> {
    /// Cross-links a message: its nested messages, then its fields, then
    /// its extensions.
    fn message(&mut self, message: &mut DescriptorProto, scope: &str, path: &mut Vec<i32>) {
        let full = join(scope, message.name());
        let base = path.len();
        for (i, nested) in message.nested_type.iter_mut().enumerate() {
            path.extend([3, i as i32]);
            self.message(nested, &full, path);
            path.truncate(base);
        }
        let mut numbers: HashMap<i32, usize> = HashMap::new();
        // The suggestion of a free number, the same for every clash.
        let mut next: Option<String> = None;
        for i in 0..message.field.len() {
            path.extend([2, i as i32]);
            let number = message.field[i].number();
            let conflict = match numbers.get(&number) {
                Some(&first) => Some(first),
                None => {
                    numbers.insert(number, i);
                    None
                }
            };
            let conflict = conflict.map(|first| {
                let name = message.field[first].name().to_owned();
                let next = next
                    .get_or_insert_with(|| next_available_number(message))
                    .clone();
                (name, next)
            });
            let field = &mut message.field[i];
            self.field(field, &full, path, conflict.map(|c| (c, full.as_str())));
            path.truncate(base);
        }
        for (i, extension) in message.extension.iter_mut().enumerate() {
            path.extend([6, i as i32]);
            self.field(extension, &full, path, None);
            path.truncate(base);
        }
    }

    /// Resolves `name` as written inside `relative_to`, reporting protoc's
    /// "not defined" errors when it does not resolve.
    fn lookup(
        &mut self,
        name: &str,
        relative_to: &str,
        mode: LookupMode,
        path: &[i32],
        location: ErrorLocation,
    ) -> Option<(String, SymbolKind)> {
        *self.symbols.undeclared.borrow_mut() = None;
        let found = lookup(name, relative_to, mode, |n| self.symbols.find(n));
        let partly = match found {
            Lookup::Found(full, kind) => return Some((full, kind)),
            Lookup::PartlyResolved(full) => Some(full),
            Lookup::NotFound => None,
        };
        let undeclared = self.symbols.undeclared.borrow_mut().take();
        if undeclared.is_none() && partly.is_none() {
            self.error(path, location, format!("\"{name}\" is not defined."));
        }
        if let Some((tried, file)) = undeclared {
            self.error(
                path,
                location,
                format!(
                    "\"{tried}\" seems to be defined in \"{}\", which is not imported by \"{}\".  \
                     To use it here, please add the necessary import.",
                    self.symbols.file_name(file),
                    self.symbols.name(),
                ),
            );
        }
        if let Some(full) = partly {
            self.error(
                path,
                location,
                format!(
                    "\"{name}\" is resolved to \"{full}\", which is not defined. The innermost \
                     scope is searched first in name resolution. Consider using a leading \
                     '.'(i.e., \".{name}\") to start from the outermost scope."
                ),
            );
        }
        None
    }

    /// Resolves a method's input or output type, which must be a message.
    fn resolve_message(
        &mut self,
        name: &str,
        relative_to: &str,
        path: &[i32],
        location: ErrorLocation,
    ) -> Option<String> {
        let (full, kind) =
            self.lookup(name, relative_to, LookupMode::AllSymbols, path, location)?;
        if kind != SymbolKind::Message {
            self.error(path, location, format!("\"{name}\" is not a message type."));
            return None;
        }
        if let Some(message) = self.symbols.visibility_error(&full, "") {
            self.error(path, location, message);
            return None;
        }
        Some(format!(".{full}"))
    }

    /// Cross-links a field or extension declared in `scope`; `conflict` is
    /// the field of the same message already numbered like it (its name
    /// and the next free number) and the message's full name.
    fn field(
        &mut self,
        field: &mut FieldDescriptorProto,
        scope: &str,
        path: &[i32],
        conflict: Option<((String, String), &str)>,
    ) {
        let full = join(scope, field.name());
        if let Some(extendee) = field.extendee.clone() {
            let Some((target, kind)) = self.lookup(
                &extendee,
                &full,
                LookupMode::AllSymbols,
                path,
                ErrorLocation::Extendee,
            ) else {
                return;
            };
            if kind != SymbolKind::Message {
                self.error(
                    path,
                    ErrorLocation::Extendee,
                    format!("\"{extendee}\" is not a message type."),
                );
                return;
            }
            if let Some(message) = self.symbols.visibility_error(&target, "target of extend") {
                self.error(path, ErrorLocation::Extendee, message);
                return;
            }
            if !self.symbols.is_extension_number(&target, field.number()) {
                self.error(
                    path,
                    ErrorLocation::Number,
                    format!(
                        "\"{target}\" does not declare {} as an extension number.",
                        field.number()
                    ),
                );
            }
            field.extendee = Some(format!(".{target}"));
        }
        if let Some(type_name) = field.type_name.clone() {
            let Some((target, kind)) = self.lookup(
                &type_name,
                &full,
                LookupMode::Types,
                path,
                ErrorLocation::Type,
            ) else {
                return;
            };
            if let Some(message) = self.symbols.visibility_error(&target, "") {
                self.error(path, ErrorLocation::Type, message);
                return;
            }
            if field.r#type.is_none() {
                field.r#type = match kind {
                    SymbolKind::Message => Some(Type::Message),
                    SymbolKind::Enum => Some(Type::Enum),
                    _ => {
                        self.error(
                            path,
                            ErrorLocation::Type,
                            format!("\"{type_name}\" is not a type."),
                        );
                        return;
                    }
                };
            }
            match field.r#type {
                Some(Type::Message | Type::Group) => {
                    if kind != SymbolKind::Message {
                        self.error(
                            path,
                            ErrorLocation::Type,
                            format!("\"{type_name}\" is not a message type."),
                        );
                        return;
                    }
                    if field.default_value.is_some() {
                        self.error(
                            path,
                            ErrorLocation::DefaultValue,
                            "Messages can't have default values.".to_owned(),
                        );
                    }
                }
                Some(Type::Enum) => {
                    if kind != SymbolKind::Enum {
                        self.error(
                            path,
                            ErrorLocation::Type,
                            format!("\"{type_name}\" is not an enum type."),
                        );
                        return;
                    }
                    if let Some(value) = &field.default_value {
                        if !buffa_descriptor::rules::is_identifier(value) {
                            self.error(
                                path,
                                ErrorLocation::DefaultValue,
                                "Default value for an enum field must be an identifier.".to_owned(),
                            );
                        } else if !self.symbols.enum_has_value(&target, value) {
                            self.error(
                                path,
                                ErrorLocation::DefaultValue,
                                format!("Enum type \"{target}\" has no value named \"{value}\"."),
                            );
                        }
                    }
                }
                _ => {
                    self.error(
                        path,
                        ErrorLocation::Type,
                        "Field with primitive type has type_name.".to_owned(),
                    );
                }
            }
            field.type_name = Some(format!(".{target}"));
        }
        if let Some(((other, next), message)) = conflict {
            self.error(
                path,
                ErrorLocation::Number,
                format!(
                    "Field number {} has already been used in \"{message}\" by field \"{other}\". \
                     {next}.",
                    field.number()
                ),
            );
        } else if let Some(extendee) = &field.extendee {
            let key = (extendee.clone(), field.number());
            match self.extension_numbers.get(&key) {
                Some(other) => {
                    let message = format!(
                        "Extension number {} has already been used in \"{}\" by extension \
                         \"{other}\".",
                        field.number(),
                        &extendee[1..]
                    );
                    self.error(path, ErrorLocation::Number, message);
                }
                None => {
                    self.extension_numbers.insert(key, full);
                }
            }
        }
    }

    /// Records an error.
    fn error(&mut self, path: &[i32], location: ErrorLocation, message: String) {
        self.errors
            .push(Located::new(path.to_vec(), location, message));
    }
}

/// protoc's suggestion for a clashing field number: the first number
/// after 1 not taken by a field, an extension range or a reserved range.
fn next_available_number(message: &DescriptorProto) -> String {
    let mut used: Vec<(i64, i64)> = message
        .field
        .iter()
        .map(|f| (i64::from(f.number()), i64::from(f.number())))
        .collect();
    used.extend(
        message
            .extension_range
            .iter()
            .map(|r| (i64::from(r.start()), i64::from(r.end()) - 1)),
    );
    used.extend(
        message
            .reserved_range
            .iter()
            .map(|r| (i64::from(r.start()), i64::from(r.end()) - 1)),
    );
    used.sort_unstable();
    used.dedup();
    let mut proposed = 1i64;
    for (start, end) in used {
        if start <= proposed && proposed <= end {
            proposed = end + 1;
        } else {
            break;
        }
    }
    if proposed < (1 << 29) {
        format!("Next available field number is {proposed}")
    } else {
        "There are no available field numbers".to_owned()
    }
}
