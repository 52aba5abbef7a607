//! Pointer choice for singular message fields and message-typed oneof
//! variants, under the configured rules, the boxing plan that breaks
//! cycles of inline fields and the inline size limits, with the reason for
//! each choice.

use proc_macro2::TokenStream;
use quote::quote;

use crate::analysis::boxing::BoxingPlan;
use crate::analysis::inline_rules::names_exactly;
use crate::context::Context;
use crate::error::Error;
use crate::layout::size::Layout;
use crate::options::{Options, PointerRepr};

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

/// A pointer choice and its reason.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Where the value lives.
    pub pointer: Pointer,
    /// Why.
    pub reason: Reason,
}

/// Why a field got its pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winning rule, by its path.
    Rule(String),
    /// No rule covers the field: `Box`.
    Default,
    /// An inline rule covers the field through a scope, but the boxing
    /// plan boxes it to break a cycle.
    Recursion,
    /// An inline rule covers the field through a scope, but its message is
    /// estimated larger than the `inline_max_size` limit covering it.
    Size {
        /// The estimated size of the message's struct, in bytes.
        estimate: usize,
        /// Whether the estimate is only an upper bound (a oneof rustc may
        /// compress): the real struct might fit the limit.
        upper_bound: bool,
        /// The limit.
        limit: usize,
    },
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Rule(path) => write!(f, "rule {path}"),
            Reason::Default => f.write_str("default"),
            Reason::Recursion => f.write_str("recursion"),
            Reason::Size {
                estimate,
                upper_bound,
                limit,
            } => {
                let mark = if *upper_bound { "<=" } else { "" };
                write!(f, "size {mark}{estimate} > {limit}")
            }
        }
    }
}

impl Decision {
    fn new(pointer: Pointer, reason: Reason) -> Decision {
        Decision { pointer, reason }
    }

    /// The pointer type of a `MessageField<T, P>` of message type
    /// `target_type`: `None` for the default `Box<T>`.
    pub fn field_pointer(
        &self,
        buffa: &TokenStream,
        target_type: &TokenStream,
    ) -> Option<TokenStream> {
        match &self.pointer {
            Pointer::Box => None,
            Pointer::Inline => Some(quote!(#buffa::Inline<#target_type>)),
            Pointer::Custom(tokens) => Some(tokens.clone()),
        }
    }
}

/// Chooses the pointer for the singular field `field_path` whose message
/// type is `target` (`target_type` in Rust): the last pointer rule covering
/// the field decides. An inline choice through a scope rule falls back to
/// `Box` when the boxing plan boxes the field to break a cycle (an inline
/// rule naming exactly the field is then an error), or when `target` is
/// estimated larger than the `inline_max_size` limit covering the field.
pub fn choose(
    context: &Context<'_>,
    field_path: &str,
    target_type: &TokenStream,
    target_layout: impl FnOnce() -> Result<Layout, Error>,
) -> Result<Decision, Error> {
    let Some((rule, repr)) = context.options.pointers.winner(&[field_path]) else {
        return Ok(Decision::new(Pointer::Box, Reason::Default));
    };
    let pointer = match repr {
        PointerRepr::Box => Pointer::Box,
        PointerRepr::Custom(template) => {
            Pointer::Custom(custom_type(template, target_type.clone())?)
        }
        PointerRepr::Inline => {
            return inline_within_limits(context, rule, &[field_path], target_layout);
        }
    };
    Ok(Decision::new(pointer, Reason::Rule(rule.to_owned())))
}

/// Chooses between `T` and `Box<T>` for a message-typed oneof variant of
/// type `target`. `paths` are the variant's field path, then its oneof's
/// path; the last rule covering either decides, and an inline choice falls
/// back to `Box` as in [`choose`].
pub fn choose_oneof(
    context: &Context<'_>,
    paths: &[&str],
    target_layout: impl FnOnce() -> Result<Layout, Error>,
) -> Result<Decision, Error> {
    match context.options.unboxed_oneofs.winner(paths) {
        None => Ok(Decision::new(Pointer::Box, Reason::Default)),
        Some((rule, false)) => Ok(Decision::new(Pointer::Box, Reason::Rule(rule.to_owned()))),
        Some((rule, true)) => inline_within_limits(context, rule, paths, target_layout),
    }
}

/// `Inline` as `rule` says, unless the boxing plan boxes the field, or
/// `rule` covers a scope and `target` is larger than the limit covering
/// `paths` (the field's path first).
fn inline_within_limits(
    context: &Context<'_>,
    rule: &str,
    paths: &[&str],
    target_layout: impl FnOnce() -> Result<Layout, Error>,
) -> Result<Decision, Error> {
    let field_path = paths[0];
    if let Pointer::Box = inline_unless_recursive(rule, &context.boxing, field_path)? {
        return Ok(Decision::new(Pointer::Box, Reason::Recursion));
    }
    if !names_exactly(rule, field_path)
        && let Some((_, &limit)) = context.options.inline_max_size.winner(paths)
    {
        // Not boxed by the plan, so `target`'s struct does not contain
        // this one: inline fields form no cycle.
        let layout = target_layout()?;
        if layout.size > limit {
            let reason = Reason::Size {
                estimate: layout.size,
                upper_bound: layout.min_size < layout.size,
                limit,
            };
            return Ok(Decision::new(Pointer::Box, reason));
        }
    }
    Ok(Decision::new(
        Pointer::Inline,
        Reason::Rule(rule.to_owned()),
    ))
}

/// `Inline` unless the boxing `plan` boxes the field; then `Box` if the
/// deciding `rule` covers a scope, or an error naming a cycle through the
/// field if it names exactly this field (the plan boxes such a field only
/// when every other way to break its cycles is named exactly too).
fn inline_unless_recursive(
    rule: &str,
    plan: &BoxingPlan,
    field_path: &str,
) -> Result<Pointer, Error> {
    if !plan.must_box(field_path) {
        return Ok(Pointer::Inline);
    }
    if names_exactly(rule, field_path) {
        return Err(Error::new(format!(
            "cannot store {field_path} inline: it is recursive ({}), so it must stay on the heap",
            plan.cycle(field_path).join(" -> ")
        )));
    }
    Ok(Pointer::Box)
}
