//! Adding files to a pool: ordering them, checking each file as a whole,
//! then indexing its elements ([`index`](crate::index)) and resolving the
//! names they use ([`resolve`](crate::resolve)).
//!
//! An addition is all or nothing: the tables are appended to in place and
//! truncated back to a [`Checkpoint`](crate::inner::Checkpoint) on error.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use buffa::{Enumeration as _, Message as _};
use buffa_types::google::protobuf::field_options::OptionTargetType;
use buffa_types::google::protobuf::{Edition, FileDescriptorProto};

use crate::comments::LocationIndex;
use crate::index::FieldOwner;
use crate::inner::{FileInner, MethodInner, PoolInner, ServiceInner, Symbol};
use crate::names::{self, Budget, BudgetExceeded};
use crate::rules::{ResolvedFeatures, declared_features};
use crate::{DescriptorError, Syntax};

/// Adds `files` to `pool`, leaving it unchanged on error.
pub(crate) fn add_files(
    pool: &mut PoolInner,
    files: Vec<FileDescriptorProto>,
) -> Result<(), DescriptorError> {
    let checkpoint = pool.checkpoint();
    let result = order(pool, files).and_then(|files| {
        files
            .into_iter()
            .try_for_each(|file| Builder::add_file(pool, file))
    });
    if result.is_err() {
        pool.rollback(checkpoint);
    }
    result
}

