//! The hostile-naming protos under `proto/hostile`: that they compile is
//! most of the test; these check that every renamed field still maps to
//! its own field number (against protoc's text format), and that the
//! renamed types round-trip.

mod common;

use buffa::{EnumValue, Enumeration, Message};
use buffa_tests::hostile::hostile as h;
use common::{local_protos, protoc_decode_in, protoc_encode_in};

fn encode_text(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&local_protos().join("hostile"), file, message_type, text)
}

fn decode_text(file: &str, message_type: &str, bytes: &[u8]) -> String {
    protoc_decode_in(&local_protos().join("hostile"), file, message_type, bytes)
}

/// Checks `message` against protoc: same bytes as `text`, decodes back.
fn check<M: Message + PartialEq>(file: &str, message: &M, text: &str) {
    let reference = encode_text(file, M::NAME, text);
    let bytes = message.encode_to_vec();
    assert_eq!(
        bytes,
        reference,
        "{}: buffa wrote {:?}, protoc reads it as:\n{}",
        M::NAME,
        bytes,
        decode_text(file, M::NAME, &bytes)
    );
    assert_eq!(&M::decode_from_slice(&reference).unwrap(), message);
}

#[test]
fn keyword_fields_keep_their_numbers() {
    use h::r#type::r#async::self_::crate_::Keywords;
    let message = Keywords {
        r#as: 1,
        r#async: 2,
        r#await: 3,
        r#break: 4,
        r#const: 5,
        r#continue: 6,
        crate_: 7,
        r#dyn: 8,
        r#else: 9,
        r#enum: 10,
        r#extern: 11,
        r#false: true,
        r#fn: 13,
        r#for: 14,
        r#gen: 15,
        r#if: 16,
        r#impl: 17,
        r#in: 18,
        r#let: 19,
        r#loop: 20,
        r#match: 21,
        r#mod: 22,
        r#move: 23,
        r#mut: 24,
        r#pub: 25,
        r#ref: 26,
        r#return: 27,
        self_: 28,
        r#static: 29,
        r#struct: 30,
        super_: 31,
        r#trait: 32,
        r#true: true,
        r#type: 34,
        r#unsafe: 35,
        r#use: 36,
        r#where: 37,
        r#while: 38,
        r#abstract: 39,
        r#become: 40,
        r#box: 41,
        r#do: 42,
        r#final: 43,
        r#macro: 44,
        r#override: 45,
        r#priv: 46,
        r#try: 47,
        r#typeof: 48,
        r#unsized: 49,
        r#virtual: 50,
        r#yield: 51,
        union: 52,
        macro_rules: 53,
        raw: 54,
        safe: 55,
        default: 56,
        optional_type: Some(0),
        ref_mut: Some("r".into()),
        ..Default::default()
    };
    let names = [
        "as",
        "async",
        "await",
        "break",
        "const",
        "continue",
        "crate",
        "dyn",
        "else",
        "enum",
        "extern",
        "false",
        "fn",
        "for",
        "gen",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "abstract",
        "become",
        "box",
        "do",
        "final",
        "macro",
        "override",
        "priv",
        "try",
        "typeof",
        "unsized",
        "virtual",
        "yield",
        "union",
        "macro_rules",
        "raw",
        "safe",
        "default",
    ];
    let mut text: String = names
        .iter()
        .enumerate()
        .map(|(i, name)| match *name {
            "false" | "true" => format!("{name}: true "),
            _ => format!("{name}: {} ", i + 1),
        })
        .collect();
    text.push_str("optional_type: 0 ref_mut: \"r\"");
    check("keywords.proto", &message, &text);
    // The accessor of an optional keyword-named field.
    assert_eq!(message.optional_type(), 0);
    assert_eq!(message.ref_mut(), "r");
}

