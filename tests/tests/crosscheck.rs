//! buffa against prost on the same schemas (`proto/crosscheck`): values are
//! generated as prost messages, passed through bytes to buffa and back, and
//! compared field by field through the conversions below, in both
//! directions. Maps are `BTreeMap` on both sides, so for messages without
//! maps the two encoders must also agree byte for byte.

use std::collections::BTreeMap;

use buffa::{
    EnumValue, Enumeration, Message as _, MessageField, MessageView as _, UnknownField,
    UnknownValue,
};
use buffa_tests::crosscheck::crosscheck as b;
use buffa_tests::prost_crosscheck::crosscheck as p;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;

/// A field-by-field conversion between the prost and the buffa type of one
/// proto type.
trait Conv<T> {
    fn conv(&self) -> T;
}

macro_rules! identity {
    ($($t:ty),*) => {
        $(impl Conv<$t> for $t {
            fn conv(&self) -> $t {
                self.clone()
            }
        })*
    };
}
identity!(i32, i64, u32, u64, f32, f64, bool, u8, String);

impl<T: Conv<U>, U> Conv<Vec<U>> for Vec<T> {
    fn conv(&self) -> Vec<U> {
        self.iter().map(Conv::conv).collect()
    }
}

impl<T: Conv<U>, U> Conv<Option<U>> for Option<T> {
    fn conv(&self) -> Option<U> {
        self.as_ref().map(Conv::conv)
    }
}

impl<K: Conv<K2>, V: Conv<V2>, K2: Ord, V2> Conv<BTreeMap<K2, V2>> for BTreeMap<K, V> {
    fn conv(&self) -> BTreeMap<K2, V2> {
        self.iter().map(|(k, v)| (k.conv(), v.conv())).collect()
    }
}

/// prost's `Option<M>` for a sub-message is buffa's `MessageField<M>`.
impl<T: Conv<U>, U> Conv<MessageField<U>> for Option<T> {
    fn conv(&self) -> MessageField<U> {
        self.as_ref().map(Conv::conv).into()
    }
}

impl<T: Conv<U>, U> Conv<Option<U>> for MessageField<T> {
    fn conv(&self) -> Option<U> {
        self.as_option().map(Conv::conv)
    }
}

/// Open enums: prost's `i32` is buffa's `EnumValue<E>`.
impl Conv<EnumValue<b::OpenEnum>> for i32 {
    fn conv(&self) -> EnumValue<b::OpenEnum> {
        EnumValue::from_i32(*self)
    }
}

impl Conv<i32> for EnumValue<b::OpenEnum> {
    fn conv(&self) -> i32 {
        self.to_i32()
    }
}

/// Closed enums: prost's `i32` is buffa's `E`, for declared values (others
/// are unknown fields to buffa and tested on their own).
macro_rules! closed_enum {
    ($($e:ty),*) => {
        $(impl Conv<$e> for i32 {
            fn conv(&self) -> $e {
                <$e>::from_i32(*self).expect("a declared value of the closed enum")
            }
        }
        impl Conv<i32> for $e {
            fn conv(&self) -> i32 {
                self.to_i32()
            }
        })*
    };
}
closed_enum!(b::two::ClosedEnum, b::two::ClosedZero);

/// Both directions for a message whose fields all convert with `Conv`.
/// Every field is named on both sides, so a field missing here does not
/// compile.
macro_rules! message {
    ($p:path, $b:path { $($field:ident),* $(,)? }) => {
        impl Conv<$b> for $p {
            fn conv(&self) -> $b {
                $b {
                    $($field: self.$field.conv(),)*
                    unknown_fields: Default::default(),
                }
            }
        }
        impl Conv<$p> for $b {
            fn conv(&self) -> $p {
                assert!(self.unknown_fields.is_empty(), "unexpected unknown fields: {:?}", self.unknown_fields);
                $p {
                    $($field: self.$field.conv(),)*
                }
            }
        }
    };
}

