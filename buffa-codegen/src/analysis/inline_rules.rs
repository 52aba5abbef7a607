//! The rules that ask for a message-typed field or oneof variant to be
//! stored inline, and whether a rule names a field exactly (and so must be
//! obeyed) or covers it through a scope (and so may yield).

use crate::options::PointerRepr;
use crate::path::PathRules;

/// The rule that stores field `field_path` inline: the winning pointer
/// rule, if it says `Inline`.
pub fn inline_field_rule<'r>(
    rules: &'r PathRules<PointerRepr>,
    field_path: &str,
) -> Option<&'r str> {
    match rules.winner(&[field_path]) {
        Some((rule, PointerRepr::Inline)) => Some(rule),
        _ => None,
    }
}

/// The rule that stores a oneof variant as plain `T`: the winning rule
/// over `paths` (the variant's field path, then its oneof's path), if it
/// says inline.
pub fn inline_variant_rule<'r>(rules: &'r PathRules<bool>, paths: &[&str]) -> Option<&'r str> {
    match rules.winner(paths) {
        Some((rule, true)) => Some(rule),
        _ => None,
    }
}

/// Whether `rule` names exactly the field `field_path` rather than a scope
/// holding it; such a rule must be obeyed or fail.
pub fn names_exactly(rule: &str, field_path: &str) -> bool {
    rule.trim_end_matches('.') == field_path
}
