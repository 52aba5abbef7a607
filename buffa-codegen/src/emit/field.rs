//! The Rust of one field: its type, the marker types that name its
//! encoding to the runtime, and the helper calls that size, write and
//! merge it.

use buffa::wire::{Tag, WireType};
use proc_macro2::TokenStream;
use quote::quote;

use crate::error::Error;
use crate::ident;
use crate::layout::field::{Field, Scalar, Shape, ValueType};

/// The marker type, under the runtime's hidden module.
pub fn scalar_marker(scalar: Scalar) -> TokenStream {
    let name = scalar_marker_name(scalar);
    quote!(__buffa::#name)
}

/// The marker type's name (`buffa::types` and the hidden module export
/// them alike).
fn scalar_marker_name(scalar: Scalar) -> TokenStream {
    match scalar {
        Scalar::Double => quote!(Double),
        Scalar::Float => quote!(Float),
        Scalar::Int32 => quote!(Int32),
        Scalar::Int64 => quote!(Int64),
        Scalar::UInt32 => quote!(UInt32),
        Scalar::UInt64 => quote!(UInt64),
        Scalar::SInt32 => quote!(SInt32),
        Scalar::SInt64 => quote!(SInt64),
        Scalar::Fixed32 => quote!(Fixed32),
        Scalar::Fixed64 => quote!(Fixed64),
        Scalar::SFixed32 => quote!(SFixed32),
        Scalar::SFixed64 => quote!(SFixed64),
        Scalar::Bool => quote!(Bool),
        Scalar::String => quote!(ProtoString),
        Scalar::SharedStr => quote!(SharedStr),
        Scalar::Bytes => quote!(ProtoBytes),
        Scalar::SharedBytes => quote!(SharedBytes),
        Scalar::BorrowedStr => quote!(BorrowedStr<'a>),
        Scalar::BorrowedBytes => quote!(BorrowedBytes<'a>),
    }
}

/// The Rust type of a value; `buffa` is the runtime crate's path,
/// `alloc` the crate of `String` and `Vec` (`::std` or `::alloc`).
pub fn scalar_type(scalar: Scalar, buffa: &TokenStream, alloc: &TokenStream) -> TokenStream {
    match scalar {
        Scalar::Double => quote!(f64),
        Scalar::Float => quote!(f32),
        Scalar::Int32 | Scalar::SInt32 | Scalar::SFixed32 => quote!(i32),
        Scalar::Int64 | Scalar::SInt64 | Scalar::SFixed64 => quote!(i64),
        Scalar::UInt32 | Scalar::Fixed32 => quote!(u32),
        Scalar::UInt64 | Scalar::Fixed64 => quote!(u64),
        Scalar::Bool => quote!(bool),
        Scalar::String => quote!(#alloc::string::String),
        Scalar::SharedStr => quote!(#buffa::BytesStr),
        Scalar::Bytes => quote!(#alloc::vec::Vec<u8>),
        Scalar::SharedBytes => quote!(#buffa::bytes::Bytes),
        Scalar::BorrowedStr => quote!(&'a str),
        Scalar::BorrowedBytes => quote!(&'a [u8]),
    }
}

/// The element type of a view's `RepeatedView` or `MapView` (the value
/// of an entry, `in_map`), by public path: the marker of
/// `buffa::types` for scalars and enums, the view for a message (around
/// `MessageValue` in a map, `Delimited` for a group).
pub fn view_element(value: &ValueType, buffa: &TokenStream, in_map: bool) -> TokenStream {
    match value {
        ValueType::Scalar(scalar) => {
            let name = scalar_marker_name(*scalar);
            quote!(#buffa::types::#name)
        }
        ValueType::Enum {
            path,
            closed: false,
        } => quote!(#buffa::types::OpenEnum<#path>),
        ValueType::Enum { path, closed: true } => quote!(#buffa::types::ClosedEnum<#path>),
        ValueType::Message { path, .. } if in_map => quote!(#buffa::types::MessageValue<#path>),
        ValueType::Message {
            path,
            delimited: true,
            ..
        } => quote!(#buffa::views::Delimited<#path>),
        ValueType::Message { path, .. } => path.clone(),
    }
}

/// The scalar-type marker for scalars and enums.
pub fn value_marker(value: &ValueType) -> TokenStream {
    match value {
        ValueType::Scalar(scalar) => scalar_marker(*scalar),
        ValueType::Enum {
            path,
            closed: false,
        } => quote!(__buffa::OpenEnum<#path>),
        ValueType::Enum { path, closed: true } => {
            quote!(__buffa::ClosedEnum<#path>)
        }
        ValueType::Message { path, .. } => quote!(__buffa::map::MessageValue<#path>),
    }
}

/// The Rust type of one value; `buffa` and `alloc` as for
/// [`scalar_type`].
pub fn value_type(value: &ValueType, buffa: &TokenStream, alloc: &TokenStream) -> TokenStream {
    match value {
        ValueType::Scalar(scalar) => scalar_type(*scalar, buffa, alloc),
        ValueType::Enum {
            path,
            closed: false,
        } => quote!(#buffa::EnumValue<#path>),
        ValueType::Enum { path, closed: true } => path.clone(),
        ValueType::Message { path, .. } => path.clone(),
    }
}

fn name(field: &Field<'_>) -> TokenStream {
    let name = ident::ident(&field.rust_name);
    quote!(#name)
}

/// The struct field's type; `buffa` and `alloc` as for
/// [`scalar_type`].
pub fn field_type(
    field: &Field<'_>,
    buffa: &TokenStream,
    alloc: &TokenStream,
) -> Result<TokenStream, Error> {
    let value = value_type(&field.value, buffa, alloc);
    Ok(match &field.shape {
        Shape::Explicit if field.lazy => quote!(#buffa::LazyField<'a, #value>),
        Shape::Repeated { .. } if field.lazy => quote!(#buffa::LazyRepeated<'a, #value>),
        Shape::Repeated { .. } if field.view => {
            let element = view_element(&field.value, buffa, false);
            quote!(#buffa::RepeatedView<'a, #element>)
        }
        Shape::Map { key, value, .. } if field.view => {
            let key = view_element(&ValueType::Scalar(*key), buffa, true);
            let value = view_element(value, buffa, true);
            quote!(#buffa::MapView<'a, #key, #value>)
        }
        Shape::Implicit => value,
        Shape::Explicit => match &field.value {
            ValueType::Message { .. } => match &field.pointer {
                Some(pointer) => quote!(#buffa::MessageField<#value, #pointer>),
                None => quote!(#buffa::MessageField<#value>),
            },
            _ => quote!(::core::option::Option<#value>),
        },
        Shape::Repeated { .. } => quote!(#alloc::vec::Vec<#value>),
        Shape::Map { key, value, btree } => {
            let key = scalar_type(*key, buffa, alloc);
            let value = value_type(value, buffa, alloc);
            if *btree {
                quote!(#alloc::collections::BTreeMap<#key, #value>)
            } else {
                quote!(::std::collections::HashMap<#key, #value>)
            }
        }
        Shape::Oneof(_) => {
            return Err(Error::new(format!(
                "{}: oneof members have no struct field",
                field.path
            )));
        }
    })
}

/// An expression adding this field's encoded size (with `cache` in
/// scope).
pub fn size_expr(field: &Field<'_>) -> TokenStream {
    let number = proc_macro2::Literal::u32_unsuffixed(field.number);
    let name = name(field);
    let marker = value_marker(&field.value);
    if let Some((delimited, repeated)) = lazy_shape(field) {
        let helper = if repeated {
            quote!(size_repeated)
        } else {
            quote!(size_field)
        };
        return quote!(__buffa::lazy::#helper(#number, #delimited, &self.#name, cache));
    }
    match (&field.shape, &field.value) {
        (Shape::Map { key, value, .. }, _) => {
            let (key, value) = (scalar_marker(*key), value_marker(value));
            quote!(__buffa::map::size::<#key, #value, _>(#number, &self.#name, cache))
        }
        (
            Shape::Explicit,
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::size_group_field(#number, &self.#name, cache))
        }
        (Shape::Explicit, ValueType::Message { .. }) => {
            quote!(__buffa::message::size_field(#number, &self.#name, cache))
        }
        (
            Shape::Repeated { .. },
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::size_repeated_group(#number, &self.#name, cache))
        }
        (Shape::Repeated { .. }, ValueType::Message { .. }) => {
            quote!(__buffa::message::size_repeated(#number, &self.#name, cache))
        }
        (Shape::Implicit, _) => {
            quote!(__buffa::scalar::size_implicit::<#marker>(#number, &self.#name))
        }
        (Shape::Explicit, _) => {
            quote!(__buffa::scalar::size_optional::<#marker>(#number, &self.#name))
        }
        (Shape::Repeated { packed: true }, _) if packable(field) => {
            quote!(__buffa::repeated::size_packed::<#marker>(#number, &self.#name, cache))
        }
        (Shape::Repeated { .. }, _) => {
            quote!(__buffa::repeated::size_expanded::<#marker>(#number, &self.#name))
        }
        (Shape::Oneof(_), _) => quote!(0),
    }
}

/// A statement writing this field (with `cache` and `encoder` in scope).
pub fn write_stmt(field: &Field<'_>) -> TokenStream {
    let number = proc_macro2::Literal::u32_unsuffixed(field.number);
    let name = name(field);
    let marker = value_marker(&field.value);
    if let Some((delimited, repeated)) = lazy_shape(field) {
        let helper = if repeated {
            quote!(write_repeated)
        } else {
            quote!(write_field)
        };
        return quote!(__buffa::lazy::#helper(#number, #delimited, &self.#name, cache, encoder););
    }
    match (&field.shape, &field.value) {
        (Shape::Map { key, value, .. }, _) => {
            let (key, value) = (scalar_marker(*key), value_marker(value));
            quote!(__buffa::map::write::<#key, #value, _>(#number, &self.#name, cache, encoder);)
        }
        (
            Shape::Explicit,
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::write_group_field(#number, &self.#name, cache, encoder);)
        }
        (Shape::Explicit, ValueType::Message { .. }) => {
            quote!(__buffa::message::write_field(#number, &self.#name, cache, encoder);)
        }
        (
            Shape::Repeated { .. },
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::write_repeated_group(#number, &self.#name, cache, encoder);)
        }
        (Shape::Repeated { .. }, ValueType::Message { .. }) => {
            quote!(__buffa::message::write_repeated(#number, &self.#name, cache, encoder);)
        }
        (Shape::Implicit, _) => {
            quote!(__buffa::scalar::write_implicit::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Explicit, _) => {
            quote!(__buffa::scalar::write_optional::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Repeated { packed: true }, _) if packable(field) => {
            quote!(__buffa::repeated::write_packed::<#marker>(#number, &self.#name, cache, encoder);)
        }
        (Shape::Repeated { .. }, _) => {
            quote!(__buffa::repeated::write_expanded::<#marker>(#number, &self.#name, encoder);)
        }
        (Shape::Oneof(_), _) => quote!(),
    }
}

/// Where a message's `merge_field` sends the fields its schema does not
/// know (closed-enum numbers it does not declare included): its own
/// `unknown_fields` when it `keeps` them, otherwise the runtime's
/// `DiscardUnknown`, which checks and drops them.
pub fn unknown_sink(keeps: bool) -> TokenStream {
    if keeps {
        quote!(&mut self.unknown_fields)
    } else {
        quote!(&mut __buffa::DiscardUnknown)
    }
}

/// The wire type this field's values are written with: for a repeated
/// scalar, that of an element written unpacked.
fn wire_type(field: &Field<'_>) -> WireType {
    match (&field.shape, &field.value) {
        (Shape::Map { .. }, _) => WireType::LengthDelimited,
        (
            _,
            ValueType::Message {
                delimited: true, ..
            },
        ) => WireType::StartGroup,
        (_, ValueType::Message { .. }) => WireType::LengthDelimited,
        (_, ValueType::Enum { .. }) => WireType::Varint,
        (_, ValueType::Scalar(scalar)) => scalar.wire_type(),
    }
}

/// The `match` arms of a `merge_keyed` or `check_keyed` that read this
/// field, whose `merge_field` (or `check_field`) arm is `body`: one per
/// one-byte key it is written under (its wire type, and a repeated
/// scalar's packed form), each binding `tag` to that key. None for field
/// numbers past 15, whose keys are longer.
pub fn keyed_arms(field: &Field<'_>, body: &TokenStream) -> Vec<TokenStream> {
    if field.number > 15 {
        return Vec::new();
    }
    let own = wire_type(field);
    let mut wire_types = vec![own];
    if matches!(field.shape, Shape::Repeated { .. })
        && packable(field)
        && own != WireType::LengthDelimited
    {
        wire_types.push(WireType::LengthDelimited);
    }
    let number = proc_macro2::Literal::u32_unsuffixed(field.number);
    wire_types
        .into_iter()
        .map(|wire_type| {
            let key = Tag::new(field.number, wire_type).raw();
            let key = syn::LitInt::new(&format!("{key:#04x}"), proc_macro2::Span::call_site());
            let wire_type = ident::ident(&format!("{wire_type:?}"));
            quote! {
                #key => {
                    let tag = __buffa::Tag::new(#number, __buffa::WireType::#wire_type);
                    #body
                }
            }
        })
        .collect()
}

/// The `merge_field` (or `check_field`) arms of `fields`, those that
/// [`keyed_arms`] reads: `merge_keyed` takes every key such a field is
/// written under, so a key reaching `merge_field` at its number has
/// another wire type, and gets the error the field's helper would give.
/// One arm per expected wire type.
pub fn mismatch_arms(fields: &[&Field<'_>]) -> Vec<TokenStream> {
    let mut by_wire_type: Vec<(WireType, Vec<u32>)> = Vec::new();
    for field in fields {
        let expected = wire_type(field);
        match by_wire_type.iter_mut().find(|(w, _)| *w == expected) {
            Some((_, numbers)) => numbers.push(field.number),
            None => by_wire_type.push((expected, vec![field.number])),
        }
    }
    by_wire_type
        .into_iter()
        .map(|(expected, numbers)| {
            let numbers = number_patterns(numbers);
            let expected = ident::ident(&format!("{expected:?}"));
            quote! {
                #(#numbers)|* => ::core::result::Result::Err(
                    decoder.wire_type_mismatch(tag, __buffa::WireType::#expected)
                ),
            }
        })
        .collect()
}

/// Patterns matching `numbers`, runs of consecutive ones as ranges.
fn number_patterns(mut numbers: Vec<u32>) -> Vec<TokenStream> {
    numbers.sort_unstable();
    let mut patterns = Vec::new();
    let mut rest = &numbers[..];
    while let [first, ..] = *rest {
        let run = rest
            .iter()
            .enumerate()
            .take_while(|&(i, &n)| n == first + i as u32)
            .count();
        let last = rest[run - 1];
        let (first, last) = (
            proc_macro2::Literal::u32_unsuffixed(first),
            proc_macro2::Literal::u32_unsuffixed(last),
        );
        patterns.push(if run == 1 {
            quote!(#first)
        } else {
            quote!(#first..=#last)
        });
        rest = &rest[run..];
    }
    patterns
}

/// The body of a `merge_keyed` or `check_keyed` over `arms` (see
/// [`keyed_arms`]); `None` when no field has a one-byte key, and the
/// provided method, which takes no key, serves.
pub fn keyed_body(arms: &[TokenStream]) -> Option<TokenStream> {
    if arms.is_empty() {
        return None;
    }
    Some(quote! {
        let read = match key {
            #(#arms)*
            _ => return ::core::result::Result::Ok(false),
        };
        read.map(|()| true)
    })
}

/// The expression of this field's `merge_field` match arm (with `tag`
/// and `decoder` in scope), of type `Result<(), DecodeError>`; `unknown`
/// is the message's [`unknown_sink`].
pub fn merge_expr(field: &Field<'_>, unknown: &TokenStream) -> TokenStream {
    let name = name(field);
    merge_into(field, &quote!(self.#name), unknown)
}

/// [`merge_expr`] merging into the place `place` (`self.name`, or a local
/// holding a throwaway value of the field's type).
pub fn merge_into(field: &Field<'_>, place: &TokenStream, unknown: &TokenStream) -> TokenStream {
    let marker = value_marker(&field.value);
    if let Some((delimited, repeated)) = lazy_shape(field) {
        let helper = match (repeated, delimited) {
            (false, false) => quote!(merge_field),
            (false, true) => quote!(merge_group_field),
            (true, false) => quote!(merge_repeated),
            (true, true) => quote!(merge_repeated_group),
        };
        return quote!(__buffa::lazy::#helper(tag, &mut #place, decoder));
    }
    match (&field.shape, &field.value) {
        // A view's sequence only sends closed-enum numbers the schema does
        // not declare to the unknown fields; the others need no sink.
        (Shape::Map { value, .. }, _) if field.view => match value {
            ValueType::Enum { closed: true, .. } => {
                quote!(__buffa::view::merge_map_closed(tag, &mut #place, decoder, #unknown))
            }
            _ => quote!(__buffa::view::merge_map(tag, &mut #place, decoder)),
        },
        (Shape::Repeated { .. }, ValueType::Enum { closed: true, .. }) if field.view => {
            quote!(__buffa::view::merge_repeated_closed(tag, &mut #place, decoder, #unknown))
        }
        (Shape::Repeated { .. }, _) if field.view => {
            quote!(__buffa::view::merge_repeated(tag, &mut #place, decoder))
        }
        (Shape::Map { key, value, .. }, _) => {
            let (key, value) = (scalar_marker(*key), value_marker(value));
            quote!(__buffa::map::merge::<#key, #value, _>(tag, &mut #place, decoder, #unknown))
        }
        (
            Shape::Explicit,
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::merge_group_field(tag, &mut #place, decoder))
        }
        (Shape::Explicit, ValueType::Message { .. }) => {
            quote!(__buffa::message::merge_field(tag, &mut #place, decoder))
        }
        (
            Shape::Repeated { .. },
            ValueType::Message {
                delimited: true, ..
            },
        ) => {
            quote!(__buffa::message::merge_repeated_group(tag, &mut #place, decoder))
        }
        (Shape::Repeated { .. }, ValueType::Message { .. }) => {
            quote!(__buffa::message::merge_repeated(tag, &mut #place, decoder))
        }
        (Shape::Explicit, ValueType::Enum { path, closed: true }) => {
            quote!(__buffa::closed_enum::merge_optional::<#path>(tag, &mut #place, decoder, #unknown))
        }
        (Shape::Repeated { .. }, ValueType::Enum { path, closed: true }) => {
            quote!(__buffa::closed_enum::merge_repeated::<#path>(tag, &mut #place, decoder, #unknown))
        }
        (Shape::Implicit, _) => {
            quote!(__buffa::scalar::merge::<#marker>(tag, &mut #place, decoder))
        }
        (Shape::Explicit, _) => {
            quote!(__buffa::scalar::merge_optional::<#marker>(tag, &mut #place, decoder))
        }
        (Shape::Repeated { .. }, _) if packable(field) => {
            quote!(__buffa::repeated::merge::<#marker>(tag, &mut #place, decoder))
        }
        (Shape::Repeated { .. }, _) => {
            quote!(__buffa::repeated::merge_unpackable::<#marker>(tag, &mut #place, decoder))
        }
        (Shape::Oneof(_), _) => quote!(::core::result::Result::Ok(())),
    }
}

/// Whether sizing or writing this field (or its oneof) reads the size
/// cache: sub-messages, maps, packed values and oneofs do.
pub fn uses_cache(field: &Field<'_>) -> bool {
    match (&field.shape, &field.value) {
        (Shape::Map { .. }, _) | (_, ValueType::Message { .. }) => true,
        (Shape::Repeated { packed: true }, _) => packable(field),
        _ => false,
    }
}

/// For a lazy view field: whether it is group-encoded, and whether it
/// is repeated.
pub(crate) fn lazy_shape(field: &Field<'_>) -> Option<(bool, bool)> {
    if !field.lazy {
        return None;
    }
    let ValueType::Message { delimited, .. } = field.value else {
        return None;
    };
    Some((delimited, matches!(field.shape, Shape::Repeated { .. })))
}

pub(crate) fn packable(field: &Field<'_>) -> bool {
    match &field.value {
        ValueType::Scalar(scalar) => scalar.packable(),
        ValueType::Enum { .. } => true,
        ValueType::Message { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_numbers_become_ranges() {
        let patterns = |numbers: Vec<u32>| {
            number_patterns(numbers)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(patterns(vec![9, 1, 3, 8, 7]), ["1", "3", "7 ..= 9"]);
        assert_eq!(patterns(vec![4, 5]), ["4 ..= 5"]);
        assert_eq!(patterns(vec![15]), ["15"]);
        assert!(patterns(Vec::new()).is_empty());
    }
}
