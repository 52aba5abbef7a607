fn main() {
    buffa_build::Config::new()
        .files(&["proto/addressbook.proto"])
        .includes(&["proto"])
        .include_file("protos.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
