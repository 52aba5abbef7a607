//! Golden tests: the generated code for a few small protos is kept in
//! `tests/golden/expected/`, so every change to code generation shows up as
//! a reviewable diff. Run with `BUFFA_BLESS=1` to accept new output.

use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn check(proto: &str) {
    check_with(proto, |config| config);
}

fn check_with(
    proto: &str,
    configure: impl FnOnce(&mut buffa_build::Config) -> &mut buffa_build::Config,
) {
    let dir = golden_dir();
    let mut config = buffa_build::Config::new();
    let files = configure(&mut config)
        .files(&[dir.join(proto)])
        .includes(&[&dir])
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files.len(), 1, "{proto} should produce one package file");
    let file = &files[0];
    let expected_path = dir.join("expected").join(&file.name);
    if std::env::var_os("BUFFA_BLESS").is_some() {
        std::fs::write(&expected_path, &file.content).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with BUFFA_BLESS=1 to create it)",
            expected_path.display()
        )
    });
    if expected != file.content {
        let first_difference = expected
            .lines()
            .zip(file.content.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "in length".to_owned(),
                |line| format!("at line {}", line + 1),
            );
        panic!(
            "generated code for {proto} differs from {} {first_difference}; \
             review the change and run with BUFFA_BLESS=1 to accept it",
            expected_path.display()
        );
    }
}

#[test]
fn proto3_shapes() {
    check("proto3.proto");
}

#[test]
fn proto2_specifics() {
    check("proto2.proto");
}

#[test]
fn edition_2023_features() {
    check("editions.proto");
}

#[test]
fn string_and_bytes_representations() {
    use buffa_build::{BytesRepr, StringRepr};
    check_with("strings.proto", |config| {
        config
            .string_type(StringRepr::BytesStr)
            .bytes(&[".golden.strings"])
            .string_type_in(StringRepr::String, &[".golden.strings.Record.note"])
            .bytes_type_in(BytesRepr::Vec, &[".golden.strings.Record.scratch"])
            .views()
    });
}

#[test]
fn views_eager_and_lazy() {
    check_with("views.proto", |config| {
        config.views().lazy_views_in(&[
            ".golden.views.Envelope.payload",
            ".golden.views.Envelope.history",
        ])
    });
}

