//! One message field as the layout stage models it: its scalar or value
//! type, its shape (singular, repeated, map, oneof member) and pointer.

use buffa::wire::WireType;
use buffa_descriptor::FieldDescriptor;
use buffa_types::google::protobuf::FieldDescriptorProto;
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use proc_macro2::TokenStream;

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

    /// The wire type a value of this scalar is written with.
    pub fn wire_type(self) -> WireType {
        match self.fixed_width() {
            Some(4) => WireType::Fixed32,
            Some(_) => WireType::Fixed64,
            None if self.packable() => WireType::Varint,
            None => WireType::LengthDelimited,
        }
    }

    /// The encoded width of a fixed-width scalar (`float`, `double`,
    /// `fixed32/64`, `sfixed32/64`), as the runtime's `ScalarType::FIXED_SIZE`
    /// gives it; `None` for varints, strings and bytes.
    pub fn fixed_width(self) -> Option<usize> {
        match self {
            Scalar::Float | Scalar::Fixed32 | Scalar::SFixed32 => Some(4),
            Scalar::Double | Scalar::Fixed64 | Scalar::SFixed64 => Some(8),
            _ => None,
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
    /// The same field in the pool, which resolved its features, JSON name
    /// and default value.
    pub descriptor: FieldDescriptor,
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
