//! Which files of a descriptor set generated code needs: option imports
//! (`import option "...";`, edition 2024) are read by protoc to interpret
//! options, whose values it then serializes into the importing file's
//! descriptors, so code for them is needed only when asked for.

use std::collections::HashSet;

use buffa_types::google::protobuf::FileDescriptorProto;

use crate::options::Options;

/// The (name, package) of each of `files` that code is generated for, in the set's order: every file but
/// those whose package an extern path in force covers
/// ([`Options::is_extern_package`]) and those that only option imports
/// reach from the files `requested` names.
pub fn files_with_code<'f>(
    files: &'f [FileDescriptorProto],
    requested: &[impl AsRef<str>],
    options: &Options,
) -> Vec<(&'f str, &'f str)> {
    let option_only = option_only_imports(files, requested);
    files
        .iter()
        .map(|file| (file.name(), file.package()))
        .filter(|(name, package)| {
            !options.is_extern_package(package) && !option_only.contains(name)
        })
        .collect()
}

/// The names of the `files` that only option imports reach: those not
/// reachable through regular (or public) imports from a root, where the
/// roots are the files `requested` names and the files nothing imports.
/// Generating them is not needed for the other files' code to compile or
/// run.
fn option_only_imports<'f>(
    files: &'f [FileDescriptorProto],
    requested: &[impl AsRef<str>],
) -> HashSet<&'f str> {
    let imported: HashSet<&str> = files
        .iter()
        .flat_map(|file| file.dependency.iter().chain(&file.option_dependency))
        .map(String::as_str)
        .collect();
    let mut reached: HashSet<&str> = HashSet::new();
    let mut pending: Vec<&str> = files
        .iter()
        .map(|file| file.name())
        .filter(|name| !imported.contains(name) || requested.iter().any(|r| r.as_ref() == *name))
        .collect();
    while let Some(name) = pending.pop() {
        if !reached.insert(name) {
            continue;
        }
        if let Some(file) = files.iter().find(|file| file.name() == name) {
            pending.extend(file.dependency.iter().map(String::as_str));
        }
    }
    files
        .iter()
        .map(|file| file.name())
        .filter(|name| !reached.contains(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files `(name, imports, option imports)`.
    fn set(files: &[(&str, &[&str], &[&str])]) -> Vec<FileDescriptorProto> {
        let names = |names: &[&str]| names.iter().map(|s| (*s).into()).collect();
        files
            .iter()
            .map(|(name, imports, option_imports)| FileDescriptorProto {
                name: Some((*name).into()),
                dependency: names(imports),
                option_dependency: names(option_imports),
                ..Default::default()
            })
            .collect()
    }

    fn option_only(files: &[FileDescriptorProto], requested: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = option_only_imports(files, requested)
            .into_iter()
            .map(str::to_owned)
            .collect();
        names.sort();
        names
    }

    #[test]
    fn files_reached_only_by_option_imports() {
        // main imports a (regularly) and opts (for options); opts imports
        // descriptor and shared; a imports shared too.
        let chain = set(&[
            ("descriptor.proto", &[], &[]),
            ("shared.proto", &[], &[]),
            ("opts.proto", &["descriptor.proto", "shared.proto"], &[]),
            ("a.proto", &["shared.proto"], &[]),
            ("main.proto", &["a.proto"], &["opts.proto"]),
        ]);
        assert_eq!(option_only(&chain, &[]), ["descriptor.proto", "opts.proto"]);
        assert_eq!(
            files_with_code(&chain, &[] as &[&str], &Options::default()),
            [("shared.proto", ""), ("a.proto", ""), ("main.proto", "")]
        );
        // Asking for the options file generates it and its imports.
        assert!(option_only(&chain, &["opts.proto"]).is_empty());
        // Without option imports every file is needed.
        let plain = set(&[("a.proto", &[], &[]), ("b.proto", &["a.proto"], &[])]);
        assert!(option_only(&plain, &[]).is_empty());
    }
}
