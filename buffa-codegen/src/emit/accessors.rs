//! Getter methods for explicit-presence scalar and enum fields: the value,
//! or the declared (`[default = ...]`) or type default when unset.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::defaults;
use crate::emit::enumeration::variant_names;
use crate::emit::field;
use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Scalar, Shape, ValueType};

/// Getters returning the value or the declared default, for scalar and
/// enum fields with explicit presence, in `impl #target` (the message,
/// or `<'a> FooView<'a>` for a view, whose fields are borrowed).
pub(crate) fn accessors(
    context: &Context<'_>,
    target: TokenStream,
    fields: &[Field<'_>],
) -> Result<TokenStream, Error> {
    let buffa = &context.buffa;
    let mut methods = Vec::new();
    for field in fields {
        if !matches!(field.shape, Shape::Explicit)
            || matches!(field.value, ValueType::Message { .. })
        {
            continue;
        }
        let name = ident::ident(&field.rust_name);
        let method = accessor_name(&field.rust_name);
        // Read by the pool, which refused a bad one.
        let default =
            (field.descriptor.has_default_value()).then(|| field.descriptor.default_value());
        let scalar_default = || default.clone().map(defaults::scalar_default);
        let default_text = field.proto.default_value.as_deref();
        let doc = format!(
            " The value of `{}`, or its default when unset.",
            field.proto.name()
        );
        let (ty, body) = match &field.value {
            ValueType::Scalar(Scalar::BorrowedStr) => {
                let default = scalar_default().unwrap_or_else(|| quote!(""));
                (quote!(&'a str), quote!(self.#name.unwrap_or(#default)))
            }
            ValueType::Scalar(Scalar::BorrowedBytes) => {
                let default = scalar_default().unwrap_or_else(|| quote!(b""));
                (
                    quote!(&'a [u8]),
                    quote!(self.#name.unwrap_or(&#default[..])),
                )
            }
            // `BytesStr` dereferences to `str`, so both read the same.
            ValueType::Scalar(Scalar::String | Scalar::SharedStr) => {
                let default = scalar_default().unwrap_or_else(|| quote!(""));
                (
                    quote!(&str),
                    quote!(self.#name.as_deref().unwrap_or(#default)),
                )
            }
            ValueType::Scalar(Scalar::Bytes | Scalar::SharedBytes) => {
                let default = scalar_default().unwrap_or_else(|| quote!(b""));
                (
                    quote!(&[u8]),
                    quote!(self.#name.as_deref().unwrap_or(&#default[..])),
                )
            }
            ValueType::Scalar(scalar) => {
                let body = match scalar_default() {
                    Some(default) => quote!(self.#name.unwrap_or(#default)),
                    None => quote!(self.#name.unwrap_or_default()),
                };
                (field::scalar_type(*scalar, buffa, &context.alloc), body)
            }
            ValueType::Enum { path, closed } => {
                let ty = if *closed {
                    path.clone()
                } else {
                    quote!(#buffa::EnumValue<#path>)
                };
                let Some(text) = default_text else {
                    methods.push(accessor(
                        &method,
                        &doc,
                        &ty,
                        quote!(self.#name.unwrap_or_default()),
                    ));
                    continue;
                };
                let enumeration = context.schema.enumeration(field.proto.type_name())?;
                let names = variant_names(enumeration.proto);
                // The default names a value (the pool checked it); the
                // variant is that value's (an alias has a variant of its
                // own).
                let position = (enumeration.proto.value.iter())
                    .position(|v| v.name() == text)
                    .expect("the pool checked that the default names a value");
                let variant = ident::ident(&names[position]);
                let default = if *closed {
                    quote!(#path::#variant)
                } else {
                    quote!(#buffa::EnumValue::Known(#path::#variant))
                };
                (ty, quote!(self.#name.unwrap_or(#default)))
            }
            ValueType::Message { .. } => continue,
        };
        methods.push(accessor(&method, &doc, &ty, body));
    }
    if methods.is_empty() {
        return Ok(quote!());
    }
    Ok(quote! {
        impl #target {
            #(#methods)*
        }
    })
}

/// Methods and associated functions that generated structs and views get
/// from `buffa::Message`, `buffa::MessageView`, `buffa::HasView` (and the
/// hidden traits behind them), `Clone`, `Default`, `Debug`, `PartialEq`,
/// `Eq` and `Hash`: an inherent accessor with one of these names would
/// shadow the trait's in method-call syntax (`m.encode(..)`) and in paths
/// (`M::decode(..)`).
const TRAIT_METHOD_NAMES: &[&str] = &[
    // buffa::Message
    "clear",
    "compute_size",
    "decode",
    "decode_bytes",
    "decode_from_slice",
    "decode_length_delimited",
    "decode_length_delimited_with_options",
    "decode_with_options",
    "default_instance",
    "encode",
    "encode_length_delimited",
    "encode_length_delimited_to_vec",
    "encode_length_delimited_with_options",
    "encode_to_slice",
    "encode_to_slice_with_options",
    "encode_to_vec",
    "encode_to_vec_with_options",
    "encode_with_options",
    "encoded_len",
    "encoded_len_with_options",
    "measure",
    "merge",
    "merge_field",
    "merge_fixed_record",
    "merge_from",
    "merge_from_slice",
    "merge_group",
    "merge_keyed",
    "merge_with_options",
    "unknown_fields",
    "write_backward",
    "write_to",
    // buffa::MessageView and the hidden traits views implement, and
    // buffa::HasView (owned messages with views: `decode_view` and
    // `decode_view_with_options`)
    "check_field",
    "check_keyed",
    "decode_view",
    "decode_view_with_options",
    "default_ref",
    "merge_view",
    "merge_view_with_options",
    "to_owned_message",
    "to_owned_value",
    "unknown_group_depth",
    // Clone
    "clone",
    "clone_from",
    // Default
    "default",
    // Debug
    "fmt",
    // PartialEq
    "eq",
    "ne",
    // Eq (hidden, but callable)
    "assert_receiver_is_total_eq",
    // Hash
    "hash",
    "hash_slice",
];

/// The accessor's name: the field's, or `<field>_or_default` when the
/// field's name would shadow a trait method.
fn accessor_name(field_name: &str) -> syn::Ident {
    if TRAIT_METHOD_NAMES.contains(&field_name) {
        ident::ident(&format!("{field_name}_or_default"))
    } else {
        ident::ident(field_name)
    }
}

/// A getter method returning `body`.
fn accessor(name: &syn::Ident, doc: &str, ty: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        #[doc = #doc]
        pub fn #name(&self) -> #ty {
            #body
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TRAIT_METHOD_NAMES;

    /// The methods of trait `name` in the runtime source file `file`.
    fn trait_methods(file: &str, name: &str) -> Vec<String> {
        let path = format!("{}/../buffa/src/{file}", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&path).expect("read the runtime source");
        let file = syn::parse_file(&source).expect("parse the runtime source");
        let item = file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Trait(t) if t.ident == name => Some(t),
                _ => None,
            })
            .unwrap_or_else(|| panic!("trait {name} in {path}"));
        item.items
            .iter()
            .filter_map(|item| match item {
                syn::TraitItem::Fn(f) => Some(f.sig.ident.to_string()),
                _ => None,
            })
            .collect()
    }

    /// Every method of the traits generated structs and views implement,
    /// read from the runtime's source next to this crate, is in the list,
    /// so a new one cannot be shadowed.
    #[test]
    fn every_trait_method_is_listed() {
        let traits = [
            ("message.rs", "Message"),
            ("message.rs", "Encodable"),
            ("message.rs", "Mergeable"),
            ("message_field.rs", "DefaultRef"),
            ("view/mod.rs", "MessageView"),
            ("view/mod.rs", "HasView"),
            ("view/convert.rs", "ToOwnedValue"),
        ];
        for (file, name) in traits {
            let methods = trait_methods(file, name);
            assert!(!methods.is_empty(), "{name}");
            for method in methods {
                assert!(
                    TRAIT_METHOD_NAMES.contains(&method.as_str()),
                    "{name}::{method} is missing from TRAIT_METHOD_NAMES"
                );
            }
        }
        assert!(trait_methods("message.rs", "Message").len() > 20);
    }
}
