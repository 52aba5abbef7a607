//! [`Kind`] and [`Cardinality`]: a field's type and how many values it
//! holds.

use buffa::WireType;

use crate::inner::KindIndex;
use crate::{DescriptorPool, EnumDescriptor, MessageDescriptor};

/// The type of a field's values, as declared in the `.proto` file.
///
/// Group fields are [`Kind::Message`] whose
/// [`FieldDescriptor::is_group`](crate::FieldDescriptor::is_group) holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `double`.
    Double,
    /// `float`.
    Float,
    /// `int64`.
    Int64,
    /// `uint64`.
    Uint64,
    /// `int32`.
    Int32,
    /// `fixed64`.
    Fixed64,
    /// `fixed32`.
    Fixed32,
    /// `bool`.
    Bool,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `uint32`.
    Uint32,
    /// `sfixed32`.
    Sfixed32,
    /// `sfixed64`.
    Sfixed64,
    /// `sint32`.
    Sint32,
    /// `sint64`.
    Sint64,
    /// A message (or group) type.
    Message(MessageDescriptor),
    /// An enum type.
    Enum(EnumDescriptor),
}

impl Kind {
    pub(crate) fn new(pool: &DescriptorPool, kind: KindIndex) -> Kind {
        match kind {
            KindIndex::Double => Kind::Double,
            KindIndex::Float => Kind::Float,
            KindIndex::Int64 => Kind::Int64,
            KindIndex::Uint64 => Kind::Uint64,
            KindIndex::Int32 => Kind::Int32,
            KindIndex::Fixed64 => Kind::Fixed64,
            KindIndex::Fixed32 => Kind::Fixed32,
            KindIndex::Bool => Kind::Bool,
            KindIndex::String => Kind::String,
            KindIndex::Bytes => Kind::Bytes,
            KindIndex::Uint32 => Kind::Uint32,
            KindIndex::Sfixed32 => Kind::Sfixed32,
            KindIndex::Sfixed64 => Kind::Sfixed64,
            KindIndex::Sint32 => Kind::Sint32,
            KindIndex::Sint64 => Kind::Sint64,
            KindIndex::Message(i) => Kind::Message(MessageDescriptor::new(pool, i)),
            KindIndex::Enum(i) => Kind::Enum(EnumDescriptor::new(pool, i)),
        }
    }

    /// The wire type of one value of this kind, unpacked: `Varint`,
    /// `Fixed32`, `Fixed64` or `LengthDelimited` (messages included; a
    /// group-encoded field uses `StartGroup` instead, see
    /// [`FieldDescriptor::wire_type`](crate::FieldDescriptor::wire_type)).
    pub fn wire_type(&self) -> WireType {
        match self {
            Kind::Int64
            | Kind::Uint64
            | Kind::Int32
            | Kind::Bool
            | Kind::Uint32
            | Kind::Sint32
            | Kind::Sint64
            | Kind::Enum(_) => WireType::Varint,
            Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => WireType::Fixed64,
            Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => WireType::Fixed32,
            Kind::String | Kind::Bytes | Kind::Message(_) => WireType::LengthDelimited,
        }
    }

    /// Whether repeated fields of this kind can be packed: every scalar
    /// except `string` and `bytes`, and enums.
    pub fn is_packable(&self) -> bool {
        !matches!(self, Kind::String | Kind::Bytes | Kind::Message(_))
    }

    /// The message type, for [`Kind::Message`].
    pub fn as_message(&self) -> Option<&MessageDescriptor> {
        match self {
            Kind::Message(message) => Some(message),
            _ => None,
        }
    }

    /// The enum type, for [`Kind::Enum`].
    pub fn as_enum(&self) -> Option<&EnumDescriptor> {
        match self {
            Kind::Enum(enum_) => Some(enum_),
            _ => None,
        }
    }
}

impl KindIndex {
    pub(crate) fn is_packable(self) -> bool {
        !matches!(
            self,
            KindIndex::String | KindIndex::Bytes | KindIndex::Message(_)
        )
    }
}

/// How many values a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cardinality {
    /// At most one (proto2 `optional`, proto3 singular fields, editions
    /// fields without `LEGACY_REQUIRED`).
    Optional,
    /// Exactly one: proto2 `required`, or editions
    /// `field_presence = LEGACY_REQUIRED`.
    Required,
    /// Any number: `repeated` and map fields.
    Repeated,
}
