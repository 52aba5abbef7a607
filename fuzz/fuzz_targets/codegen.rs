//! Runs code generation on arbitrary bytes as an encoded
//! `FileDescriptorSet`, as `protoc-gen-buffa` does on whatever arrives on
//! its standard input. Whatever the input, `buffa_codegen::generate`
//! returns `Ok` or `Err` (no panic, no unbounded allocation), under the
//! default options and with views, JSON, reflection (which strips
//! source-retention options from the embedded descriptors) and gRPC
//! services; the layout report is held to the same rule. Generated files
//! are named after their packages, and a run that succeeds under the
//! richer options also succeeds under the defaults.
#![no_main]

use buffa_codegen::{Options, TonicOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(files) = buffa_codegen::file_packages(data) else {
        return;
    };
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let defaults = Options::default();
    let generated = buffa_codegen::generate(data, &names, &defaults);
    let _ = buffa_codegen::layout_report(data, &names, &defaults);
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
    if buffa_codegen::generate(data, &names, &rich).is_ok() {
        assert!(
            generated.is_ok(),
            "generation fails under the default options but not with views, JSON, \
             reflection and services: {:?}",
            generated.err()
        );
    }
});
