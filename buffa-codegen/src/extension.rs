//! Extensions: every field of an `extend` block becomes an
//! `Extension<Extendee, Value>` constant, in its package's module or, when
//! declared inside a message, in that message's module of nested types;
//! every message that declares extension ranges implements
//! `ExtendableMessage`.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto};
use quote::{format_ident, quote};

use crate::comments::Comments;
use crate::context::Context;
use crate::error::Error;
use crate::features::{self, Features, FieldOverlay, MessageOverlay};
use crate::field::{self, Scalar};
use crate::ident;
use crate::options::{BytesRepr, StringRepr};
use crate::schema::{self, Schema};

/// A field of an `extend` block, anywhere in the schema.
pub struct DeclaredExtension<'a> {
    /// Its descriptor.
    pub proto: &'a FieldDescriptorProto,
    /// Full protobuf name, leading dot included (`.pkg.Scope.name`).
    pub full_name: String,
    /// Index of the declaring file in `Schema::files`.
    pub file: usize,
    /// The full name of the message it is declared in; `None` at file
    /// level.
    pub scope: Option<String>,
    /// Its path in the file's source info, for its comment.
    pub source_path: Vec<i32>,
    /// Its features, resolved.
    pub features: Features,
    /// The Rust module its constant is declared in.
    pub module: Vec<String>,
    /// The constant's name, unique in `module`.
    pub const_name: String,
}

/// Every extension of `schema`, file by file in descriptor-set order, each
/// file's own extensions first and then its messages' depth first, in
/// declaration order.
pub fn declared_extensions<'a>(schema: &Schema<'a>) -> Vec<DeclaredExtension<'a>> {
    let mut out = Vec::new();
    for (index, file) in schema.files.iter().enumerate() {
        let prefix = crate::path::package_prefix(file.proto.package());
        let scope = Scope {
            file: index,
            prefix: &prefix,
            message: None,
            module: schema::package_modules(file.proto.package()),
            features: file.features,
        };
        scope.collect(
            &file.proto.extension,
            &file.overlay.extension,
            &[7],
            &mut out,
        );
        collect_nested(
            schema,
            &scope,
            &file.proto.message_type,
            &file.overlay.message_type,
            &[4],
            &mut out,
        );
    }
    // The value namespace of each module (see `names.rs`): a package's
    // module may also hold `FILE_DESCRIPTOR_SET`, which is taken first.
    let mut taken: HashMap<Vec<String>, HashSet<String>> = HashMap::new();
    for extension in &mut out {
        let taken = taken.entry(extension.module.clone()).or_insert_with(|| {
            let reserved = match extension.scope {
                None => crate::names::PACKAGE_VALUE_NAMES,
                Some(_) => &[],
            };
            reserved.iter().map(|name| name.to_string()).collect()
        });
        // `foo_bar` and `fooBar` are both `FOO_BAR`.
        while !taken.insert(extension.const_name.clone()) {
            extension.const_name.push('_');
        }
    }
    out
}

/// Where extensions are declared: a file, or a message in it.
struct Scope<'s> {
    file: usize,
    /// The full name of the file's package or of the message.
    prefix: &'s str,
    message: Option<&'s str>,
    module: Vec<String>,
    features: Features,
}

impl Scope<'_> {
    fn collect<'a>(
        &self,
        extensions: &'a [FieldDescriptorProto],
        overlays: &[FieldOverlay],
        path: &[i32],
        out: &mut Vec<DeclaredExtension<'a>>,
    ) {
        for (index, proto) in extensions.iter().enumerate() {
            let declared = overlays
                .get(index)
                .and_then(|overlay| features::declared(&overlay.options));
            let mut source_path = path.to_vec();
            source_path.push(index as i32);
            out.push(DeclaredExtension {
                proto,
                full_name: format!("{}.{}", self.prefix, proto.name()),
                file: self.file,
                scope: self.message.map(str::to_owned),
                source_path,
                features: field::field_features(proto, self.features, declared),
                module: self.module.clone(),
                const_name: ident::const_name(proto.name()),
            });
        }
    }
}

