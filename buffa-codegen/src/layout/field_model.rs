//! The field model: a message's fields resolved from its descriptor, with
//! their names, shapes and value types, and the pointer the caller
//! chooses for each singular message field.

use std::collections::HashSet;

use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::error::Error;
use crate::ident;
use buffa_types::google::protobuf::feature_set::FieldPresence;

use crate::input::schema::MessageType;
use crate::layout::field::{Field, Scalar, Shape, ValueType};
use crate::options::no_std;
use crate::options::{BytesRepr, StringRepr};

/// The name `unknown_fields` is taken by the generated struct itself.
const RESERVED_FIELD_NAMES: &[&str] = &["unknown_fields"];

/// Struct-field names for the fields and oneofs of `message`, made
/// unique and kept off reserved names. Indexed like `proto.field`, then
/// the oneofs.
pub fn member_names(message: &MessageType<'_>) -> (Vec<String>, Vec<String>) {
    let mut seen: HashSet<String> = RESERVED_FIELD_NAMES.iter().map(|s| s.to_string()).collect();
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
    crate::input::names::is_real_oneof(message.proto, index)
}

/// The view type of message `full_name` (`FooView<'a>`), relative to
/// module `from`.
pub fn view_type_path(
    context: &Context<'_>,
    full_name: &str,
    from: &[String],
) -> Result<TokenStream, Error> {
    // An extern type's view sits beside its owned type, named as its
    // crate named it (see `names.rs`): generated code sits next to the
    // message it views. (Naming it through `<T as HasView>::View<'a>`
    // would make every view holding it invariant in `'a`, and the
    // shared default view, a `FooView<'static>`, could then not be lent
    // out as a `FooView<'a>`.) A crate generated without views has no
    // such type, which the compiler reports by name.
    let view = context.schema.message(full_name)?.view.relative_to(from);
    let path = format!("{view}<'a>");
    let parsed: syn::Type =
        syn::parse_str(&path).map_err(|e| Error::new(format!("bad Rust path {path}: {e}")))?;
    Ok(quote!(#parsed))
}

fn map_shape(
    context: &Context<'_>,
    entry_name: &str,
    path: &str,
    from: &[String],
) -> Result<Shape, Error> {
    let entry = context.schema.message(entry_name)?;
    let (Some(key), Some(value)) = (
        entry.proto.field.iter().find(|f| f.number() == 1),
        entry.proto.field.iter().find(|f| f.number() == 2),
    ) else {
        return Err(Error::new(format!(
            "{path}: map entry {entry_name} lacks a key or value field"
        )));
    };
    let key = scalar(context, key.r#type(), &[path])
        .ok_or_else(|| Error::new(format!("{path}: invalid map key type")))?;
    let value = match value.r#type() {
        Type::Message | Type::Group => ValueType::Message {
            path: context.message_path(value.type_name(), from)?,
            full_name: value.type_name().to_owned(),
            delimited: false,
        },
        Type::Enum => ValueType::Enum {
            path: context.type_path(value.type_name(), from)?,
            closed: context.schema.enumeration(value.type_name())?.closed,
        },
        ty => ValueType::Scalar(
            scalar(context, ty, &[path])
                .ok_or_else(|| Error::new(format!("{path}: unsupported map value type")))?,
        ),
    };
    Ok(Shape::Map {
        key,
        value,
        btree: no_std::btree_maps_only(context.options)
            || context.options.btree_maps.get(path).is_some(),
    })
}

/// The scalar of type `ty` for a field named by `paths` (its own path,
/// and its oneof's for a oneof member; a map field's covers its key
/// and value), `string` and `bytes` in the representation the last
/// rule covering any of them chose. `None` for messages and enums.
fn scalar(context: &Context<'_>, ty: Type, paths: &[&str]) -> Option<Scalar> {
    let string = context
        .options
        .strings
        .winner(paths)
        .map_or_else(StringRepr::default, |(_, repr)| *repr);
    let bytes = context
        .options
        .bytes
        .winner(paths)
        .map_or_else(BytesRepr::default, |(_, repr)| *repr);
    Scalar::from_type(ty, string, bytes)
}

/// The oneof enum names of a message, indexed like its oneofs (empty
/// for synthetic ones), as `names.rs` claimed them in its module.
pub(crate) fn oneof_enum_names(
    context: &Context<'_>,
    full_name: &str,
) -> Result<Vec<String>, Error> {
    let message = context.schema.message(full_name)?;
    Ok(message
        .oneofs
        .iter()
        .map(|names| names.as_ref().map(|n| n.owned.clone()).unwrap_or_default())
        .collect())
}

/// The fields of `message`, with value-type paths relative to module
/// `from`. The pointer of each singular message field is what
/// `choose_pointer` returns for its path, its message's full name and its
/// Rust type: pointer choice and the size estimates it consults depend on
/// the field model, so they are left to the caller (`owned.rs`).
pub fn resolve<'a>(
    context: &Context<'a>,
    full_name: &str,
    message: &MessageType<'_>,
    from: &[String],
    mut choose_pointer: impl FnMut(&str, &str, &TokenStream) -> Result<Option<TokenStream>, Error>,
) -> Result<Vec<Field<'a>>, Error> {
    let (names, _) = member_names(message);
    let mut fields = Vec::new();
    let mut variants: HashSet<(usize, String)> = HashSet::new();
    let message_static: &MessageType<'a> = context.schema.message(full_name)?;
    for (index, proto) in message_static.proto.field.iter().enumerate() {
        let descriptor = message_static.field(proto);
        let features = descriptor.features();
        let path = format!("{full_name}.{}", proto.name());
        let mut map = None;
        let value = match proto.r#type() {
            Type::Message | Type::Group => {
                let target = context.schema.message(proto.type_name())?;
                if target
                    .proto
                    .options
                    .as_option()
                    .is_some_and(|o| o.map_entry())
                    && proto.label() == Label::Repeated
                {
                    map = Some(map_shape(context, proto.type_name(), &path, from)?);
                }
                ValueType::Message {
                    path: context.message_path(proto.type_name(), from)?,
                    full_name: proto.type_name().to_owned(),
                    delimited: features.is_delimited(),
                }
            }
            Type::Enum => ValueType::Enum {
                path: context.type_path(proto.type_name(), from)?,
                closed: context.schema.enumeration(proto.type_name())?.closed,
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
                    scalar(context, ty, &paths)
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
                packed: features.is_packed(),
            }
        } else if matches!(value, ValueType::Message { .. })
            || features.field_presence != FieldPresence::Implicit
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
            ) => choose_pointer(&path, target, target_path)?,
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
            descriptor,
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
