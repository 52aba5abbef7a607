fn main() {
    buffa_build::Config::new()
        .files(&["proto/echo.proto"])
        .includes(&["proto"])
        // Payloads as `bytes::Bytes`: a decoded payload is a slice of
        // tonic's receive buffer, not a copy.
        .bytes(&[".echo"])
        .tonic()
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
