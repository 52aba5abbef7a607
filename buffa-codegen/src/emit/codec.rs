//! The bodies of `compute_size`, `write_to` and `merge_field`: one size
//! call, one write and one merge arm per field, shared by owned structs
//! and views so that both encode alike by construction.

use buffa_types::google::protobuf::feature_set::FieldPresence;
use buffa_types::google::protobuf::field_descriptor_proto::Label;
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::field;
use crate::emit::oneof;
use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Scalar, Shape, ValueType};
use crate::options::{BytesRepr, StringRepr};

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
    /// The body of `merge_keyed`, for messages with fields numbered 1 to
    /// 15 (see [`field::keyed_arms`]).
    pub keyed_body: Option<TokenStream>,
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
    let mut keyed_arms = Vec::new();
    let mut keyed_fields = Vec::new();
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
        let keyed = field::keyed_arms(field, &body);
        if keyed.is_empty() {
            arms.push(quote!(#number => #body,));
        } else {
            keyed_arms.extend(keyed);
            keyed_fields.push(field);
        }
    }

    // A message without fields has nothing to match on.
    arms.extend(field::mismatch_arms(&keyed_fields));
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
        keyed_body: field::keyed_body(&keyed_arms),
        fixed_record: fixed_record(context, &order)?,
    })
}

/// `FIXED_RECORD` and `merge_fixed_record` for fields (in field-number
/// order) that may make a fixed record (`buffa::__private::fixed_record`
/// explains the layout): singular fixed-width scalars with implicit
/// presence, and singular sub-messages whose own fields are such scalars,
/// all with one-byte keys. Whether a sub-message field takes part is
/// settled when the constant is evaluated (it must be held in place, and
/// its type must declare a record). Nothing for any other message, which
/// keeps the provided `FIXED_RECORD` of `None`.
fn fixed_record(context: &Context<'_>, order: &[&Field<'_>]) -> Result<TokenStream, Error> {
    let mut keys = Vec::new();
    let mut reads = Vec::new();
    // Each value sits behind its one-byte key; a sub-message's record
    // behind its key and one-byte length.
    let mut at = 0usize;
    for field in order {
        if field.lazy || !(1..=15).contains(&field.number) {
            return Ok(quote!());
        }
        let number = proc_macro2::Literal::u32_unsuffixed(field.number);
        let name = ident::ident(&field.rust_name);
        match (&field.shape, &field.value) {
            (Shape::Implicit, ValueType::Scalar(scalar)) => {
                let Some(width) = scalar.fixed_width() else {
                    return Ok(quote!());
                };
                let marker = field::scalar_marker(*scalar);
                let offset = proc_macro2::Literal::usize_unsuffixed(at + 1);
                keys.push(quote!(__buffa::FixedField::of::<#marker>(#number)));
                reads.push(
                    quote!(self.#name = __buffa::fixed_record::read::<#marker>(record, #offset);),
                );
                at += 1 + width;
            }
            (
                Shape::Explicit,
                ValueType::Message {
                    full_name,
                    delimited: false,
                    ..
                },
            ) => {
                // A boxed sub-message (`pointer` of `None`) allocates: no
                // record. Other pointers say so when the constant is
                // evaluated.
                let Some(len) =
                    leaf_record_len(context, full_name)?.filter(|_| field.pointer.is_some())
                else {
                    return Ok(quote!());
                };
                let ty = field::field_type(field, &context.buffa, &context.alloc)?;
                let (start, end) = (
                    proc_macro2::Literal::usize_unsuffixed(at + 2),
                    proc_macro2::Literal::usize_unsuffixed(at + 2 + len),
                );
                keys.push(quote!(__buffa::FixedField::message::<#ty>(#number)));
                reads.push(quote!(
                    __buffa::fixed_record::merge_message(&mut self.#name, &record[#start..#end]);
                ));
                at += 2 + len;
            }
            _ => return Ok(quote!()),
        }
    }
    if keys.is_empty() {
        return Ok(quote!());
    }
    Ok(quote! {
        const FIXED_RECORD: ::core::option::Option<__buffa::FixedRecord> =
            __buffa::FixedRecord::new(&[#(#keys),*]);

        #[inline]
        fn merge_fixed_record(&mut self, record: &[u8]) {
            #(#reads)*
        }
    })
}

/// The length of message `full_name`'s fixed record if its fields are
/// all fixed-width scalars with implicit presence and one-byte keys (a
/// record without sub-messages, which can sit inside another); `None`
/// otherwise.
fn leaf_record_len(context: &Context<'_>, full_name: &str) -> Result<Option<usize>, Error> {
    let message = context.schema.message(full_name)?;
    let mut len = 0;
    for proto in &message.proto.field {
        let implicit = message.field(proto).features().field_presence == FieldPresence::Implicit;
        let scalar = Scalar::from_type(proto.r#type(), StringRepr::String, BytesRepr::Vec);
        let width = scalar.and_then(Scalar::fixed_width);
        match width {
            Some(width)
                if implicit
                    && proto.label() != Label::Repeated
                    && proto.oneof_index.is_none()
                    && (1..=15).contains(&proto.number()) =>
            {
                len += 1 + width;
            }
            _ => return Ok(None),
        }
    }
    Ok((len > 0).then_some(len))
}
