//! [`FileDescriptor`]: one `.proto` file of a pool.

use buffa_types::google::protobuf::{Edition, FileDescriptorProto, FileOptions};

use crate::inner::FileInner;
use crate::{
    DescriptorPool, EnumDescriptor, FieldDescriptor, MessageDescriptor, ServiceDescriptor, Syntax,
    handle_traits,
};

/// A `.proto` file in a [`DescriptorPool`].
#[derive(Clone)]
pub struct FileDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(FileDescriptor, name);

impl FileDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> FileDescriptor {
        FileDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &FileInner {
        self.pool.inner.file(self.index)
    }

    /// The pool this file is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The file's name, its path relative to the include directory
    /// (`"google/protobuf/empty.proto"`).
    pub fn name(&self) -> &str {
        self.inner().proto.name()
    }

    /// The package, `""` if the file declares none.
    pub fn package_name(&self) -> &str {
        self.inner().proto.package()
    }

    /// The file's syntax: proto2, proto3 or an edition.
    pub fn syntax(&self) -> Syntax {
        self.inner().syntax
    }

    /// The file's edition, with proto2 and proto3 files at
    /// `Edition::Proto2` and `Edition::Proto3`, as protoc's feature
    /// resolution sees them.
    pub fn edition(&self) -> Edition {
        self.syntax().edition()
    }

    /// The files this one imports, in import order.
    pub fn dependencies(&self) -> impl ExactSizeIterator<Item = FileDescriptor> + '_ {
        self.inner()
            .dependencies
            .iter()
            .map(|&i| FileDescriptor::new(&self.pool, i))
    }

    /// The files this one imports with `import public`, re-exported to its
    /// own importers.
    pub fn public_dependencies(&self) -> impl ExactSizeIterator<Item = FileDescriptor> + '_ {
        self.inner()
            .public_dependencies
            .iter()
            .map(|&i| FileDescriptor::new(&self.pool, i))
    }

    /// The top-level messages, in declaration order.
    pub fn messages(&self) -> impl ExactSizeIterator<Item = MessageDescriptor> + '_ {
        self.inner()
            .messages
            .clone()
            .map(|i| MessageDescriptor::new(&self.pool, i))
    }

    /// The top-level enums, in declaration order.
    pub fn enums(&self) -> impl ExactSizeIterator<Item = EnumDescriptor> + '_ {
        self.inner()
            .enums
            .clone()
            .map(|i| EnumDescriptor::new(&self.pool, i))
    }

    /// The services, in declaration order.
    pub fn services(&self) -> impl ExactSizeIterator<Item = ServiceDescriptor> + '_ {
        self.inner()
            .services
            .clone()
            .map(|i| ServiceDescriptor::new(&self.pool, i))
    }

    /// The extensions declared at the top level of the file (not inside a
    /// message), in declaration order.
    pub fn extensions(&self) -> impl ExactSizeIterator<Item = FieldDescriptor> + '_ {
        self.inner()
            .extensions
            .clone()
            .map(|i| FieldDescriptor::new(&self.pool, i))
    }

    /// The file's options.
    pub fn options(&self) -> &FileOptions {
        &self.inner().proto.options
    }

    /// The file as it was added to the pool.
    pub fn file_descriptor_proto(&self) -> &FileDescriptorProto {
        &self.inner().proto
    }
}
