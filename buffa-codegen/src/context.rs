//! Shared state of one generation run: the schema, its boxing plans and
//! the options, with the lookups every generator needs.

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::quote;

use crate::boxing::BoxingPlan;
use crate::eq_hash::EqHash;
use crate::error::Error;
use crate::extension::DeclaredExtension;
use crate::options::Options;
use crate::path::PathRules;
use crate::schema::Schema;
use crate::size_estimate::OwnedLayouts;
use crate::view_size::ViewSizes;

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
    /// The runtime crate's path: `::buffa` unless `buffa_path` says
    /// otherwise.
    pub buffa: TokenStream,
    /// The crate generated code names `String`, `Vec`, `Box` and
    /// `BTreeMap` in: `::std`, or `::alloc` with `no_std`.
    pub alloc: TokenStream,
    /// The caller's options.
    pub options: &'a Options,
    /// Estimated view sizes, filled as views are generated.
    pub view_sizes: RefCell<ViewSizes>,
    /// Estimated layouts of owned structs, filled as pointers are chosen.
    pub owned_layouts: RefCell<OwnedLayouts>,
}

impl<'a> Context<'a> {
    /// Attribute tokens from every rule set in `sets` covering `path`.
    pub fn attributes(&self, sets: &[&PathRules<String>], path: &str) -> TokenStream {
        let mut out = TokenStream::new();
        for set in sets {
            for attribute in set.get_all(path) {
                // Validated in `validate_attributes`.
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
            None => &self.schema.enumeration(full_name)?.rust,
        };
        let path = rust.relative_to(from);
        let parsed: syn::Path =
            syn::parse_str(&path).map_err(|e| Error::new(format!("bad Rust path {path}: {e}")))?;
        Ok(quote!(#parsed))
    }
}
