//! How large a view struct is, estimated from its fields, to decide which
//! sub-views a view holds in place.
//!
//! Holding every sub-view in place multiplies sizes down a schema's
//! nesting: a message with four fields of a message with four fields, eight
//! levels deep, would make a view of 700 KB for two bytes of input, which
//! overflows a thread's stack when decoded and multiplies the memory of
//! repeated fields. A sub-view larger than [`INLINE_VIEW_LIMIT`] is boxed
//! instead, which bounds every view by its own field count times the limit.

use std::collections::HashMap;

use crate::context::Context;
use crate::error::Error;
use crate::field::{Scalar, Shape, ValueType};
use crate::size_estimate;

/// The largest sub-view (estimated, in bytes) held in place.
pub const INLINE_VIEW_LIMIT: usize = 1024;

/// Estimated sizes of views by message full name.
pub type ViewSizes = HashMap<String, usize>;

impl Context<'_> {
    /// Whether a view holds its singular field or oneof variant
    /// `field_path` of type `target` in place: the view boxing plan does
    /// not box it to break a cycle, and the target's view is small enough.
    pub fn view_inline(&self, field_path: &str, target: &str) -> Result<bool, Error> {
        Ok(!self.view_boxing.must_box(field_path) && self.view_size(target)? <= INLINE_VIEW_LIMIT)
    }

    /// The estimated size in bytes of the view of `full_name`: an upper
    /// bound of the struct's layout, good enough to compare with the limit.
    pub fn view_size(&self, full_name: &str) -> Result<usize, Error> {
        if let Some(size) = self.view_sizes.borrow().get(full_name) {
            return Ok(*size);
        }
        let message = self.schema.message(full_name)?;
        let mut size = 8; // unknown fields
        let mut oneofs: HashMap<usize, usize> = HashMap::new();
        for field in self.view_fields(full_name, message, &[])? {
            let value = match &field.value {
                ValueType::Scalar(scalar) => scalar_size(*scalar),
                ValueType::Enum { .. } => 8,
                ValueType::Message {
                    full_name: target, ..
                } => {
                    let inline = match field.shape {
                        Shape::Explicit => field.pointer.is_some(),
                        Shape::Oneof(_) => !self.oneof_boxed(full_name, &field)?,
                        _ => false,
                    };
                    if inline { self.view_size(target)? } else { 8 }
                }
            };
            let field_size = match field.shape {
                Shape::Explicit if field.lazy => 48,
                Shape::Repeated { .. } if field.lazy => 32,
                Shape::Repeated { .. } | Shape::Map { .. } => 24,
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
        self.view_sizes
            .borrow_mut()
            .insert(full_name.to_owned(), size);
        Ok(size)
    }
}

/// The size of one scalar as a view holds it: strings and bytes borrowed,
/// the rest as owned structs hold them.
fn scalar_size(scalar: Scalar) -> usize {
    size_estimate::scalar(scalar.borrowed()).size
}
