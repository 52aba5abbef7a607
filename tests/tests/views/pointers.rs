//! Strings and bytes of views point into the input: `Strings` collects
//! every string and bytes value of a view, walking nested views, lazy
//! fields, oneof members and map entries.

use super::*;
use buffa::__private::DecodeScalar;
use buffa::__private::map::MergeMapValue;
use buffa::RepeatedView;
use buffa::views::ViewElement;

trait Strings<'a> {
    fn strings(&self, out: &mut Vec<&'a [u8]>);
}

impl<'a> Strings<'a> for &'a str {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        out.push(self.as_bytes());
    }
}

impl<'a> Strings<'a> for &'a [u8] {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        out.push(self);
    }
}

impl<'a, T: Strings<'a>> Strings<'a> for Option<T> {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        self.iter().for_each(|v| v.strings(out));
    }
}

impl<'a, E: ViewElement<'a, Value: Strings<'a>>> Strings<'a> for RepeatedView<'a, E> {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        self.iter().for_each(|v| v.strings(out));
    }
}

impl<'a, K, V> Strings<'a> for MapView<'a, K, V>
where
    K: DecodeScalar<'a, Value: Strings<'a> + PartialEq>,
    V: MergeMapValue<'a, Value: Strings<'a>>,
{
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        for (key, value) in self.raw_entries() {
            key.strings(out);
            value.strings(out);
        }
    }
}

impl<'a, V: Strings<'a>, P: ProtoBox<V>> Strings<'a> for MessageField<V, P> {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        self.as_option().iter().for_each(|v| v.strings(out));
    }
}

impl<'a, V: Strings<'a> + MessageView<'a>> Strings<'a> for LazyField<'a, V> {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        if self.is_set() {
            self.get().unwrap().strings(out);
        }
    }
}

impl<'a, V: Strings<'a> + MessageView<'a>> Strings<'a> for LazyRepeated<'a, V> {
    fn strings(&self, out: &mut Vec<&'a [u8]>) {
        self.iter().for_each(|v| v.unwrap().strings(out));
    }
}

macro_rules! no_strings {
    ($($t:ty),*) => {$(
        impl<'a> Strings<'a> for $t {
            fn strings(&self, _: &mut Vec<&'a [u8]>) {}
        }
    )*};
}
no_strings!(i32, u64, e::two::ClosedZero, l::two::ClosedZero);

/// `Strings` for the views of module `$m`: the fields that hold strings,
/// bytes or messages, and the oneof members that do.
macro_rules! view_strings {
    ($m:ident) => {
        view_strings!(@fields $m;
            ImplicitView { f_string, f_bytes },
            OptionalView { f_string, f_bytes },
            PackedView { f_string, f_bytes },
            MapsView { string_string, string_bytes, string_message, uint64_message },
            NestedView { child, children, label },
            OneofsView { choice, other },
            EverythingView { implicit, optional, packed, maps, oneofs, nested, many },
            two::ScalarsView { f_string, f_bytes, d_string },
            two::RepeatedView { e_string, e_bytes },
            two::RequiredView { name },
            two::GroupsView { optgroup, repgroup },
            two::groups::OptGroupView { b },
            two::groups::RepGroupView { inner },
            two::ClosedMapsView { string_enum, int32_message },
            two::Oneofs2View { choice },
            two::Everything2View { scalars, repeated, required, groups, closed_maps, oneofs }
        );
        view_strings!(@oneof $m::oneofs::ChoiceView: CString, CBytes, CMessage);
        view_strings!(@oneof $m::oneofs::OtherView: OMessage);
        view_strings!(@oneof $m::two::oneofs2::ChoiceView: CMessage, CString);
    };
    (@fields $m:ident; $($($ty:ident)::+ { $($field:ident),* }),*) => {$(
        impl<'a> Strings<'a> for $m::$($ty)::+<'a> {
            fn strings(&self, out: &mut Vec<&'a [u8]>) {
                $(self.$field.strings(out);)*
            }
        }
    )*};
    (@oneof $m:ident::$($ty:ident)::+: $($member:ident),*) => {
        impl<'a> Strings<'a> for $m::$($ty)::+<'a> {
            fn strings(&self, out: &mut Vec<&'a [u8]>) {
                match self {
                    $(Self::$member(value) => value.strings(out),)*
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }
        }
    };
}
view_strings!(e);
view_strings!(l);