/// The files not yet in the pool, each after the files of the set it
/// imports (otherwise in the given order). A file identical to one already
/// in the pool, or earlier in the set, is dropped; a different file of the
/// same name is an error.
fn order(
    pool: &PoolInner,
    files: Vec<FileDescriptorProto>,
) -> Result<Vec<FileDescriptorProto>, DescriptorError> {
    let mut new: Vec<FileDescriptorProto> = Vec::with_capacity(files.len());
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for file in files {
        let name = file.name();
        if name.is_empty() {
            return Err(DescriptorError::new(None, "a file has no name"));
        }
        let existing = match pool.file_names.get(name) {
            Some(&i) => Some(&*pool.file(i).proto),
            None => by_name.get(name).map(|&i| &new[i]),
        };
        match existing {
            Some(existing) if *existing == file => {}
            Some(_) => {
                return Err(DescriptorError::new(
                    Some(name),
                    "a different file of this name is already in the pool",
                ));
            }
            None => {
                by_name.insert(name.to_owned(), new.len());
                new.push(file);
            }
        }
    }
    // Kahn's algorithm, taking the earliest ready file first so that a set
    // already in dependency order keeps its order.
    let mut waiting_on = vec![0usize; new.len()];
    let mut importers: Vec<Vec<usize>> = vec![Vec::new(); new.len()];
    for (i, file) in new.iter().enumerate() {
        for dependency in &file.dependency {
            if let Some(&d) = by_name.get(dependency.as_str()) {
                waiting_on[i] += 1;
                importers[d].push(i);
            }
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> = (0..new.len())
        .filter(|&i| waiting_on[i] == 0)
        .map(Reverse)
        .collect();
    let mut sorted = Vec::with_capacity(new.len());
    while let Some(Reverse(i)) = ready.pop() {
        sorted.push(i);
        for &importer in &importers[i] {
            waiting_on[importer] -= 1;
            if waiting_on[importer] == 0 {
                ready.push(Reverse(importer));
            }
        }
    }
    if sorted.len() < new.len() {
        let stuck = (0..new.len()).find(|&i| waiting_on[i] > 0).unwrap_or(0);
        return Err(DescriptorError::new(
            Some(new[stuck].name()),
            "imports form a cycle",
        ));
    }
    let mut slots: Vec<Option<FileDescriptorProto>> = new.into_iter().map(Some).collect();
    Ok(sorted.into_iter().filter_map(|i| slots[i].take()).collect())
}

/// Adds one file whose dependencies are in the pool.
pub(crate) struct Builder<'a> {
    pub pool: &'a mut PoolInner,
    pub proto: Arc<FileDescriptorProto>,
    pub file: u32,
    pub syntax: Syntax,
    pub budget: Budget,
}

impl Builder<'_> {
    fn add_file(pool: &mut PoolInner, proto: FileDescriptorProto) -> Result<(), DescriptorError> {
        let name = proto.name();
        let file_error = |message: String| DescriptorError::new(Some(name), message);
        let syntax =
            crate::rules::file_syntax(proto.syntax(), proto.edition).map_err(file_error)?;
        let features = ResolvedFeatures::for_edition(syntax.edition()).ok_or_else(|| {
            let edition = match syntax {
                Syntax::Edition(edition) => edition,
                _ => Edition::Unknown,
            };
            // As `edition = "..."` spells it: 2026, UNSTABLE.
            let spelled = edition.proto_name().trim_start_matches("EDITION_");
            file_error(format!(
                "edition {spelled} is not supported (supported: proto2, proto3 and editions \
                 2023, 2024 and 2026)"
            ))
        })?;
        let mut dependencies = Vec::with_capacity(proto.dependency.len());
        for dependency in &proto.dependency {
            match pool.file_names.get(dependency.as_str()) {
                Some(&i) => dependencies.push(i),
                None => {
                    return Err(file_error(format!(
                        "imports {dependency}, which is not in the pool"
                    )));
                }
            }
        }
        let dependency_at = |&i: &i32| {
            usize::try_from(i)
                .ok()
                .and_then(|i| dependencies.get(i).copied())
                .ok_or_else(|| {
                    file_error(format!("public or weak import index {i} is out of range"))
                })
        };
        let public_dependencies = proto
            .public_dependency
            .iter()
            .map(dependency_at)
            .collect::<Result<Vec<u32>, _>>()?;
        proto
            .weak_dependency
            .iter()
            .try_for_each(|i| dependency_at(i).map(drop))?;
        if !crate::rules::is_package_name(proto.package()) {
            return Err(file_error(format!(
                "invalid package name {:?}",
                proto.package()
            )));
        }

        let file =
            u32::try_from(pool.files.len()).map_err(|_| file_error("too many files".into()))?;
        let budget = Budget::for_encoded_len(proto.encoded_len());
        let proto = Arc::new(proto);
        pool.file_names.insert(proto.name().into(), file);
        pool.files.push(FileInner {
            proto: proto.clone(),
            syntax,
            dependencies: dependencies.into(),
            public_dependencies: public_dependencies.into(),
            messages: 0..0,
            enums: 0..0,
            services: 0..0,
            extensions: 0..0,
            locations: LocationIndex::new(&proto),
        });
        let mut builder = Builder {
            pool,
            proto,
            file,
            syntax,
            budget,
        };
        builder.build(features)
    }

    fn build(&mut self, features: ResolvedFeatures) -> Result<(), DescriptorError> {
        let proto = self.proto.clone();
        let package = proto.package();
        self.define_package(package)?;
        let declared = declared_features(
            self.syntax,
            OptionTargetType::TargetTypeFile,
            proto.options.features.as_option(),
        )
        .map_err(|message| DescriptorError::new(Some(proto.name()), message))?;
        let features = features.merge(declared);
        let first_field = self.pool.fields.len() as u32;
        let messages = self.index_messages(&proto.message_type, None, package, features)?;
        let enums = self.index_enums(&proto.enum_type, None, package, features)?;
        let extensions = self.index_fields(
            &proto.extension,
            FieldOwner::Extensions(None),
            package,
            features,
            &[],
        )?;
        let first_method = self.pool.methods.len() as u32;
        let services = self.index_services(package)?;
        let file = &mut self.pool.files[self.file as usize];
        file.messages = messages;
        file.enums = enums;
        file.extensions = extensions;
        file.services = services;

        let visible = self.visible_files()?;
        for field in first_field..self.pool.fields.len() as u32 {
            self.resolve_field(field, &visible)?;
        }
        let methods = first_method..self.pool.methods.len() as u32;
        for method in methods {
            self.resolve_method(method, &visible)?;
        }
        Ok(())
    }

    /// An error about an element of this file.
    pub fn error(
        &self,
        kind: &'static str,
        full_name: &str,
        message: impl Into<String>,
    ) -> DescriptorError {
        DescriptorError::element(self.proto.name(), kind, full_name, message)
    }

    pub fn budget_error(&self, _: BudgetExceeded) -> DescriptorError {
        DescriptorError::new(
            Some(self.proto.name()),
            "the file's names are too long for its size (a bound against hostile input)",
        )
    }

    /// `scope.name`, checking that `name` is an identifier.
    pub fn full_name(
        &mut self,
        kind: &'static str,
        scope: &str,
        name: &str,
    ) -> Result<Box<str>, DescriptorError> {
        self.budget
            .charge(2 * (scope.len() + 1 + name.len()))
            .map_err(|e| self.budget_error(e))?;
        let full_name = names::join(scope, name);
        if !crate::rules::is_identifier(name) {
            let message = if name.is_empty() {
                "has no name".to_owned()
            } else {
                format!("invalid name {name:?}")
            };
            return Err(self.error(kind, &full_name, message));
        }
        Ok(full_name.into())
    }

    /// Records that `full_name` names `symbol`, which must be new.
    pub fn define(
        &mut self,
        kind: &'static str,
        full_name: &str,
        symbol: Symbol,
    ) -> Result<(), DescriptorError> {
        match self.pool.symbols.entry(full_name.into()) {
            Entry::Vacant(entry) => {
                entry.insert(symbol);
                Ok(())
            }
            Entry::Occupied(entry) => {
                let existing = *entry.get();
                let file = self.pool.file(self.pool.symbol_file(existing)).proto.name();
                let what = match existing {
                    Symbol::Package(_) => "a package",
                    Symbol::Message(_) => "a message",
                    Symbol::Enum(_) => "an enum",
                    Symbol::EnumValue(_) => "an enum value",
                    Symbol::Field(_) => "a field",
                    Symbol::Oneof(_) => "a oneof",
                    Symbol::Service(_) => "a service",
                    Symbol::Method(_) => "a method",
                };
                Err(self.error(
                    kind,
                    full_name,
                    format!("{full_name} is already defined as {what} in {file}"),
                ))
            }
        }
    }

    /// Records the package and each of its prefixes as packages.
    fn define_package(&mut self, package: &str) -> Result<(), DescriptorError> {
        if package.is_empty() {
            return Ok(());
        }
        let ends = package.match_indices('.').map(|(i, _)| i);
        for end in ends.chain([package.len()]) {
            let prefix = &package[..end];
            self.budget
                .charge(prefix.len())
                .map_err(|e| self.budget_error(e))?;
            match self.pool.symbols.get(prefix) {
                Some(Symbol::Package(_)) => {}
                Some(_) => self.define("package", prefix, Symbol::Package(self.file))?,
                None => {
                    self.pool
                        .symbols
                        .insert(prefix.into(), Symbol::Package(self.file));
                }
            }
        }
        Ok(())
    }

    fn index_services(&mut self, package: &str) -> Result<Range<u32>, DescriptorError> {
        let proto = self.proto.clone();
        let start = self.pool.services.len() as u32;
        for (i, service) in proto.service.iter().enumerate() {
            let full_name = self.full_name("service", package, service.name())?;
            declared_features(
                self.syntax,
                OptionTargetType::TargetTypeService,
                service.options.features.as_option(),
            )
            .map_err(|message| self.error("service", &full_name, message))?;
            let index = self.pool.services.len() as u32;
            let methods_start = self.pool.methods.len() as u32;
            self.pool.services.push(ServiceInner {
                full_name: full_name.clone(),
                file: self.file,
                index: i as u32,
                methods: methods_start..methods_start,
            });
            self.define("service", &full_name, Symbol::Service(index))?;
            for (j, method) in service.method.iter().enumerate() {
                let method_name = self.full_name("method", &full_name, method.name())?;
                declared_features(
                    self.syntax,
                    OptionTargetType::TargetTypeMethod,
                    method.options.features.as_option(),
                )
                .map_err(|message| self.error("method", &method_name, message))?;
                let method_index = self.pool.methods.len() as u32;
                self.pool.methods.push(MethodInner {
                    full_name: method_name.clone(),
                    service: index,
                    index: j as u32,
                    // Set by `resolve_method`.
                    input: u32::MAX,
                    output: u32::MAX,
                });
                self.define("method", &method_name, Symbol::Method(method_index))?;
            }
            self.pool.services[index as usize].methods.end = self.pool.methods.len() as u32;
        }
        Ok(start..self.pool.services.len() as u32)
    }
}

impl PoolInner {
    /// The file declaring `symbol` (for a package, the first to).
    pub(crate) fn symbol_file(&self, symbol: Symbol) -> u32 {
        match symbol {
            Symbol::Package(file) => file,
            Symbol::Message(i) => self.message(i).file,
            Symbol::Enum(i) => self.enum_(i).file,
            Symbol::EnumValue(i) => self.enum_(self.enum_value(i).parent).file,
            Symbol::Field(i) => self.field(i).file,
            Symbol::Oneof(i) => self.message(self.oneof(i).message).file,
            Symbol::Service(i) => self.service(i).file,
            Symbol::Method(i) => self.service(self.method(i).service).file,
        }
    }
}
