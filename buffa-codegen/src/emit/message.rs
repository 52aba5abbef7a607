//! Rust structs and `Message` impls for protobuf messages, and the module
//! of each message's nested types. Oneofs and accessors have their own
//! modules.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::accessors;
use crate::emit::codec;
use crate::emit::comments::Comments;
use crate::emit::enumeration;
use crate::emit::extension;
use crate::emit::field;
use crate::emit::json;
use crate::emit::oneof;
use crate::emit::runtime;
use crate::emit::view;
use crate::error::Error;
use crate::ident;
use crate::input::schema::RustPath;
use crate::layout::field::Shape;
use crate::layout::field_model;
use crate::layout::owned;

/// A message's struct, its impls and the module of its nested types.
pub fn generate_message(
    context: &Context<'_>,
    full_name: &str,
    source_path: &[i32],
    comments: &Comments,
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    if message
        .proto
        .options
        .as_option()
        .is_some_and(|o| o.map_entry())
    {
        return Ok(quote!());
    }
    let RustPath::Local {
        modules: parent,
        name,
    } = &message.rust
    else {
        return Ok(quote!());
    };
    let name = ident::ident(name);
    let module_ident = message.module_ident();
    let fields = owned::fields(context, full_name, message, parent)?;
    let (_, oneof_names) = field_model::member_names(message);
    let oneof_enums = field_model::oneof_enum_names(context, full_name)?;

    let mut struct_fields = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        if matches!(field.shape, Shape::Oneof(_)) {
            continue;
        }
        let mut path = source_path.to_vec();
        path.extend([2, index as i32]);
        let doc = comments.doc(&path);
        let attributes = context.attributes(&[&context.options.field_attributes], &field.path);
        let field_name = ident::ident(&field.rust_name);
        let ty = field::field_type(field, &context.buffa, &context.alloc)?;
        struct_fields.push(quote!(#doc #attributes pub #field_name: #ty));
    }
    for (index, oneof) in message.proto.oneof_decl.iter().enumerate() {
        if !field_model::is_real_oneof(message, index) {
            continue;
        }
        let mut path = source_path.to_vec();
        path.extend([8, index as i32]);
        let doc = comments.doc(&path);
        let oneof_path = format!("{full_name}.{}", oneof.name());
        let attributes = context.attributes(&[&context.options.field_attributes], &oneof_path);
        let field_name = ident::ident(&oneof_names[index]);
        let enum_name = ident::ident(&oneof_enums[index]);
        struct_fields.push(quote!(#doc #attributes pub #field_name: ::core::option::Option<#module_ident::#enum_name>));
    }

    let codec::Codec {
        size_body,
        write_body,
        encoder_param,
        merge_body,
        keyed_body,
        fixed_record,
    } = codec::codec(
        context,
        full_name,
        &fields,
        &module_ident,
        &oneof_names,
        &oneof_enums,
    )?;
    let buffa = &context.buffa;
    let merge_keyed = keyed_body.map(|body| {
        quote! {
            #[inline(always)]
            fn merge_keyed(&mut self, key: u8, decoder: &mut __buffa::Decoder<'_>) -> ::core::result::Result<bool, #buffa::DecodeError> {
                #body
            }
        }
    });
    let write_backward = crate::emit::backward::write_backward_fn(
        context,
        full_name,
        &fields,
        &module_ident,
        &oneof_names,
        &oneof_enums,
    )?;
    let accessors = accessors::accessors(context, quote!(#name), &fields)?;
    let doc = comments.doc(source_path);
    let attributes = context.attributes(
        &[
            &context.options.type_attributes,
            &context.options.message_attributes,
        ],
        full_name,
    );
    let proto_name = full_name.trim_start_matches('.');
    let nested = nested_module(context, full_name, source_path, comments, &oneof_enums)?;
    // Oneofs always pass the cache on; a field named `cache` must not
    // count, so this looks at the fields rather than the tokens.
    let uses_cache = fields.iter().any(field::uses_cache);
    let shares_input = if owned::shares_input(context, full_name)? {
        quote!()
    } else {
        quote!(
            const SHARES_INPUT: bool = false;
        )
    };
    let caches_sizes = if uses_cache {
        quote!()
    } else {
        quote!(
            const CACHES_SIZES: bool = false;
        )
    };
    let cache_param = if uses_cache {
        quote!(cache)
    } else {
        quote!(_cache)
    };
    let eq_hash = if context.eq_hash.message(full_name) {
        quote!(::core::cmp::Eq, ::core::hash::Hash,)
    } else {
        quote!()
    };
    let buffa = &context.buffa;
    // A message that discards unknown fields has no field for them (nor
    // anything in its encoding, see `codec`) and uses the provided
    // `Message::unknown_fields` (an empty set).
    let keeps_unknown = context.unknown_fields.keeps(full_name);
    let unknown_field = keeps_unknown.then(|| {
        quote! {
            /// Fields read from the wire that this schema does not know.
            pub unknown_fields: #buffa::UnknownFields,
        }
    });
    let unknown_getter = keeps_unknown.then(|| {
        quote! {
            fn unknown_fields(&self) -> &#buffa::UnknownFields {
                &self.unknown_fields
            }
        }
    });
    let extendable = extension::extendable_impl(context, full_name, &name);
    let json = json::generate_message_json(context, full_name, &fields)?;
    let view = if context.options.views {
        view::behind_views_feature(
            context,
            view::generate_view(context, full_name, source_path, comments)?,
        )?
    } else {
        quote!()
    };

    Ok(quote! {
        #doc
        #[derive(::core::clone::Clone, ::core::cmp::PartialEq, #eq_hash ::core::fmt::Debug, ::core::default::Default)]
        #attributes
        pub struct #name {
            #(#struct_fields,)*
            #unknown_field
        }

        #accessors

        impl #buffa::Message for #name {
            const NAME: &'static str = #proto_name;
            #caches_sizes
            #shares_input

            fn default_instance() -> &'static Self {
                static INSTANCE: __buffa::OnceBox<#name> = __buffa::OnceBox::new();
                INSTANCE.get_or_default()
            }

            // `#[inline]`, like `merge_field`: the encoder is compiled in the
            // crate that encodes the message, for the messages it encodes,
            // as prost's generic `encode_raw` is, not for every message of a
            // generated crate (see DESIGN.md, "What a generated crate compiles").
            #[allow(unused_mut)]
            #[inline]
            fn compute_size(&self, #cache_param: &mut __buffa::SizeCache) -> usize {
                #size_body
            }

            #[inline]
            fn write_to(&self, #cache_param: &mut __buffa::SizeCache, #encoder_param: &mut __buffa::Encoder<'_>) {
                #write_body
            }

            #write_backward

            #[inline]
            fn merge_field(&mut self, tag: __buffa::Tag, decoder: &mut __buffa::Decoder<'_>) -> ::core::result::Result<(), #buffa::DecodeError> {
                #merge_body
            }

            #merge_keyed

            #fixed_record

            #unknown_getter
        }

        #extendable

        #json

        #view

        #nested
    })
}

/// `pub mod <message> { ... }` with nested messages, enums and oneof
/// enums; nothing when there are none.
fn nested_module(
    context: &Context<'_>,
    full_name: &str,
    source_path: &[i32],
    comments: &Comments,
    oneof_enums: &[String],
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let mut items = Vec::new();
    for (index, nested) in message.proto.nested_type.iter().enumerate() {
        let mut path = source_path.to_vec();
        path.extend([3, index as i32]);
        items.push(generate_message(
            context,
            &format!("{full_name}.{}", nested.name()),
            &path,
            comments,
        )?);
    }
    items.push(extension::generate_nested_extensions(
        context, full_name, comments,
    )?);
    // Only messages and extension constants call the support API; a
    // module of enums and oneofs alone does without the alias.
    let has_oneofs =
        (0..message.proto.oneof_decl.len()).any(|index| field_model::is_real_oneof(message, index));
    let alias = if items.iter().any(|item| !item.is_empty()) {
        runtime::alias_item(&context.buffa)
    } else if context.options.views && has_oneofs {
        let cfg = view::views_cfg(context);
        let alias = runtime::alias_item(&context.buffa);
        quote!(#cfg #alias)
    } else {
        quote!()
    };
    for (index, nested) in message.proto.enum_type.iter().enumerate() {
        let mut path = source_path.to_vec();
        path.extend([4, index as i32]);
        let enum_name = format!("{full_name}.{}", nested.name());
        if context.schema.enumeration(&enum_name)?.rust.is_local() {
            items.push(enumeration::generate_enum(
                context, &enum_name, nested, &path, comments,
            ));
        }
    }
    for (index, _) in message.proto.oneof_decl.iter().enumerate() {
        if field_model::is_real_oneof(message, index) {
            let mut path = source_path.to_vec();
            path.extend([8, index as i32]);
            items.push(oneof::generate_oneof(
                context,
                full_name,
                index,
                &oneof_enums[index],
                &path,
                comments,
            )?);
            if context.options.views {
                let view =
                    view::generate_oneof_view(context, full_name, index, &oneof_enums[index])?;
                items.push(view::behind_views_feature(context, view)?);
            }
        }
    }
    items.retain(|item| !item.is_empty());
    if items.is_empty() {
        return Ok(quote!());
    }
    let module = message.module_ident();
    let doc = format!(
        " Nested types of [`{}`].",
        message.name.trim_start_matches("r#")
    );
    Ok(quote! {
        #[doc = #doc]
        #[allow(clippy::module_inception)]
        pub mod #module {
            #alias
            #(#items)*
        }
    })
}