/// Behind a feature, every view item carries the `cfg` and nothing else
/// does: with the attributes dropped the code is the views golden, and
/// with the gated items dropped it is the code generated without views.
#[test]
fn views_behind_a_feature() {
    let dir = golden_dir();
    let generate = |configure: &dyn Fn(&mut buffa_build::Config) -> &mut buffa_build::Config| {
        let mut config = buffa_build::Config::new();
        let files = configure(&mut config)
            .files(&[dir.join("views.proto")])
            .includes(&[&dir])
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        syn::parse_file(&files[0].content).unwrap()
    };
    let lazy = [
        ".golden.views.Envelope.payload",
        ".golden.views.Envelope.history",
    ];
    let gated = || generate(&|c| c.views_behind_feature("views").lazy_views_in(&lazy));
    let with_views = generate(&|c| c.views().lazy_views_in(&lazy));
    let without_views = generate(&|c| c);

    let cfg = quote::quote!(#[cfg(feature = "views")]).to_string();
    let is_cfg = |a: &syn::Attribute| quote::quote!(#a).to_string() == cfg;
    let mut gated_items = 0;
    let mut dropped_cfg = gated();
    strip(&mut dropped_cfg.items, &mut |attrs| {
        let before = attrs.len();
        attrs.retain(|a| !is_cfg(a));
        gated_items += before - attrs.len();
        true
    });
    let mut dropped_items = gated();
    strip(&mut dropped_items.items, &mut |attrs| {
        !attrs.iter().any(is_cfg)
    });

    // Both views, their oneof view enum and `HasView` impls, at least.
    assert!(gated_items > 10, "{gated_items} gated items");
    let text = |file: &syn::File| quote::quote!(#file).to_string();
    assert_eq!(text(&dropped_cfg), text(&with_views));
    assert_eq!(text(&dropped_items), text(&without_views));
}

/// Keeps the items (recursively, in modules) for which `keep` returns
/// true, given their attributes to read or change.
fn strip(items: &mut Vec<syn::Item>, keep: &mut dyn FnMut(&mut Vec<syn::Attribute>) -> bool) {
    items.retain_mut(|item| {
        let attrs = match item {
            syn::Item::Struct(item) => &mut item.attrs,
            syn::Item::Enum(item) => &mut item.attrs,
            syn::Item::Impl(item) => &mut item.attrs,
            syn::Item::Use(item) => &mut item.attrs,
            syn::Item::Fn(item) => &mut item.attrs,
            syn::Item::Const(item) => &mut item.attrs,
            syn::Item::Mod(item) => {
                if let Some((_, items)) = &mut item.content {
                    strip(items, keep);
                }
                &mut item.attrs
            }
            _ => return true,
        };
        keep(attrs)
    });
}

/// Unknown fields discarded for a package, kept again for one message by
/// a later rule and for the message with extension ranges; with views,
/// whose structs follow the owned ones.
#[test]
fn unknown_fields_discarded() {
    use buffa_build::UnknownFieldsRepr;
    check_with("unknown.proto", |config| {
        config
            .unknown_fields_in(UnknownFieldsRepr::Discard, &[".golden.unknown"])
            .unknown_fields_in(UnknownFieldsRepr::Keep, &[".golden.unknown.Keeper"])
            .unbox_message_fields()
            .views()
    });
}

#[test]
fn no_std_paths() {
    check_with("no_std.proto", |config| config.no_std().views());
}

/// JSON and reflection generate code that needs std: with `no_std`,
/// generation fails and says why.
#[test]
fn no_std_rejects_what_needs_std() {
    type Configure = fn(&mut buffa_build::Config) -> &mut buffa_build::Config;
    let dir = golden_dir();
    let configs: [(&str, Configure); 2] =
        [("json", |c| c.json()), ("reflection", |c| c.reflection())];
    for (name, configure) in configs {
        let mut config = buffa_build::Config::new();
        let error = configure(config.no_std())
            .files(&[dir.join("no_std.proto")])
            .includes(&[&dir])
            .generate()
            .map(|_| ())
            .expect_err(name)
            .to_string();
        assert!(error.contains("no_std") && error.contains(name), "{error}");
    }
}

#[test]
fn json_impls() {
    check_with("json.proto", |config| config.json());
}

#[test]
fn reflection_impls() {
    check_with("reflect.proto", |config| {
        config.reflection().strip_source_info()
    });
}

/// Behind a feature, the reflection impls and `descriptor_pool` carry the
/// `cfg`; the descriptor bytes do not need one.
#[test]
fn reflection_behind_a_feature() {
    let dir = golden_dir();
    let files = buffa_build::Config::new()
        .files(&[dir.join("reflect.proto")])
        .includes(&[&dir])
        .reflection_behind_feature("reflect")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let content = &files[0].content;
    let gated = |item: &str| {
        let at = content.find(item).unwrap_or_else(|| panic!("no {item}"));
        content[..at]
            .trim_end()
            .ends_with("#[cfg(feature = \"reflect\")]")
    };
    assert!(gated(
        "impl ::buffa_reflect::__private::GeneratedMessage for Shapes {"
    ));
    assert!(gated(
        "impl ::buffa_reflect::__private::OptionValue for shapes::Choice {"
    ));
    assert!(gated(
        "impl ::buffa_reflect::__private::ReflectElement for Closed {"
    ));
    assert!(gated("pub fn descriptor_pool()"));
    assert!(!gated("pub const FILE_DESCRIPTOR_SET"));
    // With source info: the comments of the .proto file are embedded.
    assert!(content.contains("Golden: reflection impls of every field shape"));
}

#[test]
fn tonic_services() {
    check_with("service.proto", |config| config.tonic());
}

/// Only the modules asked for, with the codec named as configured.
#[test]
fn tonic_server_only_with_a_custom_codec() {
    let dir = golden_dir();
    let files = buffa_build::Config::new()
        .files(&[dir.join("service.proto")])
        .includes(&[&dir])
        .tonic_client(false)
        .tonic_codec_path("crate::grpc::StrictCodec")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let content = &files[0].content;
    assert!(content.contains("pub mod tally_server {"));
    assert!(!content.contains("pub mod tally_client {"));
    assert!(content.contains("let codec = crate::grpc::StrictCodec::<_, _>::default();"));
    assert!(!content.contains("buffa_tonic"));
}

#[test]
fn tonic_codec_path_must_be_absolute() {
    let dir = golden_dir();
    let error = buffa_build::Config::new()
        .files(&[dir.join("service.proto")])
        .includes(&[&dir])
        .tonic_codec_path("grpc::StrictCodec")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("tonic codec_path") && error.contains("`::grpc::StrictCodec`"),
        "{error}"
    );
}