message!(
    p::Implicit,
    b::Implicit {
        f_double,
        f_float,
        f_int32,
        f_int64,
        f_uint32,
        f_uint64,
        f_sint32,
        f_sint64,
        f_fixed32,
        f_fixed64,
        f_sfixed32,
        f_sfixed64,
        f_bool,
        f_string,
        f_bytes,
        f_enum,
    }
);
message!(
    p::Optional,
    b::Optional {
        f_double,
        f_float,
        f_int32,
        f_int64,
        f_uint32,
        f_uint64,
        f_sint32,
        f_sint64,
        f_fixed32,
        f_fixed64,
        f_sfixed32,
        f_sfixed64,
        f_bool,
        f_string,
        f_bytes,
        f_enum,
    }
);
message!(
    p::Packed,
    b::Packed {
        f_double,
        f_float,
        f_int32,
        f_int64,
        f_uint32,
        f_uint64,
        f_sint32,
        f_sint64,
        f_fixed32,
        f_fixed64,
        f_sfixed32,
        f_sfixed64,
        f_bool,
        f_string,
        f_bytes,
        f_enum,
    }
);
message!(
    p::Expanded,
    b::Expanded {
        f_double,
        f_float,
        f_int32,
        f_int64,
        f_uint32,
        f_uint64,
        f_sint32,
        f_sint64,
        f_fixed32,
        f_fixed64,
        f_sfixed32,
        f_sfixed64,
        f_bool,
        f_enum,
    }
);
message!(
    p::Maps,
    b::Maps {
        int32_int32,
        int64_int64,
        uint32_uint32,
        uint64_uint64,
        sint32_sint32,
        sint64_sint64,
        fixed32_fixed32,
        fixed64_fixed64,
        sfixed32_sfixed32,
        sfixed64_sfixed64,
        bool_bool,
        string_string,
        int32_double,
        int32_float,
        string_bytes,
        int32_enum,
        string_message,
        uint64_message,
    }
);
message!(
    p::Oneofs,
    b::Oneofs {
        choice,
        other,
        after
    }
);
message!(
    p::Everything,
    b::Everything {
        implicit,
        optional,
        packed,
        expanded,
        maps,
        oneofs,
        nested,
        many,
    }
);
message!(
    p::two::Scalars,
    b::two::Scalars {
        f_double,
        f_float,
        f_int32,
        f_int64,
        f_uint32,
        f_uint64,
        f_sint32,
        f_sint64,
        f_fixed32,
        f_fixed64,
        f_sfixed32,
        f_sfixed64,
        f_bool,
        f_string,
        f_bytes,
        f_enum,
        d_int32,
        d_string,
        d_enum,
    }
);
message!(
    p::two::Repeated,
    b::two::Repeated {
        e_int32,
        e_sint64,
        e_fixed32,
        e_double,
        e_bool,
        e_string,
        e_bytes,
        e_enum,
        p_int32,
        p_sint64,
        p_fixed32,
        p_double,
        p_bool,
        p_enum,
        p_uint64,
        p_sfixed64,
    }
);
message!(
    p::two::Groups,
    b::two::Groups {
        optgroup,
        repgroup,
        after
    }
);
message!(p::two::groups::OptGroup, b::two::groups::OptGroup { a, b });
message!(
    p::two::groups::RepGroup,
    b::two::groups::RepGroup { c, inner }
);
message!(
    p::two::ClosedMaps,
    b::two::ClosedMaps {
        string_enum,
        int32_message
    }
);
message!(p::two::Oneofs2, b::two::Oneofs2 { choice });
message!(
    p::two::Everything2,
    b::two::Everything2 {
        scalars,
        repeated,
        required,
        groups,
        closed_maps,
        oneofs,
    }
);

// Recursive messages: prost boxes the recursive field.
impl Conv<b::Nested> for p::Nested {
    fn conv(&self) -> b::Nested {
        b::Nested {
            value: self.value,
            child: self.child.as_deref().map(Conv::conv).into(),
            children: self.children.conv(),
            label: self.label.clone(),
            unknown_fields: Default::default(),
        }
    }
}

impl Conv<p::Nested> for b::Nested {
    fn conv(&self) -> p::Nested {
        assert!(self.unknown_fields.is_empty());
        p::Nested {
            value: self.value,
            child: self.child.as_option().map(|c| Box::new(c.conv())),
            children: self.children.conv(),
            label: self.label.clone(),
        }
    }
}

impl Conv<b::two::NewVersion> for p::two::NewVersion {
    fn conv(&self) -> b::two::NewVersion {
        b::two::NewVersion {
            a: self.a,
            b: self.b.clone(),
            c: self.c.clone(),
            d: self.d,
            g: self.g.conv(),
            sub: self.sub.as_deref().map(Conv::conv).into(),
            e: self.e.clone(),
            f: self.f,
            big: self.big,
            unknown_fields: Default::default(),
        }
    }
}

impl Conv<b::two::new_version::G> for p::two::new_version::G {
    fn conv(&self) -> b::two::new_version::G {
        b::two::new_version::G {
            x: self.x,
            y: self.y.clone(),
            unknown_fields: Default::default(),
        }
    }
}

// Required fields: plain values in prost, `Option` in buffa.
impl Conv<b::two::Required> for p::two::Required {
    fn conv(&self) -> b::two::Required {
        b::two::Required {
            id: Some(self.id),
            name: Some(self.name.clone()),
            kind: Some(self.kind.conv()),
            unknown_fields: Default::default(),
        }
    }
}

impl Conv<p::two::Required> for b::two::Required {
    fn conv(&self) -> p::two::Required {
        p::two::Required {
            id: self.id(),
            name: self.name().to_owned(),
            kind: self.kind().to_i32(),
        }
    }
}

// Oneofs: prost holds message members unboxed, buffa boxes them.
impl Conv<b::oneofs::Choice> for p::oneofs::Choice {
    fn conv(&self) -> b::oneofs::Choice {
        use b::oneofs::Choice as B;
        use p::oneofs::Choice as P;
        match self {
            P::CInt32(v) => B::CInt32(*v),
            P::CString(v) => B::CString(v.clone()),
            P::CBytes(v) => B::CBytes(v.clone()),
            P::CMessage(v) => B::CMessage(Box::new(v.conv())),
            P::CEnum(v) => B::CEnum(v.conv()),
            P::CDouble(v) => B::CDouble(*v),
            P::CSint64(v) => B::CSint64(*v),
            P::CBool(v) => B::CBool(*v),
            P::CFixed32(v) => B::CFixed32(*v),
        }
    }
}

