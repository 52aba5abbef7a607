//! proptest strategies for the cross-check protos (`proto/crosscheck`),
//! as prost values: boundary values first, then anything. Floats are never
//! NaN (which is not equal to itself), and closed enums hold declared
//! values only.

use buffa_tests::prost_crosscheck::crosscheck as p;
use proptest::collection::{btree_map, vec};
use proptest::option;
use proptest::prelude::*;

macro_rules! integer {
    ($name:ident, $t:ty) => {
        pub fn $name() -> impl Strategy<Value = $t> {
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
        pub fn $name() -> impl Strategy<Value = $t> {
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
        pub fn $implicit() -> impl Strategy<Value = $t> {
            $name().prop_map(|v| if v == 0.0 { 0.0 } else { v })
        }
    };
}
float!(f32s, f32s_implicit, f32);
float!(f64s, f64s_implicit, f64);

pub fn strings() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\u{0}".to_owned()),
        Just("\u{10ffff}é€".to_owned()),
        Just("x".repeat(200)),
        any::<String>(),
    ]
}

pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(vec![0]),
        Just(vec![0xff; 130]),
        vec(any::<u8>(), 0..20),
    ]
}

/// Open enum numbers: declared or not.
pub fn open_enum() -> impl Strategy<Value = i32> {
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

pub fn closed_enum() -> impl Strategy<Value = i32> {
    prop_oneof![Just(1), Just(2), Just(-5)]
}

pub fn closed_zero() -> impl Strategy<Value = i32> {
    prop_oneof![Just(0), Just(3), Just(7)]
}

prop_compose! {
    pub fn implicit()(
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
    pub fn optional()(
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
    pub fn packed()(
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
    pub fn expanded()(
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

prop_compose! {
    /// A point whose fields are each zero (left out) now and then, so that
    /// both the fixed-record and the field-by-field decode run.
    pub fn point()(
        x in f32s_implicit(), y in f64s_implicit(), tag in u32s(),
        stamp in i64s(),
    ) -> p::Point {
        p::Point { x, y, tag, stamp }
    }
}

prop_compose! {
    pub fn points()(
        points in vec(point(), 0..6), origin in option::of(point()),
        segments in vec(segment(), 0..4),
    ) -> p::Points {
        p::Points { points, origin, segments }
    }
}

prop_compose! {
    pub fn segment()(from in option::of(point()), to in option::of(point())) -> p::Segment {
        p::Segment { from, to }
    }
}

pub fn nested() -> impl Strategy<Value = p::Nested> {
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
    pub fn maps()(
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

pub fn oneofs() -> impl Strategy<Value = p::Oneofs> {
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
    pub fn everything()(
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
    pub fn scalars2()(
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
    pub fn repeated2()(
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

pub fn opt_group() -> impl Strategy<Value = p::two::groups::OptGroup> {
    (option::of(i32s()), option::of(strings())).prop_map(|(a, b)| p::two::groups::OptGroup { a, b })
}

pub fn groups() -> impl Strategy<Value = p::two::Groups> {
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

pub fn required() -> impl Strategy<Value = p::two::Required> {
    (i32s(), strings(), closed_enum()).prop_map(|(id, name, kind)| p::two::Required {
        id,
        name,
        kind,
    })
}

pub fn closed_maps() -> impl Strategy<Value = p::two::ClosedMaps> {
    (
        btree_map(strings(), closed_zero(), M),
        btree_map(i32s(), scalars2(), M),
    )
        .prop_map(|(string_enum, int32_message)| p::two::ClosedMaps {
            string_enum,
            int32_message,
        })
}

pub fn oneofs2() -> impl Strategy<Value = p::two::Oneofs2> {
    use p::two::oneofs2::Choice;
    option::of(prop_oneof![
        closed_enum().prop_map(Choice::CEnum),
        scalars2().prop_map(Choice::CMessage),
        strings().prop_map(Choice::CString),
    ])
    .prop_map(|choice| p::two::Oneofs2 { choice })
}

prop_compose! {
    pub fn everything2()(
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
pub fn new_version_fields() -> impl Strategy<Value = p::two::NewVersion> {
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

pub fn new_version() -> impl Strategy<Value = p::two::NewVersion> {
    new_version_fields().prop_recursive(2, 4, 1, |inner| {
        (new_version_fields(), option::of(inner)).prop_map(|(fields, sub)| p::two::NewVersion {
            sub: sub.map(Box::new),
            ..fields
        })
    })
}
