//! The arithmetic of size estimates: how large a generated owned struct
//! is (`size_of`) given the layout of each of its fields, for size-aware
//! inlining (`inline_max_size`) and the layout report. `owned.rs` applies
//! it to each message as generated.
//!
//! The estimate targets 64-bit platforms and follows what rustc does with
//! the generated types:
//!
//! - A struct's fields are reordered by rustc, and every Rust type's size
//!   is a multiple of its alignment, so sorting by alignment leaves no gap:
//!   a struct is the sum of its fields rounded up to its largest alignment
//!   (at least 4 where the message keeps unknown fields: their pointer,
//!   8 bytes, is stored with an alignment of 4, so a message of 4-byte
//!   fields has no padding).
//! - Scalars have their own sizes; `String`, `Vec<u8>` and `Vec<T>` are
//!   24 bytes, `bytes::Bytes` and `buffa::BytesStr` 32, `HashMap` 48 (with
//!   the standard `RandomState`), `BTreeMap` 24, an open enum
//!   (`EnumValue<E>`) 8 and a closed one 4.
//! - `Option<T>` is as large as `T` when `T` has a niche (bool, enums,
//!   strings, vectors, `Bytes`, boxes, messages), and otherwise adds a tag
//!   padded to `T`'s alignment (`Option<i32>` is 8, `Option<f64>` 16). A
//!   closed enum has a niche unless it declares both `i32::MIN` and
//!   `i32::MAX`: rustc's valid range of a `#[repr(i32)]` enum runs from its
//!   smallest to its largest value.
//! - `MessageField<T>` (a `Box`) is one pointer, 8 bytes; `MessageField<T,
//!   Inline<T>>` is `Option<T>`: exactly `T` when `T` keeps unknown fields
//!   (their pointer is never null and gives `Option<T>` a niche) or has
//!   another field with a niche, and `T` plus a tag padded to its
//!   alignment when it discards them and holds only integers and floats
//!   (a `Vector3` of three `f32` is then 12 bytes, and `Option` of it 16).
//! - A oneof is `Option<Enum>`. With one variant that is `Option` of the
//!   variant's value. With several, the estimate is rustc's tagged layout:
//!   a one-byte tag, then the widest variant at its alignment, rounded up.
//!   rustc uses that layout whenever it cannot hide the tag in a niche of
//!   the largest variant, and picks a niche layout only when it is smaller,
//!   so the tagged size is an upper bound: exact when the largest variant
//!   has no niche (integers, floats) or is all niche (a box, `bool`, a
//!   closed enum), and otherwise at most 8 bytes over per oneof. The
//!   largest variant rounded up to the alignment is then a lower bound
//!   ([`Layout::min_size`]).
//!
//! Two things cannot be known here, and the estimate assumes them: a
//! custom pointer is one word with a niche (8 bytes, like `Box`), and an
//! extern message is laid out as this run would generate it.
//! [`Accuracy`] records which of these applies, so the layout report can
//! say how far to trust each figure.
//!
//! `tests/tests/layout_sizes.rs` compares every estimate of the test
//! battery with `size_of`: of 703 structs, 665 are exact, 37 are upper
//! bounds (22 of them exact anyway, 15 are 8 bytes over) and one assumes a
//! custom pointer (which is one word there, and the estimate exact).

use std::collections::HashMap;

use crate::layout::field::Scalar;

/// How far an estimate can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Accuracy {
    /// The size rustc gives the type on 64-bit targets.
    Exact,
    /// Never below the real size, and at most 8 bytes over per oneof whose
    /// layout rustc may compress into a niche; [`Layout::min_size`] is a
    /// lower bound.
    UpperBound,
    /// Depends on an assumption: a custom pointer of one word, or an
    /// extern message laid out as this run would generate it. Under it,
    /// exact when [`Layout::min_size`] equals the size, and otherwise an
    /// upper bound as for [`Accuracy::UpperBound`].
    Assumed,
}

