//! The builder methods of [`Options`]: one per option, each named as the
//! `buffa_build::Config` method that forwards to it, so that build
//! scripts and the plugin's parameters set options the same way.
//!
//! Path arguments are proto paths (`.` for everything, `.pkg`,
//! `.pkg.Message`, `.pkg.Message.field`, the leading dot optional); of
//! several rules of one kind covering an element, the one added last wins.

use super::{BytesRepr, Options, PointerRepr, StringRepr, TonicOptions, UnknownFieldsRepr};
use crate::path;

impl Options {
    /// Maps a proto package or type prefix to an existing Rust path; types
    /// under it are referenced there and not generated. The longest prefix
    /// covering a type wins.
    pub fn extern_path(
        &mut self,
        proto_path: impl AsRef<str>,
        rust_path: impl Into<String>,
    ) -> &mut Self {
        let proto_path = path::normalize(proto_path.as_ref());
        self.extern_paths.push((proto_path, rust_path.into()));
        self
    }

    /// Generates the well-known types like any other type instead of
    /// referring to them in `buffa-types`.
    pub fn compile_well_known_types(&mut self) -> &mut Self {
        self.compile_well_known_types = true;
        self
    }

    /// Generates code for a `#![no_std]` crate (see [`Options::no_std`]
    /// the field).
    pub fn no_std(&mut self) -> &mut Self {
        self.no_std = true;
        self
    }

