//! Helpers shared by the layout tests: run protoc and codegen on the protos
//! under `tests/protos/pointer`, and read field and variant types out of the
//! generated code.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]
use buffa_build::{Config, GeneratedFile};
use quote::ToTokens;

pub fn config(files: &[&str]) -> Config {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/protos/pointer");
    let mut config = Config::new();
    config.files(files).includes(&[root]);
    config
}

pub fn generate(config: &Config) -> Vec<GeneratedFile> {
    config
        .generate()
        .unwrap_or_else(|e| panic!("generation failed: {e}"))
}

pub fn generate_err(config: &Config) -> String {
    match config.generate() {
        Ok(_) => panic!("generation succeeded, expected an error"),
        Err(e) => e.to_string(),
    }
}

/// Token text with whitespace and trailing commas removed, for comparison
/// (the formatter breaks long types over lines with a trailing comma).
pub fn compact(tokens: impl ToTokens) -> String {
    let text: String = tokens
        .to_token_stream()
        .to_string()
        .split_whitespace()
        .collect();
    text.replace(",>", ">")
}

pub fn parse(files: &[GeneratedFile], package: &str) -> syn::File {
    let file = files
        .iter()
        .find(|f| f.package == package)
        .unwrap_or_else(|| panic!("no generated file for package {package}"));
    syn::parse_file(&file.content).expect("generated code parses")
}

/// The items of module `path` (`""` for the file root, `"expr"` for the
/// nested-types module of `Expr`).
pub fn module_items<'a>(file: &'a syn::File, path: &str) -> &'a [syn::Item] {
    let mut items = &file.items[..];
    for segment in path.split("::").filter(|s| !s.is_empty()) {
        items = items
            .iter()
            .find_map(|item| match item {
                syn::Item::Mod(m) if m.ident == segment => {
                    m.content.as_ref().map(|(_, items)| &items[..])
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no module {segment} in {path}"));
    }
    items
}

pub fn split(path: &str) -> (&str, &str) {
    match path.rsplit_once("::") {
        Some((module, name)) => (module, name),
        None => ("", path),
    }
}

/// The type of struct field `field` of the message at Rust path `message`
/// (relative to the package root) in `package`.
pub fn field_type(files: &[GeneratedFile], package: &str, message: &str, field: &str) -> String {
    let file = parse(files, package);
    let (module, name) = split(message);
    let fields = module_items(&file, module)
        .iter()
        .find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == name => Some(&s.fields),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no struct {message} in {package}"));
    let field = fields
        .iter()
        .find(|f| f.ident.as_ref().is_some_and(|i| i == field))
        .unwrap_or_else(|| panic!("no field {field} in {message}"));
    compact(&field.ty)
}

/// The payload type of variant `variant` of the enum at Rust path `oneof`.
pub fn variant_type(files: &[GeneratedFile], package: &str, oneof: &str, variant: &str) -> String {
    let file = parse(files, package);
    let (module, name) = split(oneof);
    let variants = module_items(&file, module)
        .iter()
        .find_map(|item| match item {
            syn::Item::Enum(e) if e.ident == name => Some(&e.variants),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no enum {oneof} in {package}"));
    let variant = variants
        .iter()
        .find(|v| v.ident == variant)
        .unwrap_or_else(|| panic!("no variant {variant} in {oneof}"));
    compact(&variant.fields.iter().next().expect("one field").ty)
}

pub fn boxed(ty: &str) -> String {
    format!("::buffa::MessageField<{ty}>")
}

pub fn inline(ty: &str) -> String {
    format!("::buffa::MessageField<{ty},::buffa::Inline<{ty}>>")
}

pub fn custom(ty: &str, pointer: &str) -> String {
    format!("::buffa::MessageField<{ty},{}>", pointer.replace('*', ty))
}

pub const BASIC: &str = "pointer.basic";
pub const REC: &str = "pointer.rec";
