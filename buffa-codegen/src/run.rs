//! The entry point of a run: [`Input`], the descriptor set decoded once
//! with the options checked, and [`Selection`], the files chosen from it
//! with their schema built and checked once, whose methods are the run's
//! operations.

use std::fmt;

use buffa::Message as _;
use buffa_descriptor::DescriptorPool;
use buffa_types::google::protobuf::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};

use crate::analysis::boxing::BoxingPlan;
use crate::analysis::eq_hash::EqHash;
use crate::analysis::extensions;
use crate::analysis::message_graph::MessageGraph;
use crate::analysis::unknown_fields::UnknownFieldsPlan;
use crate::context::Context;
use crate::emit::package::GeneratedFile;
use crate::emit::{runtime, service};
use crate::error::Error;
use crate::input::{imports, load, rule_paths};
use crate::layout::{pointer, report};
use crate::options::Options;
use crate::options::{attributes, no_std};
use crate::pipeline;

/// The input of one run: an encoded `google.protobuf.FileDescriptorSet`,
/// decoded once, and the [`Options`] it is generated with, checked.
///
/// A run parses its input, chooses the files code is generated for
/// ([`Input::files_with_code`] is the rule buffa-build and
/// protoc-gen-buffa share), [selects](Input::select) them, which builds
/// and checks their schema, and then generates the Rust files and, if
/// asked, the layout report from that one schema:
///
/// ```
/// # use buffa::Message as _;
/// # use buffa_types::google::protobuf::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};
/// # fn main() -> Result<(), buffa_codegen::Error> {
/// # let descriptor_set = FileDescriptorSet {
/// #     file: vec![FileDescriptorProto {
/// #         name: Some("shop/v1/shop.proto".into()),
/// #         package: Some("shop.v1".into()),
/// #         syntax: Some("proto3".into()),
/// #         message_type: vec![DescriptorProto {
/// #             name: Some("Order".into()),
/// #             ..Default::default()
/// #         }],
/// #         ..Default::default()
/// #     }],
/// #     ..Default::default()
/// # }
/// # .encode_to_vec();
/// // `descriptor_set`: what `protoc --include_imports
/// // --descriptor_set_out=...` writes for shop/v1/shop.proto.
/// let options = buffa_codegen::Options::default();
/// let input = buffa_codegen::Input::parse(&descriptor_set, &options)?;
/// let files: Vec<&str> = input
///     .files_with_code(&["shop/v1/shop.proto"])
///     .into_iter()
///     .map(|(name, _package)| name)
///     .collect();
/// let selection = input.select(&files)?;
/// let generated = selection.generate()?;
/// assert_eq!(generated[0].name, "shop.v1.rs");
/// assert!(generated[0].content.contains("pub struct Order"));
/// let report = selection.layout_report()?;
/// assert!(report.contains(".shop.v1.Order"));
/// # Ok(())
/// # }
/// ```
///
/// Bad input is an [`Error`], never a panic, naming the file and the
/// element: from [`Input::parse`], bytes that are no descriptor set, a set
/// that is no valid schema (a reference that does not resolve, a name that
/// is no protobuf identifier, a feature where it may not be: what
/// buffa-descriptor's [`DescriptorPool`] checks), or options that do not
/// hold here; from [`Input::select`], an option path that covers nothing.
pub struct Input<'a> {
    /// The encoded set, embedded (in part) with `reflection`.
    descriptor_set: &'a [u8],
    /// Its files, decoded, in the set's order.
    files: Vec<FileDescriptorProto>,
    /// The same files, checked and resolved (features, JSON names,
    /// defaults, references) by the one descriptor model.
    pool: DescriptorPool,
    options: &'a Options,
}

