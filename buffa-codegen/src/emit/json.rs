//! Proto3 JSON: `serde` impls for messages and enums (with `json`), one
//! runtime reader or writer call per field, and each package's
//! `register_types` function for `google.protobuf.Any`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::error::Error;
use buffa_types::google::protobuf::FieldDescriptorProto;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};

use crate::emit::field;
use crate::ident;
use crate::input::schema::RustPath;
use crate::layout::field::{Field, Scalar, Shape, ValueType};
use crate::layout::field_model;
use crate::layout::view_layout;
use crate::options::{BytesRepr, StringRepr};

/// The well-known types whose JSON form the mapping defines specially;
/// `buffa-types` writes their impls by hand, so codegen leaves them out when
/// it compiles the well-known types.
const SPECIAL_FORMS: &[&str] = &[
    ".google.protobuf.Any",
    ".google.protobuf.Timestamp",
    ".google.protobuf.Duration",
    ".google.protobuf.FieldMask",
    ".google.protobuf.Struct",
    ".google.protobuf.Value",
    ".google.protobuf.ListValue",
    ".google.protobuf.NullValue",
    ".google.protobuf.DoubleValue",
    ".google.protobuf.FloatValue",
    ".google.protobuf.Int64Value",
    ".google.protobuf.UInt64Value",
    ".google.protobuf.Int32Value",
    ".google.protobuf.UInt32Value",
    ".google.protobuf.BoolValue",
    ".google.protobuf.StringValue",
    ".google.protobuf.BytesValue",
];

/// `google.protobuf.NullValue`, written and read as JSON `null`.
const NULL_VALUE: &str = ".google.protobuf.NullValue";

/// Whether JSON impls are generated for the message or enum
/// `full_name`.
pub(crate) fn generates_json(context: &Context<'_>, full_name: &str) -> bool {
    context.options.json && !SPECIAL_FORMS.contains(&full_name)
}

