//! The text format against protoc, which runs C++ protobuf's printer
//! (`--decode`) and parser (`--encode`):
//!
//! - printing (`text/print.rs`): protoc encodes a text fixture, buffa
//!   decodes the bytes into a `DynamicMessage` and prints it; the text
//!   must equal protoc's `--decode` of the same bytes, byte for byte;
//! - parsing (`text/parse.rs`): buffa parses a text and encodes it; the
//!   message must equal protoc's `--encode` of the same text;
//! - `Any` (`text/any.rs`): printed as protoc prints it, or expanded into
//!   text protoc reads; expanded, it may hold any well-known type;
//! - errors (`text/errors.rs`): what buffa rejects (and where), protoc
//!   rejects too;
//! - unknown fields (`text/unknown.rs`): random wire-format bytes in an
//!   unknown field print as protoc prints them, nested messages guessed
//!   alike.
//!
//! The schemas are `tests/proto/text/*.proto` (proto2, proto3 and edition
//! 2023), compiled into a descriptor set by the same protoc.

#[path = "text/any.rs"]
mod any;
#[path = "text/errors.rs"]
mod errors;
#[path = "text/fixtures.rs"]
mod fixtures;
#[path = "text/parse.rs"]
mod parse;
#[path = "text/print.rs"]
mod print;
#[path = "text/unknown.rs"]
mod unknown;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, text};

/// The test protos, relative to [`proto_dir`].
const FILES: [&str; 3] = ["text2.proto", "text3.proto", "text_editions.proto"];

fn proto_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/proto/text")
}

/// Runs protoc with the test protos' include paths; its output, or its
/// error output if it fails.
fn protoc(args: &[String], input: &[u8]) -> Result<Vec<u8>, String> {
    protoc_in(&proto_dir(), args, input)
}

/// Runs protoc with `include` and the well-known types as include paths.
fn protoc_in(include: &Path, args: &[String], input: &[u8]) -> Result<Vec<u8>, String> {
    protoc_runner::Protoc::new([include]).run(args, input)
}

/// The pool of the test protos (and the well-known types they import).
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| compile(&proto_dir(), &FILES))
}

/// The pool of `files` in `include` and of their imports, as protoc
/// compiles them.
fn compile(include: &Path, files: &[&str]) -> DescriptorPool {
    let set = protoc_runner::Protoc::new([include])
        .include_imports(true)
        .descriptor_set(files)
        .unwrap_or_else(|e| panic!("protoc: {e}"));
    DescriptorPool::decode(&set).expect("decode the descriptor set")
}

fn descriptor(message_type: &str) -> MessageDescriptor {
    pool()
        .get_message_by_name(message_type)
        .unwrap_or_else(|| panic!("no message {message_type}"))
}

/// The file that declares `message_type`, for protoc.
fn file_of(message_type: &str) -> String {
    descriptor(message_type).parent_file().name().to_owned()
}

/// protoc's `--encode` of `text` as `message_type`.
fn protoc_encode(message_type: &str, text: &str) -> Result<Vec<u8>, String> {
    protoc(
        &[format!("--encode={message_type}"), file_of(message_type)],
        text.as_bytes(),
    )
}

/// protoc's `--decode` of `bytes` as `message_type`.
fn protoc_decode(message_type: &str, bytes: &[u8]) -> String {
    let text = protoc(
        &[format!("--decode={message_type}"), file_of(message_type)],
        bytes,
    )
    .unwrap_or_else(|e| panic!("protoc --decode={message_type}: {e}"));
    String::from_utf8(text).expect("protoc prints UTF-8")
}

/// `bytes` decoded as a message of type `message_type`.
fn decoded(message_type: &str, bytes: &[u8]) -> DynamicMessage {
    DynamicMessage::decode(descriptor(message_type), bytes)
        .unwrap_or_else(|e| panic!("decode {message_type}: {e}"))
}

/// buffa's print of `bytes` decoded as `message_type`, under `options`.
fn buffa_print(message_type: &str, bytes: &[u8], options: &text::PrintOptions) -> String {
    text::to_string_with(&decoded(message_type, bytes), options)
}
