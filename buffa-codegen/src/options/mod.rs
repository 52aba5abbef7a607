//! What the caller can configure about generated code.

mod apply;
pub mod attributes;
mod builder;
pub mod no_std;

use crate::path::{self, PathRules};
use crate::well_known;

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

/// Whether a message keeps the fields its schema does not know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnknownFieldsRepr {
    /// A `pub unknown_fields: buffa::UnknownFields` field (one pointer)
    /// keeps them, byte for byte, and encoding writes them back: the
    /// default.
    #[default]
    Keep,
    /// No field: decoding checks and skips them, encoding writes none, and
    /// `Message::unknown_fields` is always empty. The struct is a pointer
    /// smaller and has no drop glue for it (nor its niche: an inline field
    /// of such a message is an `Option` with a tag). Messages with
    /// extension ranges keep them regardless, since their extensions live
    /// there; a rule naming such a message exactly is an error.
    Discard,
}

/// Options for code generation. Paths are proto paths: `.` for
/// everything, `.pkg`, `.pkg.Message`, `.pkg.Message.field`; when several
/// rules of one kind cover an element, the one added last wins.
///
/// Set them with the builder methods, named as `buffa_build::Config`'s
/// methods, which forward to them, or by key with [`Options::apply`], as
/// `protoc-gen-buffa` does with its parameters:
///
/// ```
/// let mut options = buffa_codegen::Options::default();
/// options.views().unbox_message_fields_in(&[".scene"]);
/// options.apply("json_behind_feature", Some("serde")).unwrap();
/// assert!(options.views && options.json);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Proto package or type prefixes mapped to existing Rust paths; types
    /// under them are referenced there and not generated. The longest
    /// prefix covering a type wins. See
    /// [`Options::effective_extern_paths`] for the rules in force.
    pub extern_paths: Vec<(String, String)>,
    /// Generate the well-known types (`google.protobuf.Timestamp`, `Any`,
    /// ...) like any other type. When `false` (the default) they are
    /// referenced in `::buffa_types::google::protobuf` instead, wherever no
    /// entry of `extern_paths` covers them.
    pub compile_well_known_types: bool,
    /// Map fields generated as `BTreeMap` instead of `HashMap`.
    pub btree_maps: PathRules<()>,
    /// Generate code for `#![no_std]` crates: `String`, `Vec`, `Box` and
    /// `BTreeMap` named through `::alloc` rather than `::std` (the crate
    /// that includes the code declares `extern crate alloc;`), every map
    /// field a `BTreeMap` whatever `btree_maps` says, and default instances
    /// held in `buffa`'s own once-cell instead of `std::sync::OnceLock`.
    /// The runtime may then be built without its `std` feature. JSON,
    /// reflection and tonic services need std, so combining them with this
    /// is an error.
    pub no_std: bool,
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
    /// Whether messages keep unknown fields; `Keep` where no rule covers a
    /// message.
    pub unknown_fields: PathRules<UnknownFieldsRepr>,
    /// Attributes for messages, enums and oneof enums.
    pub type_attributes: PathRules<String>,
    /// Attributes for messages only.
    pub message_attributes: PathRules<String>,
    /// Attributes for enums (and oneof enums) only.
    pub enum_attributes: PathRules<String>,
    /// Attributes for struct fields and oneof variants.
    pub field_attributes: PathRules<String>,
    /// Generate a borrowed view `FooView<'a>` beside every message `Foo`
    /// (`FooView_<'a>` where a type of that name exists, such as an enum
    /// `FooView`: names never depend on options, see DESIGN.md).
    pub views: bool,
    /// Put every view item (view structs, oneof view enums, their impls,
    /// the owned message's `HasView` impl) behind `#[cfg(feature = "...")]`
    /// of the crate that includes the code, for crates whose views are
    /// optional. Only with `views`.
    pub views_feature: Option<String>,
    /// Generate proto3 JSON support: `serde::Serialize` and
    /// `serde::Deserialize` for every message and enum, and a
    /// `register_types` function per package. Generated code needs the
    /// runtime's `json` feature.
    pub json: bool,
    /// Put the JSON impls behind `#[cfg(feature = "...")]` of the crate
    /// that includes the code, for crates whose JSON support is optional.
    pub json_feature: Option<String>,
    /// Message-typed view fields (singular or repeated) decoded only when
    /// read; the last rule covering a field decides. Only with `views`.
    pub lazy_views: PathRules<bool>,
    /// Leave out doc comments taken from the .proto files.
    pub disable_comments: bool,
    /// The path generated code uses to reach the runtime crate, e.g.
    /// `::buffa_rt` when the dependency is renamed; `None` means `::buffa`.
    pub buffa_path: Option<String>,
    /// Generate reflection: embed the encoded `FileDescriptorSet` of the
    /// generated files and their imports once per run
    /// (`FILE_DESCRIPTOR_SET` and `descriptor_pool()` in one package
    /// module, a forwarding `descriptor_pool()` in the others), and make
    /// every message a `buffa_reflect::ReflectMessage`. Generated code
    /// needs the `buffa-reflect` crate.
    pub reflection: bool,
    /// Put the reflection code (not `FILE_DESCRIPTOR_SET`) behind
    /// `#[cfg(feature = "...")]` of the crate that includes the code.
    pub reflection_feature: Option<String>,
    /// Embed the descriptors without their source info: smaller, but
    /// descriptors then have no comments.
    pub strip_source_info: bool,
    /// The path generated code uses to reach `buffa-reflect`; `None` means
    /// `::buffa_reflect`. Checked as `buffa_path` is.
    pub buffa_reflect_path: Option<String>,
    /// With `reflection`, also generate the reflection impls of the types
    /// of the generated files that extern paths map elsewhere. Rust's
    /// orphan rule allows those impls only in `buffa-reflect` itself, which
    /// uses this for the types of `buffa-types`.
    #[doc(hidden)]
    pub reflection_for_extern_types: bool,
    /// Generate gRPC services and clients for tonic from the `service`
    /// definitions: per service `Foo`, a module `foo_server` and a module
    /// `foo_client` in its package's module, as tonic's own generator lays
    /// them out (`foo_service_server`, trait `FooService`, where those
    /// modules or the trait's name are taken). `None` (the default)
    /// generates none. Needs this crate's `tonic` feature; generated code
    /// needs the `tonic` and `buffa-tonic` crates.
    pub tonic: Option<TonicOptions>,
}

