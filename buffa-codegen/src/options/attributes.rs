//! The attribute options (`type_attribute`, `message_attribute`,
//! `enum_attribute`, `field_attribute`), checked before generation.

use crate::error::Error;
use crate::options::Options;

/// Every attribute an option adds must parse as one outer attribute, so
/// that a typo fails here rather than in the generated code.
pub fn check(options: &Options) -> Result<(), Error> {
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