/// The `#[cfg(...)]` the JSON impls carry, if any.
fn json_cfg(context: &Context<'_>) -> TokenStream {
    match &context.options.json_feature {
        Some(feature) => quote!(#[cfg(feature = #feature)]),
        None => quote!(),
    }
}

/// `JsonMessage`, `JsonFields`, `Serialize` and `Deserialize` for the
/// local message `full_name`, over its owned `fields`.
pub(crate) fn generate_message_json(
    context: &Context<'_>,
    full_name: &str,
    fields: &[Field<'_>],
) -> Result<TokenStream, Error> {
    if !generates_json(context, full_name) {
        return Ok(quote!());
    }
    let message = context.schema.message(full_name)?;
    let RustPath::Local {
        modules: from,
        name,
    } = &message.rust
    else {
        return Ok(quote!());
    };
    let name = ident::ident(name);
    let module = &message.module_ident();
    let (_, oneof_names) = field_model::member_names(message);
    let oneof_enums = field_model::oneof_enum_names(context, full_name)?;
    let buffa = &context.buffa;
    let cfg = json_cfg(context);
    let some = quote!(::core::option::Option::Some);
    let mut writes = Vec::new();
    // `json_field_index`: key patterns to an index; `merge_json_field`:
    // an index to its reader.
    let names = written_names(fields);
    let mut keys_arms = json_keys(fields, &names);
    let mut arms = Vec::new();
    let mut oneofs_written = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let json_name = &names[index];
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        let proto_name = field.proto.name();
        let member = ident::ident(&field.rust_name);
        if let Shape::Oneof(oneof) = field.shape {
            let oneof_field = ident::ident(&oneof_names[oneof]);
            let enum_name = ident::ident(&oneof_enums[oneof]);
            let constructor = quote!(#module::#enum_name::#member);
            let kind = json_kind(context, field, &field.value);
            let boxed = view_layout::oneof_boxed(context, full_name, field)?;
            let wrap = if boxed {
                quote!(::std::boxed::Box::new(value))
            } else {
                quote!(value)
            };
            if !oneofs_written.contains(&oneof) {
                oneofs_written.push(oneof);
                let members = fields
                    .iter()
                    .zip(&names)
                    .filter(|(f, _)| matches!(f.shape, Shape::Oneof(o) if o == oneof))
                    .map(|(f, member_json_name)| -> Result<TokenStream, Error> {
                        let variant = ident::ident(&f.rust_name);
                        let kind = json_kind(context, f, &f.value);
                        let proto_name = f.proto.name();
                        let value = if view_layout::oneof_boxed(context, full_name, f)? {
                            quote!(&**value)
                        } else {
                            quote!(value)
                        };
                        Ok(quote! {
                            #some(#module::#enum_name::#variant(value)) => out.member::<#kind>(#member_json_name, #proto_name, #value)?,
                        })
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                writes.push(quote! {
                    match &self.#oneof_field {
                        #(#members)*
                        ::core::option::Option::None => {}
                    }
                });
            }
            let oneof_label = oneof_names[oneof].as_str();
            arms.push(quote! {
                #index => {
                    if let #some(value) = input.member::<#kind>(key, #oneof_label, self.#oneof_field.is_some())? {
                        self.#oneof_field = #some(#constructor(#wrap));
                    }
                    ::core::result::Result::Ok(())
                }
            });
            continue;
        }
        let (write, read) = match (&field.shape, &field.value) {
            (Shape::Map { key, value, .. }, _) => {
                let key_kind = field::scalar_marker(*key);
                let value_kind = json_kind(context, field, value);
                (
                    quote!(out.map::<#key_kind, #value_kind, _>(#json_name, #proto_name, &self.#member)?;),
                    quote!(input.map::<#key_kind, #value_kind, _>(&mut self.#member)),
                )
            }
            (Shape::Repeated { .. }, value) => {
                let kind = json_kind(context, field, value);
                (
                    quote!(out.repeated::<#kind>(#json_name, #proto_name, &self.#member)?;),
                    quote!(input.repeated::<#kind>(&mut self.#member)),
                )
            }
            (Shape::Explicit, ValueType::Message { .. }) => (
                quote!(out.message(#json_name, #proto_name, &self.#member)?;),
                quote!(input.message(&mut self.#member)),
            ),
            (Shape::Explicit, value) => {
                let kind = json_kind(context, field, value);
                (
                    quote!(out.optional::<#kind>(#json_name, #proto_name, &self.#member)?;),
                    quote!(input.optional::<#kind>(&mut self.#member)),
                )
            }
            (Shape::Implicit, value) => {
                let kind = json_kind(context, field, value);
                (
                    quote!(out.implicit::<#kind>(#json_name, #proto_name, &self.#member)?;),
                    quote!(input.implicit::<#kind>(&mut self.#member)),
                )
            }
            (Shape::Oneof(_), _) => unreachable!("handled above"),
        };
        writes.push(write);
        arms.push(quote!(#index => #read,));
    }
    for (offset, (key, extension)) in extensions_of(context, full_name).into_iter().enumerate() {
        let Some(kind) = extension_kind(context, extension, from)? else {
            continue;
        };
        let index = proc_macro2::Literal::usize_unsuffixed(fields.len() + offset);
        let number = proc_macro2::Literal::i32_unsuffixed(extension.number());
        let repeated = extension.label() == Label::Repeated;
        writes
            .push(quote!(out.extension::<#kind>(#key, #number, #repeated, &self.unknown_fields)?;));
        keys_arms.push(quote!(#key => ::core::option::Option::Some(#index),));
        arms.push(quote!(#index => input.extension::<#kind>(#number, #repeated, &mut self.unknown_fields),));
    }
    let out_binding = if writes.is_empty() {
        quote!(out)
    } else {
        quote!(mut out)
    };
    // Parameters an empty message, or one without oneofs, does not read.
    let used = |used: bool, name: &str| {
        let name = if used {
            name.to_owned()
        } else {
            format!("_{name}")
        };
        syn::Ident::new(&name, proc_macro2::Span::call_site())
    };
    let index_param = used(!arms.is_empty(), "index");
    let input_param = used(!arms.is_empty(), "input");
    let key_param = used(!oneofs_written.is_empty(), "key");
    let (index_body, read_body) = if arms.is_empty() {
        (
            quote!({
                let _ = key;
                ::core::option::Option::None
            }),
            quote!(::core::result::Result::Ok(())),
        )
    } else {
        (
            quote! {
                match key {
                    #(#keys_arms)*
                    _ => ::core::option::Option::None,
                }
            },
            quote! {
                match index {
                    #(#arms)*
                    _ => ::core::result::Result::Ok(()),
                }
            },
        )
    };
    Ok(quote! {
        #cfg
        impl #buffa::json::JsonMessage for #name {
            fn serialize_json<__S: __buffa::json::serde::Serializer>(
                &self,
                serializer: __S,
                options: &#buffa::json::SerializeOptions,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                let #out_binding = __buffa::json::MessageWriter::new(serializer, options)?;
                #(#writes)*
                out.end()
            }

            fn deserialize_json<'de, __D: __buffa::json::serde::Deserializer<'de>>(
                deserializer: __D,
                cx: __buffa::json::DeserializeCx<'_>,
            ) -> ::core::result::Result<Self, __D::Error> {
                __buffa::json::deserialize_fields(deserializer, cx)
            }
        }

        #cfg
        impl __buffa::json::JsonFields for #name {
            fn json_field_index(key: &str) -> ::core::option::Option<u32> {
                #index_body
            }

            fn merge_json_field<'de, __A: __buffa::json::serde::de::MapAccess<'de>>(
                &mut self,
                #index_param: u32,
                #key_param: &str,
                #input_param: &mut __buffa::json::FieldReader<'_, 'de, __A>,
            ) -> ::core::result::Result<(), __A::Error> {
                #read_body
            }
        }

        #cfg
        impl __buffa::json::serde::Serialize for #name {
            fn serialize<__S: __buffa::json::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                __buffa::json::serialize(self, serializer)
            }
        }

        #cfg
        impl<'de> __buffa::json::serde::Deserialize<'de> for #name {
            fn deserialize<__D: __buffa::json::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                __buffa::json::deserialize(deserializer)
            }
        }
    })
}

/// `Serialize` and `Deserialize` for the enum `name`: by name, or by
/// number when reading.
pub(crate) fn generate_enum_json(
    context: &Context<'_>,
    full_name: &str,
    name: &syn::Ident,
) -> TokenStream {
    if !generates_json(context, full_name) {
        return quote!();
    }
    let buffa = &context.buffa;
    let cfg = json_cfg(context);
    quote! {
        #cfg
        impl #buffa::__private::json::serde::Serialize for #name {
            fn serialize<__S: #buffa::__private::json::serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                #buffa::__private::json::serialize_enum(*self, serializer)
            }
        }

        #cfg
        impl<'de> #buffa::__private::json::serde::Deserialize<'de> for #name {
            fn deserialize<__D: #buffa::__private::json::serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                #buffa::__private::json::deserialize_enum(deserializer)
            }
        }
    }
}

/// `register_types` (named `name`) of a package: adds every message
/// that has a JSON form to a type registry. `messages` are Rust paths
/// relative to the package module.
pub(crate) fn generate_register_types(
    context: &Context<'_>,
    name: &str,
    messages: &[TokenStream],
) -> TokenStream {
    if !context.options.json {
        return quote!();
    }
    let name = ident::ident(name);
    let buffa = &context.buffa;
    let cfg = json_cfg(context);
    quote! {
        /// Adds the messages of this package to `registry`, so that
        /// `google.protobuf.Any` fields holding them have a JSON form.
        // Inline: the JSON code of every message is compiled where the
        // function is called, not in a crate that never calls it.
        #cfg
        #[inline]
        pub fn #name(registry: &mut #buffa::json::TypeRegistry) {
            #(registry.register::<#messages>();)*
        }
    }
}

/// The extensions of message `full_name` declared anywhere in the
/// schema, with their JSON keys (`[pkg.name]`), in declaration order.
fn extensions_of<'c>(
    context: &'c Context<'_>,
    full_name: &str,
) -> Vec<(String, &'c FieldDescriptorProto)> {
    context
        .extensions
        .iter()
        .filter(|extension| extension.proto.extendee() == full_name)
        .map(|extension| {
            let key = format!("[{}]", extension.full_name.trim_start_matches('.'));
            (key, extension.proto)
        })
        .collect()
}

/// The JSON kind of a scalar or enum extension; `None` for message and
/// group extensions, which JSON leaves among the unknown fields.
fn extension_kind(
    context: &Context<'_>,
    extension: &FieldDescriptorProto,
    from: &[String],
) -> Result<Option<TokenStream>, Error> {
    Ok(match extension.r#type() {
        Type::Message | Type::Group => None,
        Type::Enum => {
            let path = context.type_path(extension.type_name(), from)?;
            Some(
                if context.schema.enumeration(extension.type_name())?.closed {
                    quote!(__buffa::ClosedEnum<#path>)
                } else {
                    quote!(__buffa::OpenEnum<#path>)
                },
            )
        }
        ty => Scalar::from_type(ty, StringRepr::String, BytesRepr::Vec).map(field::scalar_marker),
    })
}

/// The JSON kind marker of one value of `field` (its map value, for a
/// map).
fn json_kind(context: &Context<'_>, field: &Field<'_>, value: &ValueType) -> TokenStream {
    match value {
        ValueType::Scalar(scalar) => field::scalar_marker(*scalar),
        ValueType::Enum { path, .. } if value_type_name(context, field) == Some(NULL_VALUE) => {
            quote!(__buffa::json::NullValueKind<#path>)
        }
        ValueType::Enum { .. } => field::value_marker(value),
        ValueType::Message { path, .. } => quote!(__buffa::json::MessageKind<#path>),
    }
}

/// The type name of `field`'s values: its own, or its map entry's
/// value field's.
fn value_type_name<'f>(context: &'f Context<'_>, field: &'f Field<'_>) -> Option<&'f str> {
    if !matches!(field.shape, Shape::Map { .. }) {
        return Some(field.proto.type_name());
    }
    let entry = context.schema.messages.get(field.proto.type_name())?;
    entry
        .proto
        .field
        .iter()
        .find(|f| f.number() == 2)
        .map(|f| f.type_name())
}

/// The name each of `fields` is written under: its JSON name, unless
/// another field has that name as its JSON or .proto name (a proto2
/// message may have `foo_bar` and `fooBar`, which protoc only warns
/// about); then its .proto name, which is unique, so that what buffa
/// writes reads back, with either naming option. The pool resolved both.
fn written_names(fields: &[Field<'_>]) -> Vec<String> {
    fields
        .iter()
        .map(|field| match field.descriptor.json_name_is_shared() {
            true => field.proto.name().to_owned(),
            false => field.descriptor.json_name().to_owned(),
        })
        .collect()
}

/// The `json_field_index` arms of `fields`, written under `names`: every
/// written name, then every .proto name not already taken.
fn json_keys(fields: &[Field<'_>], names: &[String]) -> Vec<TokenStream> {
    let mut taken: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut arms = Vec::new();
    let candidates = names
        .iter()
        .map(String::as_str)
        .enumerate()
        .chain(fields.iter().map(|f| f.proto.name()).enumerate());
    for (index, name) in candidates {
        if taken.insert(name) {
            let index = proc_macro2::Literal::usize_unsuffixed(index);
            arms.push(quote!(#name => ::core::option::Option::Some(#index),));
        }
    }
    arms
}
