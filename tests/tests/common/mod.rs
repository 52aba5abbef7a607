//! Helpers shared by the integration tests: protoc as an independent
//! encoder and decoder (its `--encode` and `--decode` modes run the C++
//! implementation on text format), random prost values of the cross-check
//! protos ([`strategies`]) and random mutations of encodings ([`mutate`]).

#![allow(dead_code)]

pub mod filled;
pub mod mutate;
pub mod strategies;

use std::path::PathBuf;

use protoc_runner::Protoc;

/// The copy of the unittest protos that build.rs compiled.
pub fn unittest_include() -> PathBuf {
    PathBuf::from(env!("OUT_DIR")).join("unittest-protos")
}

/// The directory of this crate's own protos (`hostile`, `editions`, ...).
pub fn local_protos() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("proto")
}

/// protoc's output for `args`, with `input` on its standard input and
/// `includes` (then the well-known types) as include paths; panics with
/// its error output if it fails.
fn protoc(includes: &[PathBuf], args: &[String], input: &[u8]) -> Vec<u8> {
    Protoc::new(includes)
        .run(args, input)
        .unwrap_or_else(|error| panic!("protoc {args:?} failed: {error}"))
}

/// Encodes the text-format `text` as message `message_type` of `file` (a
/// path under the unittest include directory) with protoc.
pub fn protoc_encode(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&unittest_include(), file, message_type, text)
}

/// [`protoc_encode`] for a file under `include`.
pub fn protoc_encode_in(include: &PathBuf, file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc(
        std::slice::from_ref(include),
        &[format!("--encode={message_type}"), file.to_owned()],
        text.as_bytes(),
    )
}

/// Decodes `bytes` as message `message_type` of `file` with protoc, to text
/// format.
pub fn protoc_decode(file: &str, message_type: &str, bytes: &[u8]) -> String {
    protoc_decode_in(&unittest_include(), file, message_type, bytes)
}

/// [`protoc_decode`] for a file under `include`.
pub fn protoc_decode_in(include: &PathBuf, file: &str, message_type: &str, bytes: &[u8]) -> String {
    String::from_utf8(protoc(
        std::slice::from_ref(include),
        &[format!("--decode={message_type}"), file.to_owned()],
        bytes,
    ))
    .unwrap()
}

/// Decodes `bytes` with protoc without a schema: field numbers and wire
/// types only (groups show as `N { ... }`, length-delimited as `N: "..."`
/// or a nested block).
pub fn protoc_decode_raw(bytes: &[u8]) -> String {
    String::from_utf8(protoc(&[], &["--decode_raw".to_owned()], bytes)).unwrap()
}

/// The `FileDescriptorSet` protoc builds for `files` under `include`, their
/// imports and source info included.
pub fn protoc_descriptor_set(include: &PathBuf, files: &[&str]) -> Vec<u8> {
    Protoc::new([include])
        .include_imports(true)
        .include_source_info(true)
        .descriptor_set(files)
        .unwrap_or_else(|error| panic!("protoc {files:?} failed: {error}"))
}

/// Checks an `encode_to_slice` (owned or view) against `expected`, the
/// bytes `encode_to_vec` wrote: the same bytes into a slice of exactly
/// their length and into the end of a longer one, and a shorter (and an
/// empty) slice refused with the exact length the message needs.
pub fn check_encode_to_slice(
    expected: &[u8],
    encode: impl Fn(&mut [u8]) -> Result<&[u8], buffa::EncodeError>,
) {
    let mut exact = vec![0xAA; expected.len()];
    assert_eq!(
        encode(&mut exact).expect("a slice of the exact length fits"),
        expected,
        "encode_to_slice and encode_to_vec differ"
    );
    let mut longer = vec![0xAA; expected.len() + 7];
    let written = encode(&mut longer).expect("a longer slice fits");
    assert_eq!(written, expected, "encode_to_slice into a longer slice");
    assert_eq!(&longer[..7], &[0xAA; 7], "wrote before the message");
    if expected.is_empty() {
        return;
    }
    for available in [expected.len() - 1, expected.len() / 2, 0] {
        let mut short = vec![0; available];
        let error = encode(&mut short).expect_err("a shorter slice is refused");
        assert_eq!(
            error.kind(),
            &buffa::EncodeErrorKind::BufferTooSmall {
                required: expected.len(),
                remaining: available,
            }
        );
    }
}
