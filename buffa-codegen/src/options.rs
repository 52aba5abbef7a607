//! What the caller can configure about generated code.

use crate::path::PathRules;

/// How a singular message field stores its value: the `P` of
/// `MessageField<T, P>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointerRepr {
    /// `Box<T>`: on the heap. The default, and the only choice for fields
    /// that make their message recursive.
    Box,
    /// `buffa::Inline<T>`: in place, no allocation.
    Inline,
    /// A user type, given as a template where `*` stands for the message
    /// type, e.g. `"crate::ptr::SmallBox<*>"`. It must implement
    /// `buffa::ProtoBox<T>`.
    Custom(String),
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
    /// `bytes` fields generated as `bytes::Bytes` instead of `Vec<u8>`.
    pub shared_bytes: PathRules<()>,
    /// Pointer choice for singular message fields.
    pub pointers: PathRules<PointerRepr>,
    /// Message-typed oneof variants that hold `T` rather than `Box<T>`.
    pub unboxed_oneofs: PathRules<bool>,
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
