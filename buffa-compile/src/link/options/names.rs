//! Option names: `java_package`, `(my.ext)`, `(my.ext).sub.field`,
//! `features.(pb.cpp).legacy_closed_enum`, resolved to the fields they set
//! as protoc resolves them, with protoc's errors.

use foldhash::HashMap;
use std::cell::OnceCell;

use buffa_descriptor::{Cardinality, DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};
use buffa_reflect::ReflectMessage;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, EnumOptions, EnumValueOptions, ExtensionRangeOptions,
    FieldOptions, FileDescriptorProto, FileOptions, MessageOptions, MethodOptions, OneofOptions,
    ServiceOptions, UninterpretedOption,
};

use crate::link::scope::{self, Lookup, LookupMode, SymbolKind};

/// descriptor.proto's options message `type_name` (`google.protobuf.
/// FileOptions`, ...): the pool's own when it holds descriptor.proto,
/// else the one protoc knows without it (buffa-reflect's built-in copy).
pub(crate) fn options_type(pool: &DescriptorPool, type_name: &str) -> Option<MessageDescriptor> {
    if let Some(message) = pool.get_message_by_name(type_name) {
        return Some(message);
    }
    let builtin = match type_name {
        "google.protobuf.FileOptions" => FileOptions::default().descriptor(),
        "google.protobuf.MessageOptions" => MessageOptions::default().descriptor(),
        "google.protobuf.FieldOptions" => FieldOptions::default().descriptor(),
        "google.protobuf.OneofOptions" => OneofOptions::default().descriptor(),
        "google.protobuf.EnumOptions" => EnumOptions::default().descriptor(),
        "google.protobuf.EnumValueOptions" => EnumValueOptions::default().descriptor(),
        "google.protobuf.ExtensionRangeOptions" => ExtensionRangeOptions::default().descriptor(),
        "google.protobuf.ServiceOptions" => ServiceOptions::default().descriptor(),
        "google.protobuf.MethodOptions" => MethodOptions::default().descriptor(),
        _ => return None,
    };
    Some(builtin)
}

/// The names a file sees (its own, its imports', and what those import
/// publicly), built on first use: most files set no custom option.
pub(crate) struct Symbols<'a> {
    /// The pool holding the file's imports.
    pool: &'a DescriptorPool,
    /// The file, whose own names are read from it (it need not be in
    /// the pool).
    file: &'a FileDescriptorProto,
    /// Every visible name and what it denotes, once built.
    table: OnceCell<HashMap<String, SymbolKind>>,
}

impl<'a> Symbols<'a> {
    /// The names visible to `file`, whose imports are in `pool`.
    pub(crate) fn new(pool: &'a DescriptorPool, file: &'a FileDescriptorProto) -> Symbols<'a> {
        Symbols {
            pool,
            file,
            table: OnceCell::new(),
        }
    }

    /// What `full_name` denotes, if the file sees it.
    pub(crate) fn find(&self, full_name: &str) -> Option<SymbolKind> {
        self.table
            .get_or_init(|| self.build())
            .get(full_name)
            .copied()
    }

    /// Indexes the visible files.
    fn build(&self) -> HashMap<String, SymbolKind> {
        let mut table = HashMap::default();
        let mut visible = Vec::new();
        // Options also see the files imported with `import option`.
        let mut queue: Vec<_> = self
            .file
            .dependency
            .iter()
            .chain(&self.file.option_dependency)
            .filter_map(|name| self.pool.get_file_by_name(name))
            .collect();
        while let Some(dependency) = queue.pop() {
            if visible.contains(&dependency) {
                continue;
            }
            queue.extend(dependency.public_dependencies());
            visible.push(dependency);
        }
        for file in visible {
            index_file(file.file_descriptor_proto(), &mut table);
        }
        index_file(self.file, &mut table);
        table
    }
}

/// Adds the names `file` defines to `table`.
fn index_file(file: &FileDescriptorProto, table: &mut HashMap<String, SymbolKind>) {
    let package = file.package.as_deref().unwrap_or_default();
    if !package.is_empty() {
        let mut prefix = String::new();
        for part in package.split('.') {
            if !prefix.is_empty() {
                prefix.push('.');
            }
            prefix.push_str(part);
            table.entry(prefix.clone()).or_insert(SymbolKind::Package);
        }
    }
    for message in &file.message_type {
        index_message(package, message, table);
    }
    for enum_type in &file.enum_type {
        index_enum(package, enum_type, table);
    }
    for extension in &file.extension {
        table.insert(join(package, extension.name()), SymbolKind::Extension);
    }
    for service in &file.service {
        let name = join(package, service.name());
        for method in &service.method {
            table.insert(join(&name, method.name()), SymbolKind::Method);
        }
        table.insert(name, SymbolKind::Service);
    }
}