impl Conv<p::oneofs::Choice> for b::oneofs::Choice {
    fn conv(&self) -> p::oneofs::Choice {
        use b::oneofs::Choice as B;
        use p::oneofs::Choice as P;
        match self {
            B::CInt32(v) => P::CInt32(*v),
            B::CString(v) => P::CString(v.clone()),
            B::CBytes(v) => P::CBytes(v.clone()),
            B::CMessage(v) => P::CMessage(v.as_ref().conv()),
            B::CEnum(v) => P::CEnum(v.conv()),
            B::CDouble(v) => P::CDouble(*v),
            B::CSint64(v) => P::CSint64(*v),
            B::CBool(v) => P::CBool(*v),
            B::CFixed32(v) => P::CFixed32(*v),
        }
    }
}

impl Conv<b::oneofs::Other> for p::oneofs::Other {
    fn conv(&self) -> b::oneofs::Other {
        match self {
            p::oneofs::Other::OMessage(v) => b::oneofs::Other::OMessage(Box::new(v.conv())),
            p::oneofs::Other::OUint64(v) => b::oneofs::Other::OUint64(*v),
        }
    }
}

impl Conv<p::oneofs::Other> for b::oneofs::Other {
    fn conv(&self) -> p::oneofs::Other {
        match self {
            b::oneofs::Other::OMessage(v) => p::oneofs::Other::OMessage(v.as_ref().conv()),
            b::oneofs::Other::OUint64(v) => p::oneofs::Other::OUint64(*v),
        }
    }
}

impl Conv<b::two::oneofs2::Choice> for p::two::oneofs2::Choice {
    fn conv(&self) -> b::two::oneofs2::Choice {
        use b::two::oneofs2::Choice as B;
        use p::two::oneofs2::Choice as P;
        match self {
            P::CEnum(v) => B::CEnum(v.conv()),
            P::CMessage(v) => B::CMessage(Box::new(v.conv())),
            P::CString(v) => B::CString(v.clone()),
        }
    }
}

impl Conv<p::two::oneofs2::Choice> for b::two::oneofs2::Choice {
    fn conv(&self) -> p::two::oneofs2::Choice {
        use b::two::oneofs2::Choice as B;
        use p::two::oneofs2::Choice as P;
        match self {
            B::CEnum(v) => P::CEnum(v.conv()),
            B::CMessage(v) => P::CMessage(v.as_ref().conv()),
            B::CString(v) => P::CString(v.clone()),
        }
    }
}

// ---------------------------------------------------------------------
// The two directions.

/// prost encodes, buffa decodes and must see `expected`; buffa re-encodes
/// and prost must read the original back. With `same_bytes`, both
/// encoders must also produce the same bytes.
fn prost_to_buffa<P, B>(value: &P, same_bytes: bool) -> B
where
    P: prost::Message + PartialEq + Default + std::fmt::Debug + Conv<B>,
    B: buffa::Message + buffa::HasView + PartialEq,
{
    let bytes = prost::Message::encode_to_vec(value);
    let decoded = B::decode_from_slice(&bytes)
        .unwrap_or_else(|e| panic!("buffa cannot read prost's {value:?}: {e}"));
    // The view of prost's bytes holds the same message, and encodes to
    // what the owned message does, which prost reads as the original.
    let view = buffa::view_of::<B>(&bytes)
        .unwrap_or_else(|e| panic!("buffa's view cannot read prost's {value:?}: {e}"));
    assert_eq!(
        view.to_owned_message().unwrap(),
        decoded,
        "the view read prost's bytes differently"
    );
    let from_view = view.encode_to_vec();
    assert_eq!(
        from_view,
        buffa::Message::encode_to_vec(&decoded),
        "the view encodes differently"
    );
    assert_eq!(
        &P::decode(&from_view[..]).unwrap(),
        value,
        "prost read the view's bytes differently"
    );
    assert_eq!(
        decoded,
        value.conv(),
        "buffa read prost's bytes differently"
    );
    assert!(decoded.unknown_fields().is_empty());
    let again = buffa::Message::encode_to_vec(&decoded);
    assert_eq!(again.len(), decoded.encoded_len());
    let back =
        P::decode(&again[..]).unwrap_or_else(|e| panic!("prost cannot read buffa's bytes: {e}"));
    assert_eq!(&back, value, "prost read buffa's bytes differently");
    if same_bytes {
        assert_eq!(again, bytes, "buffa and prost encode {value:?} differently");
    }
    decoded
}

/// buffa encodes `value`, prost decodes and must see `expected`; prost
/// re-encodes and buffa must read the original back.
fn buffa_to_prost<B, P>(value: &B, same_bytes: bool)
where
    B: buffa::Message + PartialEq + Conv<P>,
    P: prost::Message + PartialEq + Default + std::fmt::Debug,
{
    let bytes = buffa::Message::encode_to_vec(value);
    let decoded =
        P::decode(&bytes[..]).unwrap_or_else(|e| panic!("prost cannot read buffa's bytes: {e}"));
    assert_eq!(
        decoded,
        value.conv(),
        "prost read buffa's bytes differently"
    );
    let again = prost::Message::encode_to_vec(&decoded);
    let back = B::decode_from_slice(&again)
        .unwrap_or_else(|e| panic!("buffa cannot read prost's bytes: {e}"));
    assert_eq!(&back, value, "buffa read prost's bytes differently");
    if same_bytes {
        assert_eq!(again, bytes, "buffa and prost encode {value:?} differently");
    }
}

