//! Oneofs: the Rust enum of each oneof, and how its members are sized,
//! written and merged by the containing message.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::comments::Comments;
use crate::emit::field;
use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Shape, ValueType};
use crate::layout::owned;
use crate::layout::view_layout;

/// The enum of one oneof.
pub(crate) fn generate_oneof(
    context: &Context<'_>,
    full_name: &str,
    index: usize,
    enum_name: &str,
    source_path: &[i32],
    comments: &Comments,
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let fields = owned::fields(context, full_name, message, &message.module)?;
    let name = ident::ident(enum_name);
    let mut variants = Vec::new();
    for (field_index, field) in fields.iter().enumerate() {
        if !matches!(field.shape, Shape::Oneof(i) if i == index) {
            continue;
        }
        let variant = ident::ident(&field.rust_name);
        let mut path = source_path[..source_path.len() - 2].to_vec();
        path.extend([2, field_index as i32]);
        let doc = comments.doc(&path);
        let attributes = context.attributes(&[&context.options.field_attributes], &field.path);
        let value = field::value_type(&field.value, &context.buffa, &context.alloc);
        let boxed = view_layout::oneof_boxed(context, full_name, field)?;
        let ty = if boxed {
            let alloc = &context.alloc;
            quote!(#alloc::boxed::Box<#value>)
        } else {
            value
        };
        variants.push(quote!(#doc #attributes #variant(#ty)));
    }
    let oneof = &message.proto.oneof_decl[index];
    let oneof_path = format!("{full_name}.{}", oneof.name());
    let attributes = context.attributes(
        &[
            &context.options.type_attributes,
            &context.options.enum_attributes,
        ],
        &oneof_path,
    );
    let doc = comments.doc(source_path);
    let members = fields
        .iter()
        .filter(|f| matches!(f.shape, Shape::Oneof(i) if i == index))
        .map(|f| f.proto);
    let eq_hash = if context.eq_hash.fields(members) {
        quote!(::core::cmp::Eq, ::core::hash::Hash,)
    } else {
        quote!()
    };
    Ok(quote! {
        #doc
        #[derive(::core::clone::Clone, ::core::cmp::PartialEq, #eq_hash ::core::fmt::Debug)]
        #[allow(clippy::large_enum_variant)]
        #attributes
        pub enum #name {
            #(#variants,)*
        }

    })
}

/// The size expression and write statement of a oneof member, with the
/// member's value bound to `value`.
pub(crate) fn oneof_member_calls(
    context: &Context<'_>,
    full_name: &str,
    field: &Field<'_>,
) -> Result<(TokenStream, TokenStream), Error> {
    let number = proc_macro2::Literal::u32_unsuffixed(field.number);
    let reference = if view_layout::oneof_boxed(context, full_name, field)? {
        quote!(&**value)
    } else {
        quote!(value)
    };
    let marker = field::value_marker(&field.value);
    Ok(match &field.value {
        ValueType::Message {
            delimited: true, ..
        } => (
            quote!(__buffa::message::size_group(#number, #reference, cache)),
            quote!(__buffa::message::write_group(#number, #reference, cache, encoder)),
        ),
        ValueType::Message { .. } => (
            quote!(__buffa::message::size(#number, #reference, cache)),
            quote!(__buffa::message::write(#number, #reference, cache, encoder)),
        ),
        _ => (
            quote!(__buffa::scalar::size::<#marker>(#number, value)),
            quote!(__buffa::scalar::write::<#marker>(#number, value, encoder)),
        ),
    })
}

/// The `merge_field` arm body of a oneof member.
pub(crate) fn oneof_merge(
    context: &Context<'_>,
    full_name: &str,
    field: &Field<'_>,
    module: &syn::Ident,
    oneof: &syn::Ident,
    enum_name: &syn::Ident,
) -> Result<TokenStream, Error> {
    let variant = ident::ident(&field.rust_name);
    let constructor = quote!(#module::#enum_name::#variant);
    let some = quote!(::core::option::Option::Some);
    let unknown = field::unknown_sink(context.unknown_fields.keeps(full_name));
    Ok(match &field.value {
        ValueType::Message {
            path, delimited, ..
        } => {
            let merge = if *delimited {
                quote!(merge_group)
            } else {
                quote!(merge)
            };
            // A boxed variant is decoded straight into its box, so a
            // large message never sits on the stack; the box is charged
            // to the allocation budget, or a run of small records could
            // each allocate a large, empty message.
            let (existing, fresh, fresh_ref) =
                if view_layout::oneof_boxed(context, full_name, field)? {
                    (
                        quote!(&mut **value),
                        quote!(__buffa::message::new_boxed::<#path>(decoder)?),
                        quote!(&mut *value),
                    )
                } else {
                    (
                        quote!(value),
                        quote!(<#path as ::core::default::Default>::default()),
                        quote!(&mut value),
                    )
                };
            // No `return`: the arm is also an arm of `merge_keyed`.
            quote!({
                if let #some(#constructor(value)) = &mut self.#oneof {
                    __buffa::message::#merge(tag, #existing, decoder)
                } else {
                    let mut value = #fresh;
                    __buffa::message::#merge(tag, #fresh_ref, decoder)?;
                    self.#oneof = #some(#constructor(value));
                    ::core::result::Result::Ok(())
                }
            })
        }
        ValueType::Enum { path, closed: true } => quote!({
            if let #some(value) = __buffa::closed_enum::read::<#path>(tag, decoder, #unknown)? {
                self.#oneof = #some(#constructor(value));
            }
            ::core::result::Result::Ok(())
        }),
        value => {
            let marker = field::value_marker(value);
            quote!({
                self.#oneof = #some(#constructor(__buffa::scalar::read::<#marker>(tag, decoder)?));
                ::core::result::Result::Ok(())
            })
        }
    })
}
