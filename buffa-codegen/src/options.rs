//! What the caller can configure about generated code.

use crate::path::PathRules;

/// How a singular message field stores its value: the `P` of
/// `MessageField<T, P>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointerRepr {
    /// `Box<T>`: on the heap. The default, and what an inline field falls
    /// back to when it is boxed to break a cycle.
    Box,
    /// `buffa::Inline<T>`: in place, no allocation.
    Inline,
    /// A user type, given as a template where `*` stands for the message
    /// type, e.g. `"crate::ptr::SmallBox<*>"`. It must implement
    /// `buffa::ProtoBox<T>`.
    Custom(String),
}

/// How a `string` field stores its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StringRepr {
    /// `String`: the default.
    #[default]
    String,
    /// `buffa::BytesStr`: an immutable UTF-8 string on a shared `Bytes`
    /// buffer, which decoding from `Bytes` slices instead of copying.
    BytesStr,
}

/// How a `bytes` field stores its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BytesRepr {
    /// `Vec<u8>`: the default.
    #[default]
    Vec,
    /// `bytes::Bytes`: immutable and shared, which decoding from `Bytes`
    /// slices instead of copying.
    Bytes,
}

/// Options for code generation. Paths are proto paths: `.` for
/// everything, `.pkg`, `.pkg.Message`, `.pkg.Message.field`; when several
/// rules of one kind cover an element, the one added last wins.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Proto package or type prefixes mapped to existing Rust paths; types
    /// under them are referenced there and not generated.
    pub extern_paths: Vec<(String, String)>,
    /// Map fields generated as `BTreeMap` instead of `HashMap`.
    pub btree_maps: PathRules<()>,
    /// Representation of `string` fields (map keys and values included);
    /// `String` where no rule covers a field.
    pub strings: PathRules<StringRepr>,
    /// Representation of `bytes` fields (map values included); `Vec<u8>`
    /// where no rule covers a field.
    pub bytes: PathRules<BytesRepr>,
    /// Pointer choice for singular message fields.
    pub pointers: PathRules<PointerRepr>,
    /// Message-typed oneof variants that hold `T` rather than `Box<T>`.
    pub unboxed_oneofs: PathRules<bool>,
    /// The largest estimated size, in bytes, of a message that a field
    /// (or oneof variant) stores inline because an inline rule covers it
    /// through a scope; larger ones are boxed. A rule naming the field
    /// itself is kept whatever the size.
    pub inline_max_size: PathRules<usize>,
    /// Attributes for messages, enums and oneof enums.
    pub type_attributes: PathRules<String>,
    /// Attributes for messages only.
    pub message_attributes: PathRules<String>,
    /// Attributes for enums (and oneof enums) only.
    pub enum_attributes: PathRules<String>,
    /// Attributes for struct fields and oneof variants.
    pub field_attributes: PathRules<String>,
    /// Generate a borrowed view `FooView<'a>` beside every message `Foo`.
    pub views: bool,
    /// Message-typed view fields (singular or repeated) decoded only when
    /// read; the last rule covering a field decides. Only with `views`.
    pub lazy_views: PathRules<bool>,
    /// Leave out doc comments taken from the .proto files.
    pub disable_comments: bool,
    /// The path generated code uses to reach the runtime crate, e.g.
    /// `::buffa_rt` when the dependency is renamed; `None` means `::buffa`.
    pub buffa_path: Option<String>,
}