/// Both directions, starting from a prost value.
fn both_ways<P, B>(value: &P, same_bytes: bool)
where
    P: prost::Message + PartialEq + Default + std::fmt::Debug + Conv<B>,
    B: buffa::Message + buffa::HasView + PartialEq + Conv<P>,
{
    prost_to_buffa::<P, B>(value, same_bytes);
    buffa_to_prost::<B, P>(&value.conv(), same_bytes);
}

// ---------------------------------------------------------------------
// Strategies: boundary values first, then anything.

macro_rules! integer {
    ($name:ident, $t:ty) => {
        fn $name() -> impl Strategy<Value = $t> {
            prop_oneof![
                Just(0 as $t),
                Just(1 as $t),
                Just(<$t>::MAX),
                Just(<$t>::MIN),
                Just(<$t>::MAX / 2),
                Just((<$t>::MIN / 2).wrapping_sub(1)),
                Just(127 as $t),
                Just(128 as $t),
                Just(16383 as $t),
                Just(16384 as $t),
                Just((0 as $t).wrapping_sub(1)),
                any::<$t>(),
            ]
        }
    };
}
integer!(i32s, i32);
integer!(i64s, i64);
integer!(u32s, u32);
integer!(u64s, u64);

macro_rules! float {
    ($name:ident, $implicit:ident, $t:ty) => {
        /// Any float but NaN (which is not equal to itself).
        fn $name() -> impl Strategy<Value = $t> {
            prop_oneof![
                Just(0.0 as $t),
                Just(-0.0 as $t),
                Just(<$t>::INFINITY),
                Just(<$t>::NEG_INFINITY),
                Just(<$t>::MIN_POSITIVE),
                Just(<$t>::MIN_POSITIVE / 2.0),
                Just(<$t>::MAX),
                Just(<$t>::MIN),
                Just(<$t>::EPSILON),
                any::<$t>(),
            ]
        }

        /// For implicit presence, without -0.0: buffa writes it (its bits
        /// are not zero), prost skips it; see `negative_zero_in_implicit_fields`.
        fn $implicit() -> impl Strategy<Value = $t> {
            $name().prop_map(|v| if v == 0.0 { 0.0 } else { v })
        }
    };
}
float!(f32s, f32s_implicit, f32);
float!(f64s, f64s_implicit, f64);

fn strings() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\u{0}".to_owned()),
        Just("\u{10ffff}é€".to_owned()),
        Just("x".repeat(200)),
        any::<String>(),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(vec![0]),
        Just(vec![0xff; 130]),
        vec(any::<u8>(), 0..20),
    ]
}

/// Open enum numbers: declared or not.
fn open_enum() -> impl Strategy<Value = i32> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(-1),
        Just(i32::MAX),
        Just(i32::MIN),
        Just(2),
        any::<i32>(),
    ]
}

fn closed_enum() -> impl Strategy<Value = i32> {
    prop_oneof![Just(1), Just(2), Just(-5)]
}

fn closed_zero() -> impl Strategy<Value = i32> {
    prop_oneof![Just(0), Just(3), Just(7)]
}

prop_compose! {
    fn implicit()(
        a in (f64s_implicit(), f32s_implicit(), i32s(), i64s(), u32s(), u64s(), i32s(), i64s()),
        b in (u32s(), u64s(), i32s(), i64s(), any::<bool>(), strings(), bytes(), open_enum()),
    ) -> p::Implicit {
        p::Implicit {
            f_double: a.0, f_float: a.1, f_int32: a.2, f_int64: a.3,
            f_uint32: a.4, f_uint64: a.5, f_sint32: a.6, f_sint64: a.7,
            f_fixed32: b.0, f_fixed64: b.1, f_sfixed32: b.2, f_sfixed64: b.3,
            f_bool: b.4, f_string: b.5, f_bytes: b.6, f_enum: b.7,
        }
    }
}

prop_compose! {
    fn optional()(
        a in (
            option::of(f64s()), option::of(f32s()), option::of(i32s()), option::of(i64s()),
            option::of(u32s()), option::of(u64s()), option::of(i32s()), option::of(i64s()),
        ),
        b in (
            option::of(u32s()), option::of(u64s()), option::of(i32s()), option::of(i64s()),
            option::of(any::<bool>()), option::of(strings()), option::of(bytes()),
            option::of(open_enum()),
        ),
    ) -> p::Optional {
        p::Optional {
            f_double: a.0, f_float: a.1, f_int32: a.2, f_int64: a.3,
            f_uint32: a.4, f_uint64: a.5, f_sint32: a.6, f_sint64: a.7,
            f_fixed32: b.0, f_fixed64: b.1, f_sfixed32: b.2, f_sfixed64: b.3,
            f_bool: b.4, f_string: b.5, f_bytes: b.6, f_enum: b.7,
        }
    }
}

const N: std::ops::Range<usize> = 0..4;

