use buffa_codegen::{
    BytesRepr, PathRules, PointerRepr, StringRepr, TonicOptions, UnknownFieldsRepr,
};

use super::*;

fn parsed(parameter: &str) -> Params {
    parse(parameter).unwrap_or_else(|e| panic!("{parameter}: {e}"))
}

fn rules<T: Clone>(rules: &PathRules<T>) -> Vec<(String, T)> {
    rules
        .iter()
        .map(|(path, value)| (path.to_owned(), value.clone()))
        .collect()
}

fn rule<T>(path: &str, value: T) -> Vec<(String, T)> {
    vec![(path.to_owned(), value)]
}

/// One example per key and what it must set. `every_key_has_an_example`
/// keeps it complete.
type Check = fn(&Params);
const EXAMPLES: &[(&str, Check)] = &[
    ("extern_path=geo=::geo_rs", |p| {
        assert_eq!(p.options.extern_paths, [(".geo".into(), "::geo_rs".into())]);
    }),
    ("compile_well_known_types", |p| {
        assert!(p.options.compile_well_known_types);
    }),
    ("btree_map=.shop.Order.lines", |p| {
        assert_eq!(rules(&p.options.btree_maps), rule(".shop.Order.lines", ()));
    }),
    ("bytes=.shop", |p| {
        assert_eq!(rules(&p.options.bytes), rule(".shop", BytesRepr::Bytes));
    }),
    ("bytes_type=bytes", |p| {
        assert_eq!(rules(&p.options.bytes), rule(".", BytesRepr::Bytes));
    }),
    ("bytes_type_in=.shop.Blob=vec", |p| {
        assert_eq!(rules(&p.options.bytes), rule(".shop.Blob", BytesRepr::Vec));
    }),
    ("string_type=bytes_str", |p| {
        assert_eq!(rules(&p.options.strings), rule(".", StringRepr::BytesStr));
    }),
    ("string_type_in=shop.Note=string", |p| {
        assert_eq!(
            rules(&p.options.strings),
            rule(".shop.Note", StringRepr::String)
        );
    }),
    ("box_type=inline", |p| {
        assert_eq!(rules(&p.options.pointers), rule(".", PointerRepr::Inline));
    }),
    ("box_type_in=.scene.Node.parent=box", |p| {
        assert_eq!(
            rules(&p.options.pointers),
            rule(".scene.Node.parent", PointerRepr::Box)
        );
    }),
    ("box_type_custom=crate::ptr::SmallBox<*>", |p| {
        let custom = PointerRepr::Custom("crate::ptr::SmallBox<*>".into());
        assert_eq!(rules(&p.options.pointers), rule(".", custom));
    }),
    ("box_type_custom_in=.scene=std::rc::Rc<*>", |p| {
        let custom = PointerRepr::Custom("std::rc::Rc<*>".into());
        assert_eq!(rules(&p.options.pointers), rule(".scene", custom));
    }),
    ("unbox_message_fields", |p| {
        assert_eq!(rules(&p.options.pointers), rule(".", PointerRepr::Inline));
    }),
    ("unbox_message_fields_in=.scene", |p| {
        assert_eq!(
            rules(&p.options.pointers),
            rule(".scene", PointerRepr::Inline)
        );
    }),
    ("unbox_oneof", |p| {
        assert_eq!(rules(&p.options.unboxed_oneofs), rule(".", true));
    }),
    ("unbox_oneof_in=.scene.Node.shape", |p| {
        assert_eq!(
            rules(&p.options.unboxed_oneofs),
            rule(".scene.Node.shape", true)
        );
    }),
    ("inline_max_size=64", |p| {
        assert_eq!(rules(&p.options.inline_max_size), rule(".", 64));
    }),
    ("inline_max_size_in=.scene=128", |p| {
        assert_eq!(rules(&p.options.inline_max_size), rule(".scene", 128));
    }),
    ("unknown_fields=discard", |p| {
        assert_eq!(
            rules(&p.options.unknown_fields),
            rule(".", UnknownFieldsRepr::Discard)
        );
    }),
    ("unknown_fields_in=.mesh=discard", |p| {
        assert_eq!(
            rules(&p.options.unknown_fields),
            rule(".mesh", UnknownFieldsRepr::Discard)
        );
    }),
    ("views", |p| {
        assert!(p.options.views);
        assert_eq!(p.options.views_feature, None);
    }),
    ("views_behind_feature=borrowed", |p| {
        assert!(p.options.views);
        assert_eq!(p.options.views_feature.as_deref(), Some("borrowed"));
    }),
    ("lazy_views", |p| {
        assert!(p.options.views);
        assert_eq!(rules(&p.options.lazy_views), rule(".", true));
    }),
    ("lazy_views_in=.logs.Batch", |p| {
        assert!(p.options.views);
        assert_eq!(rules(&p.options.lazy_views), rule(".logs.Batch", true));
    }),
    ("eager_views_in=.logs.Batch.head", |p| {
        assert!(!p.options.views);
        assert_eq!(
            rules(&p.options.lazy_views),
            rule(".logs.Batch.head", false)
        );
    }),
    ("json", |p| {
        assert!(p.options.json);
        assert_eq!(p.options.json_feature, None);
    }),
    ("json_behind_feature=serde", |p| {
        assert!(p.options.json);
        assert_eq!(p.options.json_feature.as_deref(), Some("serde"));
    }),
    ("reflection", |p| {
        assert!(p.options.reflection);
        assert_eq!(p.options.reflection_feature, None);
    }),
    ("reflection_behind_feature=reflect", |p| {
        assert!(p.options.reflection);
        assert_eq!(p.options.reflection_feature.as_deref(), Some("reflect"));
    }),
    ("strip_source_info", |p| {
        assert!(p.options.strip_source_info)
    }),
    ("buffa_reflect_path=::reflect_rt", |p| {
        assert_eq!(
            p.options.buffa_reflect_path.as_deref(),
            Some("::reflect_rt")
        );
    }),
    ("type_attribute=.shop=#[derive(Hash)]", |p| {
        let attribute = "#[derive(Hash)]".to_owned();
        assert_eq!(rules(&p.options.type_attributes), rule(".shop", attribute));
    }),
    ("message_attribute=.shop.Order=#[derive(Eq\\, Hash)]", |p| {
        let attribute = "#[derive(Eq, Hash)]".to_owned();
        assert_eq!(
            rules(&p.options.message_attributes),
            rule(".shop.Order", attribute)
        );
    }),
    ("enum_attribute=.shop.Kind=#[doc = \"a=b\"]", |p| {
        let attribute = "#[doc = \"a=b\"]".to_owned();
        assert_eq!(
            rules(&p.options.enum_attributes),
            rule(".shop.Kind", attribute)
        );
    }),
    ("field_attribute=.shop.Order.id=#[allow(dead_code)]", |p| {
        let attribute = "#[allow(dead_code)]".to_owned();
        assert_eq!(
            rules(&p.options.field_attributes),
            rule(".shop.Order.id", attribute)
        );
    }),
    ("disable_comments", |p| assert!(p.options.disable_comments)),
    ("buffa_path=::buffa_rt", |p| {
        assert_eq!(p.options.buffa_path.as_deref(), Some("::buffa_rt"));
    }),
    ("no_std", |p| assert!(p.options.no_std)),
    ("tonic", |p| {
        assert_eq!(p.options.tonic, Some(TonicOptions::default()));
    }),
    ("tonic_server=false", |p| {
        let tonic = p.options.tonic.as_ref().expect("implies tonic");
        assert!(!tonic.server);
        assert!(tonic.client);
    }),
    ("tonic_client=false", |p| {
        let tonic = p.options.tonic.as_ref().expect("implies tonic");
        assert!(tonic.server);
        assert!(!tonic.client);
    }),
    ("tonic_codec_path=crate::grpc::StrictCodec", |p| {
        let tonic = p.options.tonic.as_ref().expect("implies tonic");
        assert_eq!(
            tonic.codec_path.as_deref(),
            Some("crate::grpc::StrictCodec")
        );
    }),
    ("include_file=mod.rs", |p| {
        assert_eq!(p.include_file.as_deref(), Some("mod.rs"));
    }),
    ("layout_report=reports/layout.txt", |p| {
        assert_eq!(p.layout_report.as_deref(), Some("reports/layout.txt"));
    }),
];

