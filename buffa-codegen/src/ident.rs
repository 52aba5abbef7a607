//! Rust names for protobuf names: case conversion and keyword escaping.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Words that are keywords in some Rust edition; they become raw
/// identifiers (`r#type`).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers; they get a trailing underscore.
const NON_RAW_KEYWORDS: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The snake_case Rust name for a field or module, keyword-escaped.
pub fn field_name(proto_name: &str) -> String {
    escape(&proto_name.to_snake_case())
}

/// The UpperCamelCase Rust name for a message, enum or oneof,
/// keyword-escaped.
pub fn type_name(proto_name: &str) -> String {
    escape(&proto_name.to_upper_camel_case())
}

/// The SCREAMING_SNAKE_CASE Rust name for a constant (an extension),
/// escaped like the others.
pub fn const_name(proto_name: &str) -> String {
    escape(&proto_name.to_shouty_snake_case())
}

/// The module holding the nested types of a message.
pub fn module_name(message_name: &str) -> String {
    escape(&message_name.to_snake_case())
}

/// Escapes `name` if it is a keyword: `r#type`, `self_`. A name starting
/// with a digit gets a leading underscore, and an empty name (what case
/// conversion leaves of `_` or `__`) becomes `__`, which unlike `_` is an
/// identifier.
pub fn escape(name: &str) -> String {
    if NON_RAW_KEYWORDS.contains(&name) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else if name.is_empty() {
        "__".to_owned()
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{name}")
    } else {
        name.to_owned()
    }
}

/// An `Ident` for a name produced by this module (raw identifiers
/// included).
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// The Rust variant name for an enum value: UpperCamelCase with the enum's
/// name stripped as a prefix when that leaves a valid identifier
/// (`COLOR_RED` in `Color` becomes `Red`).
pub fn variant_name(enum_name: &str, value_name: &str) -> String {
    let camel = value_name.to_upper_camel_case();
    let prefix = enum_name.to_upper_camel_case();
    match camel.strip_prefix(&prefix) {
        // Only at a word boundary: `STRIPPED` in `Strip` stays `Stripped`.
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => escape(rest),
        _ => escape(&camel),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_keywords() {
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(type_name("Self"), "Self_");
        assert_eq!(field_name("fooBar"), "foo_bar");
        assert_eq!(type_name("foo_bar"), "FooBar");
        assert_eq!(escape("1st"), "_1st");
        assert_eq!(field_name("_"), "__");
        assert_eq!(type_name("__"), "__");
        assert_eq!(field_name("_9"), "_9");
        assert_eq!(ident("r#type").to_string(), "r#type");
        assert_eq!(
            const_name("optional_int32_extension"),
            "OPTIONAL_INT32_EXTENSION"
        );
        assert_eq!(const_name("fooBar"), "FOO_BAR");
        assert_eq!(const_name("_"), "__");
    }

    #[test]
    fn strips_enum_prefixes() {
        assert_eq!(variant_name("Color", "COLOR_RED"), "Red");
        assert_eq!(variant_name("Color", "BLUE"), "Blue");
        assert_eq!(variant_name("Color", "COLOR"), "Color");
        assert_eq!(variant_name("Color", "COLOR_1"), "Color1");
        assert_eq!(variant_name("Color", "COLORFUL"), "Colorful");
        assert_eq!(variant_name("Color", "COLOR_SELF"), "Self_");
    }
}
