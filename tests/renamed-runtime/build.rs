//! Generates `proto/renamed.proto` (proto3), and `proto/legacy.proto` with
//! `proto/shadow.proto` (proto2, the latter a package whose module is called
//! `buffa_rt`), against the runtime as `::buffa_rt`. `renamed` has its
//! sub-messages inline, a `bytes` field as `Bytes` and a `string` field as
//! `BytesStr`, `legacy` keeps the default boxes, so that every kind of path
//! to the runtime (support API, `MessageField`, `Inline`, `EnumValue`,
//! `bytes::Bytes`, `BytesStr`, `Message`) goes through the renamed crate.

fn main() {
    buffa_build::Config::new()
        .files(&[
            "proto/renamed.proto",
            "proto/legacy.proto",
            "proto/shadow.proto",
        ])
        .includes(&["proto"])
        .buffa_path("::buffa_rt")
        .unbox_message_fields_in(&[".renamed"])
        .bytes(&[".renamed.Account.avatar"])
        .string_type_in(
            buffa_build::StringRepr::BytesStr,
            &[".renamed.Account.Profile.city"],
        )
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
