//! The `feature_support` windows of fields and enum values: when an
//! element (a feature, an option, one of their values) was introduced,
//! deprecated and removed must be consistent, and a feature's value may
//! not outlive the feature. protoc checks them on every field and enum
//! value of the files it compiles (a check it asks of its pool, which
//! reflection pools do not make), with errors that carry no position.

use buffa_descriptor::DescriptorPool;
use buffa_types::google::protobuf::field_descriptor_proto::Type;
use buffa_types::google::protobuf::field_options::FeatureSupport;
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FileDescriptorProto,
};

use super::locate::{ErrorLocation, Located};
use super::option_checks::local_enum;

/// The `feature_support` errors of `file` (options interpreted), whose
/// imports `pool` holds, in protoc's order: each message's enums, fields,
/// nested messages and extensions, then the file's enums and extensions.
pub(crate) fn validate(file: &FileDescriptorProto, pool: &DescriptorPool) -> Vec<Located> {
    let mut check = Check {
        file,
        pool,
        errors: Vec::new(),
    };
    let package = file.package();
    for message in &file.message_type {
        check.message(message, &join(package, message.name()));
    }
    for enumeration in &file.enum_type {
        check.enumeration(enumeration, package);
    }
    for extension in &file.extension {
        check.field(extension, package);
    }
    check.errors
}

/// `scope.name`, or `name` in the unnamed scope.
fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_owned()
    } else {
        format!("{scope}.{name}")
    }
}

/// The walk over one file, collecting its errors.
struct Check<'a> {
    file: &'a FileDescriptorProto,
    pool: &'a DescriptorPool,
    errors: Vec<Located>,
}

impl Check<'_> {
    /// An error protoc reports at an option name it has no position for.
    fn error(&mut self, message: String) {
        self.errors
            .push(Located::new(Vec::new(), ErrorLocation::Unrecorded, message));
    }

    /// A message (whose full name is `full_name`) and what it holds.
    fn message(&mut self, message: &DescriptorProto, full_name: &str) {
        for enumeration in &message.enum_type {
            self.enumeration(enumeration, full_name);
        }
        for field in &message.field {
            self.field(field, full_name);
        }
        for nested in &message.nested_type {
            self.message(nested, &join(full_name, nested.name()));
        }
        for extension in &message.extension {
            self.field(extension, full_name);
        }
    }

    /// The values of an enum declared in `scope` (its values' scope too).
    fn enumeration(&mut self, enumeration: &EnumDescriptorProto, scope: &str) {
        for value in &enumeration.value {
            if let Some(support) = value_support(value) {
                let name = join(scope, value.name());
                if let Err(e) = window(support, &name) {
                    self.error(e);
                }
            }
        }
    }

    /// A field or extension declared in `scope`: its own window, and, for
    /// an enum field with one, each value's window within it.
    fn field(&mut self, field: &FieldDescriptorProto, scope: &str) {
        let name = join(scope, field.name());
        let Some(parent) = field
            .options
            .as_option()
            .and_then(|o| o.feature_support.as_option())
        else {
            return;
        };
        if let Err(e) = window(parent, &name) {
            self.error(e);
            return;
        }
        if field.r#type != Some(Type::Enum) {
            return;
        }
        let Some(enum_name) = field.type_name.as_deref().and_then(|t| t.strip_prefix('.')) else {
            return;
        };
        let enum_scope = enum_name.rsplit_once('.').map_or("", |(s, _)| s);
        let imported = self.pool.get_enum_by_name(enum_name);
        let values = match (local_enum(self.file, enum_name), &imported) {
            (Some(local), _) => &local.value,
            (None, Some(imported)) => &imported.enum_descriptor_proto().value,
            (None, None) => return,
        };
        for value in values {
            let Some(own) = value_support(value) else {
                continue;
            };
            let value_name = join(enum_scope, value.name());
            if let Err(e) = value_within(parent, own, &value_name, &name) {
                self.error(e);
                return;
            }
        }
    }
}

/// An enum value's `feature_support`, if its options set one.
fn value_support(value: &EnumValueDescriptorProto) -> Option<&FeatureSupport> {
    value
        .options
        .as_option()
        .and_then(|o| o.feature_support.as_option())
}

/// A support window's own consistency, for the element `full_name`.
fn window(support: &FeatureSupport, full_name: &str) -> Result<(), String> {
    let introduced = support.edition_introduced() as i32;
    let deprecated = support.edition_deprecated() as i32;
    if support.edition_deprecated.is_some() {
        if deprecated < introduced {
            return Err(format!(
                "{full_name} was deprecated before it was introduced."
            ));
        }
        if support.deprecation_warning.is_none() {
            return Err(format!(
                "{full_name} is deprecated but does not specify a deprecation warning."
            ));
        }
    } else if support.deprecation_warning.is_some() {
        return Err(format!(
            "{full_name} specifies a deprecation warning but is not marked deprecated in any \
             edition."
        ));
    }
    if support.edition_removed.is_some() {
        let removed = support.edition_removed() as i32;
        if deprecated >= removed {
            return Err(format!("{full_name} was deprecated after it was removed."));
        }
        if removed < introduced {
            return Err(format!("{full_name} was removed before it was introduced."));
        }
        // Introduced and removed in one edition, an element needs no
        // removal error.
        if introduced != removed && support.removal_error.is_none() {
            return Err(format!(
                "{full_name} has been removed but does not specify a removal error."
            ));
        }
    } else if support.removal_error.is_some() {
        return Err(format!(
            "{full_name} specifies a removal error but is not marked removed in any edition."
        ));
    }
    Ok(())
}

/// An enum value's window (its own settings over its field's) must be
/// consistent and must not reach outside the field's.
fn value_within(
    parent: &FeatureSupport,
    own: &FeatureSupport,
    value_name: &str,
    field_name: &str,
) -> Result<(), String> {
    let mut support = parent.clone();
    if own.edition_introduced.is_some() {
        support.edition_introduced = own.edition_introduced;
    }
    if own.edition_deprecated.is_some() {
        support.edition_deprecated = own.edition_deprecated;
    }
    if own.deprecation_warning.is_some() {
        support
            .deprecation_warning
            .clone_from(&own.deprecation_warning);
    }
    if own.edition_removed.is_some() {
        support.edition_removed = own.edition_removed;
    }
    if own.removal_error.is_some() {
        support.removal_error.clone_from(&own.removal_error);
    }
    window(&support, value_name)?;
    if (support.edition_introduced() as i32) < parent.edition_introduced() as i32 {
        return Err(format!(
            "value {value_name} was introduced before {field_name} was."
        ));
    }
    if parent.edition_removed.is_some()
        && support.edition_removed() as i32 > parent.edition_removed() as i32
    {
        return Err(format!(
            "value {value_name} was removed after {field_name} was."
        ));
    }
    if parent.edition_deprecated.is_some()
        && support.edition_deprecated() as i32 > parent.edition_deprecated() as i32
    {
        return Err(format!(
            "value {value_name} was deprecated after {field_name} was."
        ));
    }
    Ok(())
}
