//! [`ServiceDescriptor`] and [`MethodDescriptor`]: RPC services.

use buffa_types::google::protobuf::{
    MethodDescriptorProto, MethodOptions, ServiceDescriptorProto, ServiceOptions,
};

use crate::inner::{MethodInner, ServiceInner, short_name};
use crate::{Comments, DescriptorPool, FileDescriptor, MessageDescriptor, handle_traits};

/// A service in a [`DescriptorPool`].
#[derive(Clone)]
pub struct ServiceDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(ServiceDescriptor, full_name);

impl ServiceDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> ServiceDescriptor {
        ServiceDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &ServiceInner {
        self.pool.inner.service(self.index)
    }

    /// The pool this service is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The service's name.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name: package and name.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The methods, in declaration order.
    pub fn methods(&self) -> impl ExactSizeIterator<Item = MethodDescriptor> + '_ {
        self.inner()
            .methods
            .clone()
            .map(|i| MethodDescriptor::new(&self.pool, i))
    }

    /// The file declaring the service.
    pub fn parent_file(&self) -> FileDescriptor {
        FileDescriptor::new(&self.pool, self.inner().file)
    }

    /// The service's options.
    pub fn options(&self) -> &ServiceOptions {
        &self.service_descriptor_proto().options
    }

    /// The service as declared in its file's `FileDescriptorProto`.
    pub fn service_descriptor_proto(&self) -> &ServiceDescriptorProto {
        let service = self.inner();
        &self.pool.inner.file(service.file).proto.service[service.index as usize]
    }

    /// The comments around the service's declaration.
    pub fn comments(&self) -> Comments {
        let service = self.inner();
        self.pool
            .inner
            .comments(service.file, &[6, service.index as i32])
    }
}

/// A method of a service in a [`DescriptorPool`].
#[derive(Clone)]
pub struct MethodDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(MethodDescriptor, full_name);

impl MethodDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> MethodDescriptor {
        MethodDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &MethodInner {
        self.pool.inner.method(self.index)
    }

    /// The pool this method is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The method's name.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name: the service's full name and the method's name.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The service declaring the method.
    pub fn parent_service(&self) -> ServiceDescriptor {
        ServiceDescriptor::new(&self.pool, self.inner().service)
    }

    /// The request message type.
    pub fn input(&self) -> MessageDescriptor {
        MessageDescriptor::new(&self.pool, self.inner().input)
    }

    /// The response message type.
    pub fn output(&self) -> MessageDescriptor {
        MessageDescriptor::new(&self.pool, self.inner().output)
    }

    /// Whether the client sends a stream of requests.
    pub fn is_client_streaming(&self) -> bool {
        self.method_descriptor_proto().client_streaming()
    }

    /// Whether the server sends a stream of responses.
    pub fn is_server_streaming(&self) -> bool {
        self.method_descriptor_proto().server_streaming()
    }

    /// The method's options.
    pub fn options(&self) -> &MethodOptions {
        &self.method_descriptor_proto().options
    }

    /// The method as declared in its file's `FileDescriptorProto`.
    pub fn method_descriptor_proto(&self) -> &MethodDescriptorProto {
        let method = self.inner();
        let service = self.pool.inner.service(method.service);
        &self.pool.inner.file(service.file).proto.service[service.index as usize].method
            [method.index as usize]
    }

    /// The comments around the method's declaration.
    pub fn comments(&self) -> Comments {
        let method = self.inner();
        let service = self.pool.inner.service(method.service);
        self.pool.inner.comments(
            service.file,
            &[6, service.index as i32, 2, method.index as i32],
        )
    }
}
