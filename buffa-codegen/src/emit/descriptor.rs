//! Embedded descriptors (with `reflection`): the encoded
//! `FileDescriptorSet` of the files a run generates and of their imports,
//! as protoc wrote them, held once by the run's first package module as
//! `FILE_DESCRIPTOR_SET` and decoded on first use by its
//! `descriptor_pool()`; every other package module of the run gets a
//! `descriptor_pool()` that forwards there, so all messages of a run share
//! one pool.
//!
//! The bytes are copied field by field from the input rather than decoded
//! and encoded again, so each file embedded is the bytes protoc wrote
//! (field order, encodings and unknown fields included). Source-retention options are removed from every
//! file, as protoc removes them from a descriptor set it writes (see
//! `retention.rs`), and `strip_source_info` drops each file's
//! `source_code_info` (its comments). They are emitted as one byte-string
//! literal, which compiles much faster than an array of numbers.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::context::Context;
use crate::emit::reflect;
use crate::emit::retention::RetentionRules;
use crate::emit::wire;
use crate::error::Error;
use crate::input::schema::{self, RustPath};

/// `FileDescriptorSet.file`.
const SET_FILE: u64 = 1;
/// `FileDescriptorProto.source_code_info`.
const FILE_SOURCE_CODE_INFO: u64 = 9;

/// Adds the descriptor pool items to the generated `packages` (by package
/// name: items, and whether they hold messages): `FILE_DESCRIPTOR_SET` and
/// `descriptor_pool()` to the first package with items, a forwarding
/// `descriptor_pool()` to each other Rust module with items (packages whose
/// names differ only in case share one).
pub(crate) fn add_descriptor_pool(
    context: &Context<'_>,
    descriptor_set: &[u8],
    packages: &mut BTreeMap<String, (TokenStream, bool)>,
) -> Result<(), Error> {
    let reflect = reflect::reflect_path(context)?;
    let cfg = reflect::reflection_cfg(context);
    let pool = quote!(#reflect::DescriptorPool);
    let mut holder: Option<Vec<String>> = None;
    let mut done: HashSet<Vec<String>> = HashSet::new();
    for (package, (items, _)) in packages.iter_mut() {
        let modules = schema::package_modules(package);
        if items.is_empty() || !done.insert(modules.clone()) {
            continue;
        }
        let item = match &holder {
            None => {
                let bytes = Literal::byte_string(&embedded_set(context, descriptor_set)?);
                holder = Some(modules);
                quote! {
                    /// The encoded `google.protobuf.FileDescriptorSet` of the
                    /// files this code was generated from and of their imports,
                    /// as protoc wrote it.
                    pub const FILE_DESCRIPTOR_SET: &[u8] = #bytes;

                    /// The descriptors of the files this code was generated from
                    /// and of their imports, decoded from `FILE_DESCRIPTOR_SET`
                    /// on first use. The messages of every package generated
                    /// with this one describe themselves from it.
                    #cfg
                    pub fn descriptor_pool() -> &'static #pool {
                        static POOL: ::std::sync::OnceLock<#pool> = ::std::sync::OnceLock::new();
                        POOL.get_or_init(|| #reflect::__private::decode_pool(FILE_DESCRIPTOR_SET))
                    }
                }
            }
            Some(holder) => {
                let target = RustPath::Local {
                    modules: holder.clone(),
                    name: "descriptor_pool".to_owned(),
                }
                .relative_to(&modules);
                let target: syn::Path = syn::parse_str(&target)
                    .map_err(|e| Error::new(format!("bad Rust path {target}: {e}")))?;
                quote! {
                    /// The descriptor pool of this code, which every package
                    /// generated with it shares (held by the package module with
                    /// `FILE_DESCRIPTOR_SET`).
                    #cfg
                    pub fn descriptor_pool() -> &'static #pool {
                        #target()
                    }
                }
            }
        };
        items.extend(item);
    }
    Ok(())
}

/// The encoded set to embed: the files being generated and everything
/// they import, directly or not, in the input's order, each as the input
/// holds it but without source-retention options (see `retention.rs`), and
/// without source info under `strip_source_info`.
fn embedded_set(context: &Context<'_>, descriptor_set: &[u8]) -> Result<Vec<u8>, Error> {
    let files = &context.schema.files;
    let mut wanted: BTreeSet<&str> = BTreeSet::new();
    let mut pending: Vec<&str> = files
        .iter()
        .filter(|f| f.generate)
        .map(|f| f.proto.name())
        .collect();
    while let Some(name) = pending.pop() {
        if wanted.insert(name)
            && let Some(file) = files.iter().find(|f| f.proto.name() == name)
        {
            pending.extend(file.proto.dependency.iter().map(String::as_str));
        }
    }
    let entries: Vec<&[u8]> = wire::fields(descriptor_set)?
        .into_iter()
        .filter(|field| field.number == SET_FILE)
        .map(|field| field.payload)
        .collect();
    if entries.len() != files.len() {
        return Err(Error::new(
            "invalid FileDescriptorSet: its files do not match its decoded form",
        ));
    }
    let retention = RetentionRules::new(files.iter().map(|file| file.proto));
    let mut out = Vec::new();
    for (file, entry) in files.iter().zip(entries) {
        if !wanted.contains(file.proto.name()) {
            continue;
        }
        let stripped = retention.strip_file(entry)?;
        let entry = stripped.as_deref().unwrap_or(entry);
        if context.options.strip_source_info {
            let mut encoded = Vec::with_capacity(entry.len());
            for field in wire::fields(entry)? {
                if field.number != FILE_SOURCE_CODE_INFO {
                    encoded.extend_from_slice(field.whole);
                }
            }
            wire::put_len(&mut out, SET_FILE, &encoded);
        } else {
            wire::put_len(&mut out, SET_FILE, entry);
        }
    }
    Ok(out)
}
