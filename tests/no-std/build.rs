//! Generates `proto/telemetry.proto` for a `#![no_std]` crate, with views.

fn main() {
    buffa_build::Config::new()
        .files(&["proto/telemetry.proto"])
        .includes(&["proto"])
        .no_std()
        .views()
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
