//! A rejected file, end to end: protoc's message at protoc's position, and
//! the rendering the README shows.

mod support;

use buffa_compile::Compiler;

const SHOP: &str = "syntax = \"proto3\";\npackage shop.v1;\n\nmessage Order {\n  string id = 1;\n  // The pet.\n  Pet pet = 2;\n}\n";

#[test]
fn an_undefined_type_is_reported_as_protoc_reports_it() {
    let dir =
        std::env::temp_dir().join(format!("buffa-compile-diagnostics-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("shop/v1")).unwrap();
    std::fs::write(dir.join("shop/v1/shop.proto"), SHOP).unwrap();
    let protoc = support::protoc_set(&dir, &["shop/v1/shop.proto"], false).unwrap_err();

    let mut compiler = Compiler::new();
    compiler.include(&dir);
    let error = compiler.compile(&["shop/v1/shop.proto"]).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!(
        error.to_string(),
        "shop/v1/shop.proto:7:3: \"Pet\" is not defined."
    );
    // protoc names the file by its path on disk.
    assert!(
        protoc.trim_end().ends_with(&error.to_string()),
        "protoc: {protoc}"
    );
    assert_eq!(
        error.render(),
        "error: \"Pet\" is not defined.\n  --> shop/v1/shop.proto:7:3\n  |\n7 |   Pet pet = 2;\n  |   ^\n"
    );
}