prop_compose! {
    fn packed()(
        a in (
            vec(f64s(), N), vec(f32s(), N), vec(i32s(), N), vec(i64s(), N),
            vec(u32s(), N), vec(u64s(), N), vec(i32s(), N), vec(i64s(), N),
        ),
        b in (
            vec(u32s(), N), vec(u64s(), N), vec(i32s(), N), vec(i64s(), N),
            vec(any::<bool>(), N), vec(strings(), N), vec(bytes(), N), vec(open_enum(), N),
        ),
    ) -> p::Packed {
        p::Packed {
            f_double: a.0, f_float: a.1, f_int32: a.2, f_int64: a.3,
            f_uint32: a.4, f_uint64: a.5, f_sint32: a.6, f_sint64: a.7,
            f_fixed32: b.0, f_fixed64: b.1, f_sfixed32: b.2, f_sfixed64: b.3,
            f_bool: b.4, f_string: b.5, f_bytes: b.6, f_enum: b.7,
        }
    }
}

prop_compose! {
    fn expanded()(
        a in (
            vec(f64s(), N), vec(f32s(), N), vec(i32s(), N), vec(i64s(), N),
            vec(u32s(), N), vec(u64s(), N), vec(i32s(), N), vec(i64s(), N),
        ),
        b in (
            vec(u32s(), N), vec(u64s(), N), vec(i32s(), N), vec(i64s(), N),
            vec(any::<bool>(), N), vec(open_enum(), N),
        ),
    ) -> p::Expanded {
        p::Expanded {
            f_double: a.0, f_float: a.1, f_int32: a.2, f_int64: a.3,
            f_uint32: a.4, f_uint64: a.5, f_sint32: a.6, f_sint64: a.7,
            f_fixed32: b.0, f_fixed64: b.1, f_sfixed32: b.2, f_sfixed64: b.3,
            f_bool: b.4, f_enum: b.5,
        }
    }
}

fn nested() -> impl Strategy<Value = p::Nested> {
    let leaf = (i32s(), strings()).prop_map(|(value, label)| p::Nested {
        value,
        label,
        ..Default::default()
    });
    leaf.prop_recursive(3, 12, 3, |inner| {
        (
            i32s(),
            option::of(inner.clone()),
            vec(inner, 0..3),
            strings(),
        )
            .prop_map(|(value, child, children, label)| p::Nested {
                value,
                child: child.map(Box::new),
                children,
                label,
            })
    })
}

const M: std::ops::Range<usize> = 0..3;

prop_compose! {
    fn maps()(
        a in (
            btree_map(i32s(), i32s(), M), btree_map(i64s(), i64s(), M),
            btree_map(u32s(), u32s(), M), btree_map(u64s(), u64s(), M),
            btree_map(i32s(), i32s(), M), btree_map(i64s(), i64s(), M),
            btree_map(u32s(), u32s(), M), btree_map(u64s(), u64s(), M),
            btree_map(i32s(), i32s(), M),
        ),
        b in (
            btree_map(i64s(), i64s(), M), btree_map(any::<bool>(), any::<bool>(), M),
            btree_map(strings(), strings(), M), btree_map(i32s(), f64s(), M),
            btree_map(i32s(), f32s(), M), btree_map(strings(), bytes(), M),
            btree_map(i32s(), open_enum(), M), btree_map(strings(), nested(), M),
            btree_map(u64s(), nested(), M),
        ),
    ) -> p::Maps {
        p::Maps {
            int32_int32: a.0, int64_int64: a.1, uint32_uint32: a.2, uint64_uint64: a.3,
            sint32_sint32: a.4, sint64_sint64: a.5, fixed32_fixed32: a.6,
            fixed64_fixed64: a.7, sfixed32_sfixed32: a.8, sfixed64_sfixed64: b.0,
            bool_bool: b.1, string_string: b.2, int32_double: b.3, int32_float: b.4,
            string_bytes: b.5, int32_enum: b.6, string_message: b.7, uint64_message: b.8,
        }
    }
}

fn oneofs() -> impl Strategy<Value = p::Oneofs> {
    use p::oneofs::{Choice, Other};
    let choice = prop_oneof![
        i32s().prop_map(Choice::CInt32),
        strings().prop_map(Choice::CString),
        bytes().prop_map(Choice::CBytes),
        nested().prop_map(Choice::CMessage),
        open_enum().prop_map(Choice::CEnum),
        f64s().prop_map(Choice::CDouble),
        i64s().prop_map(Choice::CSint64),
        any::<bool>().prop_map(Choice::CBool),
        u32s().prop_map(Choice::CFixed32),
    ];
    let other = prop_oneof![
        nested().prop_map(Other::OMessage),
        u64s().prop_map(Other::OUint64),
    ];
    (option::of(choice), option::of(other), i32s()).prop_map(|(choice, other, after)| p::Oneofs {
        choice,
        other,
        after,
    })
}

// The strategies are boxed so that proptest's value trees for these big
// messages live on the heap: unboxed, they overflow a test thread's stack
// in debug builds.
prop_compose! {
    fn everything()(
        implicit in option::of(implicit().boxed()),
        optional in option::of(optional().boxed()),
        packed in option::of(packed().boxed()),
        expanded in option::of(expanded().boxed()),
        maps in option::of(maps().boxed()),
        oneofs in option::of(oneofs().boxed()),
        nested in option::of(nested().boxed()),
        many in vec(oneofs().boxed(), 0..3),
    ) -> p::Everything {
        p::Everything { implicit, optional, packed, expanded, maps, oneofs, nested, many }
    }
}

