//! # buffa-build
//!
//! Compiles `.proto` files into Rust code for the `buffa` runtime from a
//! build script:
//!
//! ```no_run
//! // build.rs, in `fn main()`:
//! buffa_build::Config::new()
//!     .files(&["proto/shop/v1/shop.proto"])
//!     .includes(&["proto"])
//!     .compile()
//!     .unwrap();
//! ```
//!
//! and in the crate, `buffa::include_proto!("shop.v1");`.
//!
//! The `.proto` files are compiled in process by `buffa-compile`, a
//! compiler written in Rust whose descriptors are those protoc writes,
//! byte for byte: a build needs no protoc binary and no C++ toolchain.
//! [`Config::protoc`] runs protoc instead, taken from
//! [`Config::protoc_executable`], else the `PROTOC` environment variable,
//! else the `protoc-bin-vendored` crate (feature `vendored-protoc`), else
//! `PATH`. [`Config::descriptor_set`] reads a prebuilt descriptor set and
//! compiles nothing.
//!
//! ## Pointer layout
//!
//! Every singular sub-message field is a `buffa::MessageField<T, P>`. By
//! default `P` is `Box<T>`. [`Config::unbox_message_fields`] stores
//! sub-messages inline (`buffa::Inline<T>`, no allocation) wherever that is
//! safe: fields that make a message contain itself stay boxed.
//! [`Config::box_type_in`] and [`Config::box_type_custom_in`] choose the
//! pointer per path. When several rules cover a field, **the rule added
//! last wins**:
//!
//! ```no_run
//! # use buffa_build::PointerRepr;
//! buffa_build::Config::new()
//!     .files(&["proto/scene.proto"])
//!     .includes(&["proto"])
//!     .unbox_message_fields() // inline wherever possible...
//!     .box_type_in(PointerRepr::Box, &[".scene.Node.attachment"]) // ...but not here
//!     .compile()
//!     .unwrap();
//! ```
//!
//! An inline field makes its parent as large as the child even when unset;
//! a boxed one costs an allocation per set value. Where inline fields would
//! make a struct contain itself, the generator keeps a minimum set of them
//! boxed that breaks every such cycle (see `docs/pointer-layout.md` for the
//! bound on exact search), never one an inline rule names
//! exactly; if only such fields could break a cycle, generation fails with
//! an error that shows the cycle. [`Config::unbox_oneof`] does the same for
//! message-typed oneof variants (`T` instead of `Box<T>`).
//! [`Config::inline_max_size`] keeps such broad rules from inlining large
//! messages, and [`Config::layout_report`] writes the estimated size of
//! every struct with each field's pointer and the reason for it.
//!
//! The guide `docs/pointer-layout.md` in the buffa repository covers the
//! trade-off with measured sizes and allocation counts, when to use `Box`,
//! inline or a custom pointer, and the recursion and precedence rules in
//! full; `examples/pointers` is the runnable companion.
//!
//! ## String and bytes representation
//!
//! `string` fields are `String` and `bytes` fields `Vec<u8>` unless
//! [`Config::string_type_in`] chooses `buffa::BytesStr` or
//! [`Config::bytes_type_in`] (or the prost-build spelling
//! [`Config::bytes`]) chooses `bytes::Bytes`, by the same path rules, the
//! last added winning. Both are immutable handles on a shared buffer:
//! decoding from `Bytes` slices the input instead of copying each value.
//!
//! ## Well-known types
//!
//! Imports of `google/protobuf/timestamp.proto` and the other well-known
//! types need no include path (buffa-compile bundles them, as protoc's
//! release does), and by
//! default they are not generated: generated code names them in the
//! `buffa-types` crate (`::buffa_types::google::protobuf::Timestamp`),
//! which the crate then depends on. [`Config::compile_well_known_types`]
//! generates them instead.

#![warn(missing_docs)]

mod protoc;

use std::fmt;
use std::path::{Path, PathBuf};

pub use buffa_codegen::{
    BytesRepr, GeneratedFile, Options, PointerRepr, StringRepr, TonicOptions, UnknownFieldsRepr,
};
use buffa_codegen::{Input, Selection};