impl<'a> Input<'a> {
    /// Decodes `descriptor_set`, an encoded `FileDescriptorSet` that holds
    /// the files to generate code for and all their imports (as written
    /// by `protoc --include_imports`), and checks `options`: the runtime
    /// crate paths, pointer templates and attributes parse, and no option
    /// rules out another (`no_std` with `json`, say). The files are
    /// checked and resolved once, into a [`DescriptorPool`] that every
    /// later stage reads features, names and references from.
    pub fn parse(descriptor_set: &'a [u8], options: &'a Options) -> Result<Input<'a>, Error> {
        let files = FileDescriptorSet::decode_from_slice(descriptor_set)
            .map_err(|e| Error::new(format!("invalid FileDescriptorSet: {e}")))?
            .file;
        let pool = DescriptorPool::from_file_descriptor_set(FileDescriptorSet {
            file: files.clone(),
            ..Default::default()
        })
        .map_err(|e| Error::new(format!("invalid descriptor set: {e}")))?;
        if let Some(field) = untyped_field(&files) {
            return Err(Error::new(format!(
                "invalid descriptor set: field {field} has no type (protoc writes every field's type)"
            )));
        }
        runtime::crate_path(options)?;
        pointer::validate_templates(options)?;
        attributes::check(options)?;
        service::check_options(options)?;
        no_std::check_options(options)?;
        Ok(Input {
            descriptor_set,
            files,
            pool,
            options,
        })
    }

    /// The (name, package) of every file of the set, in the set's order;
    /// the package is empty for a file without one.
    pub fn files(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.files.iter().map(|f| (f.name(), f.package()))
    }

    /// The (name, package) of each file that code is generated for, in
    /// the set's order: every file but those whose package an extern path
    /// in force covers ([`Options::is_extern_package`]) and those that
    /// only option imports (`import option "...";`, edition 2024) reach
    /// from the files `requested` names. buffa-build and protoc-gen-buffa
    /// both choose their files by this rule (the plugin then keeps the
    /// packages of the files protoc asks for).
    pub fn files_with_code(&self, requested: &[impl AsRef<str>]) -> Vec<(&str, &str)> {
        imports::files_with_code(&self.files, requested, self.options)
    }

    /// Selects the files code is generated for, named in `files` as protoc
    /// names them (`shop/v1/shop.proto`), and builds their schema: every
    /// type of the set indexed and named, every path an option names
    /// matched, and the analyses the stages share
    /// (boxing plans, `Eq`/`Hash`, declared extensions) made. Fails where
    /// an option path covers nothing or a file of `files` is not in the
    /// set.
    pub fn select(&self, files: &[impl AsRef<str>]) -> Result<Selection<'_>, Error> {
        let options = self.options;
        let files: Vec<&str> = files.iter().map(AsRef::as_ref).collect();
        let schema = load::schema(&self.files, &self.pool, &files, options)?;
        rule_paths::check(&schema, options)?;
        let boxing = BoxingPlan::new(MessageGraph::owned(&schema, options));
        let view_boxing = BoxingPlan::new(MessageGraph::views(&schema, options));
        let eq_hash = EqHash::new(&schema);
        let unknown_fields = UnknownFieldsPlan::new(&schema, options)?;
        let extensions = extensions::declared_extensions(&schema);
        let context = Context {
            schema,
            extensions,
            boxing,
            view_boxing,
            eq_hash,
            unknown_fields,
            // Checked by `parse`.
            buffa: runtime::crate_path(options)?,
            alloc: no_std::alloc_crate(options),
            options,
            view_sizes: Default::default(),
            owned_layouts: Default::default(),
        };
        Ok(Selection {
            context,
            descriptor_set: self.descriptor_set,
        })
    }
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("files", &self.files().collect::<Vec<_>>())
            .field("options", self.options)
            .finish_non_exhaustive()
    }
}

/// The files of an [`Input`] that code is generated for, with their
/// schema built and checked ([`Input::select`]); its methods produce the
/// run's outputs from that one schema.
pub struct Selection<'a> {
    context: Context<'a>,
    /// The input's encoded set.
    descriptor_set: &'a [u8],
}

impl Selection<'_> {
    /// The generated Rust files: one per protobuf package of the selected
    /// files (`shop.v1.rs`, or `_.rs` for files without a package), in the
    /// order of the packages' names. Mount them with [`crate::include_file`].
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Error> {
        pipeline::generate_files(&self.context, self.descriptor_set)
    }

    /// The layout report of the messages of the selected files: for each,
    /// the estimated `size_of` of its generated struct on 64-bit targets,
    /// and where each of its singular message fields and message-typed
    /// oneof variants is stored (`Box`, inline or a custom pointer) and
    /// why. The format is described in `docs/pointer-layout.md`.
    pub fn layout_report(&self) -> Result<String, Error> {
        report::layout_report(&self.context)
    }

    /// The data the stages share.
    #[cfg(test)]
    pub(crate) fn context(&self) -> &Context<'_> {
        &self.context
    }
}

