//! Generates the archive types with views, `Document.body` lazy: a
//! `DocumentView` keeps the body's bytes and decodes them when asked.

fn main() {
    buffa_build::Config::new()
        .files(&["proto/archive.proto"])
        .includes(&["proto"])
        .lazy_views_in(&[".archive.Document.body"])
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