#[test]
fn keyword_types_modules_and_oneofs() {
    use h::r#type::r#async::self_::crate_::{self as k, Async, Fn, Move, Self_, Type};
    let message = Self_ {
        r#type: k::self_::Type {
            r#fn: 1,
            ..Default::default()
        }
        .into(),
        r#match: k::self_::Match::Type.into(),
        self_: Self_ {
            r#async: Some(k::self_::Async::Loop(5)),
            ..Default::default()
        }
        .into(),
        r#async: Some(k::self_::Async::Await(k::self_::Match::Self_.into())),
        ..Default::default()
    };
    check(
        "keywords.proto",
        &message,
        "type_ { fn: 1 } match_: MATCH_TYPE self { loop: 5 } await: MATCH_SELF",
    );
    let nested = Type {
        crate_: k::r#type::Crate {
            super_: k::r#type::crate_::Super {
                self_: 3,
                ..Default::default()
            }
            .into(),
            ..Default::default()
        }
        .into(),
        self_message: Self_ {
            r#async: Some(k::self_::Async::Fn(Box::default())),
            ..Default::default()
        }
        .into(),
        supers: vec![Default::default()],
        by_name: [("x".into(), Default::default())].into(),
        ..Default::default()
    };
    check(
        "keywords.proto",
        &nested,
        r#"crate_ { super_ { self: 3 } } self_message { fn { } } supers { } by_name { key: "x" value { } }"#,
    );
    let chain = Async {
        r#fn: Fn {
            r#async: -1,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    check("keywords.proto", &chain, "fn { async: -1 }");
    assert_eq!(Move::from_proto_name("MOVE_SELF"), Some(Move::Self_));
    assert_eq!(Move::Super.proto_name(), "MOVE_SUPER");
    assert_eq!(Move::Crate.to_i32(), 3);
    assert_eq!(Move::from_i32(4), Some(Move::Fn));
    assert_eq!(Move::None.to_i32(), 5);
    assert_eq!(Move::Some.to_i32(), 6);
    assert_eq!(Self_::NAME, "hostile.type.async.self.crate.Self");
}

#[test]
fn std_and_buffa_names_as_types() {
    use h::std_names as sn;
    let message = sn::Holder {
        option: sn::Option {
            value: 1,
            ..Default::default()
        }
        .into(),
        result: sn::Result {
            ok: "yes".into(),
            err: "no".into(),
            ..Default::default()
        }
        .into(),
        vec: vec![sn::Vec {
            items: vec![sn::Vec::default()],
            ..Default::default()
        }],
        strings: [(
            "k".into(),
            sn::String {
                string: "v".into(),
                ..Default::default()
            },
        )]
        .into(),
        boxed: sn::Box {
            inner: sn::Box {
                depth: 2,
                ..Default::default()
            }
            .into(),
            depth: 1,
            ..Default::default()
        }
        .into(),
        default: sn::Default {
            default: true,
            ..Default::default()
        }
        .into(),
        message: sn::Message {
            message: sn::Message::default().into(),
            ..Default::default()
        }
        .into(),
        some: sn::Some {
            none: 3,
            ..Default::default()
        }
        .into(),
        none: sn::None::default().into(),
        oks: [(4, sn::Ok::default())].into(),
        errs: vec![sn::Err::default()],
        t: sn::T::default().into(),
        core: sn::Core {
            core: 5,
            ..Default::default()
        }
        .into(),
        std: sn::Std::default().into(),
        buffa: sn::Buffa::default().into(),
        ordering: sn::Ordering::Greater.into(),
        choice: Some(sn::holder::Choice::BoxChoice(Box::default())),
        ..Default::default()
    };
    check(
        "std_names.proto",
        &message,
        r#"option { value: 1 } result { ok: "yes" err: "no" } vec { items { } }
           strings { key: "k" value { string: "v" } } boxed { inner { depth: 2 } depth: 1 }
           default { default: true } message { message { } } some { none: 3 } none { }
           oks { key: 4 value { } } errs { } t { } core { core: 5 } std { } buffa { }
           ordering: ORDERING_GREATER box_choice { }"#,
    );
    assert_eq!(
        sn::Ordering::from_i32(3),
        ::core::option::Option::Some(sn::Ordering::None)
    );
    assert_eq!(sn::Ordering::Some.to_i32(), 4);
    assert_eq!(sn::Ordering::Ok.to_i32(), 5);
}

