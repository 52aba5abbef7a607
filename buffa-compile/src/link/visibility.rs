//! `STRICT` symbol visibility (the default from edition 2026, or
//! `features.default_symbol_visibility = STRICT`): protoc's
//! `SymbolChecker`, which refuses `export` on a nested message, and on a
//! nested enum unless its message only namespaces it (`local message
//! Outer { export enum E {...} reserved 1 to max; }`).
//!
//! protoc checks this last, of a file with no other error, and reports
//! every nested message first, then every nested enum, each as an error
//! of the whole file (no line).

use buffa_types::google::protobuf::feature_set::visibility_feature::DefaultSymbolVisibility;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FileDescriptorProto, SymbolVisibility,
};

use super::locate::{ErrorLocation, Located};
use super::symbols::{default_visibility, join};

/// One past the largest field number (2^29 - 1): the end of `reserved 1
/// to max`.
const MAX_FIELD_END: i32 = 1 << 29;

/// The visibility errors of `file` (linked, options interpreted, free of
/// any other error), in protoc's order.
pub(crate) fn validate(file: &FileDescriptorProto) -> Vec<Located> {
    let default = default_visibility(file);
    if default != DefaultSymbolVisibility::Strict {
        return Vec::new();
    }
    let mut nested = Nested::default();
    for message in &file.message_type {
        nested.collect(message, file.package(), None);
    }
    let error = |message: String| Located::new(Vec::new(), ErrorLocation::Unrecorded, message);
    let messages = nested.messages.into_iter().map(|name| {
        error(format!(
            "\"{name}\" is a nested message and cannot be `export` with STRICT \
             default_symbol_visibility. It must be moved to top-level, ideally in its own \
             file in order to be `export`."
        ))
    });
    let enums = nested.enums.into_iter().map(|name| {
        error(format!(
            "\"{name}\" is a nested enum and cannot be marked `export` with STRICT \
             default_symbol_visibility. It must be moved to top-level, ideally in its own \
             file in order to be `export`. For C++ namespacing of enums in a messages use: \
             `local message <OuterNamespace> {{ export enum {name} {{...}} reserved 1 to max; }}`"
        ))
    });
    messages.chain(enums).collect()
}

/// The full names of the nested messages and enums marked `export`, in
/// the order protoc visits them (enums that only a namespace message
/// holds left out).
#[derive(Default)]
struct Nested {
    messages: Vec<String>,
    enums: Vec<String>,
}

impl Nested {
    /// Collects from `message` (in `scope`; `parent` is the message
    /// holding it) and what it nests.
    fn collect(
        &mut self,
        message: &DescriptorProto,
        scope: &str,
        parent: Option<&DescriptorProto>,
    ) {
        let full = join(scope, message.name());
        if parent.is_some() && message.visibility == Some(SymbolVisibility::VisibilityExport) {
            self.messages.push(full.clone());
        }
        for enumeration in &message.enum_type {
            if is_exported(enumeration) && !is_namespace(message, parent.is_none()) {
                self.enums.push(join(&full, enumeration.name()));
            }
        }
        for nested in &message.nested_type {
            self.collect(nested, &full, Some(message));
        }
    }
}

/// Whether a nested enum is marked `export` (under STRICT, the only way
/// it is exported).
fn is_exported(enumeration: &EnumDescriptorProto) -> bool {
    enumeration.visibility == Some(SymbolVisibility::VisibilityExport)
}

/// Whether `message` only namespaces its enums: top-level, local (by
/// keyword or, unmarked, by the STRICT default) and reserving every field
/// number in one range.
fn is_namespace(message: &DescriptorProto, top_level: bool) -> bool {
    top_level
        && message.visibility != Some(SymbolVisibility::VisibilityExport)
        && matches!(
            message.reserved_range.as_slice(),
            [range] if range.start == Some(1) && range.end == Some(MAX_FIELD_END)
        )
}
