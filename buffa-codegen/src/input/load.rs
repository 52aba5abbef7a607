//! The schema of a run, built in order: every proto type indexed and
//! named, then the names derived from them, then the checks that let the
//! later stages trust the schema.

use prost_types::FileDescriptorProto;

use crate::error::Error;
use crate::input::features::FileOverlay;
use crate::input::schema::{self, Schema};
use crate::input::{derived_names, references};
use crate::options::Options;

/// The schema of `files` (with their `overlays`, as decoded by
/// `features::decode_overlay`), where `generate` names the files to emit
/// code for: every name claimed, every file of `generate` present, and
/// every reference checked.
pub fn schema<'a>(
    files: &'a [FileDescriptorProto],
    overlays: &'a [FileOverlay],
    generate: &[&str],
    options: &Options,
) -> Result<Schema<'a>, Error> {
    let mut schema = Schema::index(files, overlays, generate, options)?;
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
    references::check(&schema)?;
    Ok(schema)
}
