fn main() {
    buffa_build::Config::new()
        .files(&["proto/mesh.proto"])
        .includes(&["proto"])
        // Vector3 and Triangle are small and never recursive: store them in
        // place instead of behind a Box, so decoding a mesh allocates once
        // per repeated field, not once per vertex.
        .unbox_message_fields()
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