/// What [`Options::tonic`] generates for each service.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TonicOptions {
    /// Generate the server module (`foo_server`: the `Foo` trait and
    /// `FooServer`). Default `true`.
    pub server: bool,
    /// Generate the client module (`foo_client`: `FooClient`). Default
    /// `true`.
    pub client: bool,
    /// The codec type generated services and clients build with
    /// `Default`, a path with its generic parameters left out (e.g.
    /// `crate::grpc::StrictCodec` for an alias of `BuffaCodec` with other
    /// limits, or `::buffa_tonic_rt::BuffaCodec` for a renamed
    /// dependency); `None` means `::buffa_tonic::BuffaCodec`. Checked as
    /// `buffa_path` is.
    pub codec_path: Option<String>,
}

impl Default for TonicOptions {
    fn default() -> Self {
        TonicOptions {
            server: true,
            client: true,
            codec_path: None,
        }
    }
}

impl Options {
    /// The extern paths in force: [`Options::extern_paths`] and, unless
    /// [`Options::compile_well_known_types`] is set, an implicit rule per
    /// well-known type mapping it into `::buffa_types::google::protobuf`
    /// (`.google.protobuf.Timestamp` to
    /// `::buffa_types::google::protobuf::Timestamp`, ...).
    ///
    /// An implicit rule is left out when an entry of `extern_paths` covers
    /// it (`.google.protobuf`, `.google`, `.google.protobuf.Timestamp`), so
    /// the user's rule applies there; a user's rule for a longer prefix
    /// (`.google.protobuf.Field.Kind`) wins over it as usual. The
    /// implicit rules name types, not the package, so the sub-packages of
    /// `google.protobuf` (`google.protobuf.compiler`), which buffa-types
    /// does not hold, are still generated.
    pub fn effective_extern_paths(&self) -> Vec<(String, String)> {
        let mut paths: Vec<(String, String)> = Vec::new();
        if !self.compile_well_known_types {
            paths.extend(well_known::extern_paths().filter(|(proto, _)| {
                !self
                    .extern_paths
                    .iter()
                    .any(|(rule, _)| path::covers(rule, proto))
            }));
        }
        paths.extend(self.extern_paths.iter().cloned());
        paths
    }

    /// Whether an extern path in force ([`Options::effective_extern_paths`])
    /// covers the whole of `package` (without leading dot, empty for
    /// none), so that no code is generated for its files. `buffa-build`
    /// and `protoc-gen-buffa` leave such files out of a run.
    pub fn is_extern_package(&self, package: &str) -> bool {
        let package = format!(".{package}");
        self.effective_extern_paths()
            .iter()
            .any(|(proto, _)| path::covers(proto, &package))
    }
}
