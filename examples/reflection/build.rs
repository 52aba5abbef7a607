//! Generates the shop types with reflection: `ReflectMessage` impls and
//! the embedded descriptors (`descriptor_pool()`).

fn main() {
    buffa_build::Config::new()
        .files(&["proto/example/api.proto", "proto/example/shop.proto"])
        .includes(&["proto"])
        .reflection()
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
