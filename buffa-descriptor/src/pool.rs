//! [`DescriptorPool`]: a set of files whose names all resolve within it.

use std::fmt;
use std::sync::Arc;

use buffa::Message as _;
use buffa_types::google::protobuf::{FileDescriptorProto, FileDescriptorSet};

use crate::inner::{PoolInner, Symbol};
use crate::{
    DescriptorError, EnumDescriptor, FieldDescriptor, FileDescriptor, MessageDescriptor,
    ServiceDescriptor, build,
};

/// A set of `.proto` files, checked and indexed: the root every descriptor
/// handle is reached from.
///
/// Files are added with their dependencies first; each addition is checked
/// as a whole and leaves the pool unchanged when it fails. Cloning a pool
/// is cheap (an `Arc`), and so is cloning any handle taken from it.
///
/// Adding files to a pool that handles (or clones of the pool) still
/// share copies its tables first: those handles keep describing the pool
/// as it was, and do not compare equal to handles taken afterwards.
#[derive(Clone, Default)]
pub struct DescriptorPool {
    pub(crate) inner: Arc<PoolInner>,
}

impl DescriptorPool {
    /// An empty pool.
    pub fn new() -> DescriptorPool {
        DescriptorPool::default()
    }

    /// A pool of the files of an encoded `FileDescriptorSet`, as written by
    /// `protoc --include_imports --descriptor_set_out`.
    ///
    /// Any bytes are safe to pass: input that does not decode, or decodes
    /// to files that are not a valid schema, is an `Err`.
    pub fn decode(file_descriptor_set: &[u8]) -> Result<DescriptorPool, DescriptorError> {
        let set = FileDescriptorSet::decode_from_slice(file_descriptor_set)
            .map_err(DescriptorError::decode)?;
        DescriptorPool::from_file_descriptor_set(set)
    }

    /// A pool of the files of `set`; see
    /// [`DescriptorPool::add_file_descriptor_set`].
    pub fn from_file_descriptor_set(
        set: FileDescriptorSet,
    ) -> Result<DescriptorPool, DescriptorError> {
        let mut pool = DescriptorPool::new();
        pool.add_file_descriptor_set(set)?;
        Ok(pool)
    }

    /// Adds the files of `set`.
    ///
    /// The files may come in any order as long as every dependency is in
    /// the set or already in the pool. A file already in the pool with
    /// identical content is skipped; one with the same name and different
    /// content is an error. On error the pool is unchanged.
    pub fn add_file_descriptor_set(
        &mut self,
        set: FileDescriptorSet,
    ) -> Result<(), DescriptorError> {
        self.add_files(set.file)
    }

    /// Adds one file, whose dependencies must already be in the pool; see
    /// [`DescriptorPool::add_file_descriptor_set`].
    pub fn add_file_descriptor_proto(
        &mut self,
        file: FileDescriptorProto,
    ) -> Result<(), DescriptorError> {
        self.add_files(vec![file])
    }

    /// Adds `file` (whose dependencies must already be in the pool) for as
    /// long as `f` runs, then takes it out again, returning what `f`
    /// returns.
    ///
    /// A compiler needs a file in a pool before the file is final: options
    /// are interpreted against a pool that holds the file they belong to,
    /// and the file, options interpreted, is then checked again. A file
    /// identical to one already in the pool stays in it.
    ///
    /// ```
    /// use buffa_descriptor::DescriptorPool;
    /// use buffa_types::google::protobuf::FileDescriptorProto;
    ///
    /// let file = FileDescriptorProto {
    ///     name: Some("a.proto".into()),
    ///     ..Default::default()
    /// };
    /// let mut pool = DescriptorPool::new();
    /// let seen = pool.with_file(file, |pool| pool.files().len()).unwrap();
    /// assert_eq!(seen, 1);
    /// assert_eq!(pool.files().len(), 0);
    /// ```
    pub fn with_file<R>(
        &mut self,
        file: FileDescriptorProto,
        f: impl FnOnce(&DescriptorPool) -> R,
    ) -> Result<R, DescriptorError> {
        let checkpoint = self.inner.checkpoint();
        self.add_files(vec![file])?;
        let result = f(self);
        match Arc::get_mut(&mut self.inner) {
            Some(inner) => inner.rollback(checkpoint),
            None => {
                let mut inner = PoolInner::clone(&self.inner);
                inner.rollback(checkpoint);
                self.inner = Arc::new(inner);
            }
        }
        Ok(result)
    }

    fn add_files(&mut self, files: Vec<FileDescriptorProto>) -> Result<(), DescriptorError> {
        match Arc::get_mut(&mut self.inner) {
            Some(inner) => build::add_files(inner, files),
            None => {
                let mut inner = PoolInner::clone(&self.inner);
                build::add_files(&mut inner, files)?;
                self.inner = Arc::new(inner);
                Ok(())
            }
        }
    }