/// Why compiling protos failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// protoc could not be run or rejected the input; carries protoc's own
    /// messages (`file:line:column: ...`).
    Protoc(String),
    /// buffa-compile rejected the input; displayed with the offending
    /// lines and a caret under each error.
    Compile(buffa_compile::CompileError),
    /// Reading or writing a file failed.
    Io(PathBuf, std::io::Error),
    /// The configuration is invalid (e.g. a missing file or a bad option).
    Config(String),
    /// Code generation failed.
    Codegen(buffa_codegen::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Protoc(message) => write!(f, "buffa-build: {message}"),
            Error::Compile(e) => write!(f, "buffa-build: .proto files rejected\n{}", e.render()),
            Error::Io(path, e) => write!(f, "buffa-build: {}: {e}", path.display()),
            Error::Config(message) => write!(f, "buffa-build: {message}"),
            Error::Codegen(e) => write!(f, "buffa-build: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(_, e) => Some(e),
            Error::Codegen(e) => Some(e),
            Error::Compile(e) => Some(e),
            _ => None,
        }
    }
}

impl From<buffa_codegen::Error> for Error {
    fn from(e: buffa_codegen::Error) -> Self {
        Error::Codegen(e)
    }
}

/// Build-script configuration: which files, which options, where to write.
#[derive(Clone, Debug, Default)]
pub struct Config {
    files: Vec<PathBuf>,
    includes: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    descriptor_set: Option<PathBuf>,
    use_protoc: bool,
    protoc: Option<PathBuf>,
    protoc_args: Vec<String>,
    include_file: Option<String>,
    layout_report: Option<PathBuf>,
    options: Options,
}

impl Config {
    /// A configuration with no files and default options.
    pub fn new() -> Config {
        Config::default()
    }

    /// Adds .proto files to compile, named as found under the include
    /// directories (or the well-known types' own, e.g.
    /// `google/protobuf/timestamp.proto`) or by a path that exists.
    ///
    /// Their imports are generated too, except files that only option
    /// imports (`import option "...";`, edition 2024) reach: those only
    /// when named here.
    pub fn files(&mut self, files: &[impl AsRef<Path>]) -> &mut Self {
        self.files
            .extend(files.iter().map(|f| f.as_ref().to_owned()));
        self
    }

    /// Adds include directories, searched for the files and their imports.
    pub fn includes(&mut self, includes: &[impl AsRef<Path>]) -> &mut Self {
        self.includes
            .extend(includes.iter().map(|i| i.as_ref().to_owned()));
        self
    }

    /// Writes generated files to `dir` instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Reads a prebuilt encoded `FileDescriptorSet` (with imports, as
    /// `protoc --include_imports -o` writes it) instead of compiling the
    /// .proto files.
    /// [`Config::files`] and [`Config::includes`] are then not used: every
    /// file in the set is generated (except packages under an
    /// `extern_path`).
    pub fn descriptor_set(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.descriptor_set = Some(path.as_ref().to_owned());
        self
    }

    /// Compiles the files with protoc instead of buffa-compile: the binary
    /// of [`Config::protoc_executable`], else `PROTOC`, else the vendored
    /// one (feature `vendored-protoc`), else `protoc` on `PATH`.
    pub fn protoc(&mut self) -> &mut Self {
        self.use_protoc = true;
        self
    }

    /// Compiles the files with this protoc binary (implies
    /// [`Config::protoc`]).
    pub fn protoc_executable(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.protoc = Some(path.as_ref().to_owned());
        self.protoc()
    }

    /// Passes an extra argument to protoc (implies [`Config::protoc`]).
    pub fn protoc_arg(&mut self, arg: impl Into<String>) -> &mut Self {
        self.protoc_args.push(arg.into());
        self.protoc()
    }

