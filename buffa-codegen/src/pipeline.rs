//! The emit stage of a run, in order: each generated file's messages,
//! enums, extensions, reflection and services, then each package's
//! `register_types` (with `json`) and the descriptor pool (with
//! `reflection`), then each package's file. `run.rs` builds the
//! [`Context`] it reads.

use std::collections::BTreeMap;

use crate::context::Context;
use crate::emit::comments::Comments;
use crate::emit::package::{self, GeneratedFile};
use crate::emit::{descriptor, enumeration, extension, json, message, reflect, service};
use crate::error::Error;
use crate::input::schema;
use crate::path;

/// The Rust files of the packages being generated; `descriptor_set` is
/// the encoded input, embedded with `reflection`.
pub(crate) fn generate_files(
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
            let message = message::generate_message(
                context,
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
                items.extend(enumeration::generate_enum(
                    context,
                    &full_name,
                    enumeration,
                    &[5, index as i32],
                    &comments,
                ));
            }
        }
        // Extension constants name the runtime's support API too.
        let extensions = extension::generate_file_extensions(context, file_index, &comments)?;
        has_messages |= !extensions.is_empty();
        items.extend(extensions);
        if options.reflection {
            items.extend(reflect::generate_file_reflection(context, proto)?);
        }
        items.extend(service::generate_file_services(context, proto, &comments)?);
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
            let register = json::generate_register_types(context, &name, &messages);
            let entry = packages.entry(package).or_default();
            entry.0.extend(register);
            entry.1 = true;
        }
    }

    if options.reflection {
        descriptor::add_descriptor_pool(context, descriptor_set, &mut packages)?;
    }

    let mut out = Vec::new();
    for (package, (items, has_messages)) in packages {
        if items.is_empty() {
            continue;
        }
        out.push(package::file(package, items, has_messages, &context.buffa)?);
    }
    Ok(out)
}

/// Appends the full names of `message` (named under `prefix`) and of the
/// messages nested in it that have generated JSON impls, map entries left
/// out.
fn json_message_names(
    context: &Context<'_>,
    prefix: &str,
    message: &buffa_types::google::protobuf::DescriptorProto,
    out: &mut Vec<String>,
) {
    let full_name = format!("{prefix}.{}", message.name());
    if message.options.as_option().is_some_and(|o| o.map_entry()) {
        return;
    }
    if json::generates_json(context, &full_name)
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
