//! Embedded descriptors (with `reflection`): the encoded
//! `FileDescriptorSet` of the files a run generates and of their imports,
//! as protoc wrote them, held once by the run's first package module as
//! `FILE_DESCRIPTOR_SET` and decoded on first use by its
//! `descriptor_pool()`; every other package module of the run gets a
//! `descriptor_pool()` that forwards there, so all messages of a run share
//! one pool.
//!
//! The bytes are copied field by field from the input rather than decoded
//! and encoded again, so nothing prost-types does not know (editions
//! features) is lost; `strip_source_info` drops each file's
//! `source_code_info` (its comments). They are emitted as one byte-string
//! literal, which compiles much faster than an array of numbers.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::context::Context;
use crate::error::Error;
use crate::schema::{self, RustPath};

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
    let reflect = context.reflect_path()?;
    let cfg = context.reflection_cfg();
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
/// holds it (without source info under `strip_source_info`).
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
    let entries: Vec<&[u8]> = fields(descriptor_set)?
        .into_iter()
        .filter(|field| field.number == SET_FILE)
        .map(|field| field.payload)
        .collect();
    if entries.len() != files.len() {
        return Err(Error::new(
            "invalid FileDescriptorSet: its files do not match its decoded form",
        ));
    }
    let mut out = Vec::new();
    for (file, entry) in files.iter().zip(entries) {
        if !wanted.contains(file.proto.name()) {
            continue;
        }
        let mut encoded = Vec::with_capacity(entry.len());
        if context.options.strip_source_info {
            for field in fields(entry)? {
                if field.number != FILE_SOURCE_CODE_INFO {
                    encoded.extend_from_slice(field.whole);
                }
            }
        } else {
            encoded.extend_from_slice(entry);
        }
        put_varint(&mut out, SET_FILE << 3 | 2);
        put_varint(&mut out, encoded.len() as u64);
        out.extend_from_slice(&encoded);
    }
    Ok(out)
}

/// One field of an encoded message.
struct RawField<'a> {
    number: u64,
    /// The field's bytes, key included.
    whole: &'a [u8],
    /// The value's bytes; for a length-delimited field, without the length.
    payload: &'a [u8],
}

/// The fields of an encoded message, in order. Groups are refused: the
/// messages read here (`FileDescriptorSet`, `FileDescriptorProto`) have
/// none at the top level.
fn fields(bytes: &[u8]) -> Result<Vec<RawField<'_>>, Error> {
    let invalid = || Error::new("invalid FileDescriptorSet: malformed encoding");
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let start = pos;
        let key = read_varint(bytes, &mut pos).ok_or_else(invalid)?;
        let value_start = pos;
        let (payload_start, end) = match key & 7 {
            0 => {
                read_varint(bytes, &mut pos).ok_or_else(invalid)?;
                (value_start, pos)
            }
            1 => (value_start, value_start + 8),
            2 => {
                let len = read_varint(bytes, &mut pos).ok_or_else(invalid)?;
                let len = usize::try_from(len).map_err(|_| invalid())?;
                (pos, pos.checked_add(len).ok_or_else(invalid)?)
            }
            5 => (value_start, value_start + 4),
            _ => return Err(invalid()),
        };
        if end > bytes.len() {
            return Err(invalid());
        }
        out.push(RawField {
            number: key >> 3,
            whole: &bytes[start..end],
            payload: &bytes[payload_start..end],
        });
        pos = end;
    }
    Ok(out)
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*pos)?;
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for value in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            let mut pos = 0;
            assert_eq!(read_varint(&out, &mut pos), Some(value));
            assert_eq!(pos, out.len());
        }
        assert_eq!(read_varint(&[0x80], &mut 0), None);
    }

    #[test]
    fn fields_split_every_wire_type() {
        // 1: varint 150, 2: fixed64, 3: "ab", 4: fixed32.
        let bytes = [
            0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 2, b'a', b'b', 0x25, 9, 9, 9, 9,
        ];
        let fields = fields(&bytes).unwrap();
        let numbers: Vec<u64> = fields.iter().map(|f| f.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        assert_eq!(fields[0].whole, &[0x08, 0x96, 0x01]);
        assert_eq!(fields[2].payload, b"ab");
        assert_eq!(fields[3].whole.len(), 5);
    }

    #[test]
    fn fields_refuse_truncated_and_group_input() {
        assert!(fields(&[0x1a, 5, b'a']).is_err());
        assert!(fields(&[0x11, 1, 2]).is_err());
        assert!(fields(&[0x0b]).is_err());
    }
}