impl fmt::Debug for Selection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let selected: Vec<&str> = (self.context.schema.files.iter())
            .filter(|file| file.generate)
            .map(|file| file.proto.name())
            .collect();
        f.debug_struct("Selection")
            .field("files", &selected)
            .finish_non_exhaustive()
    }
}

/// Tests' shorthand for a run: the files generated for `files` of
/// `descriptor_set`.
#[cfg(test)]
pub(crate) fn generate(
    descriptor_set: &[u8],
    files: &[String],
    options: &Options,
) -> Result<Vec<GeneratedFile>, Error> {
    Input::parse(descriptor_set, options)?
        .select(files)?
        .generate()
}

/// The full name of a field or extension of `files` whose `type` is unset,
/// if any. The pool accepts one whose `type_name` names a type (it resolves
/// the kind, as protoc's builder does for its parser's output), but codegen
/// reads each field's type from the descriptor as protoc hands it over,
/// where it is always set.
fn untyped_field(files: &[FileDescriptorProto]) -> Option<String> {
    fn in_message(scope: &str, message: &DescriptorProto) -> Option<String> {
        let scope = format!("{scope}.{}", message.name());
        let untyped = (message.field.iter().chain(&message.extension))
            .find(|field| field.r#type.is_none())
            .map(|field| format!("{scope}.{}", field.name()));
        untyped
            .or_else(|| (message.nested_type.iter()).find_map(|nested| in_message(&scope, nested)))
    }
    files.iter().find_map(|file| {
        let scope = if file.package().is_empty() {
            String::new()
        } else {
            format!(".{}", file.package())
        };
        let untyped = (file.extension.iter())
            .find(|field| field.r#type.is_none())
            .map(|field| format!("{scope}.{}", field.name()));
        untyped
            .or_else(|| (file.message_type.iter()).find_map(|message| in_message(&scope, message)))
    })
}

#[cfg(test)]
mod tests {
    use buffa_types::google::protobuf::DescriptorProto;

    use super::*;

    fn one_file() -> Vec<u8> {
        FileDescriptorSet {
            file: vec![FileDescriptorProto {
                name: Some("a.proto".into()),
                package: Some("a".into()),
                syntax: Some("proto3".into()),
                message_type: vec![DescriptorProto {
                    name: Some("M".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn bytes_that_are_no_descriptor_set_are_an_error() {
        let error = Input::parse(b"\xff", &Options::default()).err().unwrap();
        assert!(
            error.to_string().starts_with("invalid FileDescriptorSet: "),
            "{error}"
        );
    }

    #[test]
    fn a_file_not_in_the_set_is_an_error_of_select() {
        let set = one_file();
        let options = Options::default();
        let input = Input::parse(&set, &options).unwrap();
        assert_eq!(input.files().collect::<Vec<_>>(), [("a.proto", "a")]);
        let error = input.select(&["b.proto"]).err().unwrap();
        assert_eq!(
            error.to_string(),
            "file b.proto is not in the descriptor set"
        );
    }

    #[test]
    fn one_selection_generates_and_reports() {
        let set = one_file();
        let options = Options::default();
        let input = Input::parse(&set, &options).unwrap();
        let selection = input.select(&["a.proto"]).unwrap();
        let files = selection.generate().unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].name, "a.rs");
        assert!(
            files[0].content.contains("pub struct M {"),
            "{}",
            files[0].content
        );
        let report = selection.layout_report().unwrap();
        assert!(report.lines().any(|l| l.starts_with(".a.M ")), "{report}");
        assert_eq!(
            format!("{selection:?}"),
            r#"Selection { files: ["a.proto"], .. }"#
        );
        // Generating again from the same selection gives the same files.
        assert_eq!(selection.generate().unwrap(), files);
    }
}
