//! The data of one generation run: the schema, its analyses (boxing plans,
//! Eq/Hash, declared extensions), the options, the memo tables of the
//! layout stage, and the type-path lookups every emitter needs. Emitters
//! are functions in `emit/` that take a `&Context`; none is a method here.

use std::cell::RefCell;
use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::analysis::boxing::BoxingPlan;
use crate::analysis::eq_hash::EqHash;
use crate::analysis::extensions::DeclaredExtension;
use crate::analysis::unknown_fields::UnknownFieldsPlan;
use crate::error::Error;
use crate::input::schema::{RustPath, Schema};
use crate::layout::size::OwnedLayouts;
use crate::options::Options;
use crate::path::PathRules;

/// Everything generation needs: the schema, its analyses, the options.
pub struct Context<'a> {
    /// The schema.
    pub schema: Schema<'a>,
    /// Every extension the schema declares.
    pub extensions: Vec<DeclaredExtension<'a>>,
    /// The fields of owned messages boxed to break cycles of inline fields.
    pub boxing: BoxingPlan,
    /// The fields of views boxed to break cycles of sub-views held in place.
    pub view_boxing: BoxingPlan,
    /// The messages that derive `Eq` and `Hash`.
    pub eq_hash: EqHash,
    /// Which messages keep unknown fields.
    pub unknown_fields: UnknownFieldsPlan,
    /// The runtime crate's path: `::buffa` unless `buffa_path` says
    /// otherwise.
    pub buffa: TokenStream,
    /// The crate generated code names `String`, `Vec`, `Box` and
    /// `BTreeMap` in: `::std`, or `::alloc` with `no_std`.
    pub alloc: TokenStream,
    /// The caller's options.
    pub options: &'a Options,
    /// Estimated view sizes, filled as views are generated.
    pub view_sizes: RefCell<HashMap<String, usize>>,
    /// Estimated layouts of owned structs, filled as pointers are chosen.
    pub owned_layouts: RefCell<OwnedLayouts>,
}

impl<'a> Context<'a> {
    /// Attribute tokens from every rule set in `sets` covering `path`.
    pub fn attributes(&self, sets: &[&PathRules<String>], path: &str) -> TokenStream {
        let mut out = TokenStream::new();
        for set in sets {
            for attribute in set.get_all(path) {
                // Checked by `options::attributes::check`.
                if let Ok(tokens) = attribute.parse::<TokenStream>() {
                    out.extend(tokens);
                }
            }
        }
        out
    }

    /// Rust path tokens for a message or enum, relative to module `from`.
    pub fn type_path(&self, full_name: &str, from: &[String]) -> Result<TokenStream, Error> {
        let rust = match self.schema.messages.get(full_name) {
            Some(message) => &message.rust,
            None => self
                .schema
                .enums
                .get(full_name)
                .map(|enumeration| &enumeration.rust)
                .ok_or_else(|| {
                    Error::new(format!("type {full_name} is not in the descriptor set"))
                })?,
        };
        path_tokens(rust, from)
    }

    /// Rust path tokens for a message, relative to module `from`.
    pub fn message_path(&self, full_name: &str, from: &[String]) -> Result<TokenStream, Error> {
        path_tokens(&self.schema.message(full_name)?.rust, from)
    }
}

/// `rust` as named from module `from`.
fn path_tokens(rust: &RustPath, from: &[String]) -> Result<TokenStream, Error> {
    let path = rust.relative_to(from);
    let parsed: syn::Path =
        syn::parse_str(&path).map_err(|e| Error::new(format!("bad Rust path {path}: {e}")))?;
    Ok(quote!(#parsed))
}

#[cfg(test)]
mod tests {
    use buffa::Message as _;
    use buffa_types::google::protobuf::{
        DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FileDescriptorProto,
        FileDescriptorSet,
    };

    use crate::options::Options;

    #[test]
    fn lookups_name_the_kind_of_type_they_want() {
        let set = FileDescriptorSet {
            file: vec![FileDescriptorProto {
                name: Some("a.proto".into()),
                package: Some("a".into()),
                syntax: Some("proto3".into()),
                message_type: vec![DescriptorProto {
                    name: Some("M".into()),
                    ..Default::default()
                }],
                enum_type: vec![EnumDescriptorProto {
                    name: Some("E".into()),
                    value: vec![EnumValueDescriptorProto {
                        name: Some("E_ZERO".into()),
                        number: Some(0),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }
        .encode_to_vec();
        let from = ["a".to_owned()];
        let options = Options::default();
        let input = crate::run::Input::parse(&set, &options).unwrap();
        let selection = input.select(&["a.proto"]).unwrap();
        let context = selection.context();
        assert_eq!(
            context.message_path(".a.M", &from).unwrap().to_string(),
            "M"
        );
        assert_eq!(context.type_path(".a.E", &from).unwrap().to_string(), "E");
        // A method's input type naming an enum, say.
        assert_eq!(
            context.message_path(".a.E", &from).unwrap_err().to_string(),
            "message type .a.E is not in the descriptor set"
        );
        assert_eq!(
            context.type_path(".a.Nope", &from).unwrap_err().to_string(),
            "type .a.Nope is not in the descriptor set"
        );
    }
}
