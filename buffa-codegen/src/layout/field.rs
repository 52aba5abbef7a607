//! One message field: its Rust type and the helper calls that size, write
//! and merge it.

use proc_macro2::TokenStream;
use prost_types::FieldDescriptorProto;
use prost_types::field_descriptor_proto::Type;
use quote::quote;

use crate::error::Error;
use crate::ident;
use crate::options::{BytesRepr, StringRepr};

/// A protobuf scalar type as generated code names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `double`
    Double,
    /// `float`
    Float,
    /// `int32`
    Int32,
    /// `int64`
    Int64,
    /// `uint32`
    UInt32,
    /// `uint64`
    UInt64,
    /// `sint32`
    SInt32,
    /// `sint64`
    SInt64,
    /// `fixed32`
    Fixed32,
    /// `fixed64`
    Fixed64,
    /// `sfixed32`
    SFixed32,
    /// `sfixed64`
    SFixed64,
    /// `bool`
    Bool,
    /// `string` as `String`
    String,
    /// `string` as `buffa::BytesStr`
    SharedStr,
    /// `bytes` as `Vec<u8>`
    Bytes,
    /// `bytes` as `bytes::Bytes`
    SharedBytes,
    /// `string` in a view, as `&'a str`
    BorrowedStr,
    /// `bytes` in a view, as `&'a [u8]`
    BorrowedBytes,
}

impl Scalar {
    /// The scalar for a descriptor type, `None` for messages and enums;
    /// `string` and `bytes` in the representation given.
    pub fn from_type(ty: Type, string: StringRepr, bytes: BytesRepr) -> Option<Scalar> {
        Some(match ty {
            Type::Double => Scalar::Double,
            Type::Float => Scalar::Float,
            Type::Int32 => Scalar::Int32,
            Type::Int64 => Scalar::Int64,
            Type::Uint32 => Scalar::UInt32,
            Type::Uint64 => Scalar::UInt64,
            Type::Sint32 => Scalar::SInt32,
            Type::Sint64 => Scalar::SInt64,
            Type::Fixed32 => Scalar::Fixed32,
            Type::Fixed64 => Scalar::Fixed64,
            Type::Sfixed32 => Scalar::SFixed32,
            Type::Sfixed64 => Scalar::SFixed64,
            Type::Bool => Scalar::Bool,
            Type::String => match string {
                StringRepr::String => Scalar::String,
                StringRepr::BytesStr => Scalar::SharedStr,
            },
            Type::Bytes => match bytes {
                BytesRepr::Vec => Scalar::Bytes,
                BytesRepr::Bytes => Scalar::SharedBytes,
            },
            Type::Message | Type::Group | Type::Enum => return None,
        })
    }

