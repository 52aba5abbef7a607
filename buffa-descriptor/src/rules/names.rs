//! The naming rules of the protobuf language: identifiers, package names
//! and the JSON name protoc derives from a field name.

/// Whether `name` is a protobuf identifier: an ASCII letter or `_`, then
/// ASCII letters, digits and `_` (the `.proto` grammar's `ident`).
///
/// ```
/// use buffa_descriptor::rules::is_identifier;
///
/// assert!(is_identifier("_item2"));
/// assert!(!is_identifier("2item") && !is_identifier("a.b") && !is_identifier("é"));
/// ```
pub fn is_identifier(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether `name` is a package name: empty (no package), or identifiers
/// separated by single dots.
///
/// ```
/// use buffa_descriptor::rules::is_package_name;
///
/// assert!(is_package_name("") && is_package_name("google.protobuf"));
/// assert!(!is_package_name("a..b") && !is_package_name(".a"));
/// ```
pub fn is_package_name(name: &str) -> bool {
    name.is_empty() || name.split('.').all(is_identifier)
}

/// The JSON name protoc derives from a field name (its `ToJsonName`, which
/// fills in `json_name` when the field declares none): underscores
/// dropped, the letter after each one upper-cased (ASCII only, as
/// protoc's `ascii_toupper`); everything else unchanged.
///
/// ```
/// use buffa_descriptor::rules::json_name;
///
/// assert_eq!(json_name("item_count"), "itemCount");
/// assert_eq!(json_name("_leading__twice"), "LeadingTwice");
/// ```
pub fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper_next = false;
    for c in name.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_package_names() {
        assert!(is_identifier("_a1") && !is_identifier("1a") && !is_identifier("a.b"));
        assert!(!is_identifier("") && !is_identifier("a-b"));
        assert!(is_package_name("a.b_2") && !is_package_name("a..b") && !is_package_name("a."));
    }

    #[test]
    fn json_names_follow_protoc() {
        assert_eq!(json_name("foo_bar_baz"), "fooBarBaz");
        assert_eq!(json_name("_foo__bar1_x"), "FooBar1X");
        assert_eq!(json_name("FooBar"), "FooBar");
        assert_eq!(json_name("optional_int32"), "optionalInt32");
        assert_eq!(json_name("field_0name"), "field0name");
        assert_eq!(json_name("FIELD_NAME"), "FIELDNAME");
        assert_eq!(json_name("trailing_"), "trailing");
        // ASCII upper-casing only: `ß` would become "SS" under Unicode's.
        assert_eq!(json_name("a_ßb"), "aßb");
    }
}