prop_compose! {
    fn scalars2()(
        a in (
            option::of(f64s()), option::of(f32s()), option::of(i32s()), option::of(i64s()),
            option::of(u32s()), option::of(u64s()), option::of(i32s()), option::of(i64s()),
        ),
        b in (
            option::of(u32s()), option::of(u64s()), option::of(i32s()), option::of(i64s()),
            option::of(any::<bool>()), option::of(strings()), option::of(bytes()),
            option::of(closed_enum()),
        ),
        c in (option::of(i32s()), option::of(strings()), option::of(closed_enum())),
    ) -> p::two::Scalars {
        p::two::Scalars {
            f_double: a.0, f_float: a.1, f_int32: a.2, f_int64: a.3,
            f_uint32: a.4, f_uint64: a.5, f_sint32: a.6, f_sint64: a.7,
            f_fixed32: b.0, f_fixed64: b.1, f_sfixed32: b.2, f_sfixed64: b.3,
            f_bool: b.4, f_string: b.5, f_bytes: b.6, f_enum: b.7,
            d_int32: c.0, d_string: c.1, d_enum: c.2,
        }
    }
}

prop_compose! {
    fn repeated2()(
        a in (
            vec(i32s(), N), vec(i64s(), N), vec(u32s(), N), vec(f64s(), N),
            vec(any::<bool>(), N), vec(strings(), N), vec(bytes(), N), vec(closed_enum(), N),
        ),
        b in (
            vec(i32s(), N), vec(i64s(), N), vec(u32s(), N), vec(f64s(), N),
            vec(any::<bool>(), N), vec(closed_enum(), N), vec(u64s(), N), vec(i64s(), N),
        ),
    ) -> p::two::Repeated {
        p::two::Repeated {
            e_int32: a.0, e_sint64: a.1, e_fixed32: a.2, e_double: a.3,
            e_bool: a.4, e_string: a.5, e_bytes: a.6, e_enum: a.7,
            p_int32: b.0, p_sint64: b.1, p_fixed32: b.2, p_double: b.3,
            p_bool: b.4, p_enum: b.5, p_uint64: b.6, p_sfixed64: b.7,
        }
    }
}

fn opt_group() -> impl Strategy<Value = p::two::groups::OptGroup> {
    (option::of(i32s()), option::of(strings())).prop_map(|(a, b)| p::two::groups::OptGroup { a, b })
}

fn groups() -> impl Strategy<Value = p::two::Groups> {
    use p::two::groups::RepGroup;
    let leaf = (option::of(opt_group()), option::of(i32s())).prop_map(|(optgroup, after)| {
        p::two::Groups {
            optgroup,
            repgroup: Vec::new(),
            after,
        }
    });
    leaf.prop_recursive(3, 10, 2, |inner| {
        let rep_group =
            (option::of(i32s()), vec(inner, 0..2)).prop_map(|(c, inner)| RepGroup { c, inner });
        (
            option::of(opt_group()),
            vec(rep_group, 0..3),
            option::of(i32s()),
        )
            .prop_map(|(optgroup, repgroup, after)| p::two::Groups {
                optgroup,
                repgroup,
                after,
            })
    })
}

fn required() -> impl Strategy<Value = p::two::Required> {
    (i32s(), strings(), closed_enum()).prop_map(|(id, name, kind)| p::two::Required {
        id,
        name,
        kind,
    })
}

fn closed_maps() -> impl Strategy<Value = p::two::ClosedMaps> {
    (
        btree_map(strings(), closed_zero(), M),
        btree_map(i32s(), scalars2(), M),
    )
        .prop_map(|(string_enum, int32_message)| p::two::ClosedMaps {
            string_enum,
            int32_message,
        })
}

fn oneofs2() -> impl Strategy<Value = p::two::Oneofs2> {
    use p::two::oneofs2::Choice;
    option::of(prop_oneof![
        closed_enum().prop_map(Choice::CEnum),
        scalars2().prop_map(Choice::CMessage),
        strings().prop_map(Choice::CString),
    ])
    .prop_map(|choice| p::two::Oneofs2 { choice })
}

prop_compose! {
    fn everything2()(
        scalars in option::of(scalars2().boxed()),
        repeated in option::of(repeated2().boxed()),
        required in option::of(required().boxed()),
        groups in option::of(groups().boxed()),
        closed_maps in option::of(closed_maps().boxed()),
        oneofs in option::of(oneofs2().boxed()),
    ) -> p::two::Everything2 {
        p::two::Everything2 { scalars, repeated, required, groups, closed_maps, oneofs }
    }
}

/// `NewVersion` without `sub`.
fn new_version_fields() -> impl Strategy<Value = p::two::NewVersion> {
    let g = (option::of(i32s()), option::of(strings()))
        .prop_map(|(x, y)| p::two::new_version::G { x, y });
    (
        option::of(i32s()),
        option::of(strings()),
        vec(u32s(), N),
        option::of(u64s()),
        option::of(g),
        vec(i32s(), N),
        option::of(f32s()),
        option::of(i64s()),
    )
        .prop_map(|(a, b, c, d, g, e, f, big)| p::two::NewVersion {
            a,
            b,
            c,
            d,
            g,
            sub: None,
            e,
            f,
            big,
        })
}