#[test]
fn fields_named_like_generated_locals_and_methods() {
    use h::std_names::{CacheOnly, Locals, OnlyUnknown, locals};
    let message = Locals {
        size: 1,
        cache: 2,
        encoder: 3,
        decoder: 4,
        tag: 5,
        value: 6,
        oneof: 7,
        unknown_fields_: 8,
        clear: Some(10),
        encode: Some(11),
        compute_size: Some(12),
        write_to: Some(13),
        merge_field: Some(14),
        default_instance: Some(15),
        encoded_len: Some(16),
        decode_from_slice: Some(17),
        name: Some(18),
        instance: 19,
        buf: 20,
        len: 21,
        number: 22,
        message: 23,
        key: 24,
        self_: 25,
        kind: Some(locals::Kind::ValueMember(27)),
        read: 9,
        merge_keyed: Some(28),
        check_keyed: Some(29),
        ..Default::default()
    };
    check(
        "std_names.proto",
        &message,
        "size: 1 cache: 2 encoder: 3 decoder: 4 tag: 5 value: 6 oneof: 7 unknown_fields: 8 \
         clear: 10 encode: 11 compute_size: 12 write_to: 13 merge_field: 14 \
         default_instance: 15 encoded_len: 16 decode_from_slice: 17 NAME: 18 INSTANCE: 19 \
         buf: 20 len: 21 number: 22 message: 23 key: 24 self_: 25 value_member: 27 \
         read: 9 merge_keyed: 28 check_keyed: 29",
    );
    // Accessors of optional fields named like trait methods get an
    // `_or_default` suffix, so they never shadow the trait's methods.
    assert_eq!(message.clear_or_default(), 10);
    assert_eq!(message.encode_or_default(), 11);
    assert_eq!(message.compute_size_or_default(), 12);
    assert_eq!(
        message.compute_size(&mut buffa::wire::SizeCache::new()),
        message.encoded_len()
    );
    let mut cleared = message.clone();
    Message::clear(&mut cleared);
    assert_eq!(cleared, Locals::default());
    assert_eq!(<Locals as Message>::NAME, "hostile.std_names.Locals");
    assert_eq!(message.name(), 18);

    let only = OnlyUnknown {
        unknown_fields_: b"kept".to_vec(),
        ..Default::default()
    };
    check("std_names.proto", &only, r#"unknown_fields: "kept""#);
    let mut with_unknown = encode_text("std_names.proto", "hostile.std_names.OnlyUnknown", "");
    with_unknown.extend([0x10, 0x01]);
    let decoded = OnlyUnknown::decode_from_slice(&with_unknown).unwrap();
    assert!(decoded.unknown_fields_.is_empty());
    assert_eq!(decoded.unknown_fields.as_bytes(), [0x10, 0x01]);

    check(
        "std_names.proto",
        &CacheOnly {
            cache: "c".into(),
            ..Default::default()
        },
        r#"cache: "c""#,
    );
}

#[test]
fn fields_that_clash_after_case_conversion() {
    use h::clashes::CaseClash;
    let message = CaseClash {
        foo_bar: Some(1),
        foo_bar_: Some(2),
        foo_bar__: Some(3),
        foo_bar___: Some(4),
        unknown_fields_: Some(5),
        unknown_fields__: Some(6),
        unknown_fields___: Some(7),
        self_: vec!["S".into()],
        self__: vec!["s".into()],
        leading: Some(10),
        leading_: Some(11),
        trailing: Some(12),
        trailing_: Some(13),
        http_server: Some(14),
        http_server_: Some(15),
        ..Default::default()
    };
    check(
        "clashes.proto",
        &message,
        r#"foo_bar: 1 fooBar: 2 FooBar: 3 foo__bar: 4 unknown_fields: 5 unknown_fields_: 6
           unknownFields: 7 Self: "S" self: "s" _leading: 10 leading: 11 trailing_: 12
           trailing: 13 HTTPServer: 14 http_server: 15"#,
    );
    // Each renamed optional field has its own accessor.
    assert_eq!(message.foo_bar___(), 4);
    assert_eq!(message.unknown_fields___(), 7);

    // JSON: a field whose json_name another field also has (as json_name
    // or .proto name) is written under its .proto name, so the JSON reads
    // back whichever naming is asked for.
    let json = buffa::json::to_string(&message).unwrap();
    assert_eq!(
        json,
        r#"{"foo_bar":1,"fooBar":2,"FooBar":3,"foo__bar":4,"unknown_fields":5,"unknown_fields_":6,"unknownFields":7,"Self":["S"],"self":["s"],"Leading":10,"leading":11,"trailing_":12,"trailing":13,"HTTPServer":14,"httpServer":15}"#
    );
    assert_eq!(buffa::json::from_str::<CaseClash>(&json).unwrap(), message);
    let proto_names = buffa::json::SerializeOptions::new().with_proto_field_names(true);
    let json = buffa::json::to_string_with(&message, &proto_names).unwrap();
    assert_eq!(buffa::json::from_str::<CaseClash>(&json).unwrap(), message);
}

#[test]
fn oneofs_named_like_nested_types_and_clashing_members() {
    use h::clashes::{OneofClash, oneof_clash};
    let message = OneofClash {
        kind_field: Some(1),
        choice: Some(oneof_clash::ChoiceOneof::ChoiceMessage(Box::new(
            oneof_clash::Choice {
                x: Some(2),
                ..Default::default()
            },
        ))),
        kind: Some(oneof_clash::KindOneof::KindEnum(oneof_clash::Kind::B)),
        clash: Some(oneof_clash::Clash::MemberOne_(7)),
        other_choice: Some(9),
        other_choice_: Some(oneof_clash::OtherChoice::OtherA(10)),
        ..Default::default()
    };
    check(
        "clashes.proto",
        &message,
        "kind_field: 1 choice_message { x: 2 } kind_enum: KIND_B memberOne: 7 other_choice: 9 other_a: 10",
    );
    for (member, text) in [
        (oneof_clash::Clash::MemberOne(6), "member_one: 6"),
        (oneof_clash::Clash::MemberOne_(7), "memberOne: 7"),
        (oneof_clash::Clash::MemberOne__(8), "MemberOne: 8"),
    ] {
        let message = OneofClash {
            clash: Some(member),
            ..Default::default()
        };
        check("clashes.proto", &message, text);
    }
}

#[test]
fn enum_value_prefix_stripping() {
    use h::clashes::{Negative, Self_, StartsAtFive, Strip, Uses, WithAlias, uses};
    let expected = [
        (Strip::Unspecified, "STRIP_UNSPECIFIED", 0),
        (Strip::Strip, "STRIP", 1),
        (Strip::Strip1, "STRIP_1", 2),
        (Strip::Self_, "STRIP_SELF", 3),
        (Strip::Type, "STRIP_TYPE", 4),
        (Strip::Stripped, "STRIPPED", 5),
        (Strip::Stripe, "STRIPE", 6),
        (Strip::Lower, "strip_lower", 7),
        (Strip::Underscore, "STRIP_UNDERSCORE_", 9),
        (Strip::None, "STRIP_NONE", 10),
        (Strip::Some, "STRIP_SOME", 11),
        (Strip::MixedCase, "Strip_Mixed_Case", 12),
    ];
    for (variant, name, number) in expected {
        assert_eq!(variant.proto_name(), name);
        assert_eq!(variant.to_i32(), number);
        assert_eq!(Strip::from_proto_name(name), Some(variant));
        assert_eq!(Strip::from_i32(number), Some(variant));
    }
    assert_eq!(Strip::from_i32(8), None);
    // Aliases are constants equal to the first value with their number.
    assert_eq!(WithAlias::Uno, WithAlias::One);
    assert_eq!(WithAlias::One_, WithAlias::One);
    assert_eq!(
        WithAlias::from_proto_name("WITH_ALIAS_UNO"),
        Some(WithAlias::One)
    );
    assert_eq!(WithAlias::from_proto_name("ONE"), Some(WithAlias::One));
    assert_eq!(WithAlias::One.proto_name(), "WITH_ALIAS_ONE");
    // A proto2 enum defaults to its first value, whatever its number.
    assert_eq!(StartsAtFive::default(), StartsAtFive::Five);
    assert_eq!(Negative::default(), Negative::Min);
    assert_eq!(Negative::Min.to_i32(), i32::MIN);
    assert_eq!(Self_::default(), Self_::Self_);
    let message = Uses {
        strip: Some(Strip::Stripped),
        with_alias: Some(WithAlias::Uno),
        starts_at_five: Some(StartsAtFive::Six),
        negative: Some(Negative::Max),
        self_: Some(Self_::A),
        strips: vec![Strip::None, Strip::Some],
        r#type: uses::Type {
            r#fn: Some(1),
            ..Default::default()
        }
        .into(),
        r#match: vec![uses::Match {
            r#ref: Some(2),
            ..Default::default()
        }],
        ..Default::default()
    };
    check(
        "clashes.proto",
        &message,
        "strip: STRIPPED with_alias: WITH_ALIAS_ONE starts_at_five: SIX negative: NEGATIVE_MAX \
         self: SELF_A strips: [STRIP_NONE, STRIP_SOME] Type { fn: 1 } Match { ref: 2 }",
    );
    // Declared defaults of enum fields.
    assert_eq!(Uses::default().negative(), Negative::Min);
    assert_eq!(Uses::default().starts_at_five(), StartsAtFive::Five);
}