/// Where a value type keeps a niche: invalid bit patterns that `Option`
/// and enums can use as their tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Niche {
    /// None: every bit pattern is a valid value (integers, floats).
    None,
    /// The whole value is the niche field (a pointer, `bool`, a closed
    /// enum): no other enum variant fits beside it.
    Whole,
    /// Somewhere inside a larger value (strings, vectors, messages).
    Part,
}

/// The estimated layout of a generated type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `size_of`, in bytes: exact, or an upper bound.
    pub size: usize,
    /// A lower bound of `size_of`; equal to `size` when it is exact.
    pub min_size: usize,
    /// `align_of`, in bytes.
    pub align: usize,
    /// Whether the figures rest on an assumption (a custom pointer or an
    /// extern message inside).
    pub assumed: bool,
    niche: Niche,
}

impl Layout {
    /// An exact layout of `size` bytes aligned to `align`, with `niche`.
    pub const fn new(size: usize, align: usize, niche: Niche) -> Layout {
        Layout {
            size,
            min_size: size,
            align,
            assumed: false,
            niche,
        }
    }

    /// How far to trust the figures.
    pub fn accuracy(&self) -> Accuracy {
        if self.assumed {
            Accuracy::Assumed
        } else if self.min_size < self.size {
            Accuracy::UpperBound
        } else {
            Accuracy::Exact
        }
    }

    /// The layout, resting on an assumption.
    pub fn assumed(self) -> Layout {
        Layout {
            assumed: true,
            ..self
        }
    }

    /// `Option<Self>`.
    pub fn option(self) -> Layout {
        match self.niche {
            Niche::None => Layout {
                size: self.size + self.align,
                min_size: self.min_size + self.align,
                niche: Niche::Part,
                ..self
            },
            _ => self,
        }
    }
}

/// A pointer-sized, null-niche field: `Box<T>`, `MessageField<T>`.
pub const POINTER: Layout = Layout::new(8, 8, Niche::Whole);
/// `buffa::UnknownFields`: a never-null pointer stored 4-aligned.
pub const UNKNOWN_FIELDS: Layout = Layout::new(8, 4, Niche::Whole);
/// `Vec<T>`, `String`.
pub const VEC: Layout = Layout::new(24, 8, Niche::Part);

/// The layout of one scalar value, owned (`String`, `Vec<u8>`, `Bytes`) or
/// borrowed (`&str`, `&[u8]`, in views).
pub fn scalar(scalar: Scalar) -> Layout {
    match scalar {
        Scalar::Bool => Layout::new(1, 1, Niche::Whole),
        Scalar::Int32
        | Scalar::UInt32
        | Scalar::SInt32
        | Scalar::Fixed32
        | Scalar::SFixed32
        | Scalar::Float => Layout::new(4, 4, Niche::None),
        Scalar::Int64
        | Scalar::UInt64
        | Scalar::SInt64
        | Scalar::Fixed64
        | Scalar::SFixed64
        | Scalar::Double => Layout::new(8, 8, Niche::None),
        Scalar::String | Scalar::Bytes => VEC,
        Scalar::SharedBytes | Scalar::SharedStr => Layout::new(32, 8, Niche::Part),
        Scalar::BorrowedStr | Scalar::BorrowedBytes => Layout::new(16, 8, Niche::Part),
    }
}

/// The estimated layouts of owned structs by message full name; `None`
/// while one is being computed.
pub type OwnedLayouts = HashMap<String, Option<Layout>>;

/// A struct of `parts`, which rustc reorders by alignment.
pub fn structure(parts: &[Layout]) -> Layout {
    let align = parts.iter().map(|p| p.align).max().unwrap_or(1);
    Layout {
        size: parts
            .iter()
            .map(|p| p.size)
            .sum::<usize>()
            .next_multiple_of(align),
        min_size: parts
            .iter()
            .map(|p| p.min_size)
            .sum::<usize>()
            .next_multiple_of(align),
        align,
        assumed: parts.iter().any(|p| p.assumed),
        // A field with a niche lends it to the struct; a struct of
        // integers and floats alone (a message without unknown fields)
        // has none.
        niche: if parts.iter().any(|p| p.niche != Niche::None) {
            Niche::Part
        } else {
            Niche::None
        },
    }
}