/// Every non-empty string and bytes value of a view of `bytes` (`M`'s),
/// nested views, oneof members and map entries included, points into
/// `bytes`; returns how many there are.
fn strings_inside<'a, M>(bytes: &'a [u8]) -> usize
where
    M: HasView,
    M::View<'a>: Strings<'a>,
{
    let view = view_of::<M>(bytes).unwrap();
    let mut strings = Vec::new();
    view.strings(&mut strings);
    strings.retain(|s| !s.is_empty());
    for s in &strings {
        assert!(inside(bytes, s), "{s:02x?} was copied");
    }
    strings.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Strings and bytes of both views, nested views, lazy fields, groups,
    /// oneof members and map entries included, point into the input.
    #[test]
    fn strings_point_into_the_input(a in everything(), b in everything2()) {
        let bytes = prost::Message::encode_to_vec(&a);
        let eager = strings_inside::<e::Everything>(&bytes);
        prop_assert_eq!(eager, strings_inside::<l::Everything>(&bytes));
        let bytes = prost::Message::encode_to_vec(&b);
        let eager = strings_inside::<e::two::Everything2>(&bytes);
        prop_assert_eq!(eager, strings_inside::<l::two::Everything2>(&bytes));
    }
}

/// One string or bytes value in each place a view holds one (a field, a
/// list, a map key and value, a oneof member, a sub-message's and a group's
/// field, lazy or not, and a lazy list's element): each is found, inside
/// the input.
#[test]
fn strings_in_every_place_point_into_the_input() {
    use p::oneofs::{Choice, Other};
    let label = |label: &str| p::Nested {
        label: label.into(),
        ..Default::default()
    };
    let value = p::Everything {
        implicit: Some(p::Implicit {
            f_string: "a".into(),
            ..Default::default()
        }),
        optional: Some(p::Optional {
            f_bytes: Some(vec![1]),
            ..Default::default()
        }),
        packed: Some(p::Packed {
            f_string: vec!["b".into()],
            ..Default::default()
        }),
        maps: Some(p::Maps {
            string_message: [("k".into(), node(0, "v", Some(label("c"))))].into(),
            ..Default::default()
        }),
        oneofs: Some(p::Oneofs {
            choice: Some(Choice::CString("o".into())),
            other: Some(Other::OMessage(label("m"))),
            ..Default::default()
        }),
        nested: Some(p::Nested {
            children: vec![label("n")],
            ..Default::default()
        }),
        many: vec![p::Oneofs {
            choice: Some(Choice::CBytes(vec![2])),
            ..Default::default()
        }],
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    assert_eq!(strings_inside::<e::Everything>(&bytes), 10);
    assert_eq!(strings_inside::<l::Everything>(&bytes), 10);

    use p::two::groups::{OptGroup, RepGroup};
    let opt_group = |b: &str| {
        Some(OptGroup {
            a: None,
            b: Some(b.into()),
        })
    };
    let inner = p::two::Groups {
        optgroup: opt_group("h"),
        ..Default::default()
    };
    let value = p::two::Everything2 {
        groups: Some(p::two::Groups {
            optgroup: opt_group("g"),
            repgroup: vec![RepGroup {
                c: None,
                inner: vec![inner],
            }],
            after: None,
        }),
        required: Some(p::two::Required {
            id: 1,
            name: "r".into(),
            kind: 1,
        }),
        closed_maps: Some(p::two::ClosedMaps {
            string_enum: [("e".into(), 3)].into(),
            int32_message: [(
                1,
                p::two::Scalars {
                    d_string: Some("d".into()),
                    ..Default::default()
                },
            )]
            .into(),
        }),
        oneofs: Some(p::two::Oneofs2 {
            choice: Some(p::two::oneofs2::Choice::CString("s".into())),
        }),
        ..Default::default()
    };
    let bytes = prost::Message::encode_to_vec(&value);
    assert_eq!(strings_inside::<e::two::Everything2>(&bytes), 6);
    assert_eq!(strings_inside::<l::two::Everything2>(&bytes), 6);
}