    /// The files, in the order they were added.
    pub fn files(&self) -> impl ExactSizeIterator<Item = FileDescriptor> + '_ {
        (0..self.inner.files.len() as u32).map(|i| FileDescriptor::new(self, i))
    }

    /// The file named `name` (as protoc names it: the path relative to its
    /// include directory, e.g. `"google/protobuf/empty.proto"`).
    pub fn get_file_by_name(&self, name: &str) -> Option<FileDescriptor> {
        let &index = self.inner.file_names.get(name)?;
        Some(FileDescriptor::new(self, index))
    }

    fn symbol(&self, full_name: &str) -> Option<Symbol> {
        let full_name = full_name.strip_prefix('.').unwrap_or(full_name);
        self.inner.symbols.get(full_name).copied()
    }

    /// The message whose full name is `full_name` (`"pkg.Outer.Inner"`; a
    /// leading dot is accepted).
    pub fn get_message_by_name(&self, full_name: &str) -> Option<MessageDescriptor> {
        match self.symbol(full_name)? {
            Symbol::Message(i) => Some(MessageDescriptor::new(self, i)),
            _ => None,
        }
    }

    /// The enum whose full name is `full_name`.
    pub fn get_enum_by_name(&self, full_name: &str) -> Option<EnumDescriptor> {
        match self.symbol(full_name)? {
            Symbol::Enum(i) => Some(EnumDescriptor::new(self, i)),
            _ => None,
        }
    }

    /// The service whose full name is `full_name`.
    pub fn get_service_by_name(&self, full_name: &str) -> Option<ServiceDescriptor> {
        match self.symbol(full_name)? {
            Symbol::Service(i) => Some(ServiceDescriptor::new(self, i)),
            _ => None,
        }
    }

    /// The extension whose full name is `full_name`: its scope's full name
    /// (package, or message for an extension declared inside one) and its
    /// name, e.g. `"pkg.Container.ext"`.
    pub fn get_extension_by_name(&self, full_name: &str) -> Option<FieldDescriptor> {
        match self.symbol(full_name)? {
            Symbol::Field(i) if self.inner.field(i).is_extension => {
                Some(FieldDescriptor::new(self, i))
            }
            _ => None,
        }
    }

    /// Every message of every file (nested ones and map entries included),
    /// file by file, each level's messages before those nested in them.
    pub fn all_messages(&self) -> impl ExactSizeIterator<Item = MessageDescriptor> + '_ {
        (0..self.inner.messages.len() as u32).map(|i| MessageDescriptor::new(self, i))
    }

    /// Every enum of every file, nested ones included.
    pub fn all_enums(&self) -> impl ExactSizeIterator<Item = EnumDescriptor> + '_ {
        (0..self.inner.enums.len() as u32).map(|i| EnumDescriptor::new(self, i))
    }

    /// Every extension of every file, in the order added.
    pub fn all_extensions(&self) -> impl ExactSizeIterator<Item = FieldDescriptor> + '_ {
        self.inner
            .extensions
            .iter()
            .map(|&i| FieldDescriptor::new(self, i))
    }

    /// Every service of every file.
    pub fn services(&self) -> impl ExactSizeIterator<Item = ServiceDescriptor> + '_ {
        (0..self.inner.services.len() as u32).map(|i| ServiceDescriptor::new(self, i))
    }

    /// The index here of `message`, which may come from another pool (then
    /// the message of the same full name counts).
    fn local_message(&self, message: &MessageDescriptor) -> Option<u32> {
        if message.pool.same_pool(self) {
            Some(message.index)
        } else {
            self.get_message_by_name(message.full_name())
                .map(|m| m.index)
        }
    }

    /// The extensions of `extendee` in this pool, by field number.
    pub fn extensions_of(
        &self,
        extendee: &MessageDescriptor,
    ) -> impl Iterator<Item = FieldDescriptor> + '_ {
        self.local_message(extendee)
            .into_iter()
            .flat_map(|message| {
                self.inner
                    .extensions_by_number
                    .range((message, 0)..=(message, u32::MAX))
            })
            .map(|(_, &field)| FieldDescriptor::new(self, field))
    }

    /// The extension of `extendee` numbered `number`, if this pool has one.
    pub fn get_extension_by_number(
        &self,
        extendee: &MessageDescriptor,
        number: u32,
    ) -> Option<FieldDescriptor> {
        let message = self.local_message(extendee)?;
        let &field = self.inner.extensions_by_number.get(&(message, number))?;
        Some(FieldDescriptor::new(self, field))
    }

    /// The files as a `FileDescriptorSet`, in the order they were added
    /// (so dependencies come first).
    pub fn file_descriptor_set(&self) -> FileDescriptorSet {
        FileDescriptorSet {
            file: self
                .inner
                .files
                .iter()
                .map(|file| FileDescriptorProto::clone(&file.proto))
                .collect(),
            ..FileDescriptorSet::default()
        }
    }

    /// Whether `self` and `other` are the same pool (not merely equal
    /// content).
    pub(crate) fn same_pool(&self, other: &DescriptorPool) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Hashes the pool's identity, consistently with
    /// [`DescriptorPool::same_pool`].
    pub(crate) fn hash_identity<H: std::hash::Hasher>(&self, state: &mut H) {
        std::hash::Hash::hash(&Arc::as_ptr(&self.inner), state);
    }
}

impl fmt::Debug for DescriptorPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DescriptorPool")
            .field(
                "files",
                &self
                    .inner
                    .files
                    .iter()
                    .map(|f| f.proto.name())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
