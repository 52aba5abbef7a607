//! Runs code generation on arbitrary bytes as an encoded
//! `FileDescriptorSet`, as `protoc-gen-buffa` does on whatever arrives on
//! its standard input. Whatever the input, parsing it, selecting every
//! file of it and generating code return `Ok` or `Err` (no panic, no unbounded allocation), under the
//! default options and with views, JSON, reflection (which strips
//! source-retention options from the embedded descriptors) and gRPC
//! services; the layout report is held to the same rule. Generated files
//! are named after their packages, and a run that succeeds under the
//! richer options also succeeds under the defaults.
#![no_main]

use buffa_codegen::{Input, Options, TonicOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let defaults = Options::default();
    let Ok(input) = Input::parse(data, &defaults) else {
        return;
    };
    let names: Vec<&str> = input.files().map(|(name, _)| name).collect();
    let generated = input.select(&names).and_then(|selection| {
        let _ = selection.layout_report();
        selection.generate()
    });
    if let Ok(generated) = &generated {
        for file in generated {
            assert!(
                file.name.ends_with(".rs"),
                "generated file {:?} is not a Rust file",
                file.name
            );
        }
    }

    let mut rich = Options::default();
    rich.views = true;
    rich.json = true;
    rich.reflection = true;
    rich.tonic = Some(TonicOptions::default());
    let rich_generated =
        Input::parse(data, &rich).and_then(|input| input.select(&names)?.generate());
    if rich_generated.is_ok() {
        assert!(
            generated.is_ok(),
            "generation fails under the default options but not with views, JSON, \
             reflection and services: {:?}",
            generated.err()
        );
    }
});