/// The extensions declared in `messages` (of `parent`, at source path
/// `path`) and in the messages nested in them.
fn collect_nested<'a>(
    schema: &Schema<'a>,
    parent: &Scope<'_>,
    messages: &'a [DescriptorProto],
    overlays: &'a [MessageOverlay],
    path: &[i32],
    out: &mut Vec<DeclaredExtension<'a>>,
) {
    for (index, (proto, overlay)) in messages.iter().zip(overlays).enumerate() {
        let full_name = format!("{}.{}", parent.prefix, proto.name());
        let Some(message) = schema.messages.get(&full_name) else {
            continue;
        };
        let mut message_path = path.to_vec();
        message_path.push(index as i32);
        let scope = Scope {
            file: parent.file,
            prefix: &full_name,
            message: Some(&full_name),
            module: message.module.clone(),
            features: message.features,
        };
        let mut extensions_path = message_path.clone();
        extensions_path.push(6);
        scope.collect(&proto.extension, &overlay.extension, &extensions_path, out);
        message_path.push(3);
        collect_nested(
            schema,
            &scope,
            &proto.nested_type,
            &overlay.nested_type,
            &message_path,
            out,
        );
    }
}

impl Context<'_> {
    /// The constants of the extensions declared at the top level of file
    /// `file` (an index into `Schema::files`).
    pub(crate) fn generate_file_extensions(
        &self,
        file: usize,
        comments: &Comments,
    ) -> Result<TokenStream, Error> {
        self.extension_consts(comments, |e| e.file == file && e.scope.is_none())
    }

    /// The constants of the extensions declared in message `full_name`.
    pub(crate) fn generate_nested_extensions(
        &self,
        full_name: &str,
        comments: &Comments,
    ) -> Result<TokenStream, Error> {
        self.extension_consts(comments, |e| e.scope.as_deref() == Some(full_name))
    }

    fn extension_consts(
        &self,
        comments: &Comments,
        filter: impl Fn(&DeclaredExtension<'_>) -> bool,
    ) -> Result<TokenStream, Error> {
        let mut items = TokenStream::new();
        for extension in self.extensions.iter().filter(|e| filter(e)) {
            items.extend(self.extension_const(extension, comments)?);
        }
        Ok(items)
    }

    /// `pub const NAME: Extension<Extendee, Value> = ...;`, with the
    /// extension's comment and what it extends as its documentation.
    /// Nothing for extensions of message sets, whose wire format buffa does
    /// not read.
    fn extension_const(
        &self,
        extension: &DeclaredExtension<'_>,
        comments: &Comments,
    ) -> Result<TokenStream, Error> {
        let proto = extension.proto;
        let extendee = self.schema.message(proto.extendee())?;
        if extendee
            .proto
            .options
            .as_ref()
            .is_some_and(|options| options.message_set_wire_format())
        {
            return Ok(quote!());
        }
        let module = &extension.module;
        let extendee_path = self.message_path(proto.extendee(), module)?;
        let mut value = match proto.r#type() {
            Type::Message | Type::Group => self.type_path(proto.type_name(), module)?,
            Type::Enum => {
                let path = self.type_path(proto.type_name(), module)?;
                if self.schema.enumeration(proto.type_name())?.closed {
                    path
                } else {
                    let buffa = &self.buffa;
                    quote!(#buffa::EnumValue<#path>)
                }
            }
            ty => Scalar::from_type(ty, StringRepr::String, BytesRepr::Vec)
                .ok_or_else(|| Error::new(format!("{}: unsupported type", extension.full_name)))?
                .rust_type(&self.buffa, &self.alloc),
        };
        let repeated = proto.label() == Label::Repeated;
        if repeated {
            let alloc = &self.alloc;
            value = quote!(#alloc::vec::Vec<#value>);
        }
        let encoding = format_ident!("{}", encoding(proto.r#type(), extension.features));
        let packable = !matches!(
            proto.r#type(),
            Type::String | Type::Bytes | Type::Message | Type::Group
        );
        let packed = if repeated && packable && extension.features.packed {
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
        let buffa = &self.buffa;
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
    pub(crate) fn extendable_impl(&self, full_name: &str, name: &syn::Ident) -> TokenStream {
        let declares_ranges = self
            .schema
            .messages
            .get(full_name)
            .is_some_and(|message| !message.proto.extension_range.is_empty());
        if !declares_ranges {
            return quote!();
        }
        let buffa = &self.buffa;
        quote! {
            impl #buffa::ExtendableMessage for #name {
                fn unknown_fields_mut(&mut self) -> &mut #buffa::UnknownFields {
                    &mut self.unknown_fields
                }
            }
        }
    }
}

/// The name of the runtime's `Encoding` variant for values of type `ty`.
fn encoding(ty: Type, features: Features) -> &'static str {
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
        Type::Message if features.delimited => "Delimited",
        Type::Message => "LengthDelimited",
    }
}
