//! The schema being compiled: every message and enum by full name, with
//! its resolved features and its Rust path.

use std::collections::{HashMap, HashSet};

use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorProto};

use crate::error::Error;
use crate::features::{self, Features, FileOverlay, MessageOverlay};
use crate::ident;
use crate::options::Options;

/// One .proto file.
pub struct File<'a> {
    /// The file's descriptor.
    pub proto: &'a FileDescriptorProto,
    /// Its editions overlay.
    pub overlay: &'a FileOverlay,
    /// Features in force for its top-level fields (extensions).
    pub features: Features,
    /// Whether code is generated for it.
    pub generate: bool,
}

/// Where a type lives in Rust.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RustPath {
    /// Generated here: modules from the root of the generated tree, then
    /// the type name.
    Local {
        /// Module segments (package, then enclosing messages).
        modules: Vec<String>,
        /// The type's Rust name.
        name: String,
    },
    /// Provided by an `extern_path`: an absolute Rust path.
    Extern(String),
}

/// A message type.
pub struct MessageType<'a> {
    /// Its descriptor.
    pub proto: &'a DescriptorProto,
    /// Its editions overlay.
    pub overlay: &'a MessageOverlay,
    /// Features in force for its fields (before field-level overrides).
    pub features: Features,
    /// Its Rust path.
    pub rust: RustPath,
    /// The Rust module that holds its nested types, oneofs and enums.
    pub module: Vec<String>,
}

impl MessageType<'_> {
    /// The name of [`MessageType::module`], as generated code names it
    /// from the message's own module.
    pub fn module_ident(&self) -> syn::Ident {
        ident::ident(self.module.last().map(String::as_str).unwrap_or_default())
    }
}

/// An enum type.
pub struct EnumType<'a> {
    /// Its descriptor.
    pub proto: &'a EnumDescriptorProto,
    /// Whether it is closed (unknown numbers go to unknown fields).
    pub closed: bool,
    /// Its Rust path.
    pub rust: RustPath,
}

/// Every type of the compiled files and their imports.
pub struct Schema<'a> {
    /// Files in descriptor-set order.
    pub files: Vec<File<'a>>,
    /// Messages by full name (leading dot).
    pub messages: HashMap<String, MessageType<'a>>,
    /// Enums by full name (leading dot).
    pub enums: HashMap<String, EnumType<'a>>,
    /// The Rust names (types and modules, which share a namespace) taken
    /// in each generated module, by module path.
    pub names: HashMap<Vec<String>, HashSet<String>>,
}

