//! Compiles arbitrary text as `.proto` source (`buffa_compile`). The input
//! is split at its first NUL byte: the text before it is `fuzz.proto`, the
//! text after it `dep.proto`, which the first may import (as it may import
//! the bundled well-known types). Checks:
//!
//! - compiling never panics, with or without source info, and each
//!   diagnostic renders (with its source line and caret) without
//!   panicking, pointing inside the file it names;
//! - an accepted file set encodes and decodes back to itself, and
//!   buffa-descriptor's `DescriptorPool` accepts it: the compiler never
//!   hands on a schema the descriptor model rejects;
//! - with source info, every span starts and ends on a line of its file.
#![no_main]

use buffa::Message as _;
use buffa_compile::Compiler;
use buffa_descriptor::DescriptorPool;
use buffa_types::google::protobuf::FileDescriptorSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (main, dep) = input.split_once('\0').unwrap_or((input, ""));
    let mut compiler = Compiler::new();
    compiler.source("fuzz.proto", main).source("dep.proto", dep);
    for source_info in [false, true] {
        compiler.include_source_info(source_info);
        match compiler.compile(&["fuzz.proto"]) {
            Err(error) => {
                let _ = error.render();
                for d in error.diagnostics() {
                    let text = match d.file.as_str() {
                        "fuzz.proto" => main,
                        "dep.proto" => dep,
                        _ => continue,
                    };
                    // The end of the input is a position too: the line
                    // after a final newline.
                    assert!(d.line as usize <= text.split('\n').count(), "{d}");
                }
            }
            Ok(set) => {
                let bytes = set.encode_to_vec();
                assert_eq!(FileDescriptorSet::decode_from_slice(&bytes).unwrap(), set);
                if let Err(e) = DescriptorPool::from_file_descriptor_set(set.clone()) {
                    panic!("compiled, but the descriptor pool rejects it: {e}");
                }
                if source_info {
                    check_spans(&set, main, dep);
                }
            }
        }
    }
});

/// Every location's span starts and ends inside its file's lines.
fn check_spans(set: &FileDescriptorSet, main: &str, dep: &str) {
    for file in &set.file {
        let text = match file.name.as_deref() {
            Some("fuzz.proto") => main,
            Some("dep.proto") => dep,
            _ => continue,
        };
        let lines = text.split('\n').count() as i32;
        let info = file
            .source_code_info
            .as_option()
            .expect("source info asked for");
        for location in &info.location {
            let span = &location.span;
            assert!(span.len() == 3 || span.len() == 4, "{span:?}");
            // Lines, not their order: for a file without statements
            // protoc's span runs from line 1 back to line 0.
            let end_line = if span.len() == 4 { span[2] } else { span[0] };
            for line in [span[0], end_line] {
                assert!((0..lines.max(2)).contains(&line), "{span:?}");
            }
        }
    }
}