#[test]
fn ten_levels_of_nesting() {
    use h::deep::L1;
    use h::deep::l1::l2::l3::l4::l5::l6::l7::{Side, l8::l9::L10, l8::l9::l10};
    let bottom = L10 {
        value: 10,
        bottom: l10::Bottom::Reached.into(),
        top: L1 {
            bottom_enum: l10::Bottom::Reached.into(),
            ..Default::default()
        }
        .into(),
        middle: Default::default(),
        side: Side {
            name: "side".into(),
            bottom: l10::Bottom::Reached.into(),
            ..Default::default()
        }
        .into(),
        pick: Some(l10::Pick::Label("deep".into())),
        ..Default::default()
    };
    let mut top = L1::default();
    top.l2
        .get_or_insert_default()
        .l3
        .get_or_insert_default()
        .l4
        .get_or_insert_default()
        .l5
        .get_or_insert_default()
        .l6
        .get_or_insert_default()
        .l7
        .get_or_insert_default()
        .l8
        .get_or_insert_default()
        .l9
        .get_or_insert_default()
        .l10 = bottom.clone().into();
    top.bottom = bottom.clone().into();
    top.bottoms.insert("b".into(), bottom.clone());
    let text_bottom = r#"value: 10 bottom: BOTTOM_REACHED top { bottom_enum: BOTTOM_REACHED }
        side { name: "side" bottom: BOTTOM_REACHED } label: "deep""#;
    let text = format!(
        "l2 {{ l3 {{ l4 {{ l5 {{ l6 {{ l7 {{ l8 {{ l9 {{ l10 {{ {text_bottom} }} }} }} }} }} }} }} }} }} \
         bottom {{ {text_bottom} }} bottoms {{ key: \"b\" value {{ {text_bottom} }} }}"
    );
    check("deep.proto", &top, &text);
    let outer = h::deep::L10 {
        nested: bottom.into(),
        ..Default::default()
    };
    assert_eq!(
        h::deep::L10::decode_from_slice(&outer.encode_to_vec()).unwrap(),
        outer
    );
}