    /// The marker type, under the runtime's hidden module.
    pub fn marker(self) -> TokenStream {
        let name = match self {
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
        };
        quote!(__buffa::#name)
    }

    /// The Rust type of a value; `buffa` is the runtime crate's path,
    /// `alloc` the crate of `String` and `Vec` (`::std` or `::alloc`).
    pub fn rust_type(self, buffa: &TokenStream, alloc: &TokenStream) -> TokenStream {
        match self {
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

    /// The scalar a view holds in place of this one: strings and bytes
    /// borrowed from the input, everything else as owned.
    pub fn borrowed(self) -> Scalar {
        match self {
            Scalar::String | Scalar::SharedStr => Scalar::BorrowedStr,
            Scalar::Bytes | Scalar::SharedBytes => Scalar::BorrowedBytes,
            other => other,
        }
    }

    /// Whether decoding may keep a slice of a shared input: `Bytes` and
    /// `BytesStr`.
    pub fn shares_input(self) -> bool {
        matches!(self, Scalar::SharedBytes | Scalar::SharedStr)
    }

    /// Whether repeated values may be packed.
    pub fn packable(self) -> bool {
        !matches!(
            self,
            Scalar::String
                | Scalar::SharedStr
                | Scalar::Bytes
                | Scalar::SharedBytes
                | Scalar::BorrowedStr
                | Scalar::BorrowedBytes
        )
    }
}

/// The type of a field's values.
#[derive(Clone, Debug)]
pub enum ValueType {
    /// A scalar.
    Scalar(Scalar),
    /// An enum, by Rust path relative to the field's module.
    Enum {
        /// Relative Rust path.
        path: TokenStream,
        /// Whether the enum is closed.
        closed: bool,
    },
    /// A message, by Rust path relative to the field's module.
    Message {
        /// Relative Rust path.
        path: TokenStream,
        /// Full proto name.
        full_name: String,
        /// Group-encoded (proto2 group or editions DELIMITED).
        delimited: bool,
    },
}

impl ValueType {
    /// The scalar-type marker for scalars and enums.
    pub fn marker(&self) -> TokenStream {
        match self {
            ValueType::Scalar(scalar) => scalar.marker(),
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
    /// [`Scalar::rust_type`].
    pub fn rust_type(&self, buffa: &TokenStream, alloc: &TokenStream) -> TokenStream {
        match self {
            ValueType::Scalar(scalar) => scalar.rust_type(buffa, alloc),
            ValueType::Enum {
                path,
                closed: false,
            } => quote!(#buffa::EnumValue<#path>),
            ValueType::Enum { path, closed: true } => path.clone(),
            ValueType::Message { path, .. } => path.clone(),
        }
    }
}

/// How a field holds its values.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Implicit presence: a plain value, default means unset.
    Implicit,
    /// Explicit presence (`Option`, or `MessageField` for messages).
    Explicit,
    /// Repeated; `packed` for the declared encoding of packable scalars.
    Repeated {
        /// Packed encoding.
        packed: bool,
    },
    /// A map field.
    Map {
        /// Key type.
        key: Scalar,
        /// Value type.
        value: ValueType,
        /// `BTreeMap` rather than `HashMap`.
        btree: bool,
    },
    /// A member of a (real) oneof.
    Oneof(usize),
}

/// A field ready for generation.
pub struct Field<'a> {
    /// Its descriptor.
    pub proto: &'a FieldDescriptorProto,
    /// Field number.
    pub number: u32,
    /// Rust name in the struct (or variant name in a oneof).
    pub rust_name: String,
    /// Value type.
    pub value: ValueType,
    /// Cardinality and presence.
    pub shape: Shape,
    /// Pointer type for singular message fields; `None` means the default
    /// `Box<T>`.
    pub pointer: Option<TokenStream>,
    /// Full proto path, `.pkg.Msg.field`.
    pub path: String,
    /// Generated for a view (`FooView<'a>`) rather than the owned struct.
    pub view: bool,
    /// A view field decoded only when read (`LazyField`, `LazyRepeated`).
    pub lazy: bool,
}

impl Field<'_> {
    fn name(&self) -> TokenStream {
        let name = ident::ident(&self.rust_name);
        quote!(#name)
    }

    /// The struct field's type; `buffa` and `alloc` as for
    /// [`Scalar::rust_type`].
    pub fn rust_type(
        &self,
        buffa: &TokenStream,
        alloc: &TokenStream,
    ) -> Result<TokenStream, Error> {
        let value = self.value.rust_type(buffa, alloc);
        Ok(match &self.shape {
            Shape::Explicit if self.lazy => quote!(#buffa::LazyField<'a, #value>),
            Shape::Repeated { .. } if self.lazy => quote!(#buffa::LazyRepeated<'a, #value>),
            Shape::Map { key, value, .. } if self.view => {
                let key = key.rust_type(buffa, alloc);
                let value = value.rust_type(buffa, alloc);
                quote!(#buffa::MapView<#key, #value>)
            }
            Shape::Implicit => value,
            Shape::Explicit => match &self.value {
                ValueType::Message { .. } => match &self.pointer {
                    Some(pointer) => quote!(#buffa::MessageField<#value, #pointer>),
                    None => quote!(#buffa::MessageField<#value>),
                },
                _ => quote!(::core::option::Option<#value>),
            },
            Shape::Repeated { .. } => quote!(#alloc::vec::Vec<#value>),
            Shape::Map { key, value, btree } => {
                let key = key.rust_type(buffa, alloc);
                let value = value.rust_type(buffa, alloc);
                if *btree {
                    quote!(#alloc::collections::BTreeMap<#key, #value>)
                } else {
                    quote!(::std::collections::HashMap<#key, #value>)
                }
            }
            Shape::Oneof(_) => {
                return Err(Error::new(format!(
                    "{}: oneof members have no struct field",
                    self.path
                )));
            }
        })
    }

    /// An expression adding this field's encoded size (with `cache` in
    /// scope).
    pub fn size_expr(&self) -> TokenStream {
        let number = proc_macro2::Literal::u32_unsuffixed(self.number);
        let name = self.name();
        let marker = self.value.marker();
        if let Some((delimited, repeated)) = self.lazy_shape() {
            let helper = if repeated {
                quote!(size_repeated)
            } else {
                quote!(size_field)
            };
            return quote!(__buffa::lazy::#helper(#number, #delimited, &self.#name, cache));
        }
        match (&self.shape, &self.value) {
            (Shape::Map { key, value, .. }, _) => {
                let (key, value) = (key.marker(), value.marker());
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
            (Shape::Repeated { packed: true }, _) if self.packable() => {
                quote!(__buffa::repeated::size_packed::<#marker>(#number, &self.#name, cache))
            }
            (Shape::Repeated { .. }, _) => {
                quote!(__buffa::repeated::size_expanded::<#marker>(#number, &self.#name))
            }
            (Shape::Oneof(_), _) => quote!(0),
        }
    }

    /// A statement writing this field (with `cache` and `encoder` in scope).
    pub fn write_stmt(&self) -> TokenStream {
        let number = proc_macro2::Literal::u32_unsuffixed(self.number);
        let name = self.name();
        let marker = self.value.marker();
        if let Some((delimited, repeated)) = self.lazy_shape() {
            let helper = if repeated {
                quote!(write_repeated)
            } else {
                quote!(write_field)
            };
            return quote!(__buffa::lazy::#helper(#number, #delimited, &self.#name, cache, encoder););
        }
        match (&self.shape, &self.value) {
            (Shape::Map { key, value, .. }, _) => {
                let (key, value) = (key.marker(), value.marker());
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
            (Shape::Repeated { packed: true }, _) if self.packable() => {
                quote!(__buffa::repeated::write_packed::<#marker>(#number, &self.#name, cache, encoder);)
            }
            (Shape::Repeated { .. }, _) => {
                quote!(__buffa::repeated::write_expanded::<#marker>(#number, &self.#name, encoder);)
            }
            (Shape::Oneof(_), _) => quote!(),
        }
    }

    /// The expression of this field's `merge_field` match arm (with `tag`
    /// and `decoder` in scope), of type `Result<(), DecodeError>`.
    pub fn merge_expr(&self) -> TokenStream {
        let name = self.name();
        let marker = self.value.marker();
        if let Some((delimited, repeated)) = self.lazy_shape() {
            let helper = match (repeated, delimited) {
                (false, false) => quote!(merge_field),
                (false, true) => quote!(merge_group_field),
                (true, false) => quote!(merge_repeated),
                (true, true) => quote!(merge_repeated_group),
            };
            return quote!(__buffa::lazy::#helper(tag, &mut self.#name, decoder));
        }
        match (&self.shape, &self.value) {
            (Shape::Map { key, value, .. }, _) => {
                let (key, value) = (key.marker(), value.marker());
                quote!(__buffa::map::merge::<#key, #value, _>(tag, &mut self.#name, decoder, &mut self.unknown_fields))
            }
            (
                Shape::Explicit,
                ValueType::Message {
                    delimited: true, ..
                },
            ) => {
                quote!(__buffa::message::merge_group_field(tag, &mut self.#name, decoder))
            }
            (Shape::Explicit, ValueType::Message { .. }) => {
                quote!(__buffa::message::merge_field(tag, &mut self.#name, decoder))
            }
            (
                Shape::Repeated { .. },
                ValueType::Message {
                    delimited: true, ..
                },
            ) => {
                quote!(__buffa::message::merge_repeated_group(tag, &mut self.#name, decoder))
            }
            (Shape::Repeated { .. }, ValueType::Message { .. }) => {
                quote!(__buffa::message::merge_repeated(tag, &mut self.#name, decoder))
            }
            (Shape::Explicit, ValueType::Enum { path, closed: true }) => {
                quote!(__buffa::closed_enum::merge_optional::<#path>(tag, &mut self.#name, decoder, &mut self.unknown_fields))
            }
            (Shape::Repeated { .. }, ValueType::Enum { path, closed: true }) => {
                quote!(__buffa::closed_enum::merge_repeated::<#path>(tag, &mut self.#name, decoder, &mut self.unknown_fields))
            }
            (Shape::Implicit, _) => {
                quote!(__buffa::scalar::merge::<#marker>(tag, &mut self.#name, decoder))
            }
            (Shape::Explicit, _) => {
                quote!(__buffa::scalar::merge_optional::<#marker>(tag, &mut self.#name, decoder))
            }
            (Shape::Repeated { .. }, _) if self.packable() => {
                quote!(__buffa::repeated::merge::<#marker>(tag, &mut self.#name, decoder))
            }
            (Shape::Repeated { .. }, _) => {
                quote!(__buffa::repeated::merge_unpackable::<#marker>(tag, &mut self.#name, decoder))
            }
            (Shape::Oneof(_), _) => quote!(::core::result::Result::Ok(())),
        }
    }

    /// Whether sizing or writing this field (or its oneof) reads the size
    /// cache: sub-messages, maps, packed values and oneofs do.
    pub fn uses_cache(&self) -> bool {
        match (&self.shape, &self.value) {
            (Shape::Map { .. }, _) | (_, ValueType::Message { .. }) => true,
            (Shape::Repeated { packed: true }, _) => self.packable(),
            _ => false,
        }
    }

    /// For a lazy view field: whether it is group-encoded, and whether it
    /// is repeated.
    fn lazy_shape(&self) -> Option<(bool, bool)> {
        if !self.lazy {
            return None;
        }
        let ValueType::Message { delimited, .. } = self.value else {
            return None;
        };
        Some((delimited, matches!(self.shape, Shape::Repeated { .. })))
    }

    fn packable(&self) -> bool {
        match &self.value {
            ValueType::Scalar(scalar) => scalar.packable(),
            ValueType::Enum { .. } => true,
            ValueType::Message { .. } => false,
        }
    }
}