/// Adds a message's names (nested ones included) to `table`.
fn index_message(scope: &str, message: &DescriptorProto, table: &mut HashMap<String, SymbolKind>) {
    let name = join(scope, message.name());
    for field in &message.field {
        table.insert(join(&name, field.name()), SymbolKind::Field);
    }
    for oneof in &message.oneof_decl {
        table.insert(join(&name, oneof.name()), SymbolKind::Oneof);
    }
    for extension in &message.extension {
        table.insert(join(&name, extension.name()), SymbolKind::Extension);
    }
    for nested in &message.nested_type {
        index_message(&name, nested, table);
    }
    for enum_type in &message.enum_type {
        index_enum(&name, enum_type, table);
    }
    table.insert(name, SymbolKind::Message);
}

/// Adds an enum and its values (which live beside it) to `table`.
fn index_enum(
    scope: &str,
    enum_type: &EnumDescriptorProto,
    table: &mut HashMap<String, SymbolKind>,
) {
    for value in &enum_type.value {
        table
            .entry(join(scope, value.name()))
            .or_insert(SymbolKind::EnumValue);
    }
    table.insert(join(scope, enum_type.name()), SymbolKind::Enum);
}

/// `scope.name`, or `name` in the root scope.
pub(crate) fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_owned()
    } else {
        format!("{scope}.{name}")
    }
}

/// The fields an option name goes through, the last being the one it sets.
pub(crate) struct ResolvedName {
    /// The fields, outermost first.
    pub(crate) fields: Vec<FieldDescriptor>,
    /// The name as protoc prints it in errors: `(my.ext).sub`.
    pub(crate) display: String,
}

/// Resolves the name of `option`, set on an element whose options are
/// `options` and whose full name is `scope`, in file `file`.
pub(crate) fn resolve(
    option: &UninterpretedOption,
    options: &MessageDescriptor,
    scope: &str,
    file: &str,
    symbols: &Symbols<'_>,
    pool: &DescriptorPool,
) -> Result<ResolvedName, String> {
    let mut descriptor = options.clone();
    let mut fields: Vec<FieldDescriptor> = Vec::new();
    let mut display = String::new();
    let count = option.name.len();
    for (i, part) in option.name.iter().enumerate() {
        let name = part.name_part();
        if !display.is_empty() {
            display.push('.');
        }
        let mut partly_resolved = None;
        let field = if part.is_extension() {
            display.push('(');
            display.push_str(name);
            display.push(')');
            match scope::lookup(name, scope, LookupMode::AllSymbols, |n| symbols.find(n)) {
                Lookup::Found(full, SymbolKind::Extension) => pool.get_extension_by_name(&full),
                Lookup::Found(full, SymbolKind::Field) => {
                    full.rsplit_once('.').and_then(|(parent, last)| {
                        pool.get_message_by_name(parent)?.get_field_by_name(last)
                    })
                }
                Lookup::Found(..) | Lookup::NotFound => None,
                Lookup::PartlyResolved(full) => {
                    partly_resolved = Some(full);
                    None
                }
            }
        } else {
            display.push_str(name);
            descriptor.get_field_by_name(name)
        };
        let Some(field) = field else {
            if let Some(full) = partly_resolved {
                return Err(format!(
                    "Option \"{display}\" is resolved to \"({full})\", which is not defined. The innermost scope is searched first in name resolution. Consider using a leading '.'(i.e., \"(.{}\") to start from the outermost scope.",
                    &display[1..]
                ));
            }
            return Err(format!(
                "Option \"{display}\" unknown. Ensure that your proto definition file imports the proto which defines the option (i.e. via import option after edition 2024)."
            ));
        };
        if field.containing_message().full_name() != descriptor.full_name() {
            return Err(format!(
                "Option field \"{display}\" is not a field or extension of message \"{}\".",
                descriptor.name()
            ));
        }
        if field.parent_file().name() == file
            && option.name[0].name_part() == "features"
            && !option.name[0].is_extension()
        {
            return Err(format!(
                "Feature \"{display}\" can't be used in the same file it's defined in."
            ));
        }
        if i + 1 < count {
            let Kind::Message(message) = field.kind() else {
                return Err(format!(
                    "Option \"{display}\" is an atomic type, not a message."
                ));
            };
            if field.cardinality() == Cardinality::Repeated {
                return Err(format!(
                    "Option field \"{display}\" is a repeated message. Repeated message options must be initialized using an aggregate value."
                ));
            }
            descriptor = message;
        }
        fields.push(field);
    }
    Ok(ResolvedName { fields, display })
}
