fn main() {
    buffa_build::Config::new()
        .files(&["proto/bookstore/v1/bookstore.proto"])
        .includes(&["proto", buffa_http::PROTO_INCLUDE])
        .tonic()
        // The descriptor pool, whose `google.api.http` rules the
        // transcoder serves.
        .reflection()
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
