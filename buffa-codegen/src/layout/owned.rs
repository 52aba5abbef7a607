//! The owned struct of a message: its fields with the pointer each
//! singular message field is stored through, and the struct's estimated
//! size, which pointer choice consults for `inline_max_size` (a field's
//! pointer depends on the size of its message's struct, which depends on
//! that message's own pointers).

use std::collections::HashSet;

use crate::context::Context;
use crate::error::Error;
use crate::input::schema::MessageType;
use crate::layout::field::{Field, Shape, ValueType};
use crate::layout::field_model;
use crate::layout::pointer::{self, Decision, Pointer};
use crate::layout::size::{self, Layout, Niche};

/// The fields of `message` as its owned struct holds them, with
/// value-type paths relative to module `from`.
pub fn fields<'a>(
    context: &Context<'a>,
    full_name: &str,
    message: &MessageType<'_>,
    from: &[String],
) -> Result<Vec<Field<'a>>, Error> {
    field_model::resolve(
        context,
        full_name,
        message,
        from,
        |path, target, target_type| {
            let decision =
                pointer::choose(context, path, target_type, || owned_layout(context, target))?;
            Ok(decision.field_pointer(&context.buffa, target_type))
        },
    )
}

/// Whether decoding `full_name` may share its input: the message, or
/// any message it contains at any depth, has a `bytes` field generated
/// as `bytes::Bytes` or a `string` field (map keys included) generated
/// as `buffa::BytesStr`. Extern types are assumed to share, except
/// those of buffa-types, which never do.
pub fn shares_input(context: &Context<'_>, full_name: &str) -> Result<bool, Error> {
    reaches_shared_bytes(context, full_name, &mut HashSet::new())
}

