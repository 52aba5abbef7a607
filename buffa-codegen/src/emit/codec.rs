//! The bodies of `compute_size`, `write_to` and `merge_field`: one size
//! call, one write and one merge arm per field, shared by owned structs
//! and views so that both encode alike by construction.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::field;
use crate::emit::oneof;
use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Scalar, Shape, ValueType};

/// The generated bodies every message shape (owned or view) shares.
pub struct Codec {
    /// The body of `compute_size`: each field's size, and the unknown
    /// fields' where the message keeps them.
    pub size_body: TokenStream,
    /// The body of `write_to`: each field, then the unknown fields where
    /// the message keeps them.
    pub write_body: TokenStream,
    /// The name of `write_to`'s encoder parameter: `_encoder` where the
    /// body writes nothing (no fields, no unknown fields).
    pub encoder_param: TokenStream,
    /// The body of `merge_field`.
    pub merge_body: TokenStream,
    /// `FIXED_RECORD` and `merge_fixed_record` for a message whose fields
    /// make a fixed record (see [`fixed_record`]); nothing otherwise.
    pub fixed_record: TokenStream,
}

/// The bodies of `compute_size`, `write_to` and `merge_field` for
/// `fields` (owned or view), with oneof `oneof_names[i]` of enum type
/// `module::oneof_enums[i]`.
pub fn codec(
    context: &Context<'_>,
    full_name: &str,
    fields: &[Field<'_>],
    module_ident: &syn::Ident,
    oneof_names: &[String],
    oneof_enums: &[String],
) -> Result<Codec, Error> {
    // Fields are written in field-number order, oneof members included.
    let mut order: Vec<&Field<'_>> = fields.iter().collect();
    order.sort_by_key(|f| f.number);
    let mut sizes = Vec::new();
    let mut writes = Vec::new();
    for field in &order {
        if let Shape::Oneof(index) = field.shape {
            // Each member is written at its own field number, so the
            // output keeps field-number order like other
            // implementations'.
            let oneof = ident::ident(&oneof_names[index]);
            let enum_name = ident::ident(&oneof_enums[index]);
            let variant = ident::ident(&field.rust_name);
            let pattern =
                quote!(::core::option::Option::Some(#module_ident::#enum_name::#variant(value)));
            let (size, write) = oneof::oneof_member_calls(context, full_name, field)?;
            sizes.push(quote!(if let #pattern = &self.#oneof { size += #size; }));
            writes.push(quote!(if let #pattern = &self.#oneof { #write; }));
            continue;
        }
        let size = field::size_expr(field);
        sizes.push(quote!(size += #size;));
        writes.push(field::write_stmt(field));
    }

    let keeps_unknown = context.unknown_fields.keeps(full_name);
    let unknown = field::unknown_sink(keeps_unknown);
    let mut arms = Vec::new();
    for field in fields {
        let number = proc_macro2::Literal::u32_unsuffixed(field.number);
        let body = match field.shape {
            Shape::Oneof(index) => oneof::oneof_merge(
                context,
                full_name,
                field,
                module_ident,
                &ident::ident(&oneof_names[index]),
                &ident::ident(&oneof_enums[index]),
            )?,
            _ => field::merge_expr(field, &unknown),
        };
        arms.push(quote!(#number => #body,));
    }

    // A message without fields has nothing to match on.
    let merge_body = if arms.is_empty() {
        quote!(decoder.skip_to_unknown(tag, #unknown))
    } else {
        quote! {
            match tag.field_number() {
                #(#arms)*
                _ => decoder.skip_to_unknown(tag, #unknown),
            }
        }
    };
    // Owned unknown fields and views' spans both have `encoded_len` and
    // `write`.
    let size_body = match (keeps_unknown, sizes.is_empty()) {
        (true, _) => quote! {
            let mut size = 0;
            #(#sizes)*
            size + self.unknown_fields.encoded_len()
        },
        (false, true) => quote!(0),
        (false, false) => quote! {
            let mut size = 0;
            #(#sizes)*
            size
        },
    };
    let encoder_param = if keeps_unknown || !writes.is_empty() {
        quote!(encoder)
    } else {
        quote!(_encoder)
    };
    if keeps_unknown {
        writes.push(quote!(self.unknown_fields.write(encoder);));
    }
    Ok(Codec {
        size_body,
        write_body: quote!(#(#writes)*),
        encoder_param,
        merge_body,
        fixed_record: fixed_record(&order),
    })
}

/// `FIXED_RECORD` and `merge_fixed_record` for fields (in field-number
/// order) that make a fixed record: all singular fixed-width scalars with
/// implicit presence and one-byte keys (`buffa::__private::fixed_record`
/// explains the layout). Nothing for any other message, which keeps the
/// provided `FIXED_RECORD` of `None`.
fn fixed_record(order: &[&Field<'_>]) -> TokenStream {
    let fixed_width = |field: &Field<'_>| match (&field.shape, &field.value) {
        (Shape::Implicit, ValueType::Scalar(scalar)) if !field.lazy => matches!(
            scalar,
            Scalar::Float
                | Scalar::Double
                | Scalar::Fixed32
                | Scalar::Fixed64
                | Scalar::SFixed32
                | Scalar::SFixed64
        )
        .then_some(*scalar),
        _ => None,
    };
    let scalars: Option<Vec<Scalar>> = order
        .iter()
        .map(|field| fixed_width(field).filter(|_| (1..=15).contains(&field.number)))
        .collect();
    let Some(scalars) = scalars.filter(|scalars| !scalars.is_empty()) else {
        return quote!();
    };
    let mut keys = Vec::new();
    let mut reads = Vec::new();
    // Each value sits behind its one-byte key.
    let mut at = 0usize;
    for (field, scalar) in order.iter().zip(scalars) {
        let marker = field::scalar_marker(scalar);
        let number = proc_macro2::Literal::u32_unsuffixed(field.number);
        let name = ident::ident(&field.rust_name);
        let offset = proc_macro2::Literal::usize_unsuffixed(at + 1);
        keys.push(quote!(__buffa::FixedField::of::<#marker>(#number)));
        reads.push(quote!(self.#name = __buffa::fixed_record::read::<#marker>(record, #offset);));
        at += 1 + if matches!(scalar, Scalar::Double | Scalar::Fixed64 | Scalar::SFixed64) {
            8
        } else {
            4
        };
    }
    quote! {
        const FIXED_RECORD: ::core::option::Option<__buffa::FixedRecord> =
            ::core::option::Option::Some(__buffa::FixedRecord::new(&[#(#keys),*]));

        #[inline]
        fn merge_fixed_record(&mut self, record: &[u8]) {
            #(#reads)*
        }
    }
}