impl<'a> Schema<'a> {
    /// Indexes `files`; `generate` names the files to emit code for.
    pub fn new(
        files: &'a [FileDescriptorProto],
        overlays: &'a [FileOverlay],
        generate: &[String],
        options: &Options,
    ) -> Result<Schema<'a>, Error> {
        let mut schema = Schema {
            files: Vec::new(),
            messages: HashMap::new(),
            enums: HashMap::new(),
            names: HashMap::new(),
        };
        let packages: Vec<Vec<String>> = files
            .iter()
            .map(|file| package_modules(file.package()))
            .collect();
        let extern_paths = options.effective_extern_paths();
        for (proto, overlay) in files.iter().zip(overlays) {
            let edition = features::file_edition(proto.syntax(), overlay.edition);
            let file_features = Features::for_edition(edition)
                .ok_or_else(|| {
                    Error::new(format!(
                        "{}: edition {} is not supported (buffa-codegen supports proto2, \
                         proto3 and editions 2023 and 2024)",
                        proto.name(),
                        features::edition_name(edition)
                    ))
                })?
                .merge(features::declared(&overlay.options));
            let package = proto.package();
            let prefix = crate::path::package_prefix(package);
            let modules = package_modules(package);
            let scope = Scope {
                prefix: &prefix,
                modules: &modules,
                packages: &packages,
                extern_paths: &extern_paths,
                features: file_features,
            };
            for (message, overlay) in proto.message_type.iter().zip(&overlay.message_type) {
                schema.add_message(message, overlay, &scope);
            }
            for (enumeration, overlay) in proto.enum_type.iter().zip(&overlay.enum_type) {
                schema.add_enum(enumeration, features::declared(&overlay.options), &scope);
            }
            schema.files.push(File {
                proto,
                overlay,
                features: file_features,
                generate: generate.iter().any(|name| name == proto.name()),
            });
        }
        for name in generate {
            if !schema.files.iter().any(|file| file.proto.name() == name) {
                return Err(Error::new(format!(
                    "file {name} is not in the descriptor set"
                )));
            }
        }
        crate::references::check(&schema)?;
        Ok(schema)
    }

    fn add_message(
        &mut self,
        proto: &'a DescriptorProto,
        overlay: &'a MessageOverlay,
        scope: &Scope<'_>,
    ) {
        let full_name = format!("{}.{}", scope.prefix, proto.name());
        let features = scope.features.merge(features::declared(&overlay.options));
        let name = self.claim(scope.modules, ident::type_name(proto.name()));
        let mut module = scope.modules.to_vec();
        // The module of nested types must not take the name of a package's
        // module (message `a.B` and package `a.b` both want `a::b`), nor a
        // name taken in its parent (by `_9` or `__`, which case conversion
        // leaves alone, or by another message: `foo_bar` and `FooBar`).
        let mut module_name = ident::module_name(proto.name());
        while self
            .names
            .get(scope.modules)
            .is_some_and(|taken| taken.contains(&module_name))
            || scope.packages.iter().any(|package| {
                package.len() > module.len()
                    && package.starts_with(&module)
                    && package[module.len()] == module_name
            })
        {
            module_name.push('_');
        }
        let module_name = self.claim(scope.modules, module_name);
        module.push(module_name);
        let nested = Scope {
            prefix: &full_name,
            modules: &module,
            packages: scope.packages,
            extern_paths: scope.extern_paths,
            features,
        };
        for (message, overlay) in proto.nested_type.iter().zip(&overlay.nested_type) {
            self.add_message(message, overlay, &nested);
        }
        for (enumeration, overlay) in proto.enum_type.iter().zip(&overlay.enum_type) {
            self.add_enum(enumeration, features::declared(&overlay.options), &nested);
        }
        let rust = rust_path(&full_name, scope.modules, name, scope.extern_paths);
        self.messages.insert(
            full_name,
            MessageType {
                proto,
                overlay,
                features,
                rust,
                module,
            },
        );
    }

    fn add_enum(
        &mut self,
        proto: &'a EnumDescriptorProto,
        declared: Option<&features::FeatureSet>,
        scope: &Scope<'_>,
    ) {
        let full_name = format!("{}.{}", scope.prefix, proto.name());
        let closed = scope.features.merge(declared).closed_enums;
        let name = self.claim(scope.modules, ident::type_name(proto.name()));
        let rust = rust_path(&full_name, scope.modules, name, scope.extern_paths);
        self.enums.insert(
            full_name,
            EnumType {
                proto,
                closed,
                rust,
            },
        );
    }

    /// Takes a Rust name in `module`: `base`, or `base` with underscores
    /// appended when types of different proto names convert to the same
    /// Rust name (`foo_bar` and `FooBar`).
    fn claim(&mut self, module: &[String], base: String) -> String {
        let taken = self.names.entry(module.to_vec()).or_default();
        let mut name = base;
        while !taken.insert(name.clone()) {
            name.push('_');
        }
        name
    }

    /// The message called `full_name`.
    pub fn message(&self, full_name: &str) -> Result<&MessageType<'a>, Error> {
        self.messages.get(full_name).ok_or_else(|| {
            Error::new(format!(
                "message type {full_name} is not in the descriptor set"
            ))
        })
    }

    /// The enum called `full_name`.
    pub fn enumeration(&self, full_name: &str) -> Result<&EnumType<'a>, Error> {
        self.enums.get(full_name).ok_or_else(|| {
            Error::new(format!(
                "enum type {full_name} is not in the descriptor set"
            ))
        })
    }
}

