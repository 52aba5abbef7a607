//! The field model: a message's fields resolved from its descriptor, with
//! their names, shapes, value types and pointers.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use prost_types::field_descriptor_proto::{Label, Type};
use quote::quote;

use crate::context::Context;
use crate::error::Error;
use crate::features::{self, Presence};
use crate::field::{self, Field, Scalar, Shape, ValueType};
use crate::ident;
use crate::no_std;
use crate::options::{BytesRepr, StringRepr};
use crate::pointer;
use crate::schema::MessageType;

/// The name `unknown_fields` is taken by the generated struct itself.
const RESERVED_FIELD_NAMES: &[&str] = &["unknown_fields"];

impl<'a> Context<'a> {
    /// Struct-field names for the fields and oneofs of `message`, made
    /// unique and kept off reserved names. Indexed like `proto.field`, then
    /// the oneofs.
    pub fn member_names(&self, message: &MessageType<'_>) -> (Vec<String>, Vec<String>) {
        let mut seen: HashSet<String> =
            RESERVED_FIELD_NAMES.iter().map(|s| s.to_string()).collect();
        let mut unique = |base: String| {
            let mut name = base;
            while !seen.insert(name.clone()) {
                name.push('_');
            }
            name
        };
        let fields = message
            .proto
            .field
            .iter()
            .map(|f| unique(ident::field_name(f.name())))
            .collect();
        let oneofs = message
            .proto
            .oneof_decl
            .iter()
            .map(|o| unique(ident::field_name(o.name())))
            .collect();
        (fields, oneofs)
    }

    /// Whether the oneof at `index` is a real one (not proto3 `optional`'s
    /// synthetic oneof).
    pub fn is_real_oneof(message: &MessageType<'_>, index: usize) -> bool {
        crate::names::is_real_oneof(message.proto, index)
    }