fn new_version() -> impl Strategy<Value = p::two::NewVersion> {
    new_version_fields().prop_recursive(2, 4, 1, |inner| {
        (new_version_fields(), option::of(inner)).prop_map(|(fields, sub)| p::two::NewVersion {
            sub: sub.map(Box::new),
            ..fields
        })
    })
}

// ---------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn implicit_fields(value in implicit()) {
        both_ways::<p::Implicit, b::Implicit>(&value, true);
    }

    #[test]
    fn optional_fields(value in optional()) {
        both_ways::<p::Optional, b::Optional>(&value, true);
    }

    #[test]
    fn packed_fields(value in packed()) {
        both_ways::<p::Packed, b::Packed>(&value, true);
    }

    #[test]
    fn expanded_fields(value in expanded()) {
        both_ways::<p::Expanded, b::Expanded>(&value, true);
    }

    #[test]
    fn map_fields(value in maps()) {
        // prost leaves default keys and values out of map entries, buffa
        // writes them (as C++ does): the bytes may differ.
        both_ways::<p::Maps, b::Maps>(&value, false);
    }

    #[test]
    fn nested_messages(value in nested()) {
        both_ways::<p::Nested, b::Nested>(&value, true);
    }

    #[test]
    fn oneof_fields(value in oneofs()) {
        both_ways::<p::Oneofs, b::Oneofs>(&value, true);
    }

    #[test]
    fn everything_proto3(value in everything()) {
        let same_bytes = value.maps.is_none();
        both_ways::<p::Everything, b::Everything>(&value, same_bytes);
    }

    #[test]
    fn proto2_scalars(value in scalars2()) {
        both_ways::<p::two::Scalars, b::two::Scalars>(&value, true);
    }

    #[test]
    fn proto2_repeated(value in repeated2()) {
        both_ways::<p::two::Repeated, b::two::Repeated>(&value, true);
    }

    #[test]
    fn proto2_required(value in required()) {
        both_ways::<p::two::Required, b::two::Required>(&value, true);
    }

    #[test]
    fn proto2_groups(value in groups()) {
        both_ways::<p::two::Groups, b::two::Groups>(&value, true);
    }

    #[test]
    fn proto2_closed_maps(value in closed_maps()) {
        both_ways::<p::two::ClosedMaps, b::two::ClosedMaps>(&value, false);
    }

    #[test]
    fn proto2_oneofs(value in oneofs2()) {
        both_ways::<p::two::Oneofs2, b::two::Oneofs2>(&value, true);
    }

    #[test]
    fn everything_proto2(value in everything2()) {
        let same_bytes = value.closed_maps.is_none();
        both_ways::<p::two::Everything2, b::two::Everything2>(&value, same_bytes);
    }

    /// A message decoded with an older schema keeps what it does not know
    /// and writes it back: prost (new schema) must read the original.
    #[test]
    fn unknown_fields_survive(value in new_version()) {
        let bytes = prost::Message::encode_to_vec(&value);
        let old = b::two::OldVersion::decode_from_slice(&bytes).unwrap();
        prop_assert_eq!(old.a, value.a);
        let unknown_expected = value.b.is_some() || !value.c.is_empty() || value.d.is_some()
            || value.g.is_some() || value.sub.is_some() || !value.e.is_empty()
            || value.f.is_some() || value.big.is_some();
        prop_assert_eq!(!old.unknown_fields.is_empty(), unknown_expected);
        let rewritten = buffa::Message::encode_to_vec(&old);
        prop_assert_eq!(rewritten.len(), bytes.len());
        let back = <p::two::NewVersion as prost::Message>::decode(&rewritten[..]).unwrap();
        prop_assert_eq!(&back, &value);
        // The new schema in buffa reads the same.
        let full = b::two::NewVersion::decode_from_slice(&rewritten).unwrap();
        prop_assert_eq!(full, value.conv());
    }
}

// ---------------------------------------------------------------------
// Hand-picked cases.

#[test]
fn negative_zero_in_implicit_fields() {
    // buffa, like the C++ implementation, writes an implicit float whose
    // bits are not all zero, so -0.0 survives; prost compares with 0.0 and
    // drops it. Each reads the other.
    let value = b::Implicit {
        f_double: -0.0,
        f_float: -0.0,
        ..Default::default()
    };
    let bytes = buffa::Message::encode_to_vec(&value);
    assert_eq!(bytes.len(), 9 + 5);
    let decoded = b::Implicit::decode_from_slice(&bytes).unwrap();
    assert!(decoded.f_double.is_sign_negative() && decoded.f_float.is_sign_negative());
    let by_prost = <p::Implicit as prost::Message>::decode(&bytes[..]).unwrap();
    assert!(by_prost.f_double.is_sign_negative());
    assert!(prost::Message::encode_to_vec(&by_prost).is_empty());
}