#[test]
fn packageless_file_and_cross_package_references() {
    use buffa_tests::hostile::{Root, RootEnum, root};
    use h::cross::b::{UsesOthers, uses_others};
    use h::cross::{A, Parent, UsesA, a, a_};
    let root = Root {
        child: root::Child {
            name: "c".into(),
            ..Default::default()
        }
        .into(),
        shared: a::Shared {
            inner: a::shared::Inner {
                id: 1,
                ..Default::default()
            }
            .into(),
            kind: a::Kind::A.into(),
            ..Default::default()
        }
        .into(),
        kind: RootEnum::One.into(),
        ..Default::default()
    };
    check(
        "nopackage.proto",
        &root,
        r#"child { name: "c" } shared { inner { id: 1 } kind: KIND_A } kind: ROOT_ENUM_ONE"#,
    );
    let uses = UsesOthers {
        shared: root.shared.clone(),
        inner: a::shared::Inner {
            id: 2,
            ..Default::default()
        }
        .into(),
        root: root.clone().into(),
        root_child: root::Child::default().into(),
        root_enum: EnumValue::Unknown(7),
        keyword_self: Default::default(),
        keyword_enum: h::r#type::r#async::self_::crate_::Move::Fn.into(),
        options: vec![Default::default()],
        kinds: [("k".into(), a::Kind::A.into())].into(),
        which: Some(uses_others::Which::OneofInner(Box::default())),
        ..Default::default()
    };
    let parent = Parent {
        shared: root.shared.clone(),
        uses: uses.clone().into(),
        ..Default::default()
    };
    assert_eq!(
        Parent::decode_from_slice(&parent.encode_to_vec()).unwrap(),
        parent
    );
    let text = decode_text(
        "cross_b.proto",
        "hostile.cross.b.UsesOthers",
        &uses.encode_to_vec(),
    );
    assert!(text.contains("root_enum: 7"), "{text}");
    assert!(text.contains("keyword_enum: MOVE_FN"), "{text}");
    assert!(text.contains("oneof_inner {\n}"), "{text}");
    // A message whose nested-types module would clash with the child
    // package `a` has its module renamed to `a_`.
    let a = A {
        inner: a_::Inner {
            id: 3,
            ..Default::default()
        }
        .into(),
        shared: root.shared.clone(),
        ..Default::default()
    };
    check(
        "cross_parent.proto",
        &a,
        "inner { id: 3 } shared { inner { id: 1 } kind: KIND_A }",
    );
    check(
        "cross_parent.proto",
        &UsesA {
            inner: a_::Inner::default().into(),
            ..Default::default()
        },
        "inner { }",
    );
    assert_eq!(Root::NAME, "Root");
    assert_eq!(root::Child::NAME, "Root.Child");
}