    /// Also writes `name` to the output directory: a file that mounts every
    /// generated package in nested modules mirroring the package names.
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.include_file = Some(name.into());
        self
    }

    /// Maps a proto package or type prefix to an existing Rust path; types
    /// under it are not generated but referenced there. The longest prefix
    /// covering a type wins. A rule covering a well-known type replaces its
    /// default mapping to `buffa-types` (see
    /// [`Config::compile_well_known_types`]).
    pub fn extern_path(
        &mut self,
        proto_path: impl AsRef<str>,
        rust_path: impl Into<String>,
    ) -> &mut Self {
        self.options.extern_path(proto_path, rust_path);
        self
    }

    /// Generates the well-known types (`google.protobuf.Timestamp`, `Any`,
    /// `Struct`, the wrappers, ... from `google/protobuf/{any,api,duration,
    /// empty,field_mask,source_context,struct,timestamp,type,wrappers}.proto`)
    /// like any other imported type.
    ///
    /// Without it, generated code refers to them in the `buffa-types`
    /// crate, `::buffa_types::google::protobuf::Timestamp` and so on, and
    /// does not generate them: the crate must then depend on `buffa-types`.
    /// That way every crate shares one `Timestamp`, with its conversions
    /// to `std::time::SystemTime`, as prost-generated code shares
    /// `prost-types`. An [`Config::extern_path`] covering a well-known type
    /// (`.google.protobuf`, or `.google.protobuf.Timestamp` alone) takes
    /// precedence over that default. buffa-types also holds the types of
    /// `descriptor.proto` (`MethodOptions`, ...), so custom options extend
    /// the shared options messages; sub-packages such as
    /// `google.protobuf.compiler` are generated either way.
    ///
    /// buffa-types is views-ready: generated views of messages holding a
    /// well-known type name its `TimestampView<'a>` and so on, so
    /// [`Config::views`] works with the default.
    pub fn compile_well_known_types(&mut self) -> &mut Self {
        self.options.compile_well_known_types();
        self
    }

    /// Generates code for a `#![no_std]` crate, to build with `buffa`'s
    /// default features off (`default-features = false`):
    ///
    /// - `String`, `Vec` and `Box` are named through `::alloc`, so the
    ///   crate root that includes the code declares `extern crate alloc;`;
    /// - every map field is a `BTreeMap` (`HashMap` needs std), whatever
    ///   [`Config::btree_map`] covers;
    /// - each message's default instance is held in a once-cell of
    ///   `buffa`'s that needs atomic compare-and-swap on pointers (ARMv7-M
    ///   and hosted targets have it, ARMv6-M does not), rather than
    ///   `std::sync::OnceLock`.
    ///
    /// [`Config::json`], [`Config::reflection`] and [`Config::tonic`]
    /// generate code that needs std; combined with this, generation fails.
    /// The well-known types of `buffa-types` need std too: a no_std crate
    /// whose protos use them compiles them itself
    /// ([`Config::compile_well_known_types`], with the `google/protobuf`
    /// files among [`Config::files`]).
    ///
    /// ```no_run
    /// // build.rs of a no_std crate whose lib.rs starts with
    /// // `#![no_std] extern crate alloc;`
    /// buffa_build::Config::new()
    ///     .no_std()
    ///     .files(&["proto/sensor.proto"])
    ///     .includes(&["proto"])
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn no_std(&mut self) -> &mut Self {
        self.options.no_std();
        self
    }

    /// Generates the map fields under `paths` as `BTreeMap`.
    pub fn btree_map(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.btree_map(paths);
        self
    }

    /// Generates the `bytes` fields under `paths` as `bytes::Bytes`, which
    /// share the input when decoding from `Bytes`. The prost-build
    /// spelling of `bytes_type_in(BytesRepr::Bytes, paths)`; its rules join
    /// the same ordered list.
    pub fn bytes(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.bytes(paths);
        self
    }

    /// Uses `repr` for every `bytes` field. Same as
    /// `bytes_type_in(repr, &["."])`.
    pub fn bytes_type(&mut self, repr: BytesRepr) -> &mut Self {
        self.options.bytes_type(repr);
        self
    }

    /// Uses `repr` for the `bytes` fields under `paths`: `Vec<u8>` (the
    /// default) or `bytes::Bytes`. The rule added last wins, so a scope
    /// can be switched and exceptions named after it. A map field's path
    /// covers its values, a oneof's path its members.
    ///
    /// ```no_run
    /// # use buffa_build::BytesRepr;
    /// buffa_build::Config::new()
    ///     .files(&["proto/store.proto"])
    ///     .bytes_type(BytesRepr::Bytes)
    ///     .bytes_type_in(BytesRepr::Vec, &[".store.Scratch"])
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn bytes_type_in(&mut self, repr: BytesRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.bytes_type_in(repr, paths);
        self
    }

    /// Uses `repr` for every `string` field. Same as
    /// `string_type_in(repr, &["."])`.
    pub fn string_type(&mut self, repr: StringRepr) -> &mut Self {
        self.options.string_type(repr);
        self
    }

    /// Uses `repr` for the `string` fields under `paths`: `String` (the
    /// default) or `buffa::BytesStr`, an immutable UTF-8 string on a
    /// shared `Bytes` buffer. Decoding a message from `Bytes`
    /// (`Message::decode_bytes`, or `decode` of a `Bytes`) then makes each
    /// such string a slice of the input: no copy and no allocation per
    /// string, at the price of the whole input staying alive while any of
    /// them does. From a `&[u8]` they are copied, as `String`s are. The
    /// rule added last wins; a map field's path covers its keys and
    /// values, a oneof's path its members.
    ///
    /// ```no_run
    /// # use buffa_build::StringRepr;
    /// buffa_build::Config::new()
    ///     .files(&["proto/logs.proto"])
    ///     .string_type_in(StringRepr::BytesStr, &[".logs"])
    ///     .string_type_in(StringRepr::String, &[".logs.Entry.edited_text"])
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn string_type_in(&mut self, repr: StringRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.string_type_in(repr, paths);
        self
    }

    /// Uses `repr` for every singular message field.
    pub fn box_type(&mut self, repr: PointerRepr) -> &mut Self {
        self.options.box_type(repr);
        self
    }

    /// Uses `repr` for the singular message fields under `paths`. Of
    /// `Inline` fields that form a cycle, only those needed to break it
    /// stay boxed; never a field an `Inline` rule names exactly (an error if a
    /// cycle has no other field to box).
    pub fn box_type_in(&mut self, repr: PointerRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.box_type_in(repr, paths);
        self
    }

    /// Uses a custom pointer for every singular message field; `template`
    /// names the type with `*` for the message, e.g.
    /// `"crate::ptr::SmallBox<*>"`. The type must implement
    /// `buffa::ProtoBox<T>`.
    pub fn box_type_custom(&mut self, template: impl Into<String>) -> &mut Self {
        self.options.box_type_custom(template);
        self
    }

    /// Uses a custom pointer for the singular message fields under `paths`.
    pub fn box_type_custom_in(
        &mut self,
        template: impl Into<String>,
        paths: &[impl AsRef<str>],
    ) -> &mut Self {
        self.options.box_type_custom_in(template, paths);
        self
    }

    /// Stores every singular message field inline, except those that must
    /// stay boxed so that no message contains itself. Same as
    /// `unbox_message_fields_in(&["."])`.
    pub fn unbox_message_fields(&mut self) -> &mut Self {
        self.options.unbox_message_fields();
        self
    }

    /// Stores the singular message fields under `paths` inline, except
    /// those that must stay boxed to break cycles. A field named exactly
    /// is never the one boxed; if a cycle consists of such fields only,
    /// generation fails.
    pub fn unbox_message_fields_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.unbox_message_fields_in(paths);
        self
    }

    /// Keeps (`Keep`, the default) or discards (`Discard`) the unknown
    /// fields of every message. Same as `unknown_fields_in(repr, &["."])`.
    pub fn unknown_fields(&mut self, repr: UnknownFieldsRepr) -> &mut Self {
        self.options.unknown_fields(repr);
        self
    }

    /// Keeps or discards the unknown fields of the messages under `paths`
    /// (a package's or a message's path, nested messages included; the
    /// rule added last that covers a message wins).
    ///
    /// A message under `Discard` has no `unknown_fields` field: it is a
    /// pointer smaller and has no drop glue for it, as prost's structs.
    /// Decoding still checks every unknown field (malformed input fails as
    /// it does when they are kept) but drops it, encoding writes none, and
    /// `Message::unknown_fields` returns an empty set; its view keeps none
    /// either. Messages with extension ranges keep their unknown fields,
    /// where their extensions live, whatever a scope rule says
    /// ([`Config::layout_report`] marks them), and naming one of them
    /// exactly is an error, as is a path that covers no message.
    ///
    /// ```no_run
    /// use buffa_build::UnknownFieldsRepr;
    ///
    /// buffa_build::Config::new()
    ///     .files(&["proto/mesh.proto"])
    ///     .includes(&["proto"])
    ///     .unknown_fields_in(UnknownFieldsRepr::Discard, &[".mesh"])
    ///     .unknown_fields_in(UnknownFieldsRepr::Keep, &[".mesh.Mesh"])
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn unknown_fields_in(
        &mut self,
        repr: UnknownFieldsRepr,
        paths: &[impl AsRef<str>],
    ) -> &mut Self {
        self.options.unknown_fields_in(repr, paths);
        self
    }

    /// Makes every message-typed oneof variant hold `T` rather than
    /// `Box<T>`, except those that must stay boxed to break cycles.
    pub fn unbox_oneof(&mut self) -> &mut Self {
        self.options.unbox_oneof();
        self
    }

    /// Makes the message-typed oneof variants under `paths` (a oneof's path
    /// is `.pkg.Msg.oneof_name`) hold `T`, except those that must stay
    /// boxed to break cycles; a variant named exactly by its field path is
    /// never the one boxed.
    pub fn unbox_oneof_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.unbox_oneof_in(paths);
        self
    }

    /// Boxes every singular message field and message-typed oneof variant
    /// that a scope rule would store inline when the struct of its message
    /// is estimated to be larger than `bytes`. Same as
    /// `inline_max_size_in(bytes, &["."])`.
    ///
    /// ```no_run
    /// buffa_build::Config::new()
    ///     .files(&["proto/scene.proto"])
    ///     .includes(&["proto"])
    ///     .unbox_message_fields() // inline what is at most 64 bytes,
    ///     .inline_max_size(64)
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn inline_max_size(&mut self, bytes: usize) -> &mut Self {
        self.options.inline_max_size(bytes);
        self
    }

    /// Sets the inline size limit of the fields under `paths` (a field's
    /// path, a oneof's, a message's, a package's or `.`); the rule added
    /// last that covers a field gives its limit.
    ///
    /// The limit applies to fields that an inline rule
    /// ([`Config::unbox_message_fields_in`], [`Config::box_type_in`] with
    /// `Inline`, [`Config::unbox_oneof_in`]) covers through a scope: such a
    /// field is boxed when the estimated `size_of` of its message's struct,
    /// as generated, exceeds the limit (a message of exactly `bytes` stays
    /// inline). An inline rule naming the field itself wins over every
    /// limit. The estimate is exact for most messages and never below the
    /// real size; [`Config::layout_report`] shows it, and which fields the
    /// limit boxed.
    pub fn inline_max_size_in(&mut self, bytes: usize, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.inline_max_size_in(bytes, paths);
        self
    }

    /// Makes [`Config::compile`] also write the layout report to `path`
    /// (relative to the output directory unless absolute; missing
    /// directories are created): a text table of every generated message,
    /// sorted by full name, with the estimated
    /// `size_of` of its struct on 64-bit targets, and under it each
    /// singular message field and message-typed oneof variant with where
    /// its value lives (`Box`, `Inline` or the custom pointer type) and
    /// why (`rule <path>`, `default`, `recursion`, or `size <estimate> >
    /// <limit>`). Repeated and map message fields are listed as heap
    /// containers.
    ///
    /// With `unbox_message_fields()` and `inline_max_size(64)`, part of
    /// such a report reads:
    ///
    /// ```text
    /// # message / field         size  kind      storage         why
    /// .shop.Address              128  message   shop::Address
    /// .shop.Customer              64  message   shop::Customer
    ///   .shop.Customer.billing        field     Box             size 128 > 64
    /// .shop.Order                152  message   shop::Order
    ///   .shop.Order.customer          field     Inline          rule .
    ///   .shop.Order.shipping          field     Box             size 128 > 64
    ///   .shop.Order.lines             repeated  Vec             heap container
    /// ```
    ///
    /// `docs/pointer-layout.md` in the buffa repository describes the
    /// format and how close the estimate is.
    pub fn layout_report(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.layout_report = Some(path.as_ref().to_owned());
        self
    }

    /// Generates a borrowed view `FooView<'a>` beside every message `Foo`
    /// (see `buffa::MessageView`): decoding it copies no string, bytes or
    /// singular sub-message, and allocates only for repeated and map
    /// fields. Where a proto type takes the name `FooView` (googleapis'
    /// `enum DataItemView` beside `message DataItem`), the view is
    /// `FooView_` instead (`_` appended until the name is free); oneof
    /// view enums yield the same way. These names are claimed with or
    /// without views, so turning views on renames nothing. Without views
    /// the generated code does not change.
    ///
    /// A view field of a well-known type is that type's view in
    /// `buffa-types` (`::buffa_types::google::protobuf::TimestampView`),
    /// which exists only with `buffa-types`' `views` feature: a crate
    /// whose protos import a well-known type and that generates views
    /// depends on `buffa-types` with `features = ["views"]`.
    pub fn views(&mut self) -> &mut Self {
        self.options.views();
        self
    }

    /// Like [`Config::views`], with every view item (view structs, oneof
    /// view enums, their impls, and the owned message's `HasView` impl)
    /// behind `#[cfg(feature = "<feature>")]` of the crate that includes
    /// the code, for crates whose views are an optional feature.
    /// `buffa-types` builds its own views this way, behind its `views`
    /// feature.
    pub fn views_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.options.views_behind_feature(feature);
        self
    }

    /// Generates proto3 JSON support: `serde::Serialize` and
    /// `serde::Deserialize` for every message and enum, following the
    /// protobuf JSON mapping, and a `register_types` function in every
    /// package module (for `google.protobuf.Any`). The crate needs `buffa`
    /// with its `json` feature; it needs no `serde` dependency of its own.
    /// Read and write with options through `buffa::json`.
    ///
    /// Packages whose names differ only in case (`a.B`, `a.b`) share one
    /// Rust module; there, in the order of their names, the first
    /// package's function is `register_types` and the next ones'
    /// `register_types_2`, `register_types_3`, ...
    pub fn json(&mut self) -> &mut Self {
        self.options.json();
        self
    }

    /// Like [`Config::json`], with the JSON impls behind
    /// `#[cfg(feature = "<feature>")]` of the crate that includes the code,
    /// for crates whose JSON support is an optional feature (which must
    /// enable `buffa/json`).
    pub fn json_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.options.json_behind_feature(feature);
        self
    }

    /// Generates reflection: every message implements
    /// `buffa_reflect::ReflectMessage`, so tools written over reflection
    /// (the text format, dynamic messages, your own) read and change it by
    /// field descriptor, and reading a scalar field that way allocates
    /// nothing. The crate needs the `buffa-reflect` crate.
    ///
    /// The descriptors come with the code: the encoded
    /// `FileDescriptorSet` of the generated files and of their imports, as
    /// protoc wrote it (comments included), is embedded once per run, as
    /// `FILE_DESCRIPTOR_SET` in the module of the first package by name,
    /// and decoded on first use by that module's `descriptor_pool()`. Every
    /// other package module of the run has a `descriptor_pool()` that
    /// returns the same pool, so the packages of one run must be mounted
    /// together ([`Config::include_file`]), and a message of another run
    /// (an [`Config::extern_path`] type) must have been generated with
    /// reflection too. The well-known types of `buffa-types` get theirs
    /// from `buffa-reflect`.
    ///
    /// The descriptor set costs binary size (comments included, often
    /// more than the code that uses it): [`Config::strip_source_info`]
    /// leaves the comments out; without reflection nothing is embedded.
    /// Reflection also adds compile time, hence it is off unless asked for.
    pub fn reflection(&mut self) -> &mut Self {
        self.options.reflection();
        self
    }

    /// Like [`Config::reflection`], with the reflection code behind
    /// `#[cfg(feature = "<feature>")]` of the crate that includes the code,
    /// for crates whose reflection support is an optional feature (which
    /// must enable their `buffa-reflect` dependency). `FILE_DESCRIPTOR_SET`
    /// is there either way.
    pub fn reflection_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.options.reflection_behind_feature(feature);
        self
    }

    /// Embeds the descriptors of [`Config::reflection`] without their
    /// source info: a smaller binary, but descriptors without comments.
    pub fn strip_source_info(&mut self) -> &mut Self {
        self.options.strip_source_info();
        self
    }

    /// Sets the path through which generated code reaches `buffa-reflect`:
    /// `::buffa_reflect` by default; see [`Config::buffa_path`] for the
    /// rules it must follow.
    pub fn buffa_reflect_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.buffa_reflect_path(path);
        self
    }

    /// Generates gRPC services and clients for [tonic] from the `service`
    /// definitions, as tonic's own generator lays them out: for a
    /// `service Echo`, the package module gains `echo_server` (the `Echo`
    /// trait to implement and `EchoServer`, the service to mount) and
    /// `echo_client` (`EchoClient`), for unary, server-streaming,
    /// client-streaming and bidirectional methods alike. Messages travel
    /// through `buffa_tonic::BuffaCodec` (see [`Config::tonic_codec_path`]).
    ///
    /// Needs this crate's `tonic` feature, without which
    /// [`Config::compile`] returns an error saying so; the crate
    /// including the code depends on `tonic` (its default features, or at
    /// least `codegen` and `transport`) and `buffa-tonic`. The guide
    /// `docs/grpc.md` in the buffa repository has a complete server and
    /// client.
    ///
    /// [tonic]: https://docs.rs/tonic
    pub fn tonic(&mut self) -> &mut Self {
        self.options.tonic();
        self
    }

    /// Whether [`Config::tonic`] generates the server modules
    /// (`foo_server`); `true` by default. Implies [`Config::tonic`].
    pub fn tonic_server(&mut self, enable: bool) -> &mut Self {
        self.options.tonic_server(enable);
        self
    }

    /// Whether [`Config::tonic`] generates the client modules
    /// (`foo_client`); `true` by default. Implies [`Config::tonic`].
    pub fn tonic_client(&mut self, enable: bool) -> &mut Self {
        self.options.tonic_client(enable);
        self
    }

    /// Sets the codec type generated services and clients use, built with
    /// `Default`: `::buffa_tonic::BuffaCodec` by default. Name it without
    /// its type parameters, by an absolute path (see
    /// [`Config::buffa_path`]): `::my_tonic::BuffaCodec` for a renamed
    /// dependency, or an alias of `BuffaCodec` with other limits,
    /// `crate::grpc::StrictCodec` for
    /// `pub type StrictCodec<T, U> = buffa_tonic::BuffaCodec<T, U, Strict>;`
    /// (see `buffa_tonic::CodecOptions`). Implies [`Config::tonic`].
    pub fn tonic_codec_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.tonic_codec_path(path);
        self
    }

    /// Also generates the reflection impls of the types that extern paths
    /// map elsewhere; only `buffa-reflect` can compile them (Rust's orphan
    /// rule), for the types of `buffa-types`. Implies
    /// [`Config::reflection`].
    #[doc(hidden)]
    pub fn reflection_for_extern_types(&mut self) -> &mut Self {
        self.options.reflection_for_extern_types();
        self
    }

    /// Makes every message-typed view field lazy. Same as
    /// `lazy_views_in(&["."])`; implies [`Config::views`].
    pub fn lazy_views(&mut self) -> &mut Self {
        self.options.lazy_views();
        self
    }

    /// Makes the message-typed view fields (singular or repeated) under
    /// `paths` lazy: the view keeps their bytes and decodes them when read
    /// (`buffa::LazyField`, `buffa::LazyRepeated`). The paths follow the
    /// pointer rules: the last rule covering a field decides, and
    /// [`Config::eager_views_in`] takes fields back. Implies
    /// [`Config::views`]. Oneof members and map values stay eager.
    pub fn lazy_views_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.lazy_views_in(paths);
        self
    }

    /// Makes the view fields under `paths` eager again, overriding earlier
    /// [`Config::lazy_views_in`] rules.
    pub fn eager_views_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.options.eager_views_in(paths);
        self
    }

    /// Adds an attribute (e.g. `#[derive(serde::Serialize)]`) to the
    /// messages, enums and oneof enums under `path`.
    pub fn type_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options.type_attribute(path, attribute);
        self
    }

    /// Adds an attribute to the messages under `path`.
    pub fn message_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options.message_attribute(path, attribute);
        self
    }

    /// Adds an attribute to the enums and oneof enums under `path`.
    pub fn enum_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options.enum_attribute(path, attribute);
        self
    }

    /// Adds an attribute to the fields (and oneof variants) under `path`.
    pub fn field_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options.field_attribute(path, attribute);
        self
    }

    /// Leaves .proto comments out of the generated code.
    pub fn disable_comments(&mut self) -> &mut Self {
        self.options.disable_comments();
        self
    }

    /// Sets the path through which generated code reaches the `buffa`
    /// runtime crate: `::buffa` by default. Use it when the dependency is
    /// renamed, or when the runtime is re-exported by another crate.
    ///
    /// Every path the generated code emits to the runtime goes through it:
    /// the user-facing types (`<path>::MessageField`, `<path>::EnumValue`,
    /// ...) and the import of its support module at the top of each
    /// generated module (`use <path>::__private::alias::*;`). It must be an
    /// absolute Rust path without generic arguments, starting with `::`
    /// (`::buffa_rt`) or `crate` (`crate::rt`, for a re-export): generated
    /// code uses it from nested modules, where a relative path would mean
    /// something else (`super::...`) or could be shadowed by a generated
    /// module (`buffa_rt` inside the module of a package `x.buffa_rt`).
    /// Anything else makes [`Config::compile`] and [`Config::generate`]
    /// return an error naming `buffa_path`.
    ///
    /// With `buffa_rt = { package = "buffa", version = "..." }` in
    /// `Cargo.toml`:
    ///
    /// ```no_run
    /// // build.rs, in `fn main()`:
    /// buffa_build::Config::new()
    ///     .files(&["proto/shop/v1/shop.proto"])
    ///     .includes(&["proto"])
    ///     .buffa_path("::buffa_rt")
    ///     .compile()
    ///     .unwrap();
    /// ```
    ///
    /// and in the crate, `buffa_rt::include_proto!("shop.v1");`.
    pub fn buffa_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.buffa_path(path);
        self
    }

    /// Compiles the files (unless a descriptor set was given) and generates
    /// code, and returns the generated files without writing them.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Error> {
        let descriptor_set = self.load_descriptor_set()?;
        let input = Input::parse(&descriptor_set, &self.options)?;
        Ok(self.select(&input)?.generate()?)
    }

    /// The encoded `FileDescriptorSet`: read from [`Config::descriptor_set`]
    /// or compiled, by buffa-compile or protoc, with source info (the doc
    /// comments of the generated code).
    fn load_descriptor_set(&self) -> Result<Vec<u8>, Error> {
        if let Some(path) = &self.descriptor_set {
            return std::fs::read(path).map_err(|e| Error::Io(path.clone(), e));
        }
        if self.files.is_empty() {
            return Err(Error::Config(
                "no .proto files given: call Config::files".into(),
            ));
        }
        for include in &self.includes {
            if !include.is_dir() {
                return Err(Error::Config(format!(
                    "include path {} is not a directory",
                    include.display()
                )));
            }
        }
        if !self.use_protoc {
            let mut compiler = buffa_compile::Compiler::new();
            compiler.includes(&self.includes).include_source_info(true);
            return compiler
                .compile_to_bytes(&self.files)
                .map_err(Error::Compile);
        }
        let well_known = protoc::well_known_includes();
        for file in &self.files {
            let found = file.is_file()
                || self
                    .includes
                    .iter()
                    .chain(&well_known)
                    .any(|include| include.join(file).is_file());
            if !found {
                return Err(Error::Config(format!(
                    "proto file {} not found (include paths: {:?})",
                    file.display(),
                    self.includes
                )));
            }
        }
        let protoc = protoc::locate(self.protoc.as_deref())?;
        protoc::descriptor_set(&protoc, &self.includes, &self.files, &self.protoc_args)
    }

    /// Generates code and writes it to the output directory (`OUT_DIR`
    /// unless [`Config::out_dir`] was called), one file per package.
    pub fn compile(&self) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::Config(
                        "OUT_DIR is not set: call Config::out_dir outside build scripts".into(),
                    )
                })?,
        };
        let descriptor_set = self.load_descriptor_set()?;
        let input = Input::parse(&descriptor_set, &self.options)?;
        if std::env::var_os("CARGO").is_some() {
            self.emit_rerun_if_changed(&input);
        }
        let selection = self.select(&input)?;
        let files = selection.generate()?;
        if let Some(name) = &self.include_file
            && let Some(file) = files.iter().find(|f| f.name == *name)
        {
            return Err(Error::Config(format!(
                "include file {name} would overwrite the code generated for package {:?}; \
                 choose another include file name",
                file.package
            )));
        }
        std::fs::create_dir_all(&out_dir).map_err(|e| Error::Io(out_dir.clone(), e))?;
        for file in &files {
            write_if_changed(&out_dir.join(&file.name), &file.content)?;
        }
        if let Some(name) = &self.include_file {
            write_if_changed(&out_dir.join(name), &buffa_codegen::include_file(&files))?;
        }
        if let Some(path) = &self.layout_report {
            let report = selection.layout_report()?;
            let path = out_dir.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::Io(parent.to_owned(), e))?;
            }
            write_if_changed(&path, &report)?;
        }
        Ok(())
    }
}

