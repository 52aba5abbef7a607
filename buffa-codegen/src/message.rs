//! Rust structs and `Message` impls for protobuf messages, and the module
//! of each message's nested types. Oneofs and accessors have their own
//! modules.

use proc_macro2::TokenStream;
use quote::quote;

use crate::comments::Comments;
use crate::context::Context;
use crate::error::Error;
use crate::field::{Field, Shape};
use crate::ident;
use crate::runtime;
use crate::schema::RustPath;

/// The generated bodies every message shape (owned or view) shares.
pub(crate) struct Codec {
    /// Statements adding each field's size to `size`.
    pub sizes: Vec<TokenStream>,
    /// Statements writing each field.
    pub writes: Vec<TokenStream>,
    /// The body of `merge_field`.
    pub merge_body: TokenStream,
}

impl Context<'_> {
    /// A message's struct, its impls and the module of its nested types.
    pub fn generate_message(
        &self,
        full_name: &str,
        source_path: &[i32],
        comments: &Comments,
    ) -> Result<TokenStream, Error> {
        let message = self.schema.message(full_name)?;
        if message
            .proto
            .options
            .as_ref()
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
        let fields = self.fields(full_name, message, parent)?;
        let (_, oneof_names) = self.member_names(message);
        let oneof_enums = self.oneof_enum_names(full_name)?;

        let mut struct_fields = Vec::new();
        for (index, field) in fields.iter().enumerate() {
            if matches!(field.shape, Shape::Oneof(_)) {
                continue;
            }
            let mut path = source_path.to_vec();
            path.extend([2, index as i32]);
            let doc = comments.doc(&path);
            let attributes = self.attributes(&[&self.options.field_attributes], &field.path);
            let field_name = ident::ident(&field.rust_name);
            let ty = field.rust_type(&self.buffa, &self.alloc)?;
            struct_fields.push(quote!(#doc #attributes pub #field_name: #ty));
        }
        for (index, oneof) in message.proto.oneof_decl.iter().enumerate() {
            if !Context::is_real_oneof(message, index) {
                continue;
            }
            let mut path = source_path.to_vec();
            path.extend([8, index as i32]);
            let doc = comments.doc(&path);
            let oneof_path = format!("{full_name}.{}", oneof.name());
            let attributes = self.attributes(&[&self.options.field_attributes], &oneof_path);
            let field_name = ident::ident(&oneof_names[index]);
            let enum_name = ident::ident(&oneof_enums[index]);
            struct_fields.push(quote!(#doc #attributes pub #field_name: ::core::option::Option<#module_ident::#enum_name>));
        }

        let Codec {
            sizes,
            writes,
            merge_body,
        } = self.codec(
            full_name,
            &fields,
            &module_ident,
            &oneof_names,
            &oneof_enums,
        )?;
        let accessors = self.accessors(quote!(#name), &fields)?;
        let doc = comments.doc(source_path);
        let attributes = self.attributes(
            &[
                &self.options.type_attributes,
                &self.options.message_attributes,
            ],
            full_name,
        );
        let proto_name = full_name.trim_start_matches('.');
        let nested = self.nested_module(full_name, source_path, comments, &oneof_enums)?;
        // Oneofs always pass the cache on; a field named `cache` must not
        // count, so this looks at the fields rather than the tokens.
        let uses_cache = fields.iter().any(Field::uses_cache);
        let shares_input = if self.shares_input(full_name)? {
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
        let eq_hash = if self.eq_hash.message(full_name) {
            quote!(::core::cmp::Eq, ::core::hash::Hash,)
        } else {
            quote!()
        };
        let buffa = &self.buffa;
        let extendable = self.extendable_impl(full_name, &name);
        let json = self.generate_message_json(full_name, &fields)?;
        let view = if self.options.views {
            self.behind_views_feature(self.generate_view(full_name, source_path, comments)?)?
        } else {
            quote!()
        };

        Ok(quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::cmp::PartialEq, #eq_hash ::core::fmt::Debug, ::core::default::Default)]
            #attributes
            pub struct #name {
                #(#struct_fields,)*
                /// Fields read from the wire that this schema does not know.
                pub unknown_fields: #buffa::UnknownFields,
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
                    let mut size = 0;
                    #(#sizes)*
                    size + self.unknown_fields.encoded_len()
                }

                #[inline]
                fn write_to(&self, #cache_param: &mut __buffa::SizeCache, encoder: &mut __buffa::Encoder<'_>) {
                    #(#writes)*
                    self.unknown_fields.write(encoder);
                }

                #[inline]
                fn merge_field(&mut self, tag: __buffa::Tag, decoder: &mut __buffa::Decoder<'_>) -> ::core::result::Result<(), #buffa::DecodeError> {
                    #merge_body
                }

                fn unknown_fields(&self) -> &#buffa::UnknownFields {
                    &self.unknown_fields
                }
            }

            #extendable

            #json

            #view

            #nested
        })
    }

    /// The bodies of `compute_size`, `write_to` and `merge_field` for
    /// `fields` (owned or view), with oneof `oneof_names[i]` of enum type
    /// `module::oneof_enums[i]`.
    pub(crate) fn codec(
        &self,
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
                let pattern = quote!(::core::option::Option::Some(#module_ident::#enum_name::#variant(value)));
                let (size, write) = self.oneof_member_calls(full_name, field)?;
                sizes.push(quote!(if let #pattern = &self.#oneof { size += #size; }));
                writes.push(quote!(if let #pattern = &self.#oneof { #write; }));
                continue;
            }
            let size = field.size_expr();
            sizes.push(quote!(size += #size;));
            writes.push(field.write_stmt());
        }

        let mut arms = Vec::new();
        for field in fields {
            let number = proc_macro2::Literal::u32_unsuffixed(field.number);
            let body = match field.shape {
                Shape::Oneof(index) => self.oneof_merge(
                    full_name,
                    field,
                    module_ident,
                    &ident::ident(&oneof_names[index]),
                    &ident::ident(&oneof_enums[index]),
                )?,
                _ => field.merge_expr(),
            };
            arms.push(quote!(#number => #body,));
        }

        // A message without fields has nothing to match on.
        let merge_body = if arms.is_empty() {
            quote!(decoder.skip_to_unknown(tag, &mut self.unknown_fields))
        } else {
            quote! {
                match tag.field_number() {
                    #(#arms)*
                    _ => decoder.skip_to_unknown(tag, &mut self.unknown_fields),
                }
            }
        };
        Ok(Codec {
            sizes,
            writes,
            merge_body,
        })
    }

    /// `pub mod <message> { ... }` with nested messages, enums and oneof
    /// enums; nothing when there are none.
    fn nested_module(
        &self,
        full_name: &str,
        source_path: &[i32],
        comments: &Comments,
        oneof_enums: &[String],
    ) -> Result<TokenStream, Error> {
        let message = self.schema.message(full_name)?;
        let mut items = Vec::new();
        for (index, nested) in message.proto.nested_type.iter().enumerate() {
            let mut path = source_path.to_vec();
            path.extend([3, index as i32]);
            items.push(self.generate_message(
                &format!("{full_name}.{}", nested.name()),
                &path,
                comments,
            )?);
        }
        items.push(self.generate_nested_extensions(full_name, comments)?);
        // Only messages and extension constants call the support API; a
        // module of enums and oneofs alone does without the alias.
        let has_oneofs =
            (0..message.proto.oneof_decl.len()).any(|index| Context::is_real_oneof(message, index));
        let alias = if items.iter().any(|item| !item.is_empty()) {
            runtime::alias_item(&self.buffa)
        } else if self.options.views && has_oneofs {
            let cfg = self.views_cfg();
            let alias = runtime::alias_item(&self.buffa);
            quote!(#cfg #alias)
        } else {
            quote!()
        };
        for (index, nested) in message.proto.enum_type.iter().enumerate() {
            let mut path = source_path.to_vec();
            path.extend([4, index as i32]);
            let enum_name = format!("{full_name}.{}", nested.name());
            if self.schema.enumeration(&enum_name)?.rust.is_local() {
                items.push(self.generate_enum(&enum_name, nested, &path, comments));
            }
        }
        for (index, _) in message.proto.oneof_decl.iter().enumerate() {
            if Context::is_real_oneof(message, index) {
                let mut path = source_path.to_vec();
                path.extend([8, index as i32]);
                items.push(self.generate_oneof(
                    full_name,
                    index,
                    &oneof_enums[index],
                    &path,
                    comments,
                )?);
                if self.options.views {
                    let view = self.generate_oneof_view(full_name, index, &oneof_enums[index])?;
                    items.push(self.behind_views_feature(view)?);
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
}
