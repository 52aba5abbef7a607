//! Reflection impls (with `reflection`): each message implements
//! `buffa_reflect::__private::GeneratedMessage` (its descriptor, and its
//! struct fields by field number), each oneof enum `OptionValue` (its
//! members by number) and each closed enum `ReflectElement`; buffa-reflect
//! turns them into `ReflectMessage`. The impls of a file are placed in its
//! package module, after its types, one line per field:
//!
//! ```text
//! fn reflect_field(&self, number: u32) -> Option<&dyn ReflectField> {
//!     let field: &dyn ReflectField = match number {
//!         1 => &self.id,
//!         4 | 5 => &self.choice,
//!         _ => return None,
//!     };
//!     Some(field)
//! }
//! ```

use buffa_types::google::protobuf::{DescriptorProto, FileDescriptorProto};
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::emit::runtime;
use crate::error::Error;
use crate::ident;
use crate::input::schema::{self, RustPath};
use crate::layout::field::{Shape, ValueType};
use crate::layout::field_model;
use crate::layout::owned;
use crate::layout::view_layout;
use crate::path;

/// `buffa-reflect`'s path when `buffa_reflect_path` is not set.
const DEFAULT_PATH: &str = "::buffa_reflect";

/// The path of `buffa-reflect`, checked.
pub(crate) fn reflect_path(context: &Context<'_>) -> Result<TokenStream, Error> {
    let text = context
        .options
        .buffa_reflect_path
        .as_deref()
        .unwrap_or(DEFAULT_PATH);
    runtime::checked_path("buffa_reflect_path", text)
}