/// `Option<Enum>` of a oneof whose variants hold `variants`, in
/// declaration order.
pub fn oneof(variants: &[Layout]) -> Layout {
    if let [only] = variants {
        return only.option();
    }
    let align = variants.iter().map(|v| v.align).max().unwrap_or(1);
    // rustc's tagged layout: a one-byte tag, each variant after it at its
    // own alignment. The tag has values to spare for `Option`'s `None`.
    let tagged = |size: fn(&Layout) -> usize| {
        variants
            .iter()
            .map(|v| v.align + size(v))
            .max()
            .unwrap_or(0)
            .next_multiple_of(align)
    };
    let size = tagged(|v| v.size);
    // rustc tries the niche of the largest variant instead, and keeps that
    // layout if it is smaller; it cannot be without room beside the niche.
    // It still holds the largest variant.
    let largest = variants.iter().map(|v| v.size).max().unwrap_or(0);
    let niche_possible = variants
        .iter()
        .any(|v| v.size == largest && v.niche == Niche::Part);
    let min_size = if niche_possible {
        let widest = variants.iter().map(|v| v.min_size).max().unwrap_or(0);
        widest.next_multiple_of(align)
    } else {
        tagged(|v| v.min_size)
    };
    Layout {
        size,
        min_size,
        align,
        assumed: variants.iter().any(|v| v.assumed),
        niche: Niche::Part,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(variants: &[Layout]) -> (usize, Accuracy) {
        let layout = oneof(variants);
        (layout.size, layout.accuracy())
    }

    #[test]
    fn options_use_niches() {
        assert_eq!(scalar(Scalar::Int32).option().size, 8);
        assert_eq!(scalar(Scalar::Double).option().size, 16);
        assert_eq!(scalar(Scalar::Bool).option().size, 1);
        assert_eq!(scalar(Scalar::String).option().size, 24);
    }

    #[test]
    fn struct_rounds_to_alignment() {
        let layout = structure(&[POINTER, scalar(Scalar::Float), scalar(Scalar::Bool)]);
        assert_eq!((layout.size, layout.align), (16, 8));
        // Three floats and the 4-aligned unknown fields: no padding.
        let float = scalar(Scalar::Float);
        let layout = structure(&[UNKNOWN_FIELDS, float, float, float]);
        assert_eq!((layout.size, layout.align), (20, 4));
        assert_eq!(layout.option().size, 20);
        // Without unknown fields: no niche, so `Option` adds a tag.
        let layout = structure(&[float, float, float]);
        assert_eq!((layout.size, layout.option().size), (12, 16));
        // A field with a niche lends it to the struct.
        let layout = structure(&[float, scalar(Scalar::Bool)]);
        assert_eq!((layout.size, layout.option().size), (8, 8));
        // No fields at all: a zero-sized struct, and `Option` of it a byte.
        let layout = structure(&[]);
        assert_eq!((layout.size, layout.option().size), (0, 1));
    }

    #[test]
    fn oneof_layouts() {
        let int = scalar(Scalar::Int32);
        let long = scalar(Scalar::Int64);
        // Tagged, exact: no variant has a niche, or the largest is one.
        assert_eq!(sizes(&[int, long]), (16, Accuracy::Exact));
        assert_eq!(sizes(&[POINTER, POINTER]), (16, Accuracy::Exact));
        assert_eq!(sizes(&[scalar(Scalar::Bool), int]), (8, Accuracy::Exact));
        // The largest variant has room around its niche: an upper bound,
        // and the largest variant as the lower bound.
        let layout = oneof(&[scalar(Scalar::String), int]);
        assert_eq!((layout.min_size, layout.size), (24, 32));
        assert_eq!(layout.accuracy(), Accuracy::UpperBound);
        // One variant: `Option` of it.
        assert_eq!(sizes(&[long]), (16, Accuracy::Exact));
        assert_eq!(sizes(&[POINTER]), (8, Accuracy::Exact));
    }
}
