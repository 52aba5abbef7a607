//! How generated code names the buffa runtime: the crate's path
//! (`buffa_path`, `::buffa` by default) for the user API, and one hidden
//! alias per module for the support API.
//!
//! Struct fields, trait impls and accessors name user-facing items through
//! the crate path (`::buffa::MessageField<T>`), so they read well in rustdoc
//! and in error messages. Everything else (field helpers, scalar markers,
//! `SizeCache`, `Encoder`, `Decoder`, `Tag`) lives under the runtime's
//! hidden `__private` module, which each generated module that holds a
//! message imports once:
//!
//! ```text
//! use ::buffa::__private as __buffa;
//! size += __buffa::scalar::size_implicit::<__buffa::Int32>(1, &self.id);
//! ```
//!
//! so a field's helper call stays one line. No generated type or module can
//! be called `__buffa`: case conversion (`ident`) strips leading underscores,
//! and the only name it makes that starts with two is `__` itself, possibly
//! followed by more underscores.

use proc_macro2::TokenStream;
use quote::quote;

use crate::error::Error;
use crate::options::Options;

/// The runtime's path when `buffa_path` is not set.
pub const DEFAULT_PATH: &str = "::buffa";

/// The runtime crate's path from `options`, checked: a Rust path without
/// generic arguments that does not start with `self` or `super` (generated
/// code uses it from nested modules, where those would mean something
/// else).
pub fn crate_path(options: &Options) -> Result<TokenStream, Error> {
    let text = options.buffa_path.as_deref().unwrap_or(DEFAULT_PATH);
    let bad = |why: String| Error::new(format!("buffa_path {text:?} {why}"));
    let path: syn::Path =
        syn::parse_str(text).map_err(|e| bad(format!("is not a Rust path: {e}")))?;
    if path
        .segments
        .iter()
        .any(|s| !matches!(s.arguments, syn::PathArguments::None))
    {
        return Err(bad(
            "has generic arguments; it must name a crate or module".into()
        ));
    }
    if path.leading_colon.is_none()
        && path
            .segments
            .first()
            .is_some_and(|s| s.ident == "self" || s.ident == "super")
    {
        return Err(bad(
            "is relative; use an absolute path (`::name` or `crate::...`), \
             since generated code names it from nested modules"
                .into(),
        ));
    }
    Ok(quote!(#path))
}

/// The alias item at the top of a generated module that holds messages.
pub fn alias_item(crate_path: &TokenStream) -> TokenStream {
    quote!(use #crate_path::__private as __buffa;)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: Option<&str>) -> Result<String, String> {
        let options = Options {
            buffa_path: text.map(str::to_owned),
            ..Default::default()
        };
        crate_path(&options)
            .map(|tokens| tokens.to_string().replace(' ', ""))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn no_generated_name_is_the_alias() {
        use crate::ident::{field_name, module_name, type_name, variant_name};
        for proto in [
            "__buffa", "_buffa", "__buffa_", "__Buffa", "__BUFFA", "buffa",
        ] {
            for name in [
                field_name(proto),
                module_name(proto),
                type_name(proto),
                variant_name("E", proto),
            ] {
                assert!(
                    !name.starts_with("__") || name.trim_matches('_').is_empty(),
                    "{proto} -> {name}"
                );
            }
        }
    }

    #[test]
    fn accepts_absolute_paths() {
        assert_eq!(path(None).unwrap(), "::buffa");
        assert_eq!(path(Some("::buffa_rt")).unwrap(), "::buffa_rt");
        assert_eq!(path(Some("crate::rt")).unwrap(), "crate::rt");
        assert_eq!(path(Some("buffa")).unwrap(), "buffa");
    }

    #[test]
    fn rejects_what_is_not_a_crate_path() {
        for bad in [
            "",
            "::",
            "a b",
            "::a::",
            "a<T>",
            "a::<T>",
            "super::rt",
            "self::rt",
            "1a",
        ] {
            let e = path(Some(bad)).unwrap_err();
            assert!(e.contains("buffa_path"), "{bad:?}: {e}");
        }
    }
}
