//! The schema of a run, built in order: every proto type indexed and
//! named, then the names derived from them.

use buffa_descriptor::DescriptorPool;
use buffa_types::google::protobuf::FileDescriptorProto;

use crate::error::Error;
use crate::input::derived_names;
use crate::input::schema::{self, Schema};
use crate::options::Options;

/// The schema of `files` (resolved in `pool`), where `generate` names the
/// files to emit code for: every name claimed and every file of
/// `generate` present. The pool has checked the references already.
pub fn schema<'a>(
    files: &'a [FileDescriptorProto],
    pool: &DescriptorPool,
    generate: &[&str],
    options: &Options,
) -> Result<Schema<'a>, Error> {
    let mut schema = Schema::index(files, pool, generate, options)?;
    let packages: Vec<Vec<String>> = files
        .iter()
        .map(|file| schema::package_modules(file.package()))
        .collect();
    derived_names::claim(&mut schema, &packages, &options.effective_extern_paths());
    for &name in generate {
        if !schema.files.iter().any(|file| file.proto.name() == name) {
            return Err(Error::new(format!(
                "file {name} is not in the descriptor set"
            )));
        }
    }
    Ok(schema)
}