    /// The fields of `message`, with value-type paths relative to module
    /// `from`.
    pub fn fields(
        &self,
        full_name: &str,
        message: &MessageType<'_>,
        from: &[String],
    ) -> Result<Vec<Field<'a>>, Error> {
        let (names, _) = self.member_names(message);
        let mut fields = Vec::new();
        let mut variants: HashSet<(usize, String)> = HashSet::new();
        let message_static: &MessageType<'a> = self.schema.message(full_name)?;
        for (index, proto) in message_static.proto.field.iter().enumerate() {
            let declared = message_static
                .overlay
                .field
                .get(index)
                .and_then(|f| features::declared(&f.options));
            let features = field::field_features(proto, message_static.features, declared);
            let path = format!("{full_name}.{}", proto.name());
            let mut map = None;
            let value = match proto.r#type() {
                Type::Message | Type::Group => {
                    let target = self.schema.message(proto.type_name())?;
                    if target.proto.options.as_ref().is_some_and(|o| o.map_entry())
                        && proto.label() == Label::Repeated
                    {
                        map = Some(self.map_shape(proto.type_name(), &path, from)?);
                    }
                    ValueType::Message {
                        path: self.message_path(proto.type_name(), from)?,
                        full_name: proto.type_name().to_owned(),
                        delimited: features.delimited,
                    }
                }
                Type::Enum => ValueType::Enum {
                    path: self.type_path(proto.type_name(), from)?,
                    closed: self.schema.enumeration(proto.type_name())?.closed,
                },
                ty => {
                    // A rule may name a oneof member by its oneof, as the
                    // oneof pointer rules do.
                    let oneof = proto
                        .oneof_index
                        .and_then(|i| message_static.proto.oneof_decl.get(i as usize))
                        .map(|oneof| format!("{full_name}.{}", oneof.name()));
                    let paths: Vec<&str> = [Some(path.as_str()), oneof.as_deref()]
                        .into_iter()
                        .flatten()
                        .collect();
                    ValueType::Scalar(
                        self.scalar(ty, &paths)
                            .ok_or_else(|| Error::new(format!("{path}: unsupported type")))?,
                    )
                }
            };
            let shape = if let Some(map) = map {
                map
            } else if let Some(oneof) = proto.oneof_index.filter(|_| !proto.proto3_optional()) {
                Shape::Oneof(oneof as usize)
            } else if proto.label() == Label::Repeated {
                Shape::Repeated {
                    packed: features.packed,
                }
            } else if matches!(value, ValueType::Message { .. })
                || features.presence != Presence::Implicit
            {
                Shape::Explicit
            } else {
                Shape::Implicit
            };
            let pointer = match (&shape, &value) {
                (
                    Shape::Explicit,
                    ValueType::Message {
                        path: target_path,
                        full_name: target,
                        ..
                    },
                ) => pointer::choose(self, &path, target, target_path)?
                    .field_pointer(&self.buffa, target_path),
                _ => None,
            };
            let rust_name = match shape {
                // Variant names must be unique within their oneof: `foo_bar`
                // and `fooBar` both convert to `FooBar`.
                Shape::Oneof(oneof) => {
                    let mut name = ident::type_name(proto.name());
                    while !variants.insert((oneof, name.clone())) {
                        name.push('_');
                    }
                    name
                }
                _ => names[index].clone(),
            };
            fields.push(Field {
                proto,
                number: proto.number() as u32,
                rust_name,
                value,
                shape,
                pointer,
                path,
                view: false,
                lazy: false,
            });
        }
        Ok(fields)
    }

    /// The fields of `message` as its view holds them: strings and bytes
    /// borrowed, message types as their views, singular sub-messages in
    /// place unless boxed to break a cycle or large (see `view_size`), and
    /// the fields the lazy rules cover as lazy fields.
    pub fn view_fields(
        &self,
        full_name: &str,
        message: &MessageType<'_>,
        from: &[String],
    ) -> Result<Vec<Field<'a>>, Error> {
        let mut fields = self.fields(full_name, message, from)?;
        for field in &mut fields {
            field.view = true;
            field.pointer = None;
            if let Shape::Map { key, value, .. } = &mut field.shape {
                *key = key.borrowed();
                self.borrow_value(value, from)?;
                continue;
            }
            self.borrow_value(&mut field.value, from)?;
            let ValueType::Message {
                path,
                full_name: target,
                ..
            } = &field.value
            else {
                continue;
            };
            field.lazy = matches!(field.shape, Shape::Explicit | Shape::Repeated { .. })
                && self.options.lazy_views.get(&field.path) == Some(&true);
            if matches!(field.shape, Shape::Explicit)
                && !field.lazy
                && self.view_inline(&field.path, target)?
            {
                let buffa = &self.buffa;
                field.pointer = Some(quote!(#buffa::Inline<#path>));
            }
        }
        Ok(fields)
    }

    /// Turns an owned value type into the one a view holds.
    fn borrow_value(&self, value: &mut ValueType, from: &[String]) -> Result<(), Error> {
        match value {
            ValueType::Scalar(scalar) => *scalar = scalar.borrowed(),
            ValueType::Message {
                path, full_name, ..
            } => *path = self.view_type_path(full_name, from)?,
            ValueType::Enum { .. } => {}
        }
        Ok(())
    }

    /// The view type of message `full_name` (`FooView<'a>`), relative to
    /// module `from`.
    pub fn view_type_path(&self, full_name: &str, from: &[String]) -> Result<TokenStream, Error> {
        // An extern type's view sits beside its owned type, named as its
        // crate named it (see `names.rs`): generated code sits next to the
        // message it views. (Naming it through `<T as HasView>::View<'a>`
        // would make every view holding it invariant in `'a`, and the
        // shared default view, a `FooView<'static>`, could then not be lent
        // out as a `FooView<'a>`.) A crate generated without views has no
        // such type, which the compiler reports by name.
        let view = self.schema.message(full_name)?.view.relative_to(from);
        let path = format!("{view}<'a>");
        let parsed: syn::Type =
            syn::parse_str(&path).map_err(|e| Error::new(format!("bad Rust path {path}: {e}")))?;
        Ok(quote!(#parsed))
    }

    /// Whether decoding `full_name` may share its input: the message, or
    /// any message it contains at any depth, has a `bytes` field generated
    /// as `bytes::Bytes` or a `string` field (map keys included) generated
    /// as `buffa::BytesStr`. Extern types are assumed to share, except
    /// those of buffa-types, which never do.
    pub fn shares_input(&self, full_name: &str) -> Result<bool, Error> {
        self.reaches_shared_bytes(full_name, &mut HashSet::new())
    }

    fn reaches_shared_bytes(
        &self,
        full_name: &str,
        seen: &mut HashSet<String>,
    ) -> Result<bool, Error> {
        if !seen.insert(full_name.to_owned()) {
            return Ok(false);
        }
        let message = self.schema.message(full_name)?;
        if !message.rust.is_local() {
            return Ok(!crate::well_known::in_buffa_types(&message.rust));
        }
        for field in self.fields(full_name, message, &[])? {
            let value = match &field.shape {
                Shape::Map { key, .. } if key.shares_input() => return Ok(true),
                Shape::Map { value, .. } => value,
                _ => &field.value,
            };
            let shares = match value {
                ValueType::Scalar(scalar) => scalar.shares_input(),
                ValueType::Message { full_name, .. } => {
                    self.reaches_shared_bytes(full_name, seen)?
                }
                ValueType::Enum { .. } => false,
            };
            if shares {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn map_shape(&self, entry_name: &str, path: &str, from: &[String]) -> Result<Shape, Error> {
        let entry = self.schema.message(entry_name)?;
        let (Some(key), Some(value)) = (
            entry.proto.field.iter().find(|f| f.number() == 1),
            entry.proto.field.iter().find(|f| f.number() == 2),
        ) else {
            return Err(Error::new(format!(
                "{path}: map entry {entry_name} lacks a key or value field"
            )));
        };
        let key = self
            .scalar(key.r#type(), &[path])
            .ok_or_else(|| Error::new(format!("{path}: invalid map key type")))?;
        let value = match value.r#type() {
            Type::Message | Type::Group => ValueType::Message {
                path: self.message_path(value.type_name(), from)?,
                full_name: value.type_name().to_owned(),
                delimited: false,
            },
            Type::Enum => ValueType::Enum {
                path: self.type_path(value.type_name(), from)?,
                closed: self.schema.enumeration(value.type_name())?.closed,
            },
            ty => ValueType::Scalar(
                self.scalar(ty, &[path])
                    .ok_or_else(|| Error::new(format!("{path}: unsupported map value type")))?,
            ),
        };
        Ok(Shape::Map {
            key,
            value,
            btree: no_std::btree_maps_only(self.options)
                || self.options.btree_maps.get(path).is_some(),
        })
    }

    /// The scalar of type `ty` for a field named by `paths` (its own path,
    /// and its oneof's for a oneof member; a map field's covers its key
    /// and value), `string` and `bytes` in the representation the last
    /// rule covering any of them chose. `None` for messages and enums.
    fn scalar(&self, ty: Type, paths: &[&str]) -> Option<Scalar> {
        let string = self
            .options
            .strings
            .winner(paths)
            .map_or_else(StringRepr::default, |(_, repr)| *repr);
        let bytes = self
            .options
            .bytes
            .winner(paths)
            .map_or_else(BytesRepr::default, |(_, repr)| *repr);
        Scalar::from_type(ty, string, bytes)
    }
}