/// The `#[cfg(...)]` the reflection code carries, if any.
pub(crate) fn reflection_cfg(context: &Context<'_>) -> TokenStream {
    match &context.options.reflection_feature {
        Some(feature) => quote!(#[cfg(feature = #feature)]),
        None => quote!(),
    }
}

/// Whether a type at `rust` gets reflection impls from this run.
fn reflects(context: &Context<'_>, rust: &RustPath) -> bool {
    rust.is_local() || context.options.reflection_for_extern_types
}

/// The reflection impls of the messages, oneofs and closed enums of
/// `file`, for its package module.
pub(crate) fn generate_file_reflection(
    context: &Context<'_>,
    file: &FileDescriptorProto,
) -> Result<TokenStream, Error> {
    let from = schema::package_modules(file.package());
    let prefix = path::package_prefix(file.package());
    let mut out = TokenStream::new();
    for message in &file.message_type {
        reflect_message_tree(context, &prefix, message, &from, &mut out)?;
    }
    for enumeration in &file.enum_type {
        reflect_enum(
            context,
            &format!("{prefix}.{}", enumeration.name()),
            &from,
            &mut out,
        )?;
    }
    Ok(out)
}

/// The impls of message `prefix.<proto>`, its oneofs and its nested
/// types, appended to `out`.
fn reflect_message_tree(
    context: &Context<'_>,
    prefix: &str,
    proto: &DescriptorProto,
    from: &[String],
    out: &mut TokenStream,
) -> Result<(), Error> {
    let full_name = format!("{prefix}.{}", proto.name());
    if proto.options.as_option().is_some_and(|o| o.map_entry()) {
        return Ok(());
    }
    if reflects(context, &context.schema.message(&full_name)?.rust) {
        out.extend(reflect_message(context, &full_name, from)?);
    }
    for nested in &proto.nested_type {
        reflect_message_tree(context, &full_name, nested, from, out)?;
    }
    for enumeration in &proto.enum_type {
        reflect_enum(
            context,
            &format!("{full_name}.{}", enumeration.name()),
            from,
            out,
        )?;
    }
    Ok(())
}

/// `GeneratedMessage` for message `full_name`, and `OptionValue` for
/// its oneofs, as seen from module `from`.
fn reflect_message(
    context: &Context<'_>,
    full_name: &str,
    from: &[String],
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let reflect = reflect_path(context)?;
    let buffa = &context.buffa;
    let cfg = reflection_cfg(context);
    let ty = context.type_path(full_name, from)?;
    let fields = owned::fields(context, full_name, message, from)?;
    let (_, oneof_names) = field_model::member_names(message);
    let oneof_enums = field_model::oneof_enum_names(context, full_name)?;

    // Struct fields with the numbers they hold: a oneof holds all its
    // members', at the place of its first member.
    let mut slots: Vec<(Vec<u32>, String)> = Vec::new();
    for field in &fields {
        match field.shape {
            Shape::Oneof(index) => {
                let name = &oneof_names[index];
                match slots.iter_mut().find(|(_, n)| n == name) {
                    Some((numbers, _)) => numbers.push(field.number),
                    None => slots.push((vec![field.number], name.clone())),
                }
            }
            _ => slots.push((vec![field.number], field.rust_name.clone())),
        }
    }
    let none = quote!(::core::option::Option::None);
    let dyn_field = quote!(dyn #reflect::__private::ReflectField);
    let (by_number, by_number_mut) = if slots.is_empty() {
        (
            quote!(fn reflect_field(&self, _number: u32) -> ::core::option::Option<&#dyn_field> { #none }),
            quote!(fn reflect_field_mut(&mut self, _number: u32) -> ::core::option::Option<&mut #dyn_field> { #none }),
        )
    } else {
        let patterns: Vec<TokenStream> = slots
            .iter()
            .map(|(numbers, _)| number_pattern(numbers))
            .collect();
        let names: Vec<syn::Ident> = slots.iter().map(|(_, name)| ident::ident(name)).collect();
        (
            quote! {
                fn reflect_field(&self, number: u32) -> ::core::option::Option<&#dyn_field> {
                    let field: &#dyn_field = match number {
                        #(#patterns => &self.#names,)*
                        _ => return #none,
                    };
                    ::core::option::Option::Some(field)
                }
            },
            quote! {
                fn reflect_field_mut(&mut self, number: u32) -> ::core::option::Option<&mut #dyn_field> {
                    let field: &mut #dyn_field = match number {
                        #(#patterns => &mut self.#names,)*
                        _ => return #none,
                    };
                    ::core::option::Option::Some(field)
                }
            },
        )
    };
    let proto_name = full_name.trim_start_matches('.');
    // A message that discards unknown fields has none to change: the
    // trait's default (`None`) says so.
    let unknown_fields_mut = context.unknown_fields.keeps(full_name).then(|| {
        quote! {
            fn unknown_fields_mut(&mut self) -> ::core::option::Option<&mut #buffa::UnknownFields> {
                ::core::option::Option::Some(&mut self.unknown_fields)
            }
        }
    });
    let mut out = quote! {
        #cfg
        impl #reflect::__private::GeneratedMessage for #ty {
            fn message_descriptor() -> #reflect::MessageDescriptor {
                #reflect::__private::message_descriptor(descriptor_pool(), #proto_name)
            }

            #by_number

            #by_number_mut

            #unknown_fields_mut
        }
    };
    for (index, enum_name) in oneof_enums.iter().enumerate() {
        if field_model::is_real_oneof(message, index) {
            out.extend(reflect_oneof(context, full_name, index, enum_name, from)?);
        }
    }
    Ok(out)
}

