//! # buffa-codegen
//!
//! Turns protobuf descriptors into Rust source for the `buffa` runtime. It
//! is a pure function, [`generate`]: an encoded `FileDescriptorSet` and
//! [`Options`] in, formatted Rust files out, with no I/O, so it can be
//! tested on its own. `buffa-build` wraps it for build scripts.
//!
//! One file is produced per protobuf package (`shop.v1.rs`, or `_.rs` for
//! files without a package). Messages become structs implementing
//! `buffa::Message`, nested types live in a snake_case module named after
//! their message, enums become `#[repr(i32)]` Rust enums, and oneofs become
//! Rust enums held in an `Option`. References between packages are relative
//! (`super::...`), so the generated files must be mounted in modules that
//! mirror the package hierarchy; [`include_file`] writes such a tree.

#![warn(missing_docs)]

mod accessors;
mod boxing;
mod comments;
mod context;
mod defaults;
mod descriptor;
mod enumeration;
mod eq_hash;
mod error;
mod extension;
mod features;
mod field;
mod field_model;
mod ident;
mod imports;
mod json;
mod layout_report;
mod message;
mod message_graph;
mod names;
mod no_std;
mod oneof;
mod options;
mod path;
mod pointer;
mod references;
mod reflect;
mod retention;
mod runtime;
mod schema;
mod service;
mod size_estimate;
mod view;
mod view_size;
mod well_known;
mod wire;

use std::collections::BTreeMap;

use prost::Message as _;
use prost_types::FileDescriptorSet;
use quote::quote;

pub use error::Error;
pub use imports::files_with_code;
pub use options::{BytesRepr, Options, PointerRepr, StringRepr, TonicOptions};
pub use path::{PathRules, covers, normalize};

use boxing::BoxingPlan;
use comments::Comments;
use context::Context;
use eq_hash::EqHash;
use message_graph::MessageGraph;
use schema::Schema;

/// A generated Rust file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name: the package followed by `.rs`, or `_.rs`.
    pub name: String,
    /// The protobuf package it holds (empty for none).
    pub package: String,
    /// Formatted Rust source.
    pub content: String,
}

/// Generates Rust code for the files named in `files` (as protoc names
/// them, e.g. `shop/v1/shop.proto`) from `descriptor_set`, an encoded
/// `google.protobuf.FileDescriptorSet` that also holds all their imports.
pub fn generate(
    descriptor_set: &[u8],
    files: &[String],
    options: &Options,
) -> Result<Vec<GeneratedFile>, Error> {
    with_context(descriptor_set, files, options, |context| {
        generate_files(context, descriptor_set)
    })
}

/// The layout report of the messages of `files`: for each, the estimated
/// `size_of` of its generated struct on 64-bit targets, and where each of
/// its singular message fields and message-typed oneof variants is stored
/// (`Box`, inline or a custom pointer) and why. Takes the same arguments
/// as [`generate`]; the format is described in `docs/pointer-layout.md`.
pub fn layout_report(
    descriptor_set: &[u8],
    files: &[String],
    options: &Options,
) -> Result<String, Error> {
    with_context(descriptor_set, files, options, |context| {
        context.layout_report()
    })
}

