//! # buffa-descriptor
//!
//! The one descriptor model of buffa: the schema of `.proto` files, as
//! protoc describes it in `descriptor.proto`, resolved and checked, and the
//! rules of the protobuf language that resolving it takes. Reflection
//! (`buffa-reflect`) reads schemas through the pool; code generation
//! (`buffa-codegen`, and through it `buffa-build` and `protoc-gen-buffa`)
//! applies the same [`rules`], so that each rule is implemented once, here:
//!
//! - [`DescriptorPool`] and its handles: files, messages, fields, oneofs,
//!   enums, services, methods and extensions, with their options and
//!   source comments;
//! - [`rules`]: the rules of the language that code generation and
//!   reflection share, public so that both call the same function: names
//!   ([`rules::is_identifier`]), JSON names ([`rules::json_name`],
//!   protoc's `ToJsonName`), C-style escapes ([`rules::unescape`]) of
//!   `bytes` defaults and text-format strings, and editions features
//!   ([`rules::ResolvedFeatures`]).
//!
//! `buffa-reflect` re-exports everything here (`buffa_reflect::DescriptorPool`
//! is [`DescriptorPool`]) and adds what needs messages at run time: dynamic
//! messages, reflection, the text format, JSON over reflection and
//! options as dynamic messages (`dynamic_options`).
//!
//! ## Descriptors
//!
//! A [`DescriptorPool`] is built from `FileDescriptorProto`s (usually the
//! encoded `FileDescriptorSet` that `protoc --descriptor_set_out` writes).
//! Adding files checks them as protoc would: dependencies present, type
//! names resolved, names and field numbers unique, extensions within their
//! extendee's ranges, map entries well formed, defaults parseable. Every
//! question a reflective caller asks is then answered from the resolved
//! schema: a field's [`Kind`], whether it is packed, whether it tracks
//! presence, its default value; proto2, proto3 and editions files alike,
//! with edition features resolved from the file down to each field.
//!
//! The descriptors themselves are handles: [`FileDescriptor`],
//! [`MessageDescriptor`], [`FieldDescriptor`] (fields and extensions),
//! [`OneofDescriptor`], [`EnumDescriptor`], [`EnumValueDescriptor`],
//! [`ServiceDescriptor`] and [`MethodDescriptor`] each hold the pool (an
//! `Arc`) and an index, so they are cheap to clone, `Send + Sync`, and
//! compare equal when they denote the same element of the same pool.
//!
//! ```
//! use buffa_descriptor::{DescriptorPool, Kind};
//! use buffa_types::google::protobuf::{
//!     DescriptorProto, FieldDescriptorProto, FileDescriptorProto,
//!     field_descriptor_proto::{Label, Type},
//! };
//!
//! let file = FileDescriptorProto {
//!     name: Some("shop.proto".into()),
//!     package: Some("shop".into()),
//!     syntax: Some("proto3".into()),
//!     message_type: vec![DescriptorProto {
//!         name: Some("Order".into()),
//!         field: vec![FieldDescriptorProto {
//!             name: Some("item_count".into()),
//!             number: Some(1),
//!             label: Some(Label::Optional),
//!             r#type: Some(Type::Int32),
//!             ..Default::default()
//!         }],
//!         ..Default::default()
//!     }],
//!     ..Default::default()
//! };
//! let mut pool = DescriptorPool::new();
//! pool.add_file_descriptor_proto(file).unwrap();
//!
//! let order = pool.get_message_by_name("shop.Order").unwrap();
//! let count = order.get_field_by_json_name("itemCount").unwrap();
//! assert_eq!(count.kind(), Kind::Int32);
//! assert!(!count.has_presence());
//! ```

#![warn(missing_docs)]

mod build;
mod comments;
mod default_value;
mod enums;
mod error;
mod field;
mod file;
mod index;
mod inner;
mod kind;
mod message;
mod names;
mod oneof;
mod pool;
mod resolve;
pub mod rules;
mod service;
mod validate;

pub use comments::Comments;
pub use enums::{EnumDescriptor, EnumValueDescriptor};
pub use error::DescriptorError;
pub use field::FieldDescriptor;
pub use file::FileDescriptor;
pub use kind::{Cardinality, Kind};
pub use message::MessageDescriptor;
pub use oneof::OneofDescriptor;
pub use pool::DescriptorPool;
pub use rules::DefaultValue;
pub use service::{MethodDescriptor, ServiceDescriptor};

use buffa_types::google::protobuf::Edition;

/// The syntax of a `.proto` file: its `syntax` or `edition` statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// `syntax = "proto2";`, or no statement at all.
    Proto2,
    /// `syntax = "proto3";`.
    Proto3,
    /// `edition = "2023";` and later editions.
    Edition(Edition),
}

impl Syntax {
    /// The edition that stands for this syntax (`EDITION_PROTO2`,
    /// `EDITION_PROTO3`, or the file's edition).
    pub fn edition(self) -> Edition {
        match self {
            Syntax::Proto2 => Edition::Proto2,
            Syntax::Proto3 => Edition::Proto3,
            Syntax::Edition(edition) => edition,
        }
    }
}

/// Implements the traits every handle shares: equality and hashing by pool
/// identity and index, and `Debug` as the type and full name.
macro_rules! handle_traits {
    ($handle:ident, $name:ident) => {
        impl PartialEq for $handle {
            fn eq(&self, other: &$handle) -> bool {
                self.index == other.index && self.pool.same_pool(&other.pool)
            }
        }

        impl Eq for $handle {}

        impl std::hash::Hash for $handle {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.pool.hash_identity(state);
                self.index.hash(state);
            }
        }

        impl std::fmt::Debug for $handle {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_tuple(stringify!($handle))
                    .field(&self.$name())
                    .finish()
            }
        }
    };
}
use handle_traits;