struct Scope<'s> {
    prefix: &'s str,
    modules: &'s [String],
    /// The module path of every package in the descriptor set.
    packages: &'s [Vec<String>],
    /// The extern paths in force (`Options::effective_extern_paths`).
    extern_paths: &'s [(String, String)],
    features: Features,
}

/// The module path of a package: `a.type` is `["a", "r#type"]`.
pub fn package_modules(package: &str) -> Vec<String> {
    package
        .split('.')
        .filter(|s| !s.is_empty())
        .map(ident::field_name)
        .collect()
}

/// The Rust path of the type `full_name`, honouring `extern_paths` (the
/// longest matching prefix wins).
fn rust_path(
    full_name: &str,
    modules: &[String],
    name: String,
    extern_paths: &[(String, String)],
) -> RustPath {
    let matched = extern_paths
        .iter()
        .filter(|(proto, _)| crate::path::covers(proto, full_name))
        .max_by_key(|(proto, _)| proto.len());
    match matched {
        Some((proto, rust)) => {
            let rest = full_name[proto.trim_end_matches('.').len()..].trim_start_matches('.');
            let mut segments: Vec<&str> = rest.split('.').filter(|s| !s.is_empty()).collect();
            let mut path = rust.trim_end_matches("::").to_owned();
            if let Some(last) = segments.pop() {
                for segment in segments {
                    path.push_str("::");
                    path.push_str(&ident::module_name(segment));
                }
                path.push_str("::");
                path.push_str(&ident::type_name(last));
            }
            RustPath::Extern(path)
        }
        None => RustPath::Local {
            modules: modules.to_vec(),
            name,
        },
    }
}

impl RustPath {
    /// The path as seen from code in module `from`: relative (`super::...`)
    /// for generated types, so the generated tree can be mounted anywhere.
    pub fn relative_to(&self, from: &[String]) -> String {
        match self {
            RustPath::Extern(path) => path.clone(),
            RustPath::Local { modules, name } => {
                let common = modules.iter().zip(from).take_while(|(a, b)| a == b).count();
                let mut parts: Vec<&str> = vec!["super"; from.len() - common];
                parts.extend(modules[common..].iter().map(String::as_str));
                parts.push(name);
                parts.join("::")
            }
        }
    }

