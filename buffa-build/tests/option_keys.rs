//! `Config` and the plugin's parameters share one mapping: each `Config`
//! method that sets a code generation option forwards to the `Options`
//! builder method of its name, which `Options::apply` calls for the key
//! of that name. This checks that the names line up both ways.

use buffa_build::Options;

/// `Config` methods that set no code generation option: inputs, outputs,
/// running protoc, and the hidden switch only `buffa-reflect` uses.
const NOT_OPTIONS: &[&str] = &[
    "new",
    "files",
    "includes",
    "out_dir",
    "descriptor_set",
    "protoc",
    "protoc_executable",
    "protoc_arg",
    "include_file",
    "layout_report",
    "reflection_for_extern_types",
    "generate",
    "compile",
];

/// The names of the public methods of `Config`, read from its source.
fn config_methods() -> Vec<String> {
    let source = include_str!("../src/lib.rs");
    let mut methods = Vec::new();
    let mut in_config = false;
    for line in source.lines() {
        if line.starts_with("impl ") {
            in_config = line == "impl Config {";
        } else if in_config && let Some(rest) = line.strip_prefix("    pub fn ") {
            let name = rest.split(['(', '<']).next().unwrap_or_default();
            methods.push(name.to_owned());
        }
    }
    methods
}

#[test]
fn every_config_option_has_a_key() {
    let methods = config_methods();
    assert!(methods.len() > 40, "found only {methods:?}");
    for method in &methods {
        assert!(
            Options::KEYS.contains(&method.as_str()) || NOT_OPTIONS.contains(&method.as_str()),
            "Config::{method} has no key in Options::KEYS"
        );
    }
    for key in Options::KEYS {
        assert!(
            methods.iter().any(|m| m == key),
            "the key {key} has no Config method"
        );
    }
    for name in NOT_OPTIONS {
        assert!(methods.iter().any(|m| m == name), "no Config::{name}");
    }
}

#[test]
fn every_key_maps_to_a_builder() {
    for key in Options::KEYS {
        let mut options = Options::default();
        for value in [None, Some("x"), Some(".x=y"), Some("true"), Some("1")] {
            if let Err(e) = options.apply(key, value) {
                assert!(!e.to_string().contains("unknown option"), "{key}: {e}");
            }
        }
    }
}