#[test]
fn every_key_sets_what_its_config_method_sets() {
    for (option, check) in EXAMPLES {
        if option.starts_with("tonic") && !cfg!(feature = "tonic") {
            assert_eq!(
                error(option),
                format!(
                    "option `{option}`: gRPC services need protoc-gen-buffa's `tonic` feature \
                     (cargo install --path protoc-gen-buffa --features tonic)"
                )
            );
            continue;
        }
        check(&parsed(option));
    }
}

#[test]
fn every_key_has_an_example() {
    for key in keys() {
        assert!(
            EXAMPLES
                .iter()
                .any(|(option, _)| option.split('=').next() == Some(key)),
            "no example for {key}"
        );
    }
    assert_eq!(EXAMPLES.len(), keys().count());
}

#[test]
fn every_key_is_documented() {
    let docs = include_str!("../../../docs/protoc-plugin.md");
    for key in keys() {
        assert!(
            docs.contains(&format!("| `{key}")),
            "{key} is not in the option table"
        );
    }
}

#[test]
fn empty_parameter_gives_defaults() {
    let params = parsed("");
    assert!(!params.options.views);
    assert!(params.options.pointers.is_empty());
    assert_eq!(params.include_file, None);
    assert_eq!(params.layout_report, None);
}

#[test]
fn options_apply_in_order() {
    // protoc joins `--buffa_opt=unbox_message_fields --buffa_opt=...`
    // with commas; the later rule must win, as with Config.
    let params = parsed("unbox_message_fields, box_type_in=.scene.Node.parent=box,,views ");
    assert_eq!(
        rules(&params.options.pointers),
        vec![
            (".".to_owned(), PointerRepr::Inline),
            (".scene.Node.parent".to_owned(), PointerRepr::Box),
        ]
    );
    assert_eq!(
        params.options.pointers.get(".scene.Node.parent"),
        Some(&PointerRepr::Box)
    );
    assert!(params.options.views);
}