fn reaches_shared_bytes(
    context: &Context<'_>,
    full_name: &str,
    seen: &mut HashSet<String>,
) -> Result<bool, Error> {
    if !seen.insert(full_name.to_owned()) {
        return Ok(false);
    }
    let message = context.schema.message(full_name)?;
    if !message.rust.is_local() {
        return Ok(!message.rust.in_buffa_types());
    }
    for field in fields(context, full_name, message, &[])? {
        let value = match &field.shape {
            Shape::Map { key, .. } if key.shares_input() => return Ok(true),
            Shape::Map { value, .. } => value,
            _ => &field.value,
        };
        let shares = match value {
            ValueType::Scalar(scalar) => scalar.shares_input(),
            ValueType::Message { full_name, .. } => reaches_shared_bytes(context, full_name, seen)?,
            ValueType::Enum { .. } => false,
        };
        if shares {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The estimated layout of the owned struct of message `full_name`, as
/// generated with the current options.
pub fn owned_layout(context: &Context<'_>, full_name: &str) -> Result<Layout, Error> {
    match context.owned_layouts.borrow().get(full_name) {
        Some(Some(layout)) => return Ok(*layout),
        // Inline fields never form a cycle (the boxing plan breaks
        // them), so this means a bug rather than a schema to reject.
        Some(None) => {
            return Err(Error::new(format!(
                "the size of {full_name} depends on itself through inline fields"
            )));
        }
        None => {}
    }
    context
        .owned_layouts
        .borrow_mut()
        .insert(full_name.to_owned(), None);
    let layout = compute_owned_layout(context, full_name);
    let mut layouts = context.owned_layouts.borrow_mut();
    match &layout {
        Ok(layout) => layouts.insert(full_name.to_owned(), Some(*layout)),
        Err(_) => layouts.remove(full_name),
    };
    layout
}

fn compute_owned_layout(context: &Context<'_>, full_name: &str) -> Result<Layout, Error> {
    let message = context.schema.message(full_name)?;
    let mut parts = Vec::new();
    if context.unknown_fields.keeps(full_name) {
        parts.push(size::UNKNOWN_FIELDS);
    }
    let mut oneofs: Vec<(usize, Vec<Layout>)> = Vec::new();
    for field in fields(context, full_name, message, &[])? {
        let part = match &field.shape {
            Shape::Implicit => value_layout(context, &field)?,
            Shape::Explicit => match &field.value {
                ValueType::Message {
                    path,
                    full_name: target,
                    ..
                } => {
                    let decision = pointer::choose(context, &field.path, path, || {
                        owned_layout(context, target)
                    })?;
                    // `MessageField<T, Inline<T>>` is `Option<T>`: as
                    // large as `T` unless `T` has no niche (no unknown
                    // fields, and no field with one).
                    pointer_layout(context, &decision.pointer, target)?.option()
                }
                _ => value_layout(context, &field)?.option(),
            },
            Shape::Repeated { .. } => size::VEC,
            Shape::Map { btree: true, .. } => Layout::new(24, 8, Niche::Part),
            Shape::Map { btree: false, .. } => Layout::new(48, 8, Niche::Part),
            Shape::Oneof(index) => {
                let variant = match &field.value {
                    ValueType::Message {
                        full_name: target, ..
                    } => {
                        let decision = oneof_decision(context, full_name, &field, target)?;
                        pointer_layout(context, &decision.pointer, target)?
                    }
                    _ => value_layout(context, &field)?,
                };
                match oneofs.iter_mut().find(|(i, _)| i == index) {
                    Some((_, variants)) => variants.push(variant),
                    None => oneofs.push((*index, vec![variant])),
                }
                continue;
            }
        };
        parts.push(part);
    }
    parts.extend(oneofs.iter().map(|(_, variants)| size::oneof(variants)));
    let layout = size::structure(&parts);
    Ok(if message.rust.is_local() {
        layout
    } else {
        layout.assumed()
    })
}

/// The value of `field` held in place: a scalar, an enum, or a
/// message.
fn value_layout(context: &Context<'_>, field: &Field<'_>) -> Result<Layout, Error> {
    Ok(match &field.value {
        ValueType::Scalar(s) => size::scalar(*s),
        // `EnumValue<E>`: a tag and an `i32`.
        ValueType::Enum { closed: false, .. } => Layout::new(8, 4, Niche::Part),
        // The `#[repr(i32)]` enum itself, whose niche is the numbers
        // outside its smallest and largest value.
        ValueType::Enum { closed: true, .. } => {
            let enumeration = context.schema.enumeration(field.proto.type_name())?;
            let numbers = || enumeration.proto.value.iter().map(|v| v.number());
            let full = numbers().min() == Some(i32::MIN) && numbers().max() == Some(i32::MAX);
            let layout = Layout::new(4, 4, if full { Niche::None } else { Niche::Whole });
            // An extern enum's niche is as this run would generate it.
            if enumeration.rust.is_local() {
                layout
            } else {
                layout.assumed()
            }
        }
        ValueType::Message { full_name, .. } => owned_layout(context, full_name)?,
    })
}

/// A singular message field or oneof variant stored through `pointer`.
fn pointer_layout(context: &Context<'_>, pointer: &Pointer, target: &str) -> Result<Layout, Error> {
    Ok(match pointer {
        Pointer::Box => size::POINTER,
        Pointer::Inline => owned_layout(context, target)?,
        Pointer::Custom(_) => size::POINTER.assumed(),
    })
}

/// Where an owned message-typed oneof variant of type `target` keeps
/// its value, and why.
pub(crate) fn oneof_decision(
    context: &Context<'_>,
    full_name: &str,
    field: &Field<'_>,
    target: &str,
) -> Result<Decision, Error> {
    let message = context.schema.message(full_name)?;
    let oneof_path = match field.proto.oneof_index {
        Some(index) => format!(
            "{full_name}.{}",
            message.proto.oneof_decl[index as usize].name()
        ),
        None => field.path.clone(),
    };
    pointer::choose_oneof(context, &[&field.path, &oneof_path], || {
        owned_layout(context, target)
    })
}