impl Config {
    /// Tells cargo to rerun the build script when any input changes: every
    /// .proto file of the set found under the include paths (imports
    /// included), the descriptor set file, and `PROTOC` when protoc
    /// compiles.
    fn emit_rerun_if_changed(&self, input: &Input<'_>) {
        if let Some(path) = &self.descriptor_set {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        for (name, _) in input.files() {
            if let Some(path) = self
                .includes
                .iter()
                .map(|i| i.join(name))
                .find(|p| p.is_file())
            {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        if self.use_protoc {
            println!("cargo:rerun-if-env-changed=PROTOC");
        }
    }
}

impl Config {
    /// Selects the files of `input` that code is generated for: all of
    /// them but those whose package an extern path in force covers
    /// (`Options::is_extern_package`), and those that only option imports
    /// reach (`import option`, edition 2024) unless [`Config::files`]
    /// names them. Files whose types are all extern, such as the
    /// well-known type files under their default mapping, produce no code
    /// either.
    fn select<'a>(&self, input: &'a Input<'_>) -> Result<Selection<'a>, Error> {
        let names: Vec<&str> = input
            .files_with_code(&self.requested_names())
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        Ok(input.select(&names)?)
    }

    /// The names protoc may give the files of [`Config::files`]: each path
    /// as given and relative to every include path it lies under.
    fn requested_names(&self) -> Vec<String> {
        let name = |path: &Path| path.to_string_lossy().replace('\\', "/");
        self.files
            .iter()
            .flat_map(|file| {
                self.includes
                    .iter()
                    .filter_map(|include| file.strip_prefix(include).ok())
                    .chain([file.as_path()])
                    .map(name)
            })
            .collect()
    }
}

fn write_if_changed(path: &Path, content: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == content) {
        return Ok(());
    }
    std::fs::write(path, content).map_err(|e| Error::Io(path.to_owned(), e))
}