    /// Generates the map fields under `paths` as `BTreeMap`.
    pub fn btree_map(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.btree_maps.insert(path.as_ref(), ());
        }
        self
    }

    /// Generates the `bytes` fields under `paths` as `bytes::Bytes`: the
    /// prost-build spelling of `bytes_type_in(BytesRepr::Bytes, paths)`.
    pub fn bytes(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.bytes_type_in(BytesRepr::Bytes, paths)
    }

    /// Uses `repr` for every `bytes` field.
    pub fn bytes_type(&mut self, repr: BytesRepr) -> &mut Self {
        self.bytes_type_in(repr, &["."])
    }

    /// Uses `repr` for the `bytes` fields under `paths` (a map field's
    /// path covers its values, a oneof's path its members).
    pub fn bytes_type_in(&mut self, repr: BytesRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.bytes.insert(path.as_ref(), repr);
        }
        self
    }

    /// Uses `repr` for every `string` field.
    pub fn string_type(&mut self, repr: StringRepr) -> &mut Self {
        self.string_type_in(repr, &["."])
    }

    /// Uses `repr` for the `string` fields under `paths` (a map field's
    /// path covers its keys and values, a oneof's path its members).
    pub fn string_type_in(&mut self, repr: StringRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.strings.insert(path.as_ref(), repr);
        }
        self
    }

    /// Uses `repr` for every singular message field.
    pub fn box_type(&mut self, repr: PointerRepr) -> &mut Self {
        self.box_type_in(repr, &["."])
    }

    /// Uses `repr` for the singular message fields under `paths`.
    pub fn box_type_in(&mut self, repr: PointerRepr, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.pointers.insert(path.as_ref(), repr.clone());
        }
        self
    }

    /// Uses the custom pointer `template` (`*` standing for the message
    /// type) for every singular message field.
    pub fn box_type_custom(&mut self, template: impl Into<String>) -> &mut Self {
        self.box_type_custom_in(template, &["."])
    }

    /// Uses the custom pointer `template` for the singular message fields
    /// under `paths`.
    pub fn box_type_custom_in(
        &mut self,
        template: impl Into<String>,
        paths: &[impl AsRef<str>],
    ) -> &mut Self {
        self.box_type_in(PointerRepr::Custom(template.into()), paths)
    }

    /// Stores every singular message field inline, except those boxed to
    /// break cycles.
    pub fn unbox_message_fields(&mut self) -> &mut Self {
        self.unbox_message_fields_in(&["."])
    }

    /// Stores the singular message fields under `paths` inline, except
    /// those boxed to break cycles.
    pub fn unbox_message_fields_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.box_type_in(PointerRepr::Inline, paths)
    }

    /// Makes every message-typed oneof variant hold `T` rather than
    /// `Box<T>`, except those boxed to break cycles.
    pub fn unbox_oneof(&mut self) -> &mut Self {
        self.unbox_oneof_in(&["."])
    }

    /// Makes the message-typed oneof variants under `paths` hold `T`,
    /// except those boxed to break cycles.
    pub fn unbox_oneof_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.unboxed_oneofs.insert(path.as_ref(), true);
        }
        self
    }

    /// Boxes the fields an inline scope rule covers whose message is
    /// estimated larger than `bytes`, everywhere.
    pub fn inline_max_size(&mut self, bytes: usize) -> &mut Self {
        self.inline_max_size_in(bytes, &["."])
    }

    /// Sets the inline size limit of the fields under `paths`.
    pub fn inline_max_size_in(&mut self, bytes: usize, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.inline_max_size.insert(path.as_ref(), bytes);
        }
        self
    }

    /// Keeps (`Keep`, the default) or discards (`Discard`) the unknown
    /// fields of every message.
    pub fn unknown_fields(&mut self, repr: UnknownFieldsRepr) -> &mut Self {
        self.unknown_fields_in(repr, &["."])
    }

    /// Keeps or discards the unknown fields of the messages under `paths`
    /// (packages or messages, nested messages included). A message with
    /// extension ranges keeps them whatever a scope rule says; naming one
    /// exactly with `Discard` is an error.
    pub fn unknown_fields_in(
        &mut self,
        repr: UnknownFieldsRepr,
        paths: &[impl AsRef<str>],
    ) -> &mut Self {
        for path in paths {
            self.unknown_fields.insert(path.as_ref(), repr);
        }
        self
    }

    /// Generates a borrowed view beside every message.
    pub fn views(&mut self) -> &mut Self {
        self.views = true;
        self
    }

    /// Generates views behind the including crate's feature `feature`.
    pub fn views_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.views = true;
        self.views_feature = Some(feature.into());
        self
    }

    /// Generates proto3 JSON support.
    pub fn json(&mut self) -> &mut Self {
        self.json = true;
        self
    }

    /// Generates JSON support behind the including crate's feature
    /// `feature`.
    pub fn json_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.json = true;
        self.json_feature = Some(feature.into());
        self
    }

    /// Generates reflection.
    pub fn reflection(&mut self) -> &mut Self {
        self.reflection = true;
        self
    }

    /// Generates reflection behind the including crate's feature
    /// `feature`.
    pub fn reflection_behind_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.reflection = true;
        self.reflection_feature = Some(feature.into());
        self
    }

    /// Embeds the descriptors without their source info.
    pub fn strip_source_info(&mut self) -> &mut Self {
        self.strip_source_info = true;
        self
    }

    /// Names `buffa-reflect` by `path` in generated code.
    pub fn buffa_reflect_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.buffa_reflect_path = Some(path.into());
        self
    }

    /// Generates gRPC services and clients for tonic (both, unless
    /// [`Options::tonic_server`] or [`Options::tonic_client`] turns one
    /// off).
    pub fn tonic(&mut self) -> &mut Self {
        self.tonic_options();
        self
    }

    /// Whether to generate the server modules; implies
    /// [`Options::tonic`].
    pub fn tonic_server(&mut self, enable: bool) -> &mut Self {
        self.tonic_options().server = enable;
        self
    }

    /// Whether to generate the client modules; implies
    /// [`Options::tonic`].
    pub fn tonic_client(&mut self, enable: bool) -> &mut Self {
        self.tonic_options().client = enable;
        self
    }

    /// The codec type services and clients use; implies
    /// [`Options::tonic`].
    pub fn tonic_codec_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.tonic_options().codec_path = Some(path.into());
        self
    }

    /// Generates reflection, including the impls of extern types (for
    /// `buffa-reflect` itself).
    #[doc(hidden)]
    pub fn reflection_for_extern_types(&mut self) -> &mut Self {
        self.reflection = true;
        self.reflection_for_extern_types = true;
        self
    }

    /// Makes every message-typed view field lazy; implies
    /// [`Options::views`].
    pub fn lazy_views(&mut self) -> &mut Self {
        self.lazy_views_in(&["."])
    }

    /// Makes the message-typed view fields under `paths` lazy; implies
    /// [`Options::views`].
    pub fn lazy_views_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        self.views = true;
        for path in paths {
            self.lazy_views.insert(path.as_ref(), true);
        }
        self
    }

    /// Makes the message-typed view fields under `paths` decoded eagerly,
    /// overriding a lazy rule of a wider scope. Does not turn on views.
    pub fn eager_views_in(&mut self, paths: &[impl AsRef<str>]) -> &mut Self {
        for path in paths {
            self.lazy_views.insert(path.as_ref(), false);
        }
        self
    }

    /// Adds `attribute` to the messages, enums and oneof enums under
    /// `path`.
    pub fn type_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.type_attributes.insert(path.as_ref(), attribute.into());
        self
    }

    /// Adds `attribute` to the messages under `path`.
    pub fn message_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.message_attributes
            .insert(path.as_ref(), attribute.into());
        self
    }

    /// Adds `attribute` to the enums and oneof enums under `path`.
    pub fn enum_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.enum_attributes.insert(path.as_ref(), attribute.into());
        self
    }

    /// Adds `attribute` to the struct fields and oneof variants under
    /// `path`.
    pub fn field_attribute(
        &mut self,
        path: impl AsRef<str>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.field_attributes
            .insert(path.as_ref(), attribute.into());
        self
    }

    /// Leaves out the doc comments taken from the .proto files.
    pub fn disable_comments(&mut self) -> &mut Self {
        self.disable_comments = true;
        self
    }

    /// Names the runtime crate by `path` in generated code.
    pub fn buffa_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.buffa_path = Some(path.into());
        self
    }

    /// The tonic options, switched on.
    fn tonic_options(&mut self) -> &mut TonicOptions {
        self.tonic.get_or_insert_with(Default::default)
    }
}
