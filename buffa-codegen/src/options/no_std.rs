//! What `Options::no_std` changes in generated code, and which options it
//! rules out.
//!
//! Generated code reaches the standard library for two things: the heap
//! types (`String`, `Vec`, `Box`) and the map types. In `#![no_std]` code
//! the heap types are the same items under `::alloc` (std re-exports
//! them) and maps are always `BTreeMap` (`HashMap` needs std's random
//! hasher). Everything else generated code names is already in `::core`
//! or in `buffa` (default instances live in the runtime's `OnceBox` in
//! both modes: std's `OnceLock` blocks, which needs the OS, and costs
//! more to compile).
//!
//! Std-mode output is unchanged by this module: it only chooses between
//! the two spellings.

use proc_macro2::TokenStream;
use quote::quote;

use crate::error::Error;
use crate::options::Options;

/// The crate generated code names `String`, `Vec`, `Box` and `BTreeMap`
/// in: `::std`, or `::alloc` with `no_std`, where these paths name the
/// same items (`::alloc::vec::Vec`, `::alloc::collections::BTreeMap`, ...).
pub fn alloc_crate(options: &Options) -> TokenStream {
    if options.no_std {
        quote!(::alloc)
    } else {
        quote!(::std)
    }
}

/// Whether map fields are `BTreeMap`s whatever `btree_maps` says: always
/// with `no_std`.
pub fn btree_maps_only(options: &Options) -> bool {
    options.no_std
}

/// Rejects the options whose generated code needs std together with
/// `no_std`: JSON (the runtime's `json` feature builds on `std::io` and
/// `HashMap`), reflection (`buffa-reflect` needs std) and tonic services.
pub fn check_options(options: &Options) -> Result<(), Error> {
    if !options.no_std {
        return Ok(());
    }
    let needs_std = [
        ("json (Config::json)", options.json),
        ("reflection (Config::reflection)", options.reflection),
        ("tonic (Config::tonic)", options.tonic.is_some()),
    ];
    match needs_std.iter().find(|(_, on)| *on) {
        Some((option, _)) => Err(Error::new(format!(
            "no_std (Config::no_std) cannot be combined with {option}: that \
             generated code needs the standard library"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_mode_keeps_the_std_spellings() {
        let options = Options::default();
        assert_eq!(alloc_crate(&options).to_string(), ":: std");
        assert!(!btree_maps_only(&options));
        assert!(check_options(&options).is_ok());
    }

    #[test]
    fn no_std_names_alloc() {
        let options = Options {
            no_std: true,
            ..Options::default()
        };
        assert_eq!(alloc_crate(&options).to_string(), ":: alloc");
        assert!(btree_maps_only(&options));
        assert!(check_options(&options).is_ok());
    }

    #[test]
    fn no_std_rejects_what_needs_std() {
        type Set = fn(&mut Options);
        let cases: [(&str, Set); 3] = [
            ("json", |o| o.json = true),
            ("reflection", |o| o.reflection = true),
            ("tonic", |o| o.tonic = Some(Default::default())),
        ];
        for (name, set) in cases {
            let mut options = Options {
                no_std: true,
                ..Options::default()
            };
            set(&mut options);
            let error = check_options(&options).unwrap_err().to_string();
            assert!(error.contains(name) && error.contains("no_std"), "{error}");
            options.no_std = false;
            assert!(check_options(&options).is_ok(), "{name} alone is fine");
        }
    }
}
