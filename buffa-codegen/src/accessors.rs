//! Getter methods for explicit-presence scalar and enum fields: the value,
//! or the declared (`[default = ...]`) or type default when unset.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::defaults;
use crate::enumeration::variant_names;
use crate::error::Error;
use crate::field::{Field, Scalar, Shape, ValueType};
use crate::ident;

impl Context<'_> {
    /// Getters returning the value or the declared default, for scalar and
    /// enum fields with explicit presence.
    pub(crate) fn accessors(
        &self,
        name: &syn::Ident,
        fields: &[Field<'_>],
    ) -> Result<TokenStream, Error> {
        let buffa = &self.buffa;
        let mut methods = Vec::new();
        for field in fields {
            if !matches!(field.shape, Shape::Explicit)
                || matches!(field.value, ValueType::Message { .. })
            {
                continue;
            }
            let name = ident::ident(&field.rust_name);
            let method = accessor_name(&field.rust_name);
            let default_text = field.proto.default_value.as_deref();
            let doc = format!(
                " The value of `{}`, or its default when unset.",
                field.proto.name()
            );
            let (ty, body) = match &field.value {
                ValueType::Scalar(Scalar::String) => {
                    let default = default_text.unwrap_or("");
                    (
                        quote!(&str),
                        quote!(self.#name.as_deref().unwrap_or(#default)),
                    )
                }
                ValueType::Scalar(scalar @ (Scalar::Bytes | Scalar::SharedBytes)) => {
                    let default = match default_text {
                        Some(text) => defaults::scalar_default(*scalar, text, &field.path)?,
                        None => quote!(b""),
                    };
                    (
                        quote!(&[u8]),
                        quote!(self.#name.as_deref().unwrap_or(&#default[..])),
                    )
                }
                ValueType::Scalar(scalar) => {
                    let body = match default_text {
                        Some(text) => {
                            let default = defaults::scalar_default(*scalar, text, &field.path)?;
                            quote!(self.#name.unwrap_or(#default))
                        }
                        None => quote!(self.#name.unwrap_or_default()),
                    };
                    (scalar.rust_type(buffa), body)
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
                    let enumeration = self.schema.enumeration(field.proto.type_name())?;
                    let names = variant_names(enumeration.proto);
                    let position = enumeration
                        .proto
                        .value
                        .iter()
                        .position(|v| v.name() == text)
                        .ok_or_else(|| {
                            Error::new(format!(
                                "{}: default {text} is not a value of its enum",
                                field.path
                            ))
                        })?;
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
            impl #name {
                #(#methods)*
            }
        })
    }
}

/// Methods that generated structs get from `Message`, `Clone`, `Default`,
/// `Debug` and `PartialEq`: an accessor with one of these names would shadow
/// the trait method in method-call syntax.
const TRAIT_METHOD_NAMES: &[&str] = &[
    "clear",
    "clone",
    "compute_size",
    "decode",
    "decode_bytes",
    "decode_from_slice",
    "decode_length_delimited",
    "decode_with_options",
    "default",
    "default_instance",
    "encode",
    "encode_length_delimited",
    "encode_length_delimited_to_vec",
    "encode_to_vec",
    "encoded_len",
    "eq",
    "fmt",
    "merge",
    "merge_field",
    "merge_from",
    "merge_from_slice",
    "merge_group",
    "ne",
    "unknown_fields",
    "write_to",
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
