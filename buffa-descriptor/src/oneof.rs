//! [`OneofDescriptor`]: a oneof of a message.

use buffa_types::google::protobuf::{OneofDescriptorProto, OneofOptions};

use crate::inner::{OneofInner, short_name};
use crate::{Comments, DescriptorPool, FieldDescriptor, MessageDescriptor, handle_traits};

/// A oneof in a [`DescriptorPool`]: fields of which at most one is set.
///
/// Each proto3 `optional` field sits alone in a *synthetic* oneof, which
/// records its presence in the descriptor but has no API of its own in
/// generated code.
#[derive(Clone)]
pub struct OneofDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(OneofDescriptor, full_name);

impl OneofDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> OneofDescriptor {
        OneofDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &OneofInner {
        self.pool.inner.oneof(self.index)
    }

    /// The pool this oneof is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The oneof's name.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name: the message's full name and the oneof's name.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The position of the oneof among its message's
    /// [`oneofs`](MessageDescriptor::oneofs).
    pub fn index(&self) -> usize {
        self.inner().index as usize
    }

    /// The member fields, in declaration order.
    pub fn fields(&self) -> impl ExactSizeIterator<Item = FieldDescriptor> + '_ {
        self.inner()
            .fields
            .iter()
            .map(|&i| FieldDescriptor::new(&self.pool, i))
    }

    /// Whether this is the synthetic oneof of a proto3 `optional` field.
    pub fn is_synthetic(&self) -> bool {
        self.inner().is_synthetic
    }

    /// The message declaring the oneof.
    pub fn parent_message(&self) -> MessageDescriptor {
        MessageDescriptor::new(&self.pool, self.inner().message)
    }

    /// The oneof's options.
    pub fn options(&self) -> &OneofOptions {
        &self.oneof_descriptor_proto().options
    }

    /// The oneof as declared in its file's `FileDescriptorProto`.
    pub fn oneof_descriptor_proto(&self) -> &OneofDescriptorProto {
        let oneof = self.inner();
        &self.pool.inner.message_proto(oneof.message).oneof_decl[oneof.index as usize]
    }

    /// The comments around the oneof's declaration.
    pub fn comments(&self) -> Comments {
        let oneof = self.inner();
        let mut path = self.pool.inner.message_path(oneof.message);
        path.extend([8, oneof.index as i32]);
        let file = self.pool.inner.message(oneof.message).file;
        self.pool.inner.comments(file, &path)
    }
}
