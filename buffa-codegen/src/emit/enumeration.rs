//! Rust enums for protobuf enums.

use std::collections::HashSet;

use buffa_types::google::protobuf::EnumDescriptorProto;
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::comments::Comments;
use crate::emit::json;
use crate::ident;
use crate::input::schema::RustPath;

/// The Rust variant names of an enum's values, in declaration order, made
/// unique.
pub fn variant_names(proto: &EnumDescriptorProto) -> Vec<String> {
    let mut seen = HashSet::new();
    proto
        .value
        .iter()
        .map(|value| {
            let mut name = ident::variant_name(proto.name(), value.name());
            while !seen.insert(name.clone()) {
                name.push('_');
            }
            name
        })
        .collect()
}

/// The enum definition and its `Enumeration` impl.
pub fn generate_enum(
    context: &Context<'_>,
    full_name: &str,
    proto: &EnumDescriptorProto,
    source_path: &[i32],
    comments: &Comments,
) -> TokenStream {
    let name = match context.schema.enums.get(full_name).map(|e| &e.rust) {
        Some(RustPath::Local { name, .. }) => ident::ident(name),
        _ => ident::ident(&ident::type_name(proto.name())),
    };
    let names = variant_names(proto);
    let mut numbers = HashSet::new();
    let mut variants = Vec::new();
    let mut aliases = Vec::new();
    let mut from_i32 = Vec::new();
    let mut to_name = Vec::new();
    let mut from_name = Vec::new();
    for (index, (value, variant)) in proto.value.iter().zip(&names).enumerate() {
        let variant = ident::ident(variant);
        let number = proc_macro2::Literal::i32_unsuffixed(value.number());
        let proto_name = value.name();
        let mut path = source_path.to_vec();
        path.extend([2, index as i32]);
        let doc = comments.doc(&path);
        from_name.push(quote!(#proto_name => ::core::option::Option::Some(#name::#variant)));
        if numbers.insert(value.number()) {
            // The first declared value is the default (proto3 requires
            // it to be zero).
            let default = if index == 0 {
                quote!(#[default])
            } else {
                quote!()
            };
            variants.push(quote!(#doc #default #variant = #number));
            from_i32.push(quote!(#number => ::core::option::Option::Some(#name::#variant)));
            to_name.push(quote!(#name::#variant => #proto_name));
        } else {
            let canonical = proto
                .value
                .iter()
                .zip(&names)
                .find(|(v, _)| v.number() == value.number())
                .map(|(_, n)| ident::ident(n));
            aliases.push(quote!(#doc pub const #variant: #name = #name::#canonical;));
        }
    }
    let doc = comments.doc(source_path);
    let attributes = context.attributes(
        &[
            &context.options.type_attributes,
            &context.options.enum_attributes,
        ],
        full_name,
    );
    let alias_impl = if aliases.is_empty() {
        quote!()
    } else {
        quote! {
            #[allow(non_upper_case_globals)]
            impl #name { #(#aliases)* }
        }
    };
    let buffa = &context.buffa;
    let json = json::generate_enum_json(context, full_name, &name);
    quote! {
        #doc
        #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash, ::core::cmp::PartialOrd, ::core::cmp::Ord, ::core::default::Default)]
        #[repr(i32)]
        #attributes
        pub enum #name {
            #(#variants,)*
        }

        #alias_impl

        impl #buffa::Enumeration for #name {
            fn from_i32(value: i32) -> ::core::option::Option<Self> {
                match value {
                    #(#from_i32,)*
                    _ => ::core::option::Option::None,
                }
            }

            fn to_i32(self) -> i32 {
                self as i32
            }

            fn proto_name(self) -> &'static str {
                match self {
                    #(#to_name,)*
                }
            }

            fn from_proto_name(name: &str) -> ::core::option::Option<Self> {
                match name {
                    #(#from_name,)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        #json
    }
}
