//! Borrowed views (`Options::views`): `FooView<'a>` beside every message
//! `Foo`, its oneof view enums, and their impls. Sizing, writing and
//! merging reuse the owned message's generators over the view's fields
//! (`layout::view_layout::view_fields`), so both shapes encode alike by construction.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::accessors;
use crate::emit::codec::{self, Codec};
use crate::emit::comments::Comments;
use crate::emit::field;
use crate::error::Error;
use crate::ident;
use crate::input::names::OneofNames;
use crate::input::schema::{MessageType, RustPath};
use crate::layout::field::{Field, Shape, ValueType};
use crate::layout::field_model;
use crate::layout::owned;
use crate::layout::view_layout;

/// The `#[cfg(...)]` the view items carry, if any
/// (`Options::views_feature`).
pub(crate) fn views_cfg(context: &Context<'_>) -> TokenStream {
    match &context.options.views_feature {
        Some(feature) => quote!(#[cfg(feature = #feature)]),
        None => quote!(),
    }
}

/// `items`, each behind [`views_cfg`]: after its doc
/// comments, before its other attributes.
pub(crate) fn behind_views_feature(
    context: &Context<'_>,
    items: TokenStream,
) -> Result<TokenStream, Error> {
    if context.options.views_feature.is_none() || items.is_empty() {
        return Ok(items);
    }
    let cfg = views_cfg(context);
    let mut file: syn::File = syn::parse2(items)
        .map_err(|e| Error::new(format!("generated view does not parse: {e}")))?;
    for item in &mut file.items {
        let attrs = item_attrs(item)?;
        let docs = attrs
            .iter()
            .take_while(|a| a.path().is_ident("doc"))
            .count();
        let parsed = syn::parse::Parser::parse2(syn::Attribute::parse_outer, cfg.clone())
            .map_err(|e| Error::new(format!("views feature: {e}")))?;
        attrs.splice(docs..docs, parsed);
    }
    Ok(quote!(#file))
}

/// The view of message `full_name` (`FooView` for `Foo`, as
/// `names.rs` claimed it), with its impls; `source_path` locates the
/// message's comments.
pub(crate) fn generate_view(
    context: &Context<'_>,
    full_name: &str,
    source_path: &[i32],
    comments: &Comments,
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let (
        RustPath::Local {
            modules: parent,
            name: owned_name,
        },
        RustPath::Local {
            name: view_name, ..
        },
    ) = (&message.rust, &message.view)
    else {
        return Ok(quote!());
    };
    let owned = ident::ident(owned_name);
    let name = ident::ident(view_name);
    let module_ident = message.module_ident();
    let fields = view_layout::view_fields(context, full_name, message, parent)?;
    let (_, oneof_names) = field_model::member_names(message);
    let view_enums = oneof_view_enum_names(context, full_name)?;
    let buffa = &context.buffa;

    let mut struct_fields = Vec::new();
    let mut conversions = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        if matches!(field.shape, Shape::Oneof(_)) {
            continue;
        }
        let mut path = source_path.to_vec();
        path.extend([2, index as i32]);
        let doc = comments.doc(&path);
        let field_name = ident::ident(&field.rust_name);
        let ty = field::field_type(field, buffa, &context.alloc)?;
        struct_fields.push(quote!(#doc pub #field_name: #ty));
        conversions.push(owned_copy(field, &field_name));
    }
    for (index, _) in message.proto.oneof_decl.iter().enumerate() {
        if !field_model::is_real_oneof(message, index) {
            continue;
        }
        let mut path = source_path.to_vec();
        path.extend([8, index as i32]);
        let doc = comments.doc(&path);
        let field_name = ident::ident(&oneof_names[index]);
        let enum_name = ident::ident(&view_enums[index]);
        let ty = if oneof_borrows(message, index) {
            quote!(#module_ident::#enum_name<'a>)
        } else {
            quote!(#module_ident::#enum_name)
        };
        struct_fields.push(quote!(#doc pub #field_name: ::core::option::Option<#ty>));
        conversions
            .push(quote!(__buffa::to_owned_into(&self.#field_name, &mut owned.#field_name)?;));
    }

    let Codec {
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
        &view_enums,
    )?;
    let (check_body, check_keyed_body) = check_body(context, &fields)?;
    let keyed = keyed_body.map(|body| {
        quote! {
            #[inline(always)]
            fn merge_keyed(&mut self, key: u8, decoder: &mut __buffa::Decoder<'a>) -> ::core::result::Result<bool, #buffa::DecodeError> {
                #body
            }
        }
    });
    let check_keyed = check_keyed_body.map(|body| {
        quote! {
            #[inline(always)]
            fn check_keyed(key: u8, decoder: &mut __buffa::Decoder<'a>) -> ::core::result::Result<bool, #buffa::DecodeError> {
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
        &view_enums,
    )?;
    let caches_sizes = if fields.iter().any(field::uses_cache) {
        quote!()
    } else {
        quote!(
            const CACHES_SIZES: bool = false;
        )
    };
    let cache_param = if fields.iter().any(field::uses_cache) {
        quote!(cache)
    } else {
        quote!(_cache)
    };
    let accessors = accessors::accessors(context, quote!(<'a> #name<'a>), &fields)?;
    // A message that discards unknown fields keeps none in its view
    // either; the field then only holds the view's lifetime, which no
    // other field may use, under the name no proto field can take.
    let keeps_unknown = context.unknown_fields.keeps(full_name);
    // Nothing to copy into a message of no fields that keeps nothing.
    let owned_binding = if keeps_unknown || !conversions.is_empty() {
        quote!(mut owned)
    } else {
        quote!(owned)
    };
    let (unknown_field, unknown_copy, unknown_depth) = if keeps_unknown {
        (
            quote! {
                /// Fields read from the wire that this schema does not know.
                pub unknown_fields: #buffa::UnknownFieldsView<'a>,
            },
            quote!(__buffa::to_owned_into(&self.unknown_fields, &mut owned.unknown_fields)?;),
            quote!(self.unknown_fields.nesting()),
        )
    } else {
        (
            quote! {
                /// None kept: this message discards the fields its schema
                /// does not know. Holds the view's lifetime only.
                pub unknown_fields: ::core::marker::PhantomData<&'a ()>,
            },
            quote!(),
            quote!(0),
        )
    };
    let proto_name = full_name.trim_start_matches('.');
    let doc = format!(
        " A borrowed view of [`{}`]: the same fields, read from the input without copying it.",
        owned_name.trim_start_matches("r#")
    );
    Ok(quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::cmp::PartialEq, ::core::fmt::Debug, ::core::default::Default)]
        pub struct #name<'a> {
            #(#struct_fields,)*
            #unknown_field
        }

        #accessors

        impl<'a> #buffa::MessageView<'a> for #name<'a> {
            type Owned = #owned;
        }

        impl #buffa::HasView for #owned {
            type View<'a> = #name<'a>;
        }

        impl<'a> __buffa::ToOwnedValue<#owned> for #name<'a> {
            // Field by field into a default message rather than one struct
            // literal: every `?` then drops one value, not all the fields
            // converted before it, which grows quadratically with the
            // number of fields.
            //
            // `#[inline]` here and on the view's encoding: a crate compiles
            // them only for the views it converts or encodes, not for every
            // view of a generated crate (most users only read views).
            #[allow(clippy::field_reassign_with_default)]
            #[inline]
            fn to_owned_value(&self) -> ::core::result::Result<#owned, #buffa::DecodeError> {
                let #owned_binding = <#owned as ::core::default::Default>::default();
                #(#conversions)*
                #unknown_copy
                ::core::result::Result::Ok(owned)
            }
        }

        impl<'a> __buffa::DefaultRef for #name<'a> {
            fn default_ref<'r>() -> &'r Self
            where
                Self: 'r,
            {
                static INSTANCE: __buffa::OnceBox<#name<'static>> = __buffa::OnceBox::new();
                INSTANCE.get_or_default()
            }
        }

        impl<'a> __buffa::Encodable for #name<'a> {
            const NAME: &'static str = #proto_name;
            #caches_sizes

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
            fn unknown_group_depth(&self) -> u32 {
                #unknown_depth
            }
        }

        impl<'a> __buffa::Mergeable<'a> for #name<'a> {
            #[inline]
            fn merge_field(&mut self, tag: __buffa::Tag, decoder: &mut __buffa::Decoder<'a>) -> ::core::result::Result<(), #buffa::DecodeError> {
                #merge_body
            }

            #[inline]
            fn check_field(tag: __buffa::Tag, decoder: &mut __buffa::Decoder<'a>) -> ::core::result::Result<(), #buffa::DecodeError> {
                #check_body
            }

            #keyed

            #check_keyed

            #fixed_record
        }
    })
}

/// The bodies of a view's `check_field` and `check_keyed` (`None` where
/// no field has a one-byte key): each field read as `merge_field` reads
/// it, keeping nothing. A sub-message is checked field by field in
/// turn, a sequence's elements are checked (not kept), and a lazy field,
/// whose decode only skips its payload, merges into a throwaway value.
fn check_body(
    context: &Context<'_>,
    fields: &[Field<'_>],
) -> Result<(TokenStream, Option<TokenStream>), Error> {
    let buffa = &context.buffa;
    let discard = quote!(&mut __buffa::DiscardUnknown);
    let mut arms = Vec::new();
    let mut keyed_arms = Vec::new();
    let mut keyed_fields = Vec::new();
    for field in fields {
        let number = proc_macro2::Literal::u32_unsuffixed(field.number);
        let check = match (&field.shape, &field.value) {
            _ if field.lazy => {
                let ty = field::field_type(field, buffa, &context.alloc)?;
                let merge = field::merge_into(field, &quote!(field), &discard);
                quote!({
                    let mut field: #ty = ::core::default::Default::default();
                    #merge
                })
            }
            (Shape::Repeated { .. }, value) => {
                let element = field::view_element(value, buffa, false);
                quote!(__buffa::view::check_repeated::<#element>(tag, decoder))
            }
            (Shape::Map { key, value, .. }, _) => {
                let (key, value) = (field::scalar_marker(*key), field::value_marker(value));
                quote!(__buffa::view::check_map::<#key, #value>(tag, decoder))
            }
            (
                _,
                ValueType::Message {
                    path,
                    delimited: true,
                    ..
                },
            ) => {
                quote!(__buffa::message::check_group::<#path>(tag, decoder))
            }
            (_, ValueType::Message { path, .. }) => {
                quote!(__buffa::message::check::<#path>(tag, decoder))
            }
            (_, ValueType::Enum { path, closed: true }) => {
                quote!(__buffa::closed_enum::check::<#path>(tag, decoder))
            }
            (_, value) => {
                let marker = field::value_marker(value);
                quote!(__buffa::scalar::check::<#marker>(tag, decoder))
            }
        };
        let keyed = field::keyed_arms(field, &check);
        if keyed.is_empty() {
            arms.push(quote!(#number => #check,));
        } else {
            keyed_arms.extend(keyed);
            keyed_fields.push(field);
        }
    }
    let keyed = field::keyed_body(&keyed_arms);
    arms.extend(field::mismatch_arms(&keyed_fields));
    let body = if arms.is_empty() {
        quote!(decoder.skip_to_unknown(tag, #discard))
    } else {
        quote! {
            match tag.field_number() {
                #(#arms)*
                _ => decoder.skip_to_unknown(tag, #discard),
            }
        }
    };
    Ok((body, keyed))
}

/// The statement copying view field `name` into the owned message
/// `owned`: singular numbers, booleans and enums are the same types in
/// both and copy directly; everything else (sequences included) goes
/// through `to_owned_into`.
fn owned_copy(field: &Field<'_>, name: &syn::Ident) -> TokenStream {
    let same_type = match &field.value {
        ValueType::Scalar(scalar) => scalar.packable(),
        ValueType::Enum { .. } => true,
        ValueType::Message { .. } => false,
    };
    match field.shape {
        Shape::Implicit | Shape::Explicit if same_type => quote!(owned.#name = self.#name;),
        _ => quote!(__buffa::to_owned_into(&self.#name, &mut owned.#name)?;),
    }
}

/// The view enum names of a message's oneofs, indexed like its oneofs
/// (empty for synthetic ones): `KindView` (as `names.rs` claimed it)
/// for a oneof with a member that borrows (string, bytes, message),
/// the owned enum's own name otherwise, since the owned enum then
/// serves as is.
pub(crate) fn oneof_view_enum_names(
    context: &Context<'_>,
    full_name: &str,
) -> Result<Vec<String>, Error> {
    let message = context.schema.message(full_name)?;
    Ok(message
        .oneofs
        .iter()
        .map(|names| match names {
            Some(OneofNames {
                view: Some(view), ..
            }) => view.clone(),
            Some(names) => names.owned.clone(),
            None => String::new(),
        })
        .collect())
}

/// The view enum of oneof `index` of `full_name`, with its conversion
/// to the owned enum; for a oneof whose owned enum serves its view,
/// only that conversion (a copy).
pub(crate) fn generate_oneof_view(
    context: &Context<'_>,
    full_name: &str,
    index: usize,
    owned_enum: &str,
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let owned_fields = owned::fields(context, full_name, message, &message.module)?;
    let view_fields = view_layout::view_fields(context, full_name, message, &message.module)?;
    let owned = ident::ident(owned_enum);
    let buffa = &context.buffa;
    let alloc = &context.alloc;
    if !oneof_borrows(message, index) {
        return Ok(quote! {
            impl __buffa::ToOwnedValue<#owned> for #owned {
                #[inline]
                fn to_owned_value(&self) -> ::core::result::Result<#owned, #buffa::DecodeError> {
                    ::core::result::Result::Ok(::core::clone::Clone::clone(self))
                }
            }
        });
    }
    let name = ident::ident(&oneof_view_enum_names(context, full_name)?[index]);
    let mut variants = Vec::new();
    let mut arms = Vec::new();
    for (owned_field, field) in owned_fields.iter().zip(&view_fields) {
        if !matches!(field.shape, Shape::Oneof(i) if i == index) {
            continue;
        }
        let variant = ident::ident(&field.rust_name);
        let value = field::value_type(&field.value, buffa, &context.alloc);
        let view_boxed = view_layout::oneof_boxed(context, full_name, field)?;
        let owned_boxed = view_layout::oneof_boxed(context, full_name, owned_field)?;
        variants.push(if view_boxed {
            quote!(#variant(#alloc::boxed::Box<#value>))
        } else {
            quote!(#variant(#value))
        });
        let reference = if view_boxed {
            quote!(&**value)
        } else {
            quote!(value)
        };
        let converted = quote!(__buffa::to_owned(#reference)?);
        let converted = if owned_boxed {
            quote!(#alloc::boxed::Box::new(#converted))
        } else {
            converted
        };
        arms.push(quote!(#name::#variant(value) => #owned::#variant(#converted)));
    }
    let doc = format!(" The view of [`{owned_enum}`].");
    Ok(quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::cmp::PartialEq, ::core::fmt::Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum #name<'a> {
            #(#variants,)*
        }

        impl<'a> __buffa::ToOwnedValue<#owned> for #name<'a> {
            #[inline]
            fn to_owned_value(&self) -> ::core::result::Result<#owned, #buffa::DecodeError> {
                ::core::result::Result::Ok(match self {
                    #(#arms,)*
                })
            }
        }
    })
}

/// Whether a member of oneof `index` of `message` holds borrowed data in a
/// view, and the oneof so has a view enum of its own.
fn oneof_borrows(message: &MessageType<'_>, index: usize) -> bool {
    message
        .oneofs
        .get(index)
        .is_some_and(|names| names.as_ref().is_some_and(|n| n.view.is_some()))
}

/// The attributes of a generated view item.
fn item_attrs(item: &mut syn::Item) -> Result<&mut Vec<syn::Attribute>, Error> {
    Ok(match item {
        syn::Item::Struct(item) => &mut item.attrs,
        syn::Item::Enum(item) => &mut item.attrs,
        syn::Item::Impl(item) => &mut item.attrs,
        syn::Item::Fn(item) => &mut item.attrs,
        syn::Item::Use(item) => &mut item.attrs,
        syn::Item::Const(item) => &mut item.attrs,
        syn::Item::Static(item) => &mut item.attrs,
        syn::Item::Type(item) => &mut item.attrs,
        syn::Item::Mod(item) => &mut item.attrs,
        other => {
            return Err(Error::new(format!(
                "unexpected item in a view: {}",
                quote!(#other)
            )));
        }
    })
}
