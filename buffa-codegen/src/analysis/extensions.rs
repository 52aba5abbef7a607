//! The extensions a schema declares, each with the module its constant is
//! declared in and a name unique in that module.

use std::collections::{HashMap, HashSet};

use buffa_types::google::protobuf::{DescriptorProto, FieldDescriptorProto};

use crate::ident;
use buffa_descriptor::DescriptorPool;
use buffa_descriptor::rules::ResolvedFeatures;

use crate::input::names::PACKAGE_VALUE_NAMES;
use crate::input::schema::{self, Schema};
use crate::path;

/// A field of an `extend` block, anywhere in the schema.
pub struct DeclaredExtension<'a> {
    /// Its descriptor.
    pub proto: &'a FieldDescriptorProto,
    /// Full protobuf name, leading dot included (`.pkg.Scope.name`).
    pub full_name: String,
    /// Index of the declaring file in `Schema::files`.
    pub file: usize,
    /// The full name of the message it is declared in; `None` at file
    /// level.
    pub scope: Option<String>,
    /// Its path in the file's source info, for its comment.
    pub source_path: Vec<i32>,
    /// Its features, as the pool resolved them.
    pub features: ResolvedFeatures,
    /// The Rust module its constant is declared in.
    pub module: Vec<String>,
    /// The constant's name, unique in `module`.
    pub const_name: String,
}

/// Every extension of `schema`, file by file in descriptor-set order, each
/// file's own extensions first and then its messages' depth first, in
/// declaration order.
pub fn declared_extensions<'a>(schema: &Schema<'a>) -> Vec<DeclaredExtension<'a>> {
    let mut out = Vec::new();
    for (index, file) in schema.files.iter().enumerate() {
        let prefix = path::package_prefix(file.proto.package());
        let scope = Scope {
            file: index,
            prefix: &prefix,
            message: None,
            module: schema::package_modules(file.proto.package()),
        };
        scope.collect(&schema.pool, &file.proto.extension, &[7], &mut out);
        collect_nested(schema, &scope, &file.proto.message_type, &[4], &mut out);
    }
    // The value namespace of each module (see `names.rs`): a package's
    // module may also hold `FILE_DESCRIPTOR_SET`, which is taken first.
    let mut taken: HashMap<Vec<String>, HashSet<String>> = HashMap::new();
    for extension in &mut out {
        let taken = taken.entry(extension.module.clone()).or_insert_with(|| {
            let reserved = match extension.scope {
                None => PACKAGE_VALUE_NAMES,
                Some(_) => &[],
            };
            reserved.iter().map(|name| name.to_string()).collect()
        });
        // `foo_bar` and `fooBar` are both `FOO_BAR`.
        while !taken.insert(extension.const_name.clone()) {
            extension.const_name.push('_');
        }
    }
    out
}

/// Where extensions are declared: a file, or a message in it.
struct Scope<'s> {
    file: usize,
    /// The full name of the file's package or of the message.
    prefix: &'s str,
    message: Option<&'s str>,
    module: Vec<String>,
}

impl Scope<'_> {
    fn collect<'a>(
        &self,
        pool: &DescriptorPool,
        extensions: &'a [FieldDescriptorProto],
        path: &[i32],
        out: &mut Vec<DeclaredExtension<'a>>,
    ) {
        for (index, proto) in extensions.iter().enumerate() {
            let mut source_path = path.to_vec();
            source_path.push(index as i32);
            let full_name = format!("{}.{}", self.prefix, proto.name());
            // The pool was built from these files: it holds each extension.
            let features = pool
                .get_extension_by_name(&full_name[1..])
                .expect("the pool holds every extension of the set")
                .features();
            out.push(DeclaredExtension {
                proto,
                full_name,
                file: self.file,
                scope: self.message.map(str::to_owned),
                source_path,
                features,
                module: self.module.clone(),
                const_name: ident::const_name(proto.name()),
            });
        }
    }
}

/// The extensions declared in `messages` (of `parent`, at source path
/// `path`) and in the messages nested in them.
fn collect_nested<'a>(
    schema: &Schema<'a>,
    parent: &Scope<'_>,
    messages: &'a [DescriptorProto],
    path: &[i32],
    out: &mut Vec<DeclaredExtension<'a>>,
) {
    for (index, proto) in messages.iter().enumerate() {
        let full_name = format!("{}.{}", parent.prefix, proto.name());
        let Some(message) = schema.messages.get(&full_name) else {
            continue;
        };
        let mut message_path = path.to_vec();
        message_path.push(index as i32);
        let scope = Scope {
            file: parent.file,
            prefix: &full_name,
            message: Some(&full_name),
            module: message.module.clone(),
        };
        let mut extensions_path = message_path.clone();
        extensions_path.push(6);
        scope.collect(&schema.pool, &proto.extension, &extensions_path, out);
        message_path.push(3);
        collect_nested(schema, &scope, &proto.nested_type, &message_path, out);
    }
}