#[test]
fn names_made_of_underscores() {
    use h::__::_9::{__ as Underscore, ___, E, M};
    let message = Underscore {
        __: Some(1),
        ___: Some(2),
        a_b: Some(3),
        _9: Some(4),
        a: Some(5),
        nested: ___::__ {
            x: Some(6),
            ..Default::default()
        }
        .into(),
        o: Some(___::O::__(9)),
        ..Default::default()
    };
    check(
        "underscores.proto",
        &message,
        "_: 1 __: 2 a__b: 3 _9: 4 A: 5 nested { x: 6 } ____: 9",
    );
    check(
        "underscores.proto",
        &M {
            e: Some(E::Y),
            underscore: Underscore::default().into(),
            ..Default::default()
        },
        "e: _E__Y underscore { }",
    );
    assert_eq!(E::E.proto_name(), "_E_");
    assert_eq!(Underscore::NAME, "hostile._._9._");
}

#[test]
fn names_near_the_support_api_alias() {
    // The package `hostile.__buffa` is the module `h::buffa`, and the
    // message `__buffa`'s nested types live in `h::buffa::buffa`; both
    // modules import the runtime's support API as `__buffa`.
    use h::buffa::{Buffa, Buffa_, Private, buffa};
    let inner = buffa::Private {
        buffa: 7,
        ..Default::default()
    };
    let message = Buffa {
        buffa: 1,
        buffa_: 2,
        private: inner.clone().into(),
        buffa_choice: Some(buffa::BuffaChoice::Nested(Box::new(inner))),
        ..Default::default()
    };
    check(
        "private_alias.proto",
        &message,
        "__buffa: 1 buffa: 2 private { __buffa: 7 } nested { __buffa: 7 }",
    );
    check(
        "private_alias.proto",
        &Private {
            buffa: message.clone().into(),
            kind: EnumValue::Known(Buffa_::One),
            by_name: [("k".to_owned(), message)].into(),
            ..Default::default()
        },
        "buffa { __buffa: 1 buffa: 2 private { __buffa: 7 } nested { __buffa: 7 } } \
         kind: __BUFFA_ONE by_name { key: \"k\" value { __buffa: 1 buffa: 2 \
         private { __buffa: 7 } nested { __buffa: 7 } } }",
    );
}

#[test]
fn packages_differing_only_in_case_share_a_module() {
    // Both package files hold messages and each glob-imports the support
    // API alias into the shared module; repeated globs of one item do not
    // clash.
    use h::case::{FromLower, FromUpper};
    check(
        "case_lower.proto",
        &FromLower {
            upper: FromUpper {
                x: 1,
                ..Default::default()
            }
            .into(),
            ..Default::default()
        },
        "upper { x: 1 }",
    );
    assert_eq!(FromUpper::NAME, "hostile.Case.FromUpper");
}

/// The file of `hostile.solo` on its own, without `hostile.Solo`, which
/// shares its module: each generated file imports the alias itself.
mod solo_alone {
    buffa::include_proto!("hostile/hostile.solo");
}

