//! Files are read as bytes, as protoc reads them: a comment in Latin-1
//! does not stop a compilation.

mod support;

use buffa::Message;
use buffa_compile::Compiler;

#[test]
fn a_latin1_comment_compiles_as_with_protoc() {
    let dir = std::env::temp_dir().join(format!("buffa-compile-encoding-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = b"syntax = \"proto3\";\n// Caf\xe9 menu.\nmessage Menu { string dish = 1; }\n";
    std::fs::write(dir.join("menu.proto"), text).unwrap();
    let expected = support::protoc_set(&dir, &["menu.proto"], false).unwrap();
    let mut compiler = Compiler::new();
    compiler.include(&dir);
    let actual = compiler.compile_to_bytes(&["menu.proto"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(actual.unwrap() == expected);
}

#[test]
fn the_set_without_source_info_never_holds_comments() {
    let mut compiler = Compiler::new();
    compiler.source(
        "a.proto",
        "syntax = \"proto3\";\n// A comment.\nmessage A {}\n",
    );
    let set = compiler.compile(&["a.proto"]).unwrap();
    assert!(set.file[0].source_code_info.as_option().is_none());
    assert!(!set.encode_to_vec().windows(9).any(|w| w == b"A comment"));
}
