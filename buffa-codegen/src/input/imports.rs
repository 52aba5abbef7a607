//! Which files of a descriptor set generated code needs: option imports
//! (`import option "...";`, edition 2024) are read by protoc to interpret
//! options, whose values it then serializes into the importing file's
//! descriptors, so code for them is needed only when asked for.

use std::collections::HashSet;

use prost::Message as _;
use prost_types::FileDescriptorSet;

use crate::error::Error;
use crate::input::features;
use crate::options::Options;

/// The (name, package) of each file of the encoded `FileDescriptorSet`
/// that code is generated for, in the set's order: every file but those
/// whose package an extern path in force covers
/// ([`Options::is_extern_package`]) and those that only option imports
/// reach (`import option "...";`, edition 2024) from the files
/// `requested` names. buffa-build and protoc-gen-buffa both choose their
/// files by this rule (the plugin then keeps the packages of the files
/// protoc asks for).
pub fn files_with_code(
    descriptor_set: &[u8],
    requested: &[String],
    options: &Options,
) -> Result<Vec<(String, String)>, Error> {
    let option_only = option_only_imports(descriptor_set, requested)?;
    Ok(file_packages(descriptor_set)?
        .into_iter()
        .filter(|(name, package)| {
            !options.is_extern_package(package) && !option_only.contains(name)
        })
        .collect())
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

/// The files of the encoded `FileDescriptorSet` that only option imports
/// reach: those not reachable through regular (or public) imports from a
/// root, where the roots are the files `requested` names and the files
/// nothing imports. Generating them is not needed for the other files'
/// code to compile or run.
fn option_only_imports(descriptor_set: &[u8], requested: &[String]) -> Result<Vec<String>, Error> {
    let invalid = |e: prost::DecodeError| Error::new(format!("invalid FileDescriptorSet: {e}"));
    let set = FileDescriptorSet::decode(descriptor_set).map_err(invalid)?;
    let overlay = features::decode_overlay(descriptor_set).map_err(invalid)?;
    let imported: HashSet<&str> = set
        .file
        .iter()
        .zip(&overlay.file)
        .flat_map(|(file, overlay)| file.dependency.iter().chain(&overlay.option_dependency))
        .map(String::as_str)
        .collect();
    let mut reached: HashSet<&str> = HashSet::new();
    let mut pending: Vec<&str> = set
        .file
        .iter()
        .map(|file| file.name())
        .filter(|name| !imported.contains(name) || requested.iter().any(|r| r == name))
        .collect();
    while let Some(name) = pending.pop() {
        if !reached.insert(name) {
            continue;
        }
        if let Some(file) = set.file.iter().find(|file| file.name() == name) {
            pending.extend(file.dependency.iter().map(String::as_str));
        }
    }
    Ok(set
        .file
        .iter()
        .map(|file| file.name())
        .filter(|name| !reached.contains(name))
        .map(str::to_owned)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of `(name, imports, option imports)`, encoded with the option
    /// imports in field 15 as protoc writes them.
    fn set(files: &[(&str, &[&str], &[&str])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, imports, option_imports) in files {
            let file = prost_types::FileDescriptorProto {
                name: Some((*name).into()),
                dependency: imports.iter().map(|s| (*s).into()).collect(),
                ..Default::default()
            };
            let mut bytes = file.encode_to_vec();
            for import in *option_imports {
                prost::encoding::string::encode(15, &(*import).to_owned(), &mut bytes);
            }
            prost::encoding::bytes::encode(1, &bytes, &mut out);
        }
        out
    }

    #[test]
    fn files_reached_only_by_option_imports() {
        // main imports a (regularly) and opts (for options); opts imports
        // descriptor and shared; a imports shared too.
        let bytes = set(&[
            ("descriptor.proto", &[], &[]),
            ("shared.proto", &[], &[]),
            ("opts.proto", &["descriptor.proto", "shared.proto"], &[]),
            ("a.proto", &["shared.proto"], &[]),
            ("main.proto", &["a.proto"], &["opts.proto"]),
        ]);
        assert_eq!(
            option_only_imports(&bytes, &[]).unwrap(),
            ["descriptor.proto", "opts.proto"]
        );
        // Asking for the options file generates it and its imports.
        assert!(
            option_only_imports(&bytes, &["opts.proto".into()])
                .unwrap()
                .is_empty()
        );
        // Without option imports every file is needed.
        let plain = set(&[("a.proto", &[], &[]), ("b.proto", &["a.proto"], &[])]);
        assert!(option_only_imports(&plain, &[]).unwrap().is_empty());
        assert!(option_only_imports(b"\xff", &[]).is_err());
    }
}
