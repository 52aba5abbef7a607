//! How generated code names the buffa runtime: the crate's path
//! (`buffa_path`, `::buffa` by default) for the user API, and one hidden
//! alias per module for the support API.
//!
//! Struct fields, trait impls and accessors name user-facing items through
//! the crate path (`::buffa::MessageField<T>`), so they read well in rustdoc
//! and in error messages. Everything else (field helpers, scalar markers,
//! `SizeCache`, `Encoder`, `Decoder`, `Tag`) lives under the runtime's
//! hidden `__private` module, which each generated module that holds a
//! message reaches through the alias `__buffa`, glob-imported once:
//!
//! ```text
//! #[allow(unused_imports)]
//! use ::buffa::__private::alias::*;
//! size += __buffa::scalar::size_implicit::<__buffa::Int32>(1, &self.id);
//! ```
//!
//! so a field's helper call stays one line. The import is a glob so that
//! every generated file can carry its own: two globs bringing the same item
//! into one module do not clash (packages whose names differ only in case
//! share a module), where two `use ... as __buffa;` would. rustc reports all
//! but one of such duplicate globs as unused, hence the `allow`.
//!
//! No generated type or module can be called `__buffa` (which would shadow
//! the glob): case conversion (`ident`) strips leading underscores, and the
//! only name it makes that starts with two is `__` itself, possibly
//! followed by more underscores.

use proc_macro2::TokenStream;
use quote::quote;

use crate::error::Error;
use crate::options::Options;

/// The runtime's path when `buffa_path` is not set.
pub const DEFAULT_PATH: &str = "::buffa";

/// The runtime crate's path from `options`, checked: an absolute Rust path
/// (`::name`, `crate` or `crate::...`) without generic arguments. Generated
/// code uses it from nested modules, where a relative path would mean
/// something else (`super`), or could be shadowed by a generated module of
/// the same name (`buffa_rt` in the module of package `x.buffa_rt`).
pub fn crate_path(options: &Options) -> Result<TokenStream, Error> {
    checked_path(
        "buffa_path",
        options.buffa_path.as_deref().unwrap_or(DEFAULT_PATH),
    )
}

/// `text` checked as [`crate_path`] checks `buffa_path`; `option` names
/// the option it came from, for errors.
pub fn checked_path(option: &str, text: &str) -> Result<TokenStream, Error> {
    let bad = |why: String| Error::new(format!("{option} {text:?} {why}"));
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
    let absolute =
        path.leading_colon.is_some() || path.segments.first().is_some_and(|s| s.ident == "crate");
    if !absolute {
        let relative_to_here = path
            .segments
            .first()
            .is_some_and(|s| s.ident == "self" || s.ident == "super");
        let suggestion = if relative_to_here {
            "`crate::...`".to_owned()
        } else {
            format!("`::{text}`")
        };
        return Err(bad(format!(
            "is relative; it must start with `::` or `crate::` (e.g. {suggestion}): \
             generated code names it from nested modules, where a relative \
             path could mean something else or be shadowed by a generated \
             module of the same name"
        )));
    }
    Ok(quote!(#path))
}

/// The alias import at the top of a generated module that holds messages.
pub fn alias_item(crate_path: &TokenStream) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use #crate_path::__private::alias::*;
    }
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
        assert_eq!(path(Some("crate")).unwrap(), "crate");
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
            "buffa",
            "buffa_rt::inner",
            "1a",
        ] {
            let e = path(Some(bad)).unwrap_err();
            assert!(e.contains("buffa_path"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn relative_paths_get_an_absolute_suggestion() {
        // A relative `buffa_rt` would be shadowed by the module of a
        // package `x.buffa_rt` in the generated code.
        let e = path(Some("buffa_rt")).unwrap_err();
        assert!(e.contains("relative") && e.contains("`::buffa_rt`"), "{e}");
        let e = path(Some("super::rt")).unwrap_err();
        assert!(e.contains("relative") && e.contains("`crate::...`"), "{e}");
    }
}