/// `OptionValue` for the enum `enum_name` of oneof `index` of message
/// `full_name`.
fn reflect_oneof(
    context: &Context<'_>,
    full_name: &str,
    index: usize,
    enum_name: &str,
    from: &[String],
) -> Result<TokenStream, Error> {
    let message = context.schema.message(full_name)?;
    let reflect = reflect_path(context)?;
    let cfg = reflection_cfg(context);
    let enum_path = match &message.rust {
        RustPath::Local { .. } => RustPath::Local {
            modules: message.module.clone(),
            name: enum_name.to_owned(),
        }
        .relative_to(from),
        // An extern message's module sits beside it.
        RustPath::Extern(path) => {
            let parent = path.rsplit_once("::").map_or("", |(parent, _)| parent);
            let module = message
                .module
                .last()
                .map(String::as_str)
                .unwrap_or_default();
            format!("{parent}::{module}::{enum_name}")
        }
    };
    let enum_path: syn::Path = syn::parse_str(&enum_path)
        .map_err(|e| Error::new(format!("bad Rust path {enum_path}: {e}")))?;
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let (mut gets, mut makes, mut new_messages, mut messages) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for field in owned::fields(context, full_name, message, from)? {
        if !matches!(field.shape, Shape::Oneof(i) if i == index) {
            continue;
        }
        let number = proc_macro2::Literal::u32_unsuffixed(field.number);
        let variant = ident::ident(&field.rust_name);
        let boxed = view_layout::oneof_boxed(context, full_name, &field)?;
        let (value, make) = if boxed {
            (
                quote!(&**value),
                quote!(|value| Self::#variant(::std::boxed::Box::new(value))),
            )
        } else {
            (quote!(value), quote!(Self::#variant))
        };
        gets.push(quote! {
            (#number, Self::#variant(value)) => #some(#reflect::__private::value_ref(#value)),
        });
        makes.push(quote! {
            #number => #reflect::__private::from_value(value).map(#make),
        });
        if matches!(field.value, ValueType::Message { .. }) {
            let message = if boxed {
                quote!(&mut **value)
            } else {
                quote!(value)
            };
            new_messages.push(
                quote!(#number => #some(Self::#variant(::core::default::Default::default())),),
            );
            messages.push(quote!((#number, Self::#variant(value)) => #some(#message),));
        }
    }
    let message_methods = if messages.is_empty() {
        quote!()
    } else {
        quote! {
            fn new_message(number: u32) -> ::core::option::Option<Self> {
                match number {
                    #(#new_messages)*
                    _ => #none,
                }
            }

            fn message_mut(&mut self, number: u32) -> ::core::option::Option<&mut dyn #reflect::ReflectMessage> {
                match (number, self) {
                    #(#messages)*
                    _ => #none,
                }
            }
        }
    };
    Ok(quote! {
        #cfg
        impl #reflect::__private::OptionValue for #enum_path {
            fn get(&self, number: u32) -> ::core::option::Option<#reflect::ValueRef<'_>> {
                match (number, self) {
                    #(#gets)*
                    _ => #none,
                }
            }

            fn from_value(number: u32, value: #reflect::Value) -> ::core::result::Result<Self, #reflect::Value> {
                match number {
                    #(#makes)*
                    _ => ::core::result::Result::Err(value),
                }
            }

            #message_methods
        }
    })
}

/// `ReflectElement` for enum `full_name` when it is closed (an open
/// enum is held as `EnumValue<E>`, which buffa-reflect covers).
fn reflect_enum(
    context: &Context<'_>,
    full_name: &str,
    from: &[String],
    out: &mut TokenStream,
) -> Result<(), Error> {
    let enumeration = context.schema.enumeration(full_name)?;
    if !enumeration.closed || !reflects(context, &enumeration.rust) {
        return Ok(());
    }
    let reflect = reflect_path(context)?;
    let cfg = reflection_cfg(context);
    let ty = context.type_path(full_name, from)?;
    out.extend(quote! {
        #cfg
        impl #reflect::__private::ReflectElement for #ty {
            fn value_ref(&self) -> #reflect::ValueRef<'_> {
                #reflect::__private::closed_enum_ref(self)
            }

            fn from_value(value: #reflect::Value) -> ::core::result::Result<Self, #reflect::Value> {
                #reflect::__private::closed_enum_from_value(value)
            }
        }
    });
    Ok(())
}

/// A pattern matching `numbers`: runs of three or more consecutive
/// numbers as ranges, as clippy prefers.
fn number_pattern(numbers: &[u32]) -> TokenStream {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    let mut alternatives = Vec::new();
    let mut rest = sorted.as_slice();
    while let Some(&first) = rest.first() {
        let run = rest
            .iter()
            .enumerate()
            .take_while(|&(i, &n)| n == first + i as u32)
            .count();
        let start = proc_macro2::Literal::u32_unsuffixed(first);
        if run >= 3 {
            let end = proc_macro2::Literal::u32_unsuffixed(first + run as u32 - 1);
            alternatives.push(quote!(#start..=#end));
            rest = &rest[run..];
        } else {
            alternatives.push(quote!(#start));
            rest = &rest[1..];
        }
    }
    quote!(#(#alternatives)|*)
}

#[cfg(test)]
mod tests {
    use super::number_pattern;

    #[test]
    fn numbers_become_alternatives_and_ranges() {
        let pattern = |numbers: &[u32]| number_pattern(numbers).to_string().replace(' ', "");
        assert_eq!(pattern(&[3]), "3");
        assert_eq!(pattern(&[6, 7]), "6|7");
        assert_eq!(pattern(&[1, 2, 3, 5, 9, 10, 11, 12]), "1..=3|5|9..=12");
        assert_eq!(pattern(&[62, 60, 61]), "60..=62");
    }
}
