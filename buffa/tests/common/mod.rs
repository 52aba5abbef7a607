//! Hand-written messages shared by the integration tests.
//!
//! Each `Message` impl is written the way generated code will be: one call
//! into `buffa::__private` per field, in field-number order, unknown fields
//! last. Nothing here uses macros, so a failing test points at a line.
//!
//! Wire-format helpers (`varint`, `key`, ...) are implemented independently
//! of the runtime so that expected bytes are not computed by the code under
//! test.

#![allow(dead_code)]

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use buffa::__private as t;
use buffa::__private::{closed_enum, map, message, repeated, scalar};
use buffa::bytes::Bytes;
use buffa::wire::{Decoder, Encoder, SizeCache, Tag};
use buffa::{DecodeError, EnumValue, Enumeration, Inline, Message, MessageField, UnknownFields};

// ---------------------------------------------------------------------------
// Wire helpers, independent of the runtime.

/// Encodes `value` as a varint.
pub fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// Length of `value` as a varint.
pub fn varint_len(value: u64) -> usize {
    varint(value).len()
}

/// A field key.
pub fn key(field_number: u32, wire_type: u8) -> Vec<u8> {
    varint(u64::from(field_number) << 3 | u64::from(wire_type))
}

/// A length-delimited field: key, length, payload.
pub fn ld(field_number: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = key(field_number, 2);
    out.extend(varint(payload.len() as u64));
    out.extend_from_slice(payload);
    out
}

/// A varint field.
pub fn vfield(field_number: u32, value: u64) -> Vec<u8> {
    let mut out = key(field_number, 0);
    out.extend(varint(value));
    out
}

/// Concatenates byte strings.
pub fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

// ---------------------------------------------------------------------------
// Enums.

/// An open enum (proto3): unknown numbers stay in the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    #[default]
    Red = 0,
    Green = 1,
    Blue = 2,
}

impl Enumeration for Color {
    fn from_i32(value: i32) -> Option<Self> {
        match value {
            0 => Some(Color::Red),
            1 => Some(Color::Green),
            2 => Some(Color::Blue),
            _ => None,
        }
    }
    fn to_i32(self) -> i32 {
        self as i32
    }
    fn proto_name(self) -> &'static str {
        match self {
            Color::Red => "RED",
            Color::Green => "GREEN",
            Color::Blue => "BLUE",
        }
    }
    fn from_proto_name(name: &str) -> Option<Self> {
        match name {
            "RED" => Some(Color::Red),
            "GREEN" => Some(Color::Green),
            "BLUE" => Some(Color::Blue),
            _ => None,
        }
    }
}

/// A closed enum (proto2) without a zero value: unknown numbers go to the
/// unknown fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    #[default]
    Circle = 1,
    Square = 2,
    Minus = -1,
}

