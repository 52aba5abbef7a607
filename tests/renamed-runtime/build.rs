//! Generates `proto/renamed.proto` against the runtime as `::buffa_rt`, with
//! sub-messages inline and `bytes` as `Bytes`, so that every kind of path to
//! the runtime (support API, `MessageField`, `Inline`, `EnumValue`,
//! `bytes::Bytes`, `Message`) goes through the renamed crate.

fn main() {
    buffa_build::Config::new()
        .files(&["proto/renamed.proto"])
        .includes(&["proto"])
        .buffa_path("::buffa_rt")
        .unbox_message_fields()
        .bytes(&[".renamed.Account.avatar"])
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
