//! Extensions: every field of an `extend` block becomes an
//! `Extension<Extendee, Value>` constant, in its package's module or, when
//! declared inside a message, in that message's module of nested types;
//! every message that declares extension ranges implements
//! `ExtendableMessage`.

use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::analysis::extensions::DeclaredExtension;
use crate::context::Context;
use crate::emit::comments::Comments;
use crate::emit::field;
use crate::error::Error;
use crate::ident;
use crate::layout::field::Scalar;
use crate::options::{BytesRepr, StringRepr};
use buffa_descriptor::rules::ResolvedFeatures;

/// The constants of the extensions declared at the top level of file
/// `file` (an index into `Schema::files`).
pub(crate) fn generate_file_extensions(
    context: &Context<'_>,
    file: usize,
    comments: &Comments,
) -> Result<TokenStream, Error> {
    extension_consts(context, comments, |e| e.file == file && e.scope.is_none())
}

/// The constants of the extensions declared in message `full_name`.
pub(crate) fn generate_nested_extensions(
    context: &Context<'_>,
    full_name: &str,
    comments: &Comments,
) -> Result<TokenStream, Error> {
    extension_consts(context, comments, |e| e.scope.as_deref() == Some(full_name))
}

fn extension_consts(
    context: &Context<'_>,
    comments: &Comments,
    filter: impl Fn(&DeclaredExtension<'_>) -> bool,
) -> Result<TokenStream, Error> {
    let mut items = TokenStream::new();
    for extension in context.extensions.iter().filter(|e| filter(e)) {
        items.extend(extension_const(context, extension, comments)?);
    }
    Ok(items)
}

/// `pub const NAME: Extension<Extendee, Value> = ...;`, with the
/// extension's comment and what it extends as its documentation.
/// Nothing for extensions of message sets, whose wire format buffa does
/// not read.
fn extension_const(
    context: &Context<'_>,
    extension: &DeclaredExtension<'_>,
    comments: &Comments,
) -> Result<TokenStream, Error> {
    let proto = extension.proto;
    let extendee = context.schema.message(proto.extendee())?;
    if extendee
        .proto
        .options
        .as_option()
        .is_some_and(|options| options.message_set_wire_format())
    {
        return Ok(quote!());
    }
    let module = &extension.module;
    let extendee_path = context.message_path(proto.extendee(), module)?;
    let mut value = match proto.r#type() {
        Type::Message | Type::Group => context.type_path(proto.type_name(), module)?,
        Type::Enum => {
            let path = context.type_path(proto.type_name(), module)?;
            if context.schema.enumeration(proto.type_name())?.closed {
                path
            } else {
                let buffa = &context.buffa;
                quote!(#buffa::EnumValue<#path>)
            }
        }
        ty => {
            let scalar = Scalar::from_type(ty, StringRepr::String, BytesRepr::Vec)
                .ok_or_else(|| Error::new(format!("{}: unsupported type", extension.full_name)))?;
            field::scalar_type(scalar, &context.buffa, &context.alloc)
        }
    };
    let repeated = proto.label() == Label::Repeated;
    if repeated {
        let alloc = &context.alloc;
        value = quote!(#alloc::vec::Vec<#value>);
    }
    let encoding = format_ident!("{}", encoding(proto.r#type(), extension.features));
    let packable = !matches!(
        proto.r#type(),
        Type::String | Type::Bytes | Type::Message | Type::Group
    );
    let packed = if repeated && packable && extension.features.is_packed() {
        quote!(.packed())
    } else {
        quote!()
    };
    let number = proc_macro2::Literal::u32_unsuffixed(proto.number() as u32);
    let full_name = extension.full_name.trim_start_matches('.');
    let name = ident::ident(&extension.const_name);
    let comment = comments.doc(&extension.source_path);
    let separator = if comment.is_empty() {
        quote!()
    } else {
        quote!(#[doc = ""])
    };
    let summary = format!(
        " Extension `{full_name}` of `{}`, field {number}.",
        proto.extendee().trim_start_matches('.')
    );
    let buffa = &context.buffa;
    Ok(quote! {
        #comment
        #separator
        #[doc = #summary]
        pub const #name: #buffa::Extension<#extendee_path, #value> =
            #buffa::Extension::new(#number, #full_name, __buffa::Encoding::#encoding) #packed;
    })
}

/// `impl ExtendableMessage` for the message `name` (full name
/// `full_name`) if it declares extension ranges.
pub(crate) fn extendable_impl(
    context: &Context<'_>,
    full_name: &str,
    name: &syn::Ident,
) -> TokenStream {
    let declares_ranges = context
        .schema
        .messages
        .get(full_name)
        .is_some_and(|message| !message.proto.extension_range.is_empty());
    if !declares_ranges {
        return quote!();
    }
    let buffa = &context.buffa;
    quote! {
        impl #buffa::ExtendableMessage for #name {
            fn unknown_fields_mut(&mut self) -> &mut #buffa::UnknownFields {
                &mut self.unknown_fields
            }
        }
    }
}

/// The name of the runtime's `Encoding` variant for values of type `ty`.
fn encoding(ty: Type, features: ResolvedFeatures) -> &'static str {
    match ty {
        Type::Int32 | Type::Int64 | Type::Uint32 | Type::Uint64 | Type::Bool | Type::Enum => {
            "Varint"
        }
        Type::Sint32 | Type::Sint64 => "ZigZag",
        Type::Fixed32
        | Type::Fixed64
        | Type::Sfixed32
        | Type::Sfixed64
        | Type::Float
        | Type::Double => "Fixed",
        Type::String | Type::Bytes => "LengthDelimited",
        Type::Group => "Delimited",
        Type::Message if features.is_delimited() => "Delimited",
        Type::Message => "LengthDelimited",
    }
}
