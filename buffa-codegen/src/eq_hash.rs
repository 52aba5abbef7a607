//! Which messages and oneofs derive `Eq` and `Hash`: those whose every
//! field allows it, transitively, as in prost.
//!
//! A field allows it unless
//! - it is a `float` or `double`: floating-point numbers have no total
//!   equality (`NaN != NaN`), so `Eq` would be a lie;
//! - it is a map: `HashMap` is not `Hash`, and maps are left out whichever
//!   container holds them, so that switching to `btree_map` does not change
//!   a message's traits;
//! - it holds a message (singular, repeated, oneof member or group) that
//!   does not allow it, or a message under an `extern_path`: that is a Rust
//!   type this run does not generate, which may not implement the traits.
//!
//! Everything else generated code stores implements both: integers,
//! `bool`, `String`, `buffa::BytesStr`, `Vec<u8>`, `bytes::Bytes`, enums (`Enumeration`
//! requires `Eq + Hash`, and `EnumValue<E>` implements both),
//! `UnknownFields`, `Box<T>`, and `MessageField<T, P>` whatever the pointer
//! `P`, since its impls only ask `T: Eq` and `T: Hash`.
//!
//! Messages may contain themselves, so this is a greatest fixpoint: every
//! generated message starts out derivable, and messages are struck out
//! while one of their fields does not allow it. A cycle of messages without
//! floats or maps keeps both traits.

use std::collections::HashSet;

use prost_types::FieldDescriptorProto;
use prost_types::field_descriptor_proto::Type;

use crate::schema::Schema;

/// The messages that derive `Eq` and `Hash`.
pub struct EqHash {
    derivable: HashSet<String>,
}

impl EqHash {
    /// Analyses every message of `schema`.
    pub fn new(schema: &Schema<'_>) -> EqHash {
        // Map entries never derive, which rules out every map field.
        let mut derivable: HashSet<String> = schema
            .messages
            .iter()
            .filter(|(_, message)| {
                message.rust.is_local()
                    && !message
                        .proto
                        .options
                        .as_ref()
                        .is_some_and(|o| o.map_entry())
            })
            .map(|(name, _)| name.clone())
            .collect();
        loop {
            let struck: Vec<String> = derivable
                .iter()
                .filter(|name| {
                    !schema.messages[name.as_str()]
                        .proto
                        .field
                        .iter()
                        .all(|field| allows(field, &derivable))
                })
                .cloned()
                .collect();
            if struck.is_empty() {
                return EqHash { derivable };
            }
            for name in struck {
                derivable.remove(&name);
            }
        }
    }

    /// Whether the message `full_name` derives `Eq` and `Hash`.
    pub fn message(&self, full_name: &str) -> bool {
        self.derivable.contains(full_name)
    }

    /// Whether a type holding exactly `fields` (a oneof's members) derives
    /// `Eq` and `Hash`.
    pub fn fields<'f>(&self, mut fields: impl Iterator<Item = &'f FieldDescriptorProto>) -> bool {
        fields.all(|field| allows(field, &self.derivable))
    }
}