impl Enumeration for Shape {
    fn from_i32(value: i32) -> Option<Self> {
        match value {
            1 => Some(Shape::Circle),
            2 => Some(Shape::Square),
            -1 => Some(Shape::Minus),
            _ => None,
        }
    }
    fn to_i32(self) -> i32 {
        self as i32
    }
    fn proto_name(self) -> &'static str {
        match self {
            Shape::Circle => "CIRCLE",
            Shape::Square => "SQUARE",
            Shape::Minus => "MINUS",
        }
    }
    fn from_proto_name(name: &str) -> Option<Self> {
        match name {
            "CIRCLE" => Some(Shape::Circle),
            "SQUARE" => Some(Shape::Square),
            "MINUS" => Some(Shape::Minus),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Scalars: one implicit-presence (proto3) field of every scalar type.

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scalars {
    pub f_int32: i32,             // 1
    pub f_int64: i64,             // 2
    pub f_uint32: u32,            // 3
    pub f_uint64: u64,            // 4
    pub f_sint32: i32,            // 5
    pub f_sint64: i64,            // 6
    pub f_fixed32: u32,           // 7
    pub f_fixed64: u64,           // 8
    pub f_sfixed32: i32,          // 9
    pub f_sfixed64: i64,          // 10
    pub f_float: f32,             // 11
    pub f_double: f64,            // 12
    pub f_bool: bool,             // 13
    pub f_string: String,         // 14
    pub f_bytes: Vec<u8>,         // 15
    pub f_shared: Bytes,          // 16
    pub f_enum: EnumValue<Color>, // 17
    pub unknown_fields: UnknownFields,
}

impl Message for Scalars {
    const NAME: &'static str = "test.Scalars";

    fn default_instance() -> &'static Self {
        static DEFAULT: OnceLock<Scalars> = OnceLock::new();
        DEFAULT.get_or_init(Scalars::default)
    }

    fn compute_size(&self, _cache: &mut SizeCache) -> usize {
        scalar::size_implicit::<t::Int32>(1, &self.f_int32)
            + scalar::size_implicit::<t::Int64>(2, &self.f_int64)
            + scalar::size_implicit::<t::UInt32>(3, &self.f_uint32)
            + scalar::size_implicit::<t::UInt64>(4, &self.f_uint64)
            + scalar::size_implicit::<t::SInt32>(5, &self.f_sint32)
            + scalar::size_implicit::<t::SInt64>(6, &self.f_sint64)
            + scalar::size_implicit::<t::Fixed32>(7, &self.f_fixed32)
            + scalar::size_implicit::<t::Fixed64>(8, &self.f_fixed64)
            + scalar::size_implicit::<t::SFixed32>(9, &self.f_sfixed32)
            + scalar::size_implicit::<t::SFixed64>(10, &self.f_sfixed64)
            + scalar::size_implicit::<t::Float>(11, &self.f_float)
            + scalar::size_implicit::<t::Double>(12, &self.f_double)
            + scalar::size_implicit::<t::Bool>(13, &self.f_bool)
            + scalar::size_implicit::<t::ProtoString>(14, &self.f_string)
            + scalar::size_implicit::<t::ProtoBytes>(15, &self.f_bytes)
            + scalar::size_implicit::<t::SharedBytes>(16, &self.f_shared)
            + scalar::size_implicit::<t::OpenEnum<Color>>(17, &self.f_enum)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, _cache: &mut SizeCache, e: &mut Encoder<'_>) {
        scalar::write_implicit::<t::Int32>(1, &self.f_int32, e);
        scalar::write_implicit::<t::Int64>(2, &self.f_int64, e);
        scalar::write_implicit::<t::UInt32>(3, &self.f_uint32, e);
        scalar::write_implicit::<t::UInt64>(4, &self.f_uint64, e);
        scalar::write_implicit::<t::SInt32>(5, &self.f_sint32, e);
        scalar::write_implicit::<t::SInt64>(6, &self.f_sint64, e);
        scalar::write_implicit::<t::Fixed32>(7, &self.f_fixed32, e);
        scalar::write_implicit::<t::Fixed64>(8, &self.f_fixed64, e);
        scalar::write_implicit::<t::SFixed32>(9, &self.f_sfixed32, e);
        scalar::write_implicit::<t::SFixed64>(10, &self.f_sfixed64, e);
        scalar::write_implicit::<t::Float>(11, &self.f_float, e);
        scalar::write_implicit::<t::Double>(12, &self.f_double, e);
        scalar::write_implicit::<t::Bool>(13, &self.f_bool, e);
        scalar::write_implicit::<t::ProtoString>(14, &self.f_string, e);
        scalar::write_implicit::<t::ProtoBytes>(15, &self.f_bytes, e);
        scalar::write_implicit::<t::SharedBytes>(16, &self.f_shared, e);
        scalar::write_implicit::<t::OpenEnum<Color>>(17, &self.f_enum, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        match tag.field_number() {
            1 => scalar::merge::<t::Int32>(tag, &mut self.f_int32, d),
            2 => scalar::merge::<t::Int64>(tag, &mut self.f_int64, d),
            3 => scalar::merge::<t::UInt32>(tag, &mut self.f_uint32, d),
            4 => scalar::merge::<t::UInt64>(tag, &mut self.f_uint64, d),
            5 => scalar::merge::<t::SInt32>(tag, &mut self.f_sint32, d),
            6 => scalar::merge::<t::SInt64>(tag, &mut self.f_sint64, d),
            7 => scalar::merge::<t::Fixed32>(tag, &mut self.f_fixed32, d),
            8 => scalar::merge::<t::Fixed64>(tag, &mut self.f_fixed64, d),
            9 => scalar::merge::<t::SFixed32>(tag, &mut self.f_sfixed32, d),
            10 => scalar::merge::<t::SFixed64>(tag, &mut self.f_sfixed64, d),
            11 => scalar::merge::<t::Float>(tag, &mut self.f_float, d),
            12 => scalar::merge::<t::Double>(tag, &mut self.f_double, d),
            13 => scalar::merge::<t::Bool>(tag, &mut self.f_bool, d),
            14 => scalar::merge::<t::ProtoString>(tag, &mut self.f_string, d),
            15 => scalar::merge::<t::ProtoBytes>(tag, &mut self.f_bytes, d),
            16 => scalar::merge::<t::SharedBytes>(tag, &mut self.f_shared, d),
            17 => scalar::merge::<t::OpenEnum<Color>>(tag, &mut self.f_enum, d),
            _ => d.skip_to_unknown(tag, &mut self.unknown_fields),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.f_int32 = 0;
        self.f_int64 = 0;
        self.f_uint32 = 0;
        self.f_uint64 = 0;
        self.f_sint32 = 0;
        self.f_sint64 = 0;
        self.f_fixed32 = 0;
        self.f_fixed64 = 0;
        self.f_sfixed32 = 0;
        self.f_sfixed64 = 0;
        self.f_float = 0.0;
        self.f_double = 0.0;
        self.f_bool = false;
        self.f_string.clear();
        self.f_bytes.clear();
        self.f_shared = Bytes::new();
        self.f_enum = EnumValue::default();
        self.unknown_fields.clear();
    }
}

// ---------------------------------------------------------------------------
// Inner: a small sub-message.

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inner {
    pub a: i32,    // 1
    pub b: String, // 2
    pub unknown_fields: UnknownFields,
}

impl Message for Inner {
    const NAME: &'static str = "test.Inner";
    const SHARES_INPUT: bool = false;

    fn default_instance() -> &'static Self {
        static DEFAULT: OnceLock<Inner> = OnceLock::new();
        DEFAULT.get_or_init(Inner::default)
    }

    fn compute_size(&self, _cache: &mut SizeCache) -> usize {
        scalar::size_implicit::<t::Int32>(1, &self.a)
            + scalar::size_implicit::<t::ProtoString>(2, &self.b)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, _cache: &mut SizeCache, e: &mut Encoder<'_>) {
        scalar::write_implicit::<t::Int32>(1, &self.a, e);
        scalar::write_implicit::<t::ProtoString>(2, &self.b, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        match tag.field_number() {
            1 => scalar::merge::<t::Int32>(tag, &mut self.a, d),
            2 => scalar::merge::<t::ProtoString>(tag, &mut self.b, d),
            _ => d.skip_to_unknown(tag, &mut self.unknown_fields),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.a = 0;
        self.b.clear();
        self.unknown_fields.clear();
    }
}

// ---------------------------------------------------------------------------
// Kitchen: every field kind the runtime supports.

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kitchen {
    /// 1: `optional int32`.
    pub opt_int32: Option<i32>,
    /// 2: `optional string`.
    pub opt_string: Option<String>,
    /// 3: `repeated sint64`, packed.
    pub packed_sint64: Vec<i64>,
    /// 4: `repeated fixed32`, expanded.
    pub expanded_fixed32: Vec<u32>,
    /// 5: `repeated double`, packed.
    pub packed_double: Vec<f64>,
    /// 6: `repeated string`.
    pub strings: Vec<String>,
    /// 7: `repeated bytes`.
    pub blobs: Vec<Vec<u8>>,
    /// 8: `Inner child`, boxed.
    pub child: MessageField<Inner>,
    /// 9: `repeated Inner`.
    pub children: Vec<Inner>,
    /// 10: `map<string, int32>` as a `HashMap`.
    pub str_to_int: HashMap<String, i32>,
    /// 11: `map<sint32, Inner>` as a `BTreeMap`.
    pub int_to_msg: BTreeMap<i32, Inner>,
    /// 12: open enum, implicit presence.
    pub color: EnumValue<Color>,
    /// 13: `optional Shape`, closed.
    pub shape: Option<Shape>,
    /// 14: `repeated Shape`, closed, packed.
    pub shapes: Vec<Shape>,
    /// 15: `Inner` encoded as a group (delimited).
    pub group: MessageField<Inner>,
    /// 16: `Inner child`, stored inline.
    pub inline_child: MessageField<Inner, Inline<Inner>>,
    /// 17: `map<int32, Shape>`, closed enum values.
    pub shape_map: BTreeMap<i32, Shape>,
    /// 18: `optional bool`.
    pub opt_bool: Option<bool>,
    /// 19: `uint64`, implicit presence.
    pub uint64: u64,
    /// 20: `bytes` as `Bytes`, implicit presence.
    pub shared: Bytes,
    /// 21: `repeated Color`, open, packed.
    pub colors: Vec<EnumValue<Color>>,
    /// 22: `repeated group`.
    pub groups: Vec<Inner>,
    pub unknown_fields: UnknownFields,
}

impl Message for Kitchen {
    const NAME: &'static str = "test.Kitchen";

    fn default_instance() -> &'static Self {
        static DEFAULT: OnceLock<Kitchen> = OnceLock::new();
        DEFAULT.get_or_init(Kitchen::default)
    }

    fn compute_size(&self, cache: &mut SizeCache) -> usize {
        scalar::size_optional::<t::Int32>(1, &self.opt_int32)
            + scalar::size_optional::<t::ProtoString>(2, &self.opt_string)
            + repeated::size_packed::<t::SInt64>(3, &self.packed_sint64, cache)
            + repeated::size_expanded::<t::Fixed32>(4, &self.expanded_fixed32)
            + repeated::size_packed::<t::Double>(5, &self.packed_double, cache)
            + repeated::size_expanded::<t::ProtoString>(6, &self.strings)
            + repeated::size_expanded::<t::ProtoBytes>(7, &self.blobs)
            + message::size_field(8, &self.child, cache)
            + message::size_repeated(9, &self.children, cache)
            + map::size::<t::ProtoString, t::Int32, _>(10, &self.str_to_int, cache)
            + map::size::<t::SInt32, map::MessageValue<Inner>, _>(11, &self.int_to_msg, cache)
            + scalar::size_implicit::<t::OpenEnum<Color>>(12, &self.color)
            + scalar::size_optional::<t::ClosedEnum<Shape>>(13, &self.shape)
            + repeated::size_packed::<t::ClosedEnum<Shape>>(14, &self.shapes, cache)
            + message::size_group_field(15, &self.group, cache)
            + message::size_field(16, &self.inline_child, cache)
            + map::size::<t::Int32, t::ClosedEnum<Shape>, _>(17, &self.shape_map, cache)
            + scalar::size_optional::<t::Bool>(18, &self.opt_bool)
            + scalar::size_implicit::<t::UInt64>(19, &self.uint64)
            + scalar::size_implicit::<t::SharedBytes>(20, &self.shared)
            + repeated::size_packed::<t::OpenEnum<Color>>(21, &self.colors, cache)
            + message::size_repeated_group(22, &self.groups, cache)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, cache: &mut SizeCache, e: &mut Encoder<'_>) {
        scalar::write_optional::<t::Int32>(1, &self.opt_int32, e);
        scalar::write_optional::<t::ProtoString>(2, &self.opt_string, e);
        repeated::write_packed::<t::SInt64>(3, &self.packed_sint64, cache, e);
        repeated::write_expanded::<t::Fixed32>(4, &self.expanded_fixed32, e);
        repeated::write_packed::<t::Double>(5, &self.packed_double, cache, e);
        repeated::write_expanded::<t::ProtoString>(6, &self.strings, e);
        repeated::write_expanded::<t::ProtoBytes>(7, &self.blobs, e);
        message::write_field(8, &self.child, cache, e);
        message::write_repeated(9, &self.children, cache, e);
        map::write::<t::ProtoString, t::Int32, _>(10, &self.str_to_int, cache, e);
        map::write::<t::SInt32, map::MessageValue<Inner>, _>(11, &self.int_to_msg, cache, e);
        scalar::write_implicit::<t::OpenEnum<Color>>(12, &self.color, e);
        scalar::write_optional::<t::ClosedEnum<Shape>>(13, &self.shape, e);
        repeated::write_packed::<t::ClosedEnum<Shape>>(14, &self.shapes, cache, e);
        message::write_group_field(15, &self.group, cache, e);
        message::write_field(16, &self.inline_child, cache, e);
        map::write::<t::Int32, t::ClosedEnum<Shape>, _>(17, &self.shape_map, cache, e);
        scalar::write_optional::<t::Bool>(18, &self.opt_bool, e);
        scalar::write_implicit::<t::UInt64>(19, &self.uint64, e);
        scalar::write_implicit::<t::SharedBytes>(20, &self.shared, e);
        repeated::write_packed::<t::OpenEnum<Color>>(21, &self.colors, cache, e);
        message::write_repeated_group(22, &self.groups, cache, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        let unknown = &mut self.unknown_fields;
        match tag.field_number() {
            1 => scalar::merge_optional::<t::Int32>(tag, &mut self.opt_int32, d),
            2 => scalar::merge_optional::<t::ProtoString>(tag, &mut self.opt_string, d),
            3 => repeated::merge::<t::SInt64>(tag, &mut self.packed_sint64, d),
            4 => repeated::merge::<t::Fixed32>(tag, &mut self.expanded_fixed32, d),
            5 => repeated::merge::<t::Double>(tag, &mut self.packed_double, d),
            6 => repeated::merge_unpackable::<t::ProtoString>(tag, &mut self.strings, d),
            7 => repeated::merge_unpackable::<t::ProtoBytes>(tag, &mut self.blobs, d),
            8 => message::merge_field(tag, &mut self.child, d),
            9 => message::merge_repeated(tag, &mut self.children, d),
            10 => map::merge::<t::ProtoString, t::Int32, _>(tag, &mut self.str_to_int, d, unknown),
            11 => map::merge::<t::SInt32, map::MessageValue<Inner>, _>(
                tag,
                &mut self.int_to_msg,
                d,
                unknown,
            ),
            12 => scalar::merge::<t::OpenEnum<Color>>(tag, &mut self.color, d),
            13 => closed_enum::merge_optional(tag, &mut self.shape, d, unknown),
            14 => closed_enum::merge_repeated(tag, &mut self.shapes, d, unknown),
            15 => message::merge_group_field(tag, &mut self.group, d),
            16 => message::merge_field(tag, &mut self.inline_child, d),
            17 => map::merge::<t::Int32, t::ClosedEnum<Shape>, _>(
                tag,
                &mut self.shape_map,
                d,
                unknown,
            ),
            18 => scalar::merge_optional::<t::Bool>(tag, &mut self.opt_bool, d),
            19 => scalar::merge::<t::UInt64>(tag, &mut self.uint64, d),
            20 => scalar::merge::<t::SharedBytes>(tag, &mut self.shared, d),
            21 => repeated::merge::<t::OpenEnum<Color>>(tag, &mut self.colors, d),
            22 => message::merge_repeated_group(tag, &mut self.groups, d),
            _ => d.skip_to_unknown(tag, unknown),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.opt_int32 = None;
        self.opt_string = None;
        self.packed_sint64.clear();
        self.expanded_fixed32.clear();
        self.packed_double.clear();
        self.strings.clear();
        self.blobs.clear();
        self.child.clear();
        self.children.clear();
        self.str_to_int.clear();
        self.int_to_msg.clear();
        self.color = EnumValue::default();
        self.shape = None;
        self.shapes.clear();
        self.group.clear();
        self.inline_child.clear();
        self.shape_map.clear();
        self.opt_bool = None;
        self.uint64 = 0;
        self.shared = Bytes::new();
        self.colors.clear();
        self.groups.clear();
        self.unknown_fields.clear();
    }
}

// ---------------------------------------------------------------------------
// Chain: a self-recursive message that counts its `compute_size` calls.

thread_local! {
    /// How often `Chain::compute_size` ran on this thread.
    pub static CHAIN_SIZE_CALLS: Cell<usize> = const { Cell::new(0) };
}

/// Resets the calling thread's `Chain::compute_size` counter.
pub fn reset_chain_size_calls() {
    CHAIN_SIZE_CALLS.with(|c| c.set(0));
}

/// The calling thread's `Chain::compute_size` count.
pub fn chain_size_calls() -> usize {
    CHAIN_SIZE_CALLS.with(Cell::get)
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chain {
    pub child: MessageField<Chain>, // 1
    pub value: i32,                 // 2
    pub unknown_fields: UnknownFields,
}

impl Chain {
    /// A chain of `n` messages (`n - 1` nested levels below the root); the
    /// message at depth `i` (root = 0) has value `i + 1`.
    pub fn nested(n: usize) -> Chain {
        assert!(n >= 1);
        let mut chain = Chain {
            child: MessageField::none(),
            value: n as i32,
            unknown_fields: UnknownFields::new(),
        };
        for i in (0..n - 1).rev() {
            chain = Chain {
                child: MessageField::some(chain),
                value: i as i32 + 1,
                unknown_fields: UnknownFields::new(),
            };
        }
        chain
    }

    /// Number of messages in the chain.
    pub fn len(&self) -> usize {
        let mut n = 1;
        let mut cur = self;
        while let Some(child) = cur.child.as_option() {
            n += 1;
            cur = child;
        }
        n
    }
}

impl Message for Chain {
    const NAME: &'static str = "test.Chain";
    const SHARES_INPUT: bool = false;

    fn default_instance() -> &'static Self {
        static DEFAULT: OnceLock<Chain> = OnceLock::new();
        DEFAULT.get_or_init(Chain::default)
    }

    fn compute_size(&self, cache: &mut SizeCache) -> usize {
        CHAIN_SIZE_CALLS.with(|c| c.set(c.get() + 1));
        message::size_field(1, &self.child, cache)
            + scalar::size_implicit::<t::Int32>(2, &self.value)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, cache: &mut SizeCache, e: &mut Encoder<'_>) {
        message::write_field(1, &self.child, cache, e);
        scalar::write_implicit::<t::Int32>(2, &self.value, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        match tag.field_number() {
            1 => message::merge_field(tag, &mut self.child, d),
            2 => scalar::merge::<t::Int32>(tag, &mut self.value, d),
            _ => d.skip_to_unknown(tag, &mut self.unknown_fields),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.child.clear();
        self.value = 0;
        self.unknown_fields.clear();
    }
}

// ---------------------------------------------------------------------------
// Vector3 and a holder storing it inline.

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vector3 {
    pub x: f32, // 1
    pub y: f32, // 2
    pub z: f32, // 3
    pub unknown_fields: UnknownFields,
}

impl Message for Vector3 {
    const NAME: &'static str = "test.Vector3";

    fn default_instance() -> &'static Self {
        static DEFAULT: Vector3 = Vector3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            unknown_fields: UnknownFields::new(),
        };
        &DEFAULT
    }

    fn compute_size(&self, _cache: &mut SizeCache) -> usize {
        scalar::size_implicit::<t::Float>(1, &self.x)
            + scalar::size_implicit::<t::Float>(2, &self.y)
            + scalar::size_implicit::<t::Float>(3, &self.z)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, _cache: &mut SizeCache, e: &mut Encoder<'_>) {
        scalar::write_implicit::<t::Float>(1, &self.x, e);
        scalar::write_implicit::<t::Float>(2, &self.y, e);
        scalar::write_implicit::<t::Float>(3, &self.z, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        match tag.field_number() {
            1 => scalar::merge::<t::Float>(tag, &mut self.x, d),
            2 => scalar::merge::<t::Float>(tag, &mut self.y, d),
            3 => scalar::merge::<t::Float>(tag, &mut self.z, d),
            _ => d.skip_to_unknown(tag, &mut self.unknown_fields),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.x = 0.0;
        self.y = 0.0;
        self.z = 0.0;
        self.unknown_fields.clear();
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Holder {
    pub position: MessageField<Vector3, Inline<Vector3>>, // 1
    pub velocity: MessageField<Vector3, Inline<Vector3>>, // 2
    pub unknown_fields: UnknownFields,
}

impl Message for Holder {
    const NAME: &'static str = "test.Holder";

    fn default_instance() -> &'static Self {
        static DEFAULT: Holder = Holder {
            position: MessageField::none(),
            velocity: MessageField::none(),
            unknown_fields: UnknownFields::new(),
        };
        &DEFAULT
    }

    fn compute_size(&self, cache: &mut SizeCache) -> usize {
        message::size_field(1, &self.position, cache)
            + message::size_field(2, &self.velocity, cache)
            + self.unknown_fields.encoded_len()
    }

    fn write_to(&self, cache: &mut SizeCache, e: &mut Encoder<'_>) {
        message::write_field(1, &self.position, cache, e);
        message::write_field(2, &self.velocity, cache, e);
        self.unknown_fields.write(e);
    }

    fn merge_field(&mut self, tag: Tag, d: &mut Decoder<'_>) -> Result<(), DecodeError> {
        match tag.field_number() {
            1 => message::merge_field(tag, &mut self.position, d),
            2 => message::merge_field(tag, &mut self.velocity, d),
            _ => d.skip_to_unknown(tag, &mut self.unknown_fields),
        }
    }

    fn unknown_fields(&self) -> &UnknownFields {
        &self.unknown_fields
    }

    fn clear(&mut self) {
        self.position.clear();
        self.velocity.clear();
        self.unknown_fields.clear();
    }
}

// ---------------------------------------------------------------------------
// Samples.

/// A `Kitchen` with every field set, including an unknown field (number
/// 100, varint 1).
pub fn kitchen_sample() -> Kitchen {
    let mut unknown_fields = UnknownFields::new();
    unknown_fields.push_raw(&vfield(100, 1)).unwrap();
    Kitchen {
        opt_int32: Some(-7),
        opt_string: Some("opt".into()),
        packed_sint64: vec![0, -1, 1, i64::MIN, i64::MAX],
        expanded_fixed32: vec![1, u32::MAX],
        packed_double: vec![1.5, -0.0, f64::INFINITY],
        strings: vec!["".into(), "two".into()],
        blobs: vec![vec![], vec![0xff, 0]],
        child: MessageField::some(Inner {
            a: 1,
            b: "child".into(),
            ..Inner::default()
        }),
        children: vec![
            Inner::default(),
            Inner {
                a: -2,
                ..Inner::default()
            },
        ],
        str_to_int: HashMap::from([("one".into(), 1), ("".into(), 0), ("neg".into(), -1)]),
        int_to_msg: BTreeMap::from([
            (-3, Inner::default()),
            (
                4,
                Inner {
                    b: "four".into(),
                    ..Inner::default()
                },
            ),
        ]),
        color: EnumValue::Known(Color::Blue),
        shape: Some(Shape::Minus),
        shapes: vec![Shape::Square, Shape::Circle, Shape::Minus],
        group: MessageField::some(Inner {
            a: 15,
            ..Inner::default()
        }),
        inline_child: MessageField::some(Inner {
            b: "inline".into(),
            ..Inner::default()
        }),
        shape_map: BTreeMap::from([(0, Shape::Square), (-1, Shape::Circle)]),
        opt_bool: Some(false),
        uint64: u64::MAX,
        shared: Bytes::from_static(b"shared"),
        colors: vec![EnumValue::Known(Color::Green), EnumValue::Unknown(99)],
        groups: vec![
            Inner {
                a: 22,
                ..Inner::default()
            },
            Inner::default(),
        ],
        unknown_fields,
    }
}
