//! Field defaults: the zero value of each type, and the descriptor type
//! an explicit `default_value` is read as
//! ([`rules::parse_default_value`](crate::rules::parse_default_value)).

use buffa_types::google::protobuf::field_descriptor_proto::Type;

use crate::inner::KindIndex;
use crate::rules::DefaultValue;

/// The zero value of a field of `kind`; `first_enum_value` is the number of
/// the first value of an enum type.
pub(crate) fn zero(kind: KindIndex, first_enum_value: i32) -> DefaultValue {
    match kind {
        KindIndex::Double => DefaultValue::F64(0.0),
        KindIndex::Float => DefaultValue::F32(0.0),
        KindIndex::Int32 | KindIndex::Sint32 | KindIndex::Sfixed32 => DefaultValue::I32(0),
        KindIndex::Int64 | KindIndex::Sint64 | KindIndex::Sfixed64 => DefaultValue::I64(0),
        KindIndex::Uint32 | KindIndex::Fixed32 => DefaultValue::U32(0),
        KindIndex::Uint64 | KindIndex::Fixed64 => DefaultValue::U64(0),
        KindIndex::Bool => DefaultValue::Bool(false),
        KindIndex::String => DefaultValue::String(String::new()),
        KindIndex::Bytes => DefaultValue::Bytes(Vec::new()),
        KindIndex::Enum(_) => DefaultValue::EnumNumber(first_enum_value),
        KindIndex::Message(_) => DefaultValue::Message,
    }
}

/// The descriptor type whose `default_value` rule applies to a field of
/// `kind` (groups and messages alike have none).
pub(crate) fn default_type(kind: KindIndex) -> Type {
    match kind {
        KindIndex::Double => Type::Double,
        KindIndex::Float => Type::Float,
        KindIndex::Int64 => Type::Int64,
        KindIndex::Uint64 => Type::Uint64,
        KindIndex::Int32 => Type::Int32,
        KindIndex::Fixed64 => Type::Fixed64,
        KindIndex::Fixed32 => Type::Fixed32,
        KindIndex::Bool => Type::Bool,
        KindIndex::String => Type::String,
        KindIndex::Bytes => Type::Bytes,
        KindIndex::Uint32 => Type::Uint32,
        KindIndex::Sfixed32 => Type::Sfixed32,
        KindIndex::Sfixed64 => Type::Sfixed64,
        KindIndex::Sint32 => Type::Sint32,
        KindIndex::Sint64 => Type::Sint64,
        KindIndex::Enum(_) => Type::Enum,
        KindIndex::Message(_) => Type::Message,
    }
}