    /// Whether the type is generated by this run (not extern).
    pub fn is_local(&self) -> bool {
        matches!(self, RustPath::Local { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(modules: &[&str], name: &str) -> RustPath {
        RustPath::Local {
            modules: modules.iter().map(|s| s.to_string()).collect(),
            name: name.into(),
        }
    }

    #[test]
    fn relative_paths() {
        let from: Vec<String> = vec!["a".into(), "b".into(), "outer".into()];
        assert_eq!(
            local(&["a", "b"], "Outer").relative_to(&from),
            "super::Outer"
        );
        assert_eq!(
            local(&["a", "c"], "X").relative_to(&from),
            "super::super::c::X"
        );
        assert_eq!(
            local(&["a", "b", "outer"], "Inner").relative_to(&from),
            "Inner"
        );
        assert_eq!(local(&[], "Top").relative_to(&[]), "Top");
    }

    #[test]
    fn extern_paths_longest_prefix_wins() {
        let options = Options {
            extern_paths: vec![
                (".google.protobuf".into(), "::wkt".into()),
                (".google.protobuf.Any".into(), "::my::Any".into()),
            ],
            ..Default::default()
        };
        assert_eq!(
            rust_path(
                ".google.protobuf.Timestamp",
                &[],
                "Timestamp".into(),
                &options.effective_extern_paths()
            ),
            RustPath::Extern("::wkt::Timestamp".into())
        );
        assert_eq!(
            rust_path(
                ".google.protobuf.Any",
                &[],
                "Any".into(),
                &options.effective_extern_paths()
            ),
            RustPath::Extern("::my::Any".into())
        );
        assert_eq!(
            rust_path(
                ".google.protobuf.Struct.Inner",
                &[],
                "Inner".into(),
                &options.effective_extern_paths()
            ),
            RustPath::Extern("::wkt::r#struct::Inner".into())
        );
    }

    /// The Rust path of `full_name` (a top-level type of `.google.protobuf`
    /// or a nested one) under `options`.
    fn wkt_path(full_name: &str, options: &Options) -> RustPath {
        let name = full_name.rsplit('.').next().unwrap().to_owned();
        rust_path(
            full_name,
            &["google".into(), "protobuf".into()],
            name,
            &options.effective_extern_paths(),
        )
    }

    fn wkt_extern(path: &str) -> RustPath {
        RustPath::Extern(format!("::buffa_types::google::protobuf::{path}"))
    }

    #[test]
    fn well_known_types_map_to_buffa_types_by_default() {
        let options = Options::default();
        assert_eq!(
            wkt_path(".google.protobuf.Timestamp", &options),
            wkt_extern("Timestamp")
        );
        assert_eq!(
            wkt_path(".google.protobuf.NullValue", &options),
            wkt_extern("NullValue")
        );
        // Nested types live in their message's module.
        assert_eq!(
            wkt_path(".google.protobuf.Field.Kind", &options),
            wkt_extern("field::Kind")
        );
        // buffa-types holds descriptor.proto, nested types included, but
        // not plugin.proto.
        assert_eq!(
            wkt_path(".google.protobuf.FileDescriptorProto", &options),
            wkt_extern("FileDescriptorProto")
        );
        assert_eq!(
            wkt_path(
                ".google.protobuf.FeatureSet.VisibilityFeature.DefaultSymbolVisibility",
                &options
            ),
            wkt_extern("feature_set::visibility_feature::DefaultSymbolVisibility")
        );
        assert!(wkt_path(".google.protobuf.compiler.CodeGeneratorRequest", &options).is_local());
    }

    #[test]
    fn compile_well_known_types_generates_them() {
        let options = Options {
            compile_well_known_types: true,
            ..Default::default()
        };
        assert!(options.effective_extern_paths().is_empty());
        assert_eq!(
            wkt_path(".google.protobuf.Timestamp", &options),
            local(&["google", "protobuf"], "Timestamp")
        );
    }

    #[test]
    fn user_extern_paths_override_the_well_known_mapping() {
        // A rule for one type replaces the implicit rule of that type only.
        let options = Options {
            extern_paths: vec![(".google.protobuf.Timestamp".into(), "::my::Ts".into())],
            ..Default::default()
        };
        assert_eq!(
            wkt_path(".google.protobuf.Timestamp", &options),
            RustPath::Extern("::my::Ts".into())
        );
        assert_eq!(
            wkt_path(".google.protobuf.Duration", &options),
            wkt_extern("Duration")
        );
        // A rule covering the package, even a shorter one, replaces them
        // all, nested types included.
        for (rule, rust, timestamp, kind) in [
            (
                ".google.protobuf",
                "::wkt",
                "::wkt::Timestamp",
                "::wkt::field::Kind",
            ),
            (
                ".google",
                "::g",
                "::g::protobuf::Timestamp",
                "::g::protobuf::field::Kind",
            ),
        ] {
            let options = Options {
                extern_paths: vec![(rule.into(), rust.into())],
                ..Default::default()
            };
            assert_eq!(
                options.effective_extern_paths().len(),
                1,
                "{rule} replaces every implicit rule"
            );
            assert_eq!(
                wkt_path(".google.protobuf.Timestamp", &options),
                RustPath::Extern(timestamp.into())
            );
            assert_eq!(
                wkt_path(".google.protobuf.Field.Kind", &options),
                RustPath::Extern(kind.into())
            );
        }
        // A longer prefix than an implicit rule wins over it.
        let options = Options {
            extern_paths: vec![(".google.protobuf.Field.Kind".into(), "::my::Kind".into())],
            ..Default::default()
        };
        assert_eq!(
            wkt_path(".google.protobuf.Field.Kind", &options),
            RustPath::Extern("::my::Kind".into())
        );
        assert_eq!(
            wkt_path(".google.protobuf.Field", &options),
            wkt_extern("Field")
        );
    }
}
