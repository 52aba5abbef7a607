//! Options as dynamic messages: custom options, which are extensions of
//! `google.protobuf.*Options`, read through the pool.
//!
//! Each handle's `options()` returns the typed options message of
//! `buffa-types`, where custom options sit among the unknown fields: a
//! generated extension constant reads them typed
//! (`method.options().extension(&api::HTTP)`).
//! [`DynamicOptions::dynamic_options`] decodes the same bytes as a
//! [`DynamicMessage`] of the pool's options type, so every extension the
//! pool declares is a field, found by name at run time without generated
//! code.
//!
//! The handles live in `buffa-descriptor`, which knows no dynamic
//! messages; this trait adds the method to them here.

use buffa::{DecodeError, Message};

use crate::{
    DescriptorPool, DynamicMessage, EnumDescriptor, EnumValueDescriptor, FieldDescriptor,
    FileDescriptor, MessageDescriptor, MethodDescriptor, OneofDescriptor, ServiceDescriptor,
};

/// A descriptor's options as a [`DynamicMessage`]: implemented by every
/// descriptor handle that has options (files, messages, fields, oneofs,
/// enums, enum values, services and methods).
///
/// ```
/// use buffa_reflect::{DescriptorPool, DynamicOptions};
/// # use buffa_types::google::protobuf::FileDescriptorProto;
/// # let mut pool = DescriptorPool::new();
/// # pool.add_file_descriptor_proto(FileDescriptorProto {
/// #     name: Some("a.proto".into()),
/// #     ..Default::default()
/// # }).unwrap();
/// let file = pool.get_file_by_name("a.proto").unwrap();
/// let options = file.dynamic_options().unwrap();
/// assert_eq!(options.descriptor().full_name(), "google.protobuf.FileOptions");
/// ```
pub trait DynamicOptions {
    /// The options as a [`DynamicMessage`] of the pool's options type:
    /// custom options (extensions the pool declares) are fields of it, to
    /// read by their descriptor. Fails only if a custom option's bytes do
    /// not decode as its declared type.
    fn dynamic_options(&self) -> Result<DynamicMessage, DecodeError>;
}

/// `options` as a dynamic message of the options type in `pool`, or in the
/// built-in descriptor of `descriptor.proto` when the pool lacks it (its
/// files then declare no custom options).
fn dynamic<O: Message>(pool: &DescriptorPool, options: &O) -> Result<DynamicMessage, DecodeError> {
    let descriptor = pool
        .get_message_by_name(O::NAME)
        .or_else(|| {
            crate::well_known::google::protobuf::descriptor_pool().get_message_by_name(O::NAME)
        })
        .expect("the built-in pool holds descriptor.proto");
    DynamicMessage::decode(descriptor, &options.encode_to_vec())
}

macro_rules! dynamic_options {
    ($($handle:ty),* $(,)?) => {
        $(impl DynamicOptions for $handle {
            fn dynamic_options(&self) -> Result<DynamicMessage, DecodeError> {
                dynamic(self.pool(), self.options())
            }
        })*
    };
}

dynamic_options!(
    FileDescriptor,
    MessageDescriptor,
    FieldDescriptor,
    OneofDescriptor,
    EnumDescriptor,
    EnumValueDescriptor,
    ServiceDescriptor,
    MethodDescriptor,
);
