//! Pointer choice for singular message fields and message-typed oneof
//! variants, under the configured rules and the recursion analysis.

use proc_macro2::TokenStream;
use quote::quote;

use crate::error::Error;
use crate::message_graph::MessageGraph;
use crate::options::{Options, PointerRepr};
use crate::path::PathRules;

/// Where a field's value lives.
#[derive(Clone, Debug)]
pub enum Pointer {
    /// `Box<T>` (the default).
    Box,
    /// `Inline<T>` in a `MessageField`, or plain `T` in a oneof.
    Inline,
    /// A user type.
    Custom(TokenStream),
}

/// Checks that every custom template has a `*` and parses as a Rust type.
pub fn validate_templates(options: &Options) -> Result<(), Error> {
    for (path, repr) in options.pointers.iter() {
        if let PointerRepr::Custom(template) = repr {
            custom_type(template, quote!(T))
                .map_err(|e| Error::new(format!("pointer rule for {path}: {e}")))?;
        }
    }
    Ok(())
}

/// The custom pointer type for `message`, from `template`.
pub fn custom_type(template: &str, message: TokenStream) -> Result<TokenStream, Error> {
    if !template.contains('*') {
        return Err(Error::new(format!(
            "custom pointer template {template:?} has no `*` placeholder for the message type"
        )));
    }
    let source = template.replace('*', &message.to_string());
    let ty: syn::Type = syn::parse_str(&source).map_err(|e| {
        Error::new(format!(
            "custom pointer template {template:?} is not a Rust type: {e}"
        ))
    })?;
    Ok(quote!(#ty))
}

/// Chooses the pointer for the field `field_path` of message `message`
/// whose type is `target`, with `rules`: the last rule covering the field
/// decides. An inline choice on a recursive field falls back to `Box` when
/// that rule covers a whole scope, and is an error when it names exactly
/// this field.
pub fn choose(
    rules: &PathRules<PointerRepr>,
    graph: &MessageGraph,
    message: &str,
    field_path: &str,
    target: &str,
    target_type: &TokenStream,
) -> Result<Pointer, Error> {
    let Some((rule, repr)) = rules.winner(&[field_path]) else {
        return Ok(Pointer::Box);
    };
    match repr {
        PointerRepr::Box => Ok(Pointer::Box),
        PointerRepr::Custom(template) => {
            Ok(Pointer::Custom(custom_type(template, target_type.clone())?))
        }
        PointerRepr::Inline => inline_unless_recursive(rule, graph, message, field_path, target),
    }
}

/// Chooses between `T` and `Box<T>` for a message-typed oneof variant.
/// `paths` are the variant's field path, then its oneof's path; the last
/// rule covering either decides.
pub fn choose_oneof(
    rules: &PathRules<bool>,
    graph: &MessageGraph,
    message: &str,
    paths: &[&str],
    target: &str,
) -> Result<Pointer, Error> {
    match rules.winner(paths) {
        Some((rule, true)) => inline_unless_recursive(rule, graph, message, paths[0], target),
        _ => Ok(Pointer::Box),
    }
}

/// `Inline` unless the field is recursive; then `Box` if the deciding
/// `rule` covers a scope, or an error naming the cycle if it names exactly
/// this field.
fn inline_unless_recursive(
    rule: &str,
    graph: &MessageGraph,
    message: &str,
    field_path: &str,
    target: &str,
) -> Result<Pointer, Error> {
    if !graph.is_recursive(message, target) {
        return Ok(Pointer::Inline);
    }
    if rule.trim_end_matches('.') == field_path {
        return Err(Error::new(format!(
            "cannot store {field_path} inline: it is recursive ({}), so it must stay on the heap",
            graph.cycle(message, target).join(" -> ")
        )));
    }
    Ok(Pointer::Box)
}