#[test]
fn a_case_clashing_package_file_compiles_on_its_own() {
    use h::solo::{Down, Up, down};
    let shared = Down {
        x: 1,
        inner: down::Inner {
            y: 2,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    check(
        "case_solo_upper.proto",
        &Up {
            down: shared.clone().into(),
            ..Default::default()
        },
        "down { x: 1 inner { y: 2 } }",
    );
    // The same file, alone in another module, is the same message.
    let alone = solo_alone::Down {
        x: 1,
        inner: solo_alone::down::Inner {
            y: 2,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    check("case_solo_lower.proto", &alone, "x: 1 inner { y: 2 }");
    assert_eq!(alone.encode_to_vec(), shared.encode_to_vec());
    assert_eq!(solo_alone::Down::NAME, "hostile.solo.Down");

    // Each package file has its own JSON registration function; in the
    // shared module, in the order of the package names, `hostile.Solo`'s is
    // `register_types` and `hostile.solo`'s `register_types_2`.
    let mut alone_types = buffa::json::TypeRegistry::new();
    solo_alone::register_types_2(&mut alone_types);
    assert!(alone_types.contains("hostile.solo.Down"));
    assert!(alone_types.contains("hostile.solo.Down.Inner"));
    assert!(!alone_types.contains("hostile.Solo.Up"));
    let mut shared_types = buffa::json::TypeRegistry::new();
    h::solo::register_types(&mut shared_types);
    h::solo::register_types_2(&mut shared_types);
    for name in [
        "hostile.Solo.Up",
        "hostile.solo.Down",
        "hostile.solo.Down.Inner",
    ] {
        assert!(shared_types.contains(name), "{name}");
    }
}

#[test]
fn types_that_clash_after_case_conversion() {
    use h::type_clashes::{
        FooBar, FooBar_, FooBar__, Holder, Kind, Kind_, foo_bar, foo_bar_, holder,
    };
    // Declaration order decides: the first type keeps the plain name.
    let lower = FooBar {
        a: 1,
        first: foo_bar::Inner {
            x: 2,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    };
    check("type_clashes.proto", &lower, "a: 1 first { x: 2 }");
    let upper = FooBar_ {
        b: 3,
        second: foo_bar_::Inner {
            y: 4,
            ..Default::default()
        }
        .into(),
        other: lower.clone().into(),
        ..Default::default()
    };
    check(
        "type_clashes.proto",
        &upper,
        "b: 3 second { y: 4 } other { a: 1 first { x: 2 } }",
    );
    check(
        "type_clashes.proto",
        &FooBar__ {
            lower: foo_bar::Inner::default().into(),
            upper: foo_bar_::Inner::default().into(),
            ..Default::default()
        },
        "lower { } upper { }",
    );
    assert_eq!(FooBar::NAME, "hostile.type_clashes.foo_bar");
    assert_eq!(FooBar_::NAME, "hostile.type_clashes.FooBar");
    assert_eq!(FooBar__::NAME, "hostile.type_clashes.Foo_Bar");
    check(
        "type_clashes.proto",
        &Kind {
            kind: Kind_::A.into(),
            ..Default::default()
        },
        "kind: KIND_A",
    );
    check(
        "type_clashes.proto",
        &Holder {
            choice: Some(holder::ChoiceOneof::Upper(Box::new(holder::Choice_ {
                d: 5,
                ..Default::default()
            }))),
            ..Default::default()
        },
        "upper { d: 5 }",
    );
}

/// `TraitNames`: fields named like the methods of `Message`, `Clone`,
/// `PartialEq`, `Eq` and `Hash` get `_or_default` accessors, and the trait
/// methods stay callable by their plain names (an inherent `hash(&self)`
/// would make `message.hash(&mut hasher)` fail to compile).
#[test]
fn fields_named_like_trait_methods() {
    use std::hash::{DefaultHasher, Hash, Hasher};

    use h::std_names::TraitNames;
    let message = TraitNames {
        hash: Some(1),
        hash_slice: Some(2),
        clone_from: Some(3),
        ne: Some(4),
        assert_receiver_is_total_eq: Some(5),
        encode_with_options: Some(6),
        encode_to_vec_with_options: Some(7),
        encode_length_delimited_with_options: Some(8),
        encoded_len_with_options: Some(9),
        merge_with_options: Some(10),
        decode_length_delimited_with_options: Some(11),
        clone: Some(12),
        eq: Some(13),
        fmt: Some(14),
        ..Default::default()
    };
    check(
        "std_names.proto",
        &message,
        "hash: 1 hash_slice: 2 clone_from: 3 ne: 4 assert_receiver_is_total_eq: 5 \
         encode_with_options: 6 encode_to_vec_with_options: 7 \
         encode_length_delimited_with_options: 8 encoded_len_with_options: 9 \
         merge_with_options: 10 decode_length_delimited_with_options: 11 \
         clone: 12 eq: 13 fmt: 14",
    );
    let accessors = [
        message.hash_or_default(),
        message.hash_slice_or_default(),
        message.clone_from_or_default(),
        message.ne_or_default(),
        message.assert_receiver_is_total_eq_or_default(),
        message.encode_with_options_or_default(),
        message.encode_to_vec_with_options_or_default(),
        message.encode_length_delimited_with_options_or_default(),
        message.encoded_len_with_options_or_default(),
        message.merge_with_options_or_default(),
        message.decode_length_delimited_with_options_or_default(),
        message.clone_or_default(),
        message.eq_or_default(),
        message.fmt_or_default(),
    ];
    assert_eq!(accessors, core::array::from_fn(|i| i as i32 + 1));

    // The trait methods, by their plain names.
    let hash = |m: &TraitNames| {
        let mut hasher = DefaultHasher::new();
        m.hash(&mut hasher);
        hasher.finish()
    };
    let mut copy = TraitNames::default();
    copy.clone_from(&message);
    assert!(!copy.ne(&message));
    assert_eq!(hash(&copy), hash(&message));
    let mut hasher = DefaultHasher::new();
    TraitNames::hash_slice(std::slice::from_ref(&message), &mut hasher);
    let options = buffa::EncodeOptions::new();
    let mut buf = Vec::new();
    message.encode_with_options(&mut buf, &options).unwrap();
    assert_eq!(message.encode_to_vec_with_options(&options).unwrap(), buf);
    assert_eq!(
        message.encoded_len_with_options(&options).unwrap(),
        buf.len()
    );
    let decode_options = buffa::DecodeOptions::new();
    let mut merged = TraitNames::default();
    merged
        .merge_with_options(&buf[..], &decode_options)
        .unwrap();
    assert_eq!(merged, message);
    let mut delimited = Vec::new();
    message
        .encode_length_delimited_with_options(&mut delimited, &options)
        .unwrap();
    assert_eq!(
        TraitNames::decode_length_delimited_with_options(&delimited[..], &decode_options).unwrap(),
        message
    );
    assert_eq!(message.clone(), message);
    assert!(message.eq(&copy));
    assert!(format!("{message:?}").contains("hash: Some(1)"));
}

#[test]
fn messages_named_like_generic_parameters_have_json() {
    use h::generic_names::{A, D, Holder, S, holder};
    let holder = Holder {
        s: S {
            s: 1,
            ..Default::default()
        }
        .into(),
        d: D {
            d: "d".into(),
            ..Default::default()
        }
        .into(),
        list: vec![A {
            a: true,
            ..Default::default()
        }],
        by_name: [("k".to_owned(), D::default())].into(),
        choice: Some(holder::Choice::Other(Box::new(S {
            s: 2,
            ..Default::default()
        }))),
        ..Default::default()
    };
    let json = buffa::json::to_string(&holder).unwrap();
    assert_eq!(
        json,
        r#"{"s":{"s":1},"d":{"d":"d"},"list":[{"a":true}],"byName":{"k":{}},"other":{"s":2}}"#
    );
    assert_eq!(buffa::json::from_str::<Holder>(&json).unwrap(), holder);
}

#[test]
fn extension_constants_that_clash_after_case_conversion() {
    use buffa::ExtendableMessage;
    use h::clashes::{CaseClash, EXT_CLASH, EXT_CLASH_, EXT_CLASH__};
    // In declaration order, each later one takes an underscore more.
    assert_eq!(
        [
            EXT_CLASH.full_name(),
            EXT_CLASH_.full_name(),
            EXT_CLASH__.full_name()
        ],
        [
            "hostile.clashes.ext_clash",
            "hostile.clashes.extClash",
            "hostile.clashes.EXT_CLASH"
        ]
    );
    let mut message = CaseClash::default();
    message.set_extension(&EXT_CLASH_, 5);
    message.set_extension(&EXT_CLASH__, "s".to_owned());
    assert_eq!(message.extension(&EXT_CLASH).unwrap(), None);
    assert_eq!(message.extension(&EXT_CLASH_).unwrap(), Some(5));
    check(
        "clashes.proto",
        &message,
        "[hostile.clashes.extClash]: 5 [hostile.clashes.EXT_CLASH]: \"s\"",
    );

    // Packages differing only in case share a module, and so the
    // namespace of its constants.
    use h::case::{SAME_NAME, SAME_NAME_};
    let mut names = [SAME_NAME.full_name(), SAME_NAME_.full_name()];
    names.sort();
    assert_eq!(names, ["hostile.Case.same_name", "hostile.case.same_name"]);
}
