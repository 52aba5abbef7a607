//! Generates, with views, for a `#![no_std]` crate: `proto/telemetry.proto`
//! (proto3), `proto/config.proto` (proto2) and buffa-build's golden
//! `no_std.proto` (edition 2023, with an extension), whose generated code
//! buffa-build's golden test compares as text only. `telemetry.Sample`
//! discards its unknown fields (`unknown_fields_in`), so a message without
//! them is built without std too.

const GOLDEN: &str = "../../buffa-build/tests/golden";

fn main() {
    buffa_build::Config::new()
        .files(&["proto/telemetry.proto", "proto/config.proto"])
        .files(&[std::path::Path::new(GOLDEN).join("no_std.proto")])
        .includes(&["proto", GOLDEN])
        .no_std()
        .views()
        .unknown_fields_in(
            buffa_build::UnknownFieldsRepr::Discard,
            &[".telemetry.Sample"],
        )
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
