//! buffa against prost on the same schemas (`proto/crosscheck`): values are
//! generated as prost messages, passed through bytes to buffa and back, and
//! compared field by field through the conversions below, in both
//! directions. Maps are `BTreeMap` on both sides, so for messages without
//! maps the two encoders must also agree byte for byte. The random values
//! come from `common::strategies`.

mod common;

use std::collections::BTreeMap;

use buffa::{
    EnumValue, Enumeration, Message as _, MessageField, MessageView as _, UnknownField,
    UnknownValue,
};
use buffa_tests::crosscheck::crosscheck as b;
use buffa_tests::crosscheck_lazy::crosscheck as l;
use buffa_tests::prost_crosscheck::crosscheck as p;
use common::strategies::*;
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

message!(p::Point, b::Point { x, y, tag, stamp });
message!(
    p::Points,
    b::Points {
        points,
        origin,
        segments
    }
);
message!(p::Segment, b::Segment { from, to });

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
    common::check_encode_to_slice(&from_view, |buf| view.encode_to_slice(buf));
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
    common::check_encode_to_slice(&again, |buf| decoded.encode_to_slice(buf));
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
    common::check_encode_to_slice(&bytes, |buf| value.encode_to_slice(buf));
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
    fn fixed_records(value in points()) {
        both_ways::<p::Points, b::Points>(&value, true);
        // The unboxed build, whose segments are records of records.
        let bytes = prost::Message::encode_to_vec(&value);
        let inline = l::Points::decode_from_slice(&bytes).unwrap();
        prop_assert_eq!(buffa::Message::encode_to_vec(&inline), bytes);
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
        common::check_encode_to_slice(&rewritten, |buf| old.encode_to_slice(buf));
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

#[test]
fn fixed_record_merges_like_fields_in_any_order() {
    // `origin` three times: a record, its fields reversed, and one field
    // alone, then a record again inside `points`. buffa (owned and view)
    // must read what prost reads, whichever path each payload takes.
    let record = p::Point {
        x: 1.5,
        y: -2.25,
        tag: 7,
        stamp: -9,
    };
    let mut reversed = Vec::new();
    reversed.push(0x21); // field 4, fixed64
    reversed.extend((-3i64).to_le_bytes());
    reversed.push(0x1d); // field 3, fixed32
    reversed.extend(4u32.to_le_bytes());
    reversed.push(0x11); // field 2, fixed64
    reversed.extend(5.5f64.to_le_bytes());
    reversed.push(0x0d); // field 1, fixed32
    reversed.extend(6.5f32.to_le_bytes());
    let lone_x = [0x0d, 0, 0, 0x80, 0x3f]; // x = 1.0
    let record_bytes = prost::Message::encode_to_vec(&record);
    assert_eq!(record_bytes.len(), 5 + 9 + 5 + 9, "every field set");
    let declared = <b::Point as buffa::Message>::FIXED_RECORD.expect("Point has a fixed record");
    assert_eq!(declared.len(), record_bytes.len());
    assert!(declared.matches(&record_bytes) && !declared.matches(&reversed));

    let mut bytes = Vec::new();
    for payload in [&record_bytes[..], &reversed, &lone_x] {
        bytes.push(0x12); // Points.origin
        bytes.push(payload.len() as u8);
        bytes.extend(payload);
    }
    bytes.push(0x0a); // Points.points
    bytes.push(record_bytes.len() as u8);
    bytes.extend(&record_bytes);

    let expected = <p::Points as prost::Message>::decode(&bytes[..]).unwrap();
    assert_eq!(
        expected.origin,
        Some(p::Point {
            x: 1.0,
            y: 5.5,
            tag: 4,
            stamp: -3
        })
    );
    let owned = b::Points::decode_from_slice(&bytes).unwrap();
    assert_eq!(owned, expected.conv());
    let view = buffa::view_of::<b::Points>(&bytes).unwrap();
    assert_eq!(view.to_owned_message().unwrap(), owned);

    // A record cut short, or followed by one byte more, is no record: the
    // field loop reads it and fails as prost does.
    for payload in [
        &record_bytes[..record_bytes.len() - 1],
        &[&record_bytes[..], &[0x08]].concat(),
    ] {
        let mut bytes = vec![0x12, payload.len() as u8];
        bytes.extend(payload);
        assert!(<p::Points as prost::Message>::decode(&bytes[..]).is_err());
        assert!(b::Points::decode_from_slice(&bytes).is_err());
        assert!(buffa::view_of::<b::Points>(&bytes).is_err());
    }
}

#[test]
fn fixed_records_of_records() {
    let full = p::Point {
        x: 0.5,
        y: 8.0,
        tag: 3,
        stamp: 1 << 40,
    };
    let partial = p::Point { tag: 0, ..full };
    let value = p::Points {
        segments: vec![
            p::Segment {
                from: Some(full),
                to: Some(full),
            },
            p::Segment {
                from: None,
                to: Some(full),
            },
            p::Segment {
                from: Some(partial),
                to: Some(full),
            },
        ],
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    // The owned messages of the unboxed build hold their points in place,
    // so their segments are records of records; the boxed build's are not
    // (they would allocate), but its views hold points in place too.
    let record =
        <l::Segment as buffa::Message>::FIXED_RECORD.expect("an inline Segment is a record");
    assert_eq!(record.len(), 2 * (2 + 28));
    assert_eq!(record.depth(), 1);
    assert!(<b::Segment as buffa::Message>::FIXED_RECORD.is_none());
    // Every key and length, the points' own included, is checked, and no
    // value byte is: changing one byte breaks the match exactly at the
    // keys of `from` (0) and `to` (30), their lengths (1, 31) and the
    // points' keys behind them.
    let full_segment = prost::Message::encode_to_vec(&value.segments[0]);
    assert!(record.matches(&full_segment));
    let shared = [0, 1, 2, 7, 16, 21, 30, 31, 32, 37, 46, 51];
    for at in 0..full_segment.len() {
        let mut changed = full_segment.clone();
        changed[at] ^= 0x40;
        assert_eq!(record.matches(&changed), !shared.contains(&at), "byte {at}");
    }
    let inline = l::Points::decode_from_slice(&bytes).unwrap();
    assert_eq!(buffa::Message::encode_to_vec(&inline), bytes);
    let boxed = b::Points::decode_from_slice(&bytes).unwrap();
    assert_eq!(boxed, value.conv());
    let view = buffa::view_of::<b::Points>(&bytes).unwrap();
    assert_eq!(view.to_owned_message().unwrap(), boxed);

    // A record with sub-messages needs a nesting level for them: where the
    // recursion limit leaves none, the field loop reports the limit, as it
    // does for a segment that is no record.
    let segment = prost::Message::encode_to_vec(&value.segments[0]);
    let shallow = buffa::DecodeOptions::new().with_recursion_limit(0);
    for decoded in [
        l::Segment::decode_with_options(&segment, &shallow).map(|_| ()),
        b::Segment::decode_with_options(&segment, &shallow).map(|_| ()),
        <b::Segment as buffa::HasView>::decode_view_with_options(&segment, &shallow).map(|_| ()),
    ] {
        let error = decoded.expect_err("past the recursion limit");
        assert!(
            matches!(
                error.kind(),
                buffa::DecodeErrorKind::RecursionLimitExceeded { .. }
            ),
            "{error}"
        );
    }
    let one_level = buffa::DecodeOptions::new().with_recursion_limit(1);
    assert_eq!(
        l::Segment::decode_with_options(&segment, &one_level).unwrap(),
        l::Segment::decode_from_slice(&segment).unwrap()
    );
}

#[test]
fn a_known_field_under_another_wire_type_is_an_error() {
    use buffa::DecodeErrorKind::WireTypeMismatch;
    use buffa::wire::WireType::{Fixed32, Fixed64, LengthDelimited, Varint};
    // Fields 1 to 15 are read by their one-byte keys and any other key at
    // their number is refused; field 16's two-byte key takes the general
    // path. Owned and view decodes report the same error.
    let cases: [(&[u8], u32, _, _); 3] = [
        (&[0x1d, 1, 0, 0, 0], 3, Varint, Fixed32),
        (&[0x70, 1], 14, LengthDelimited, Varint),
        (&[0x81, 0x01, 1, 0, 0, 0, 0, 0, 0, 0], 16, Varint, Fixed64),
    ];
    for (bytes, field_number, expected, actual) in cases {
        let want = WireTypeMismatch {
            field_number,
            expected,
            actual,
        };
        let owned = b::Packed::decode_from_slice(bytes).expect_err("a mismatched key");
        assert_eq!(owned.kind(), &want, "owned, field {field_number}");
        let view = buffa::view_of::<b::Packed>(bytes).expect_err("a mismatched key");
        assert_eq!(view.kind(), &want, "view, field {field_number}");
    }
    // A key padded past one byte still reaches its field (parsers must
    // accept a varint padded with 0x80 bytes): field 3 as `98 00` and
    // `98 80 00`, field 14 as `f2 00`.
    let padded = [
        0x98, 0x00, 0x07, 0x98, 0x80, 0x00, 0x08, 0xf2, 0x00, 0x01, b'x',
    ];
    let decoded = b::Packed::decode_from_slice(&padded).unwrap();
    assert_eq!(decoded.f_int32, [7, 8]);
    assert_eq!(decoded.f_string, ["x"]);
    let view = buffa::view_of::<b::Packed>(&padded).unwrap();
    assert_eq!(view.f_int32.iter().collect::<Vec<_>>(), [7, 8]);
    assert_eq!(view.f_string.iter().collect::<Vec<_>>(), ["x"]);
    // Both forms of a repeated number are read: packed and one by one.
    let both = [0x1a, 2, 5, 6, 0x18, 7];
    let decoded = b::Packed::decode_from_slice(&both).unwrap();
    assert_eq!(decoded.f_int32, [5, 6, 7]);
    let view = buffa::view_of::<b::Packed>(&both).unwrap();
    assert_eq!(view.f_int32.iter().collect::<Vec<_>>(), [5, 6, 7]);
}

#[test]
fn an_invalid_one_byte_key_is_reported_where_it_starts() {
    use buffa::DecodeErrorKind::{InvalidTag, InvalidWireType};
    // One-byte keys go to the keyed arms first; one they leave that is not
    // a key at all (field number 0, wire type 6 or 7) is reported with the
    // kind and offset the general key reader gives, at the start, after a
    // field and after a padded key alike. Owned and view decodes agree.
    let cases: [(&[u8], _, usize); 4] = [
        (&[0x18, 1, 0x00], InvalidTag(0), 2),
        (&[0x18, 1, 0x1e, 1], InvalidWireType(6), 2),
        (&[0x0f], InvalidWireType(7), 0),
        (&[0x18, 1, 0x98, 0x00, 2, 0x0f], InvalidWireType(7), 5),
    ];
    for (bytes, want, offset) in cases {
        let owned = b::Packed::decode_from_slice(bytes).expect_err("an invalid key");
        assert_eq!(
            (owned.kind(), owned.offset()),
            (&want, Some(offset)),
            "owned {bytes:x?}"
        );
        let view = buffa::view_of::<b::Packed>(bytes).expect_err("an invalid key");
        assert_eq!(
            (view.kind(), view.offset()),
            (&want, Some(offset)),
            "view {bytes:x?}"
        );
    }
}