/// Decodes `descriptor_set`, checks `options` against it, and runs `f` on
/// the context of the run.
fn with_context<T>(
    descriptor_set: &[u8],
    files: &[String],
    options: &Options,
    f: impl FnOnce(&Context<'_>) -> Result<T, Error>,
) -> Result<T, Error> {
    let set = FileDescriptorSet::decode(descriptor_set)
        .map_err(|e| Error::new(format!("invalid FileDescriptorSet: {e}")))?;
    let overlay = features::decode_overlay(descriptor_set)
        .map_err(|e| Error::new(format!("invalid FileDescriptorSet: {e}")))?;
    let buffa = runtime::crate_path(options)?;
    pointer::validate_templates(options)?;
    validate_attributes(options)?;
    service::check_options(options)?;
    no_std::check_options(options)?;
    let schema = Schema::new(&set.file, &overlay.file, files, options)?;
    validate_rule_paths(&schema, options)?;
    let boxing = BoxingPlan::new(MessageGraph::owned(&schema, options));
    let view_boxing = BoxingPlan::new(MessageGraph::views(&schema, options));
    let eq_hash = EqHash::new(&schema);
    let extensions = extension::declared_extensions(&schema);
    let context = Context {
        schema,
        extensions,
        boxing,
        view_boxing,
        eq_hash,
        buffa,
        alloc: no_std::alloc_crate(options),
        options,
        view_sizes: Default::default(),
        owned_layouts: Default::default(),
    };
    f(&context)
}

/// The Rust files of the packages being generated; `descriptor_set` is
/// the encoded input, embedded with `reflection`.
fn generate_files(
    context: &Context<'_>,
    descriptor_set: &[u8],
) -> Result<Vec<GeneratedFile>, Error> {
    let options = context.options;
    // Per package: its items, and whether any of them is a message (and
    // so calls the support API through the alias).
    let mut packages: BTreeMap<String, (proc_macro2::TokenStream, bool)> = BTreeMap::new();
    // Per Rust module: the packages mounted there, in order, each with the
    // messages its `register_types` adds (with `json`).
    type Registrations = Vec<(String, Vec<proc_macro2::TokenStream>)>;
    let mut json_messages: BTreeMap<Vec<String>, Registrations> = BTreeMap::new();
    for (file_index, file) in context.schema.files.iter().enumerate() {
        if !file.generate {
            continue;
        }
        let proto = file.proto;
        let package = proto.package();
        let prefix = path::package_prefix(package);
        let comments = if options.disable_comments {
            Comments::new(&Default::default())
        } else {
            Comments::new(proto)
        };
        let mut items = proc_macro2::TokenStream::new();
        let mut has_messages = false;
        for (index, message) in proto.message_type.iter().enumerate() {
            let message = context.generate_message(
                &format!("{prefix}.{}", message.name()),
                &[4, index as i32],
                &comments,
            )?;
            has_messages |= !message.is_empty();
            items.extend(message);
        }
        for (index, enumeration) in proto.enum_type.iter().enumerate() {
            let full_name = format!("{prefix}.{}", enumeration.name());
            if context.schema.enumeration(&full_name)?.rust.is_local() {
                items.extend(context.generate_enum(
                    &full_name,
                    enumeration,
                    &[5, index as i32],
                    &comments,
                ));
            }
        }
        // Extension constants name the runtime's support API too.
        let extensions = context.generate_file_extensions(file_index, &comments)?;
        has_messages |= !extensions.is_empty();
        items.extend(extensions);
        if options.reflection {
            items.extend(context.generate_file_reflection(proto)?);
        }
        items.extend(context.generate_file_services(proto, &comments)?);
        let entry = packages.entry(package.to_owned()).or_default();
        entry.0.extend(items);
        entry.1 |= has_messages;
        if options.json && !proto.message_type.is_empty() {
            let modules = schema::package_modules(package);
            let mut names = Vec::new();
            for message in &proto.message_type {
                json_message_names(context, &prefix, message, &mut names);
            }
            let in_module = json_messages.entry(modules.clone()).or_default();
            let messages = match in_module.iter_mut().find(|(p, _)| p == package) {
                Some((_, messages)) => messages,
                None => {
                    in_module.push((package.to_owned(), Vec::new()));
                    &mut in_module.last_mut().expect("just pushed").1
                }
            };
            for name in names {
                messages.push(context.type_path(&name, &modules)?);
            }
        }
    }
    // Packages whose names differ only in case share a Rust module, yet
    // each file compiles alone: in the order of their names, the first
    // such package's function is `register_types`, the next ones'
    // `register_types_2`, ...
    for in_module in json_messages.into_values() {
        let mut in_module: Vec<_> = in_module
            .into_iter()
            .filter(|(_, messages)| !messages.is_empty())
            .collect();
        in_module.sort_by(|a, b| a.0.cmp(&b.0));
        for (index, (package, messages)) in in_module.into_iter().enumerate() {
            let name = match index {
                0 => "register_types".to_owned(),
                n => format!("register_types_{}", n + 1),
            };
            let register = context.generate_register_types(&name, &messages);
            let entry = packages.entry(package).or_default();
            entry.0.extend(register);
            entry.1 = true;
        }
    }

    if options.reflection {
        descriptor::add_descriptor_pool(context, descriptor_set, &mut packages)?;
    }

    // Every file that holds messages imports the alias itself, so that it
    // compiles on its own; packages whose names differ only in case (`a.B`,
    // `a.b`) share one Rust module, where the imports are repeated globs of
    // one item and do not clash.
    let mut out = Vec::new();
    for (package, (items, has_messages)) in packages {
        if items.is_empty() {
            continue;
        }
        let alias = if has_messages {
            runtime::alias_item(&context.buffa)
        } else {
            quote!()
        };
        let tokens = quote!(#alias #items);
        let file: syn::File = syn::parse2(tokens).map_err(|e| {
            Error::new(format!(
                "generated code for package {package:?} does not parse: {e}"
            ))
        })?;
        let content = format!(
            "// @generated by buffa-codegen from the protobuf package `{package}`. Do not edit.\n\n{}",
            prettyplease::unparse(&file)
        );
        let name = if package.is_empty() {
            "_.rs".to_owned()
        } else {
            format!("{package}.rs")
        };
        out.push(GeneratedFile {
            name,
            package,
            content,
        });
    }
    Ok(out)
}

/// Appends the full names of `message` (named under `prefix`) and of the
/// messages nested in it that have generated JSON impls, map entries left
/// out.
fn json_message_names(
    context: &Context<'_>,
    prefix: &str,
    message: &prost_types::DescriptorProto,
    out: &mut Vec<String>,
) {
    let full_name = format!("{prefix}.{}", message.name());
    if message.options.as_ref().is_some_and(|o| o.map_entry()) {
        return;
    }
    if context.generates_json(&full_name)
        && context
            .schema
            .messages
            .get(&full_name)
            .is_some_and(|m| m.rust.is_local())
    {
        out.push(full_name.clone());
    }
    for nested in &message.nested_type {
        json_message_names(context, &full_name, nested, out);
    }
}

/// The (name, package) of every file in an encoded `FileDescriptorSet`.
pub fn file_packages(descriptor_set: &[u8]) -> Result<Vec<(String, String)>, Error> {
    let set = FileDescriptorSet::decode(descriptor_set)
        .map_err(|e| Error::new(format!("invalid FileDescriptorSet: {e}")))?;
    Ok(set
        .file
        .into_iter()
        .map(|f| (f.name().to_owned(), f.package().to_owned()))
        .collect())
}

/// A Rust file that mounts every generated package in a module tree
/// mirroring the package names (`shop.v1` in `pub mod shop { pub mod v1 {
/// ... } }`). It includes each package file by a path relative to itself,
/// so it must be written to the same directory as the package files.
pub fn include_file(files: &[GeneratedFile]) -> String {
    #[derive(Default)]
    struct Node {
        // Several packages can share a module: `a.B` and `a.b` are both
        // `a::b`.
        files: Vec<String>,
        children: BTreeMap<String, Node>,
    }
    let mut root = Node::default();
    for file in files {
        let mut node = &mut root;
        for segment in file.package.split('.').filter(|s| !s.is_empty()) {
            node = node.children.entry(ident::field_name(segment)).or_default();
        }
        node.files.push(file.name.clone());
    }
    fn render(node: &Node, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        for file in &node.files {
            out.push_str(&format!("{indent}include!(\"{file}\");\n"));
        }
        for (name, child) in &node.children {
            out.push_str(&format!("{indent}pub mod {name} {{\n"));
            render(child, depth + 1, out);
            out.push_str(&format!("{indent}}}\n"));
        }
    }
    let mut out = String::from("// @generated by buffa-codegen. Do not edit.\n");
    render(&root, 0, &mut out);
    out
}

fn validate_attributes(options: &Options) -> Result<(), Error> {
    let sets = [
        ("type_attribute", &options.type_attributes),
        ("message_attribute", &options.message_attributes),
        ("enum_attribute", &options.enum_attributes),
        ("field_attribute", &options.field_attributes),
    ];
    for (kind, set) in sets {
        for (path, attribute) in set.iter() {
            let tokens: proc_macro2::TokenStream = attribute.parse().map_err(|e| {
                Error::new(format!(
                    "{kind} for {path}: {attribute:?} is not valid Rust: {e}"
                ))
            })?;
            let parser = syn::Attribute::parse_outer;
            syn::parse::Parser::parse2(parser, tokens).map_err(|e| {
                Error::new(format!(
                    "{kind} for {path}: {attribute:?} is not an attribute: {e}"
                ))
            })?;
        }
    }
    Ok(())
}

/// Every path named in an option must cover something in the schema, so
/// that typos fail loudly instead of silently changing nothing.
fn validate_rule_paths(schema: &Schema<'_>, options: &Options) -> Result<(), Error> {
    let mut known: Vec<String> = Vec::new();
    for file in &schema.files {
        let prefix = path::package_prefix(file.proto.package());
        known.push(if prefix.is_empty() {
            ".".into()
        } else {
            prefix
        });
    }
    for (name, message) in &schema.messages {
        known.push(name.clone());
        known.extend(
            message
                .proto
                .field
                .iter()
                .map(|f| format!("{name}.{}", f.name())),
        );
        known.extend(
            message
                .proto
                .oneof_decl
                .iter()
                .map(|o| format!("{name}.{}", o.name())),
        );
    }
    known.extend(schema.enums.keys().cloned());
    let mut named: Vec<(&str, &str)> = Vec::new();
    named.extend(options.btree_maps.iter().map(|(p, _)| ("btree_map", p)));
    named.extend(options.strings.iter().map(|(p, _)| ("string_type", p)));
    named.extend(options.bytes.iter().map(|(p, _)| ("bytes_type", p)));
    named.extend(options.pointers.iter().map(|(p, _)| ("pointer", p)));
    named.extend(
        options
            .inline_max_size
            .iter()
            .map(|(p, _)| ("inline_max_size", p)),
    );
    named.extend(
        options
            .unboxed_oneofs
            .iter()
            .map(|(p, _)| ("unbox_oneof", p)),
    );
    named.extend(options.lazy_views.iter().map(|(p, _)| ("lazy_views", p)));
    named.extend(
        options
            .type_attributes
            .iter()
            .map(|(p, _)| ("type_attribute", p)),
    );
    named.extend(
        options
            .message_attributes
            .iter()
            .map(|(p, _)| ("message_attribute", p)),
    );
    named.extend(
        options
            .enum_attributes
            .iter()
            .map(|(p, _)| ("enum_attribute", p)),
    );
    named.extend(
        options
            .field_attributes
            .iter()
            .map(|(p, _)| ("field_attribute", p)),
    );
    for (kind, rule) in named {
        if rule != "." && !known.iter().any(|path| path::covers(rule, path)) {
            return Err(Error::new(format!(
                "{kind} rule names {rule}, which matches no package, message, enum or field"
            )));
        }
    }
    Ok(())
}
