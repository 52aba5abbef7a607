//! The descriptor tests' fixture set: protoc (the vendored binary) over
//! the protos of this directory, and helpers to reach into the pool.
//! Included by `tests/descriptor*.rs` with `#[path]`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use buffa_descriptor::{DescriptorPool, FieldDescriptor, MessageDescriptor};

pub const FILES: &[&str] = &[
    "proto2.proto",
    "proto3.proto",
    "editions.proto",
    "editions_file_features.proto",
    "edition2024.proto",
    "scoping.proto",
];

pub fn proto_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proto/descriptor")
}

/// Runs protoc over `files` in `include` (plus the well-known types),
/// returning the encoded FileDescriptorSet, or `None` if protoc refuses.
pub fn compile(include: &Path, extra_include: Option<&Path>, files: &[&str]) -> Option<Vec<u8>> {
    protoc_runner::Protoc::new([Some(include), extra_include].into_iter().flatten())
        .include_imports(true)
        .include_source_info(true)
        .descriptor_set(files)
        .ok()
}

pub fn set_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| compile(&proto_dir(), None, FILES).expect("protoc accepts the fixtures"))
}

pub fn pool() -> DescriptorPool {
    DescriptorPool::decode(set_bytes()).expect("pool")
}

pub fn message(pool: &DescriptorPool, name: &str) -> MessageDescriptor {
    pool.get_message_by_name(name)
        .unwrap_or_else(|| panic!("no message {name}"))
}

pub fn field(message: &MessageDescriptor, name: &str) -> FieldDescriptor {
    message
        .get_field_by_name(name)
        .unwrap_or_else(|| panic!("no field {name} in {}", message.full_name()))
}

pub fn names<T>(items: impl Iterator<Item = T>, name: impl Fn(&T) -> String) -> Vec<String> {
    items.map(|item| name(&item)).collect()
}

pub fn message_in(pool: &DescriptorPool, message: &MessageDescriptor) -> MessageDescriptor {
    pool.get_message_by_name(message.full_name()).unwrap()
}

pub fn field_in(message: &MessageDescriptor, field: &FieldDescriptor) -> FieldDescriptor {
    message.get_field(field.number()).unwrap()
}