/// Whether `field` allows `Eq` and `Hash`, given the messages that do.
fn allows(field: &FieldDescriptorProto, derivable: &HashSet<String>) -> bool {
    match field.r#type() {
        Type::Float | Type::Double => false,
        Type::Message | Type::Group => derivable.contains(field.type_name()),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use prost::Message as _;
    use prost_types::field_descriptor_proto::Label;
    use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet, MessageOptions};

    use super::*;
    use crate::options::Options;

    fn field(name: &str, ty: Type, label: Label, type_name: &str) -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(1),
            r#type: Some(ty as i32),
            label: Some(label as i32),
            type_name: (!type_name.is_empty()).then(|| type_name.into()),
            ..Default::default()
        }
    }

    fn message(name: &str, fields: Vec<FieldDescriptorProto>) -> DescriptorProto {
        DescriptorProto {
            name: Some(name.into()),
            field: fields,
            ..Default::default()
        }
    }

    /// Derivability of every message in package `p` made of `messages`,
    /// with `.p.Extern` mapped to an extern path.
    fn analyse(messages: Vec<DescriptorProto>) -> Vec<(String, bool)> {
        let set = FileDescriptorSet {
            file: vec![FileDescriptorProto {
                name: Some("p.proto".into()),
                package: Some("p".into()),
                syntax: Some("proto3".into()),
                message_type: messages,
                ..Default::default()
            }],
        };
        let overlay = crate::features::decode_overlay(&set.encode_to_vec()).unwrap();
        let options = Options {
            extern_paths: vec![(".p.Extern".into(), "::elsewhere::Extern".into())],
            ..Default::default()
        };
        let schema = Schema::new(&set.file, &overlay.file, &["p.proto".into()], &options).unwrap();
        let analysis = EqHash::new(&schema);
        let mut names: Vec<String> = schema.messages.keys().cloned().collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                let derives = analysis.message(&name);
                (name, derives)
            })
            .collect()
    }

    #[test]
    fn floats_maps_and_extern_types_spread_to_their_containers() {
        use Label::{Optional, Repeated};
        let entry = DescriptorProto {
            options: Some(MessageOptions {
                map_entry: Some(true),
                ..Default::default()
            }),
            ..message(
                "CountsEntry",
                vec![
                    field("key", Type::String, Optional, ""),
                    field("value", Type::Int32, Optional, ""),
                ],
            )
        };
        let with_map = DescriptorProto {
            nested_type: vec![entry],
            ..message(
                "WithMap",
                vec![field(
                    "counts",
                    Type::Message,
                    Repeated,
                    ".p.WithMap.CountsEntry",
                )],
            )
        };
        let result = analyse(vec![
            message("Plain", vec![field("b", Type::Bytes, Optional, "")]),
            message("WithDouble", vec![field("d", Type::Double, Optional, "")]),
            message("WithFloat", vec![field("f", Type::Float, Repeated, "")]),
            with_map,
            message("Extern", vec![field("x", Type::Int32, Optional, "")]),
            message(
                "HoldsExtern",
                vec![field("e", Type::Message, Optional, ".p.Extern")],
            ),
            // Through a repeated field, then through a singular one.
            message(
                "HoldsDouble",
                vec![field("m", Type::Message, Repeated, ".p.WithDouble")],
            ),
            message(
                "HoldsHoldsDouble",
                vec![field("m", Type::Group, Optional, ".p.HoldsDouble")],
            ),
            // A cycle without floats or maps, and one with a float.
            message(
                "Tree",
                vec![
                    field("left", Type::Message, Optional, ".p.Tree"),
                    field("leaf", Type::Message, Optional, ".p.Leaf"),
                ],
            ),
            message(
                "Leaf",
                vec![field("back", Type::Message, Repeated, ".p.Tree")],
            ),
            message(
                "FloatCycleA",
                vec![
                    field("b", Type::Message, Optional, ".p.FloatCycleB"),
                    field("weight", Type::Float, Optional, ""),
                ],
            ),
            message(
                "FloatCycleB",
                vec![field("a", Type::Message, Optional, ".p.FloatCycleA")],
            ),
        ]);
        let derives = |name: &str| {
            result
                .iter()
                .find(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("{name} missing"))
                .1
        };
        assert!(derives(".p.Plain"));
        assert!(!derives(".p.WithDouble"));
        assert!(!derives(".p.WithFloat"));
        assert!(!derives(".p.WithMap"));
        assert!(!derives(".p.WithMap.CountsEntry"));
        assert!(!derives(".p.Extern"));
        assert!(!derives(".p.HoldsExtern"));
        assert!(!derives(".p.HoldsDouble"));
        assert!(!derives(".p.HoldsHoldsDouble"));
        assert!(derives(".p.Tree"));
        assert!(derives(".p.Leaf"));
        assert!(!derives(".p.FloatCycleA"));
        assert!(!derives(".p.FloatCycleB"));
    }
}