#[test]
fn escapes() {
    assert_eq!(split(r"a\,b,c"), ["a,b", "c"]);
    assert_eq!(split(r"a\\,b"), [r"a\", "b"]);
    assert_eq!(split(r"a\nb\"), [r"a\nb\"]);
    assert_eq!(split(""), [""]);
}

fn error(parameter: &str) -> String {
    match parse(parameter) {
        Ok(params) => panic!("{parameter} was accepted: {params:?}"),
        Err(e) => e,
    }
}

#[test]
fn unknown_key_is_named() {
    let e = error("views,jsno");
    assert!(
        e.starts_with("option `jsno`: unknown option (known: extern_path,"),
        "{e}"
    );
}

#[test]
fn switch_rejects_a_value() {
    assert_eq!(error("views=true"), "option `views=true`: takes no value");
    assert_eq!(
        error("unbox_oneof=.a"),
        "option `unbox_oneof=.a`: takes no value"
    );
}

#[test]
fn missing_values() {
    assert_eq!(
        error("buffa_path"),
        "option `buffa_path`: needs a value (`key=value`)"
    );
    assert_eq!(
        error("box_type="),
        "option `box_type=`: needs a value (`key=value`)"
    );
    assert_eq!(
        error("btree_map"),
        "option `btree_map`: needs a proto path (`key=.pkg.Message`)"
    );
    assert_eq!(
        error("extern_path=.geo"),
        "option `extern_path=.geo`: expected `key=<proto path>=<rust path>`"
    );
    assert_eq!(
        error("box_type_in==inline"),
        "option `box_type_in==inline`: expected `key=<proto path>=box|inline`"
    );
}

#[test]
fn bad_values() {
    assert_eq!(
        error("box_type=heap"),
        "option `box_type=heap`: unknown pointer `heap` (expected box or inline; \
         box_type_custom takes a template)"
    );
    assert_eq!(
        error("bytes_type_in=.a=slice"),
        "option `bytes_type_in=.a=slice`: unknown bytes representation `slice` \
         (expected vec or bytes)"
    );
    assert_eq!(
        error("string_type=str"),
        "option `string_type=str`: unknown string representation `str` \
         (expected string or bytes_str)"
    );
    if cfg!(feature = "tonic") {
        assert_eq!(
            error("tonic_server=no"),
            "option `tonic_server=no`: `no` is not a boolean (expected true or false)"
        );
    }
    assert_eq!(
        error("inline_max_size=-1"),
        "option `inline_max_size=-1`: `-1` is not a size in bytes"
    );
}

#[test]
fn output_names_stay_in_the_output_directory() {
    assert_eq!(
        error("include_file=gen/mod.rs"),
        "option `include_file=gen/mod.rs`: `gen/mod.rs` is not a file name: \
         the include file is written beside the package files"
    );
    for bad in ["/tmp/layout.txt", "../layout.txt", "a//b", "a\\b"] {
        let e = error(&format!("layout_report={bad}"));
        assert!(
            e.ends_with("is not a relative path inside the output directory"),
            "{e}"
        );
    }
}