#[test]
fn map_entries_with_default_key_and_value() {
    let value = p::Maps {
        int32_int32: [(0, 0)].into(),
        string_string: [(String::new(), String::new())].into(),
        string_message: [(String::new(), p::Nested::default())].into(),
        int32_enum: [(0, 0)].into(),
        ..Default::default()
    };
    let prost_bytes = prost::Message::encode_to_vec(&value);
    let buffa_value: b::Maps = value.conv();
    let buffa_bytes = buffa::Message::encode_to_vec(&buffa_value);
    // Four entries, each a field key (two bytes for fields 16 and 17) and
    // a length; prost leaves default keys and values out of the entry,
    // buffa writes every key and value (two bytes each here).
    assert_eq!(prost_bytes.len(), 4 * 2 + 2);
    assert_eq!(buffa_bytes.len(), 4 * (2 + 2 + 2) + 2);
    assert_eq!(
        b::Maps::decode_from_slice(&prost_bytes).unwrap(),
        buffa_value
    );
    assert_eq!(
        <p::Maps as prost::Message>::decode(&buffa_bytes[..]).unwrap(),
        value
    );
}

#[test]
fn nan_passes_through_bit_for_bit() {
    let nan64 = f64::from_bits(0x7ff0_0000_0000_0001);
    let nan32 = f32::from_bits(0xff80_0001);
    let value = p::Optional {
        f_double: Some(nan64),
        f_float: Some(nan32),
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    let decoded = b::Optional::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.f_double.unwrap().to_bits(), nan64.to_bits());
    assert_eq!(decoded.f_float.unwrap().to_bits(), nan32.to_bits());
    assert_eq!(buffa::Message::encode_to_vec(&decoded), bytes);
}

#[test]
fn closed_enum_values_prost_keeps_and_buffa_sets_aside() {
    // prost keeps any number in its i32; buffa moves undeclared numbers of
    // closed enums to unknown fields, and writes them back after the known
    // fields.
    let value = p::two::Scalars {
        f_enum: Some(99),
        d_enum: Some(2),
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    let decoded = b::two::Scalars::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded.f_enum, None);
    assert_eq!(decoded.d_enum, Some(b::two::ClosedEnum::ClosedB));
    assert_eq!(
        decoded.unknown_fields.iter().collect::<Vec<_>>(),
        [UnknownField {
            number: 16,
            value: UnknownValue::Varint(99)
        }]
    );
    let back =
        <p::two::Scalars as prost::Message>::decode(&buffa::Message::encode_to_vec(&decoded)[..])
            .unwrap();
    assert_eq!(back, value);

    let repeated = p::two::Repeated {
        e_enum: vec![1, 99, 2, -7],
        p_enum: vec![-5, 0, 2],
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&repeated);
    let decoded = b::two::Repeated::decode_from_slice(&bytes).unwrap();
    use b::two::ClosedEnum::*;
    assert_eq!(decoded.e_enum, [ClosedA, ClosedB]);
    assert_eq!(decoded.p_enum, [ClosedNegative, ClosedB]);
    assert_eq!(decoded.unknown_fields.iter().count(), 3);
    let back =
        <p::two::Repeated as prost::Message>::decode(&buffa::Message::encode_to_vec(&decoded)[..])
            .unwrap();
    // Known values first, then the unknown ones, each in order.
    assert_eq!(back.e_enum, [1, 2, 99, -7]);
    assert_eq!(back.p_enum, [-5, 2, 0]);

    // A map entry with an undeclared closed-enum value is kept whole.
    let maps = p::two::ClosedMaps {
        string_enum: [("a".into(), 3), ("b".into(), 5)].into(),
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&maps);
    let decoded = b::two::ClosedMaps::decode_from_slice(&bytes).unwrap();
    assert_eq!(
        decoded.string_enum,
        [("a".to_owned(), b::two::ClosedZero::Three)].into()
    );
    assert_eq!(decoded.unknown_fields.iter().count(), 1);
    let back = <p::two::ClosedMaps as prost::Message>::decode(
        &buffa::Message::encode_to_vec(&decoded)[..],
    )
    .unwrap();
    assert_eq!(back, maps);
}

#[test]
fn open_enum_values_pass_through() {
    for number in [0, 1, 2, -1, -2, i32::MAX, i32::MIN, 1000] {
        let value = p::Implicit {
            f_enum: number,
            ..Default::default()
        };
        let decoded = prost_to_buffa::<p::Implicit, b::Implicit>(&value, true);
        assert_eq!(decoded.f_enum.to_i32(), number);
        assert_eq!(
            decoded.f_enum.is_known(),
            b::OpenEnum::from_i32(number).is_some()
        );
    }
}

#[test]
fn oneof_last_member_wins_across_implementations() {
    // prost writes c_int32, then buffa appends c_string bytes: both read
    // the last member.
    let first = p::Oneofs {
        choice: Some(p::oneofs::Choice::CInt32(5)),
        ..Default::default()
    };
    let second = b::Oneofs {
        choice: Some(b::oneofs::Choice::CString("last".into())),
        ..Default::default()
    };
    let mut bytes = prost::Message::encode_to_vec(&first);
    bytes.extend(buffa::Message::encode_to_vec(&second));
    assert_eq!(b::Oneofs::decode_from_slice(&bytes).unwrap(), second);
    assert_eq!(
        <p::Oneofs as prost::Message>::decode(&bytes[..]).unwrap(),
        second.conv()
    );
}

#[test]
fn deep_recursion_both_ways() {
    let mut value = p::Nested::default();
    for i in 0..90 {
        value = p::Nested {
            value: i,
            child: Some(Box::new(value)),
            ..Default::default()
        };
    }
    both_ways::<p::Nested, b::Nested>(&value, true);
}
