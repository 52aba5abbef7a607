//! [`EnumDescriptor`] and [`EnumValueDescriptor`]: enum types and their
//! values.

use buffa_types::google::protobuf::{
    EnumDescriptorProto, EnumOptions, EnumValueDescriptorProto, EnumValueOptions,
};

use crate::inner::{EnumInner, EnumValueInner, short_name};
use crate::{Comments, DescriptorPool, FileDescriptor, MessageDescriptor, handle_traits};

/// An enum type in a [`DescriptorPool`].
#[derive(Clone)]
pub struct EnumDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(EnumDescriptor, full_name);

impl EnumDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> EnumDescriptor {
        EnumDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &EnumInner {
        self.pool.inner.enum_(self.index)
    }

    /// The pool this enum is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The enum's name.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name, e.g. `"pkg.Outer.Color"`.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The package of the file declaring the enum.
    pub fn package_name(&self) -> &str {
        self.pool.inner.file(self.inner().file).proto.package()
    }

    /// The file declaring the enum.
    pub fn parent_file(&self) -> FileDescriptor {
        FileDescriptor::new(&self.pool, self.inner().file)
    }

    /// The message the enum is nested in, if any.
    pub fn parent_message(&self) -> Option<MessageDescriptor> {
        self.inner()
            .parent
            .map(|i| MessageDescriptor::new(&self.pool, i))
    }

    /// The values, in declaration order (aliases included).
    pub fn values(&self) -> impl ExactSizeIterator<Item = EnumValueDescriptor> + '_ {
        self.inner()
            .values
            .clone()
            .map(|i| EnumValueDescriptor::new(&self.pool, i))
    }

    /// The first declared value numbered `number` (an enum with
    /// `allow_alias` may have several).
    pub fn get_value(&self, number: i32) -> Option<EnumValueDescriptor> {
        let values = &self.pool.inner.enum_values;
        let by_number = &self.inner().values_by_number;
        // The first of equal numbers is the first declared.
        let i = by_number.partition_point(|&v| values[v as usize].number < number);
        let &value = by_number.get(i)?;
        (values[value as usize].number == number)
            .then(|| EnumValueDescriptor::new(&self.pool, value))
    }

    /// The value named `name` (its name in the `.proto` file, e.g.
    /// `"COLOR_RED"`).
    pub fn get_value_by_name(&self, name: &str) -> Option<EnumValueDescriptor> {
        let value = self.pool.inner.enum_value_by_name(self.index, name)?;
        Some(EnumValueDescriptor::new(&self.pool, value))
    }

    /// The default value: the first declared.
    pub fn default_value(&self) -> EnumValueDescriptor {
        EnumValueDescriptor::new(&self.pool, self.inner().values.start)
    }

    /// Whether the enum is closed: a field of this type treats numbers
    /// the enum does not declare as unknown fields. proto2 enums are
    /// closed, proto3 ones open, and editions choose with the `enum_type`
    /// feature.
    pub fn is_closed(&self) -> bool {
        self.inner().is_closed
    }

    /// The enum's options.
    pub fn options(&self) -> &EnumOptions {
        &self.enum_descriptor_proto().options
    }

    /// The enum as declared in its file's `FileDescriptorProto`.
    pub fn enum_descriptor_proto(&self) -> &EnumDescriptorProto {
        self.pool.inner.enum_proto(self.index)
    }

    /// The comments around the enum's declaration.
    pub fn comments(&self) -> Comments {
        let path = self.pool.inner.enum_path(self.index);
        self.pool.inner.comments(self.inner().file, &path)
    }
}

/// A value of an enum type in a [`DescriptorPool`].
#[derive(Clone)]
pub struct EnumValueDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(EnumValueDescriptor, full_name);

impl EnumValueDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> EnumValueDescriptor {
        EnumValueDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &EnumValueInner {
        self.pool.inner.enum_value(self.index)
    }

    /// The pool this value is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The value's name, e.g. `"COLOR_RED"`.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name. Enum values are scoped like C++ enumerators: as
    /// siblings of their enum, so a value of the top-level enum `pkg.Color`
    /// is `"pkg.COLOR_RED"`.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The value's number.
    pub fn number(&self) -> i32 {
        self.inner().number
    }

    /// The position of the value among its enum's
    /// [`values`](EnumDescriptor::values).
    pub fn index(&self) -> usize {
        self.inner().index as usize
    }

    /// The enum the value belongs to.
    pub fn parent_enum(&self) -> EnumDescriptor {
        EnumDescriptor::new(&self.pool, self.inner().parent)
    }

    /// The value's options.
    pub fn options(&self) -> &EnumValueOptions {
        &self.enum_value_descriptor_proto().options
    }

    /// The value as declared in its file's `FileDescriptorProto`.
    pub fn enum_value_descriptor_proto(&self) -> &EnumValueDescriptorProto {
        let value = self.inner();
        &self.pool.inner.enum_proto(value.parent).value[value.index as usize]
    }

    /// The comments around the value's declaration.
    pub fn comments(&self) -> Comments {
        let value = self.inner();
        let mut path = self.pool.inner.enum_path(value.parent);
        path.extend([2, value.index as i32]);
        let file = self.pool.inner.enum_(value.parent).file;
        self.pool.inner.comments(file, &path)
    }
}
