//! The body of `write_backward`, the one-pass back-to-front encoder: one
//! call into `__buffa::backward` per field, in reverse field-number order,
//! shared by owned structs and views. Generated only for messages that
//! record nested lengths (the others, leaves, use the provided body,
//! which sizes and writes them front to back).

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::field;
use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Shape, ValueType};
use crate::layout::view_layout;

/// The `write_backward` method for a message (owned or view) with
/// `fields`, oneof `oneof_names[i]` of enum type `module::oneof_enums[i]`;
/// nothing for a leaf message (`uses_cache` false).
pub fn write_backward_fn(
    context: &Context<'_>,
    full_name: &str,
    fields: &[Field<'_>],
    module_ident: &syn::Ident,
    oneof_names: &[String],
    oneof_enums: &[String],
) -> Result<TokenStream, Error> {
    if !fields.iter().any(field::uses_cache) {
        return Ok(quote!());
    }
    // Written back to front: the unknown fields (last on the wire) first,
    // then the fields in descending field-number order.
    let mut order: Vec<&Field<'_>> = fields.iter().collect();
    order.sort_by_key(|f| core::cmp::Reverse(f.number));
    let mut writes = Vec::new();
    for field in order {
        if let Shape::Oneof(index) = field.shape {
            let oneof = ident::ident(&oneof_names[index]);
            let enum_name = ident::ident(&oneof_enums[index]);
            let variant = ident::ident(&field.rust_name);
            let write = oneof_member(context, full_name, field)?;
            writes.push(quote! {
                if let ::core::option::Option::Some(#module_ident::#enum_name::#variant(value)) = &self.#oneof {
                    #write;
                }
            });
        } else {
            writes.push(field_stmt(field));
        }
    }
    // A message that discards unknown fields has none to write.
    let unknown = (context.unknown_fields.keeps(full_name))
        .then(|| quote!(__buffa::backward::unknown(&self.unknown_fields, encoder);));
    Ok(quote! {
        #[inline]
        fn write_backward(&self, encoder: &mut __buffa::BackwardEncoder<'_>) {
            #unknown
            #(#writes)*
        }
    })
}

/// The statement writing one field that is not a oneof member.
fn field_stmt(field: &Field<'_>) -> TokenStream {
    let number = proc_macro2::Literal::u32_unsuffixed(field.number);
    let name = ident::ident(&field.rust_name);
    let marker = field::value_marker(&field.value);
    if let Some((delimited, repeated)) = field::lazy_shape(field) {
        let helper = if repeated {
            quote!(lazy_repeated)
        } else {
            quote!(lazy_field)
        };
        return quote!(__buffa::backward::#helper(#number, #delimited, &self.#name, encoder););
    }
    match (&field.shape, &field.value) {
        (Shape::Map { key, value, .. }, _) => {
            let (key, value) = (field::scalar_marker(*key), field::value_marker(value));
            quote!(__buffa::backward::map::<#key, #value, _>(#number, &self.#name, encoder);)
        }
        (
            Shape::Explicit,
            ValueType::Message {
                delimited: true, ..
            },
        ) => quote!(__buffa::backward::group_field(#number, &self.#name, encoder);),
        (Shape::Explicit, ValueType::Message { .. }) => {
            quote!(__buffa::backward::message_field(#number, &self.#name, encoder);)
        }
        (
            Shape::Repeated { .. },
            ValueType::Message {
                delimited: true, ..
            },
        ) => quote!(__buffa::backward::repeated_group(#number, &self.#name, encoder);),
        (Shape::Repeated { .. }, ValueType::Message { .. }) => {
            quote!(__buffa::backward::repeated_message(#number, &self.#name, encoder);)
        }
        (Shape::Implicit, _) => {
            quote!(__buffa::backward::scalar_implicit::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Explicit, _) => {
            quote!(__buffa::backward::scalar_optional::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Repeated { packed: true }, _) if field::packable(field) => {
            quote!(__buffa::backward::packed::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Repeated { .. }, _) => {
            quote!(__buffa::backward::expanded::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Oneof(_), _) => quote!(),
    }
}

/// The expression writing a oneof member bound to `value`.
fn oneof_member(
    context: &Context<'_>,
    full_name: &str,
    field: &Field<'_>,
) -> Result<TokenStream, Error> {
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
        } => quote!(__buffa::backward::group(#number, #reference, encoder)),
        ValueType::Message { .. } => {
            quote!(__buffa::backward::message(#number, #reference, encoder))
        }
        _ => quote!(__buffa::backward::scalar::<#marker>(#number, value, encoder)),
    })
}
