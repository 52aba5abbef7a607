//! The layout of a view struct: its fields as the view holds them
//! (strings and bytes borrowed, message types as their views, lazy fields
//! where the rules ask), and how large the view is, estimated from those
//! fields, to decide which sub-views a view holds in place.
//!
//! Holding every sub-view in place multiplies sizes down a schema's
//! nesting: a message with four fields of a message with four fields, eight
//! levels deep, would make a view of 700 KB for two bytes of input, which
//! overflows a thread's stack when decoded and multiplies the memory of
//! repeated fields. A sub-view larger than [`INLINE_VIEW_LIMIT`] is boxed
//! instead, which bounds every view by its own field count times the limit.

use std::collections::HashMap;

use quote::quote;

use crate::context::Context;
use crate::error::Error;
use crate::input::schema::MessageType;
use crate::layout::field::{Field, Scalar, Shape, ValueType};
use crate::layout::field_model;
use crate::layout::owned;
use crate::layout::pointer::Pointer;
use crate::layout::size;

/// The largest sub-view (estimated, in bytes) held in place.
pub const INLINE_VIEW_LIMIT: usize = 1024;

/// Whether a view holds its singular field or oneof variant
/// `field_path` of type `target` in place: the view boxing plan does
/// not box it to break a cycle, and the target's view is small enough.
pub fn view_inline(context: &Context<'_>, field_path: &str, target: &str) -> Result<bool, Error> {
    Ok(!context.view_boxing.must_box(field_path)
        && view_size(context, target)? <= INLINE_VIEW_LIMIT)
}

/// The estimated size in bytes of the view of `full_name`: an upper
/// bound of the struct's layout, good enough to compare with the limit.
pub fn view_size(context: &Context<'_>, full_name: &str) -> Result<usize, Error> {
    if let Some(size) = context.view_sizes.borrow().get(full_name) {
        return Ok(*size);
    }
    let message = context.schema.message(full_name)?;
    // The unknown fields; a view without them counts the 8 bytes too,
    // which covers the tag `Option` then needs where it is held in place.
    let mut size = 8;
    let mut oneofs: HashMap<usize, usize> = HashMap::new();
    for field in view_fields(context, full_name, message, &[])? {
        let value = match &field.value {
            ValueType::Scalar(scalar) => scalar_size(*scalar),
            ValueType::Enum { .. } => 8,
            ValueType::Message {
                full_name: target, ..
            } => {
                let inline = match field.shape {
                    Shape::Explicit => field.pointer.is_some(),
                    Shape::Oneof(_) => !oneof_boxed(context, full_name, &field)?,
                    _ => false,
                };
                if inline {
                    view_size(context, target)?
                } else {
                    8
                }
            }
        };
        let field_size = match field.shape {
            Shape::Explicit if field.lazy => 48,
            Shape::Repeated { .. } if field.lazy => 32,
            // `RepeatedView` and `MapView`: where the occurrences are.
            Shape::Repeated { .. } => 56,
            Shape::Map { .. } => 80,
            Shape::Explicit => value + 8,
            Shape::Implicit => value,
            Shape::Oneof(index) => {
                let widest = oneofs.entry(index).or_default();
                *widest = (*widest).max(value);
                continue;
            }
        };
        size += field_size;
    }
    size += oneofs.values().map(|widest| widest + 8).sum::<usize>();
    context
        .view_sizes
        .borrow_mut()
        .insert(full_name.to_owned(), size);
    Ok(size)
}

/// The size of one scalar as a view holds it: strings and bytes borrowed,
/// the rest as owned structs hold them.
fn scalar_size(scalar: Scalar) -> usize {
    size::scalar(scalar.borrowed()).size
}

/// The fields of `message` as its view holds them: strings and bytes
/// borrowed, message types as their views, singular sub-messages in
/// place unless boxed to break a cycle or large (see `view_size`), and
/// the fields the lazy rules cover as lazy fields.
pub fn view_fields<'a>(
    context: &Context<'a>,
    full_name: &str,
    message: &MessageType<'_>,
    from: &[String],
) -> Result<Vec<Field<'a>>, Error> {
    let mut fields = owned::fields(context, full_name, message, from)?;
    for field in &mut fields {
        field.view = true;
        field.pointer = None;
        if let Shape::Map { key, value, .. } = &mut field.shape {
            *key = key.borrowed();
            borrow_value(context, value, from)?;
            continue;
        }
        borrow_value(context, &mut field.value, from)?;
        let ValueType::Message {
            path,
            full_name: target,
            ..
        } = &field.value
        else {
            continue;
        };
        field.lazy = matches!(field.shape, Shape::Explicit | Shape::Repeated { .. })
            && context.options.lazy_views.get(&field.path) == Some(&true);
        if matches!(field.shape, Shape::Explicit)
            && !field.lazy
            && view_inline(context, &field.path, target)?
        {
            let buffa = &context.buffa;
            field.pointer = Some(quote!(#buffa::Inline<#path>));
        }
    }
    Ok(fields)
}

/// Turns an owned value type into the one a view holds.
fn borrow_value(
    context: &Context<'_>,
    value: &mut ValueType,
    from: &[String],
) -> Result<(), Error> {
    match value {
        ValueType::Scalar(scalar) => *scalar = scalar.borrowed(),
        ValueType::Message {
            path, full_name, ..
        } => *path = field_model::view_type_path(context, full_name, from)?,
        ValueType::Enum { .. } => {}
    }
    Ok(())
}

/// Whether a message-typed oneof variant is boxed: in a view (`field.view`)
/// as [`view_inline`] decides, in an owned struct as the owned layout's
/// pointer choice does. Here rather than in `owned.rs`, which views build
/// on and which must not know them.
pub(crate) fn oneof_boxed(
    context: &Context<'_>,
    full_name: &str,
    field: &Field<'_>,
) -> Result<bool, Error> {
    let ValueType::Message {
        full_name: target, ..
    } = &field.value
    else {
        return Ok(false);
    };
    if field.view {
        // A view holds variants in place unless boxed to break a cycle
        // or large.
        return Ok(!view_inline(context, &field.path, target)?);
    }
    let decision = owned::oneof_decision(context, full_name, field, target)?;
    Ok(matches!(decision.pointer, Pointer::Box))
}
