//! The checks protoc makes on a file's own elements, worded and located as
//! protoc reports them: those of `DescriptorBuilder`'s build phase (field
//! numbers, reserved and extension ranges, reserved names), made before
//! cross-linking, and those of its validation phase (proto3's rules, JSON
//! name and enum value name conflicts), made once options are
//! interpreted. What they do not cover the pool checks after them.

use std::collections::{HashMap, HashSet};

use buffa_descriptor::rules::json_name;
use buffa_types::google::protobuf::feature_set::EnumType;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
};

use super::locate::{ErrorLocation, Located};
use super::ranges::RangeIndex;
use super::symbols::join;

/// The largest field number.
const MAX_FIELD_NUMBER: i32 = (1 << 29) - 1;

/// How many errors the range checks report before giving up: enough for
/// any file a person wrote, few enough that a hostile file with many
/// overlapping ranges is not checked pair by pair.
const ERROR_LIMIT: usize = 1000;

/// The build-phase checks of every message and enum of `file`.
pub(crate) fn build(file: &FileDescriptorProto) -> Vec<Located> {
    let mut errors = Vec::new();
    let mut imports = HashSet::new();
    for (i, import) in file.dependency.iter().enumerate() {
        if !imports.insert(import.as_str()) {
            errors.push(Located::new(
                vec![3, i as i32],
                ErrorLocation::Other,
                format!("Import \"{import}\" was listed twice."),
            ));
        }
    }
    let package = file.package();
    let proto3 = file.syntax.as_deref() == Some("proto3");
    for (i, message) in file.message_type.iter().enumerate() {
        build_message(message, package, proto3, &[4, i as i32], &mut errors);
    }
    for (i, enumeration) in file.enum_type.iter().enumerate() {
        build_enum(enumeration, proto3, &[5, i as i32], &mut errors);
    }
    for (i, extension) in file.extension.iter().enumerate() {
        field_number(extension, true, &[7, i as i32], &mut errors);
    }
    errors
}

/// `path` followed by `more`.
fn child(path: &[i32], more: &[i32]) -> Vec<i32> {
    let mut path = path.to_vec();
    path.extend_from_slice(more);
    path
}

/// A field's number is positive, and at most 2^29 - 1 unless it is an
/// extension's.
fn field_number(
    field: &FieldDescriptorProto,
    is_extension: bool,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    let number = field.number();
    let message = if number <= 0 {
        "Field numbers must be positive integers.".to_owned()
    } else if !is_extension && number > MAX_FIELD_NUMBER {
        format!("Field numbers cannot be greater than {MAX_FIELD_NUMBER}.")
    } else {
        return;
    };
    errors.push(Located::new(path.to_vec(), ErrorLocation::Number, message));
}

/// A message's build-phase checks, then its nested messages' and enums'.
fn build_message(
    message: &DescriptorProto,
    scope: &str,
    proto3: bool,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    let full = join(scope, message.name());
    for (i, field) in message.field.iter().enumerate() {
        field_number(field, false, &child(path, &[2, i as i32]), errors);
    }
    for (i, enumeration) in message.enum_type.iter().enumerate() {
        build_enum(enumeration, proto3, &child(path, &[4, i as i32]), errors);
    }
    for (i, extension) in message.extension.iter().enumerate() {
        field_number(extension, true, &child(path, &[6, i as i32]), errors);
    }
    for (i, nested) in message.nested_type.iter().enumerate() {
        build_message(nested, &full, proto3, &child(path, &[3, i as i32]), errors);
    }
    let reserved: Vec<(i32, i32)> = message
        .reserved_range
        .iter()
        .map(|r| (r.start(), r.end()))
        .collect();
    let extensions: Vec<(i32, i32)> = message
        .extension_range
        .iter()
        .map(|r| (r.start(), r.end()))
        .collect();
    let number =
        |path: Vec<i32>, message: String| Located::new(path, ErrorLocation::Other, message);
    let reserved_index = RangeIndex::new(&reserved);
    let extension_index = RangeIndex::new(&extensions);
    for (i, &first) in reserved.iter().enumerate() {
        for j in reserved_index.overlapping(first.0, first.1) {
            if j <= i {
                continue;
            }
            let second = reserved[j];
            if errors.len() >= ERROR_LIMIT {
                return;
            }
            errors.push(number(
                child(path, &[9, i as i32]),
                format!(
                    "Reserved range {} to {} overlaps with already-defined range {} to {}.",
                    second.0,
                    second.1 - 1,
                    first.0,
                    first.1 - 1
                ),
            ));
        }
    }
    let mut reserved_names = HashSet::new();
    for name in &message.reserved_name {
        if !reserved_names.insert(name.as_str()) {
            errors.push(Located::new(
                path.to_vec(),
                ErrorLocation::Name,
                format!("Field name \"{name}\" is reserved multiple times."),
            ));
        }
    }
    for (i, field) in message.field.iter().enumerate() {
        if errors.len() >= ERROR_LIMIT {
            return;
        }
        let n = field.number();
        for j in extension_index.containing(n) {
            let (start, end) = extensions[j];
            errors.push(number(
                child(path, &[5, j as i32]),
                format!(
                    "Extension range {start} to {} includes field \"{}\" ({n}).",
                    end - 1,
                    field.name()
                ),
            ));
        }
        for j in reserved_index.containing(n) {
            errors.push(number(
                child(path, &[9, j as i32]),
                format!("Field \"{}\" uses reserved number {n}.", field.name()),
            ));
        }
        if reserved_names.contains(field.name()) {
            errors.push(Located::new(
                child(path, &[2, i as i32]),
                ErrorLocation::Name,
                format!("Field name \"{}\" is reserved.", field.name()),
            ));
        }
    }
    for (i, &first) in extensions.iter().enumerate() {
        if errors.len() >= ERROR_LIMIT {
            return;
        }
        for j in reserved_index.overlapping(first.0, first.1) {
            let range = reserved[j];
            errors.push(number(
                child(path, &[5, i as i32]),
                format!(
                    "Extension range {} to {} overlaps with reserved range {} to {}.",
                    first.0,
                    first.1 - 1,
                    range.0,
                    range.1 - 1
                ),
            ));
        }
        for j in extension_index.overlapping(first.0, first.1) {
            if j <= i {
                continue;
            }
            let second = extensions[j];
            errors.push(number(
                child(path, &[5, i as i32]),
                format!(
                    "Extension range {} to {} overlaps with already-defined range {} to {}.",
                    second.0,
                    second.1 - 1,
                    first.0,
                    first.1 - 1
                ),
            ));
        }
    }
}

/// An enum's build-phase checks: values present, reserved numbers and
/// names not used, and a proto3 enum's first value zero.
fn build_enum(
    enumeration: &EnumDescriptorProto,
    proto3: bool,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    // protoc checks this once options are interpreted, but no option can
    // make a proto3 enum closed: checked here, before the pool sees it.
    if proto3 && enumeration.value.first().is_some_and(|v| v.number() != 0) {
        errors.push(Located::new(
            child(path, &[2, 0, 2]),
            ErrorLocation::Other,
            "The first enum value must be zero for open enums.".to_owned(),
        ));
    }
    if enumeration.value.is_empty() {
        errors.push(Located::new(
            path.to_vec(),
            ErrorLocation::Name,
            "Enums must contain at least one value.".to_owned(),
        ));
    }
    let reserved_names: HashSet<&str> = enumeration
        .reserved_name
        .iter()
        .map(String::as_str)
        .collect();
    for (i, value) in enumeration.value.iter().enumerate() {
        let n = value.number();
        for (j, range) in enumeration.reserved_range.iter().enumerate() {
            // Enum reserved ranges are inclusive.
            if range.start() <= n && n <= range.end() {
                errors.push(Located::new(
                    child(path, &[4, j as i32]),
                    ErrorLocation::Other,
                    format!("Enum value \"{}\" uses reserved number {n}.", value.name()),
                ));
            }
        }
        if reserved_names.contains(value.name()) {
            errors.push(Located::new(
                child(path, &[2, i as i32]),
                ErrorLocation::Name,
                format!("Enum value \"{}\" is reserved.", value.name()),
            ));
        }
    }
}

/// How a file treats JSON name conflicts (its `json_format` feature, as
/// far as it is known before features are resolved).
#[derive(Clone, Copy, PartialEq, Eq)]
enum JsonConflicts {
    /// proto2: conflicts involving a default JSON name are warnings.
    LegacyBestEffort,
    /// proto3 and editions: every conflict is an error.
    Error,
}

/// The validation-phase checks of `file` (linked, options interpreted).
pub(crate) fn validate(file: &FileDescriptorProto) -> Vec<Located> {
    let mut errors = Vec::new();
    let proto3 = file.syntax.as_deref() == Some("proto3");
    let json = if file.edition.is_none() && !proto3 {
        JsonConflicts::LegacyBestEffort
    } else {
        JsonConflicts::Error
    };
    let package = file.package();
    for (i, extension) in file.extension.iter().enumerate() {
        extension_checks(extension, proto3, &[7, i as i32], &mut errors);
    }
    for (i, message) in file.message_type.iter().enumerate() {
        validate_message(message, package, &[4, i as i32], proto3, json, &mut errors);
    }
    let proto2 = json == JsonConflicts::LegacyBestEffort;
    for (i, enumeration) in file.enum_type.iter().enumerate() {
        validate_enum(enumeration, &[5, i as i32], proto2, &mut errors);
    }
    if file.edition.is_some() {
        let closed = closes(
            file.options
                .as_option()
                .and_then(|o| o.features.as_option()),
            false,
        );
        open_enums_start_at_zero(
            &file.enum_type,
            &file.message_type,
            &[],
            closed,
            &mut errors,
        );
    }
    errors
}

/// Whether `features` make enums closed, `inherited` telling whether they
/// are closed where the features are declared.
fn closes(features: Option<&buffa_types::google::protobuf::FeatureSet>, inherited: bool) -> bool {
    match features.and_then(|f| f.enum_type) {
        Some(EnumType::Closed) => true,
        Some(EnumType::Open) => false,
        _ => inherited,
    }
}

/// In an editions file, the first value of an open enum (the default)
/// must be zero; `closed` tells whether the enclosing scope's features
/// close enums.
fn open_enums_start_at_zero(
    enums: &[EnumDescriptorProto],
    messages: &[DescriptorProto],
    path: &[i32],
    closed: bool,
    errors: &mut Vec<Located>,
) {
    // Enums and messages are numbered 5 and 4 in a file, 4 and 3 in a
    // message.
    let (enum_tag, message_tag) = if path.is_empty() { (5, 4) } else { (4, 3) };
    for (i, enumeration) in enums.iter().enumerate() {
        let features = enumeration
            .options
            .as_option()
            .and_then(|o| o.features.as_option());
        if !closes(features, closed) && enumeration.value.first().is_some_and(|v| v.number() != 0) {
            errors.push(Located::new(
                child(path, &[enum_tag, i as i32, 2, 0, 2]),
                ErrorLocation::Other,
                "The first enum value must be zero for open enums.".to_owned(),
            ));
        }
    }
    for (i, message) in messages.iter().enumerate() {
        let features = message
            .options
            .as_option()
            .and_then(|o| o.features.as_option());
        open_enums_start_at_zero(
            &message.enum_type,
            &message.nested_type,
            &child(path, &[message_tag, i as i32]),
            closes(features, closed),
            errors,
        );
    }
}

/// Whether a message's options (interpreted or not) ask for the legacy
/// treatment of JSON name conflicts, or may change the `json_format`
/// feature, so that the check is left to the pool.
fn legacy_json(options: Option<&buffa_types::google::protobuf::MessageOptions>) -> bool {
    options.is_some_and(|o| {
        o.deprecated_legacy_json_field_conflicts == Some(true)
            || o.features.is_set()
            || o.uninterpreted_option.iter().any(|u| {
                u.name.first().is_some_and(|n| {
                    n.name_part() == "deprecated_legacy_json_field_conflicts"
                        || n.name_part() == "features"
                })
            })
    })
}

/// A message's validation-phase checks, its nested messages' first.
fn validate_message(
    message: &DescriptorProto,
    scope: &str,
    path: &[i32],
    proto3: bool,
    json: JsonConflicts,
    errors: &mut Vec<Located>,
) {
    let full = join(scope, message.name());
    for (i, nested) in message.nested_type.iter().enumerate() {
        validate_message(
            nested,
            &full,
            &child(path, &[3, i as i32]),
            proto3,
            json,
            errors,
        );
    }
    if proto3 {
        for (i, field) in message.field.iter().enumerate() {
            proto3_field(field, false, &child(path, &[2, i as i32]), errors);
        }
        if !message.extension_range.is_empty() {
            errors.push(Located::new(
                child(path, &[5, 0]),
                ErrorLocation::Other,
                "Extension ranges are not allowed in proto3.".to_owned(),
            ));
        }
    }
    for (i, extension) in message.extension.iter().enumerate() {
        extension_checks(extension, proto3, &child(path, &[6, i as i32]), errors);
    }
    for (i, field) in message.field.iter().enumerate() {
        map_key(message, field, &child(path, &[2, i as i32]), errors);
    }
    if !legacy_json(message.options.as_option()) {
        json_names(message, path, false, json, errors);
        json_names(message, path, true, json, errors);
    }
    let proto2 = json == JsonConflicts::LegacyBestEffort;
    for (i, enumeration) in message.enum_type.iter().enumerate() {
        validate_enum(enumeration, &child(path, &[4, i as i32]), proto2, errors);
    }
}

/// The key of a map field (a field whose type is a map entry nested next
/// to it) must be a scalar that is not a float, a double or bytes.
fn map_key(
    message: &DescriptorProto,
    field: &FieldDescriptorProto,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    let Some(entry_name) = field
        .type_name
        .as_deref()
        .and_then(|t| t.rsplit('.').next())
    else {
        return;
    };
    let Some(entry) = message.nested_type.iter().find(|m| {
        m.name() == entry_name
            && m.options
                .as_option()
                .is_some_and(|o| o.map_entry == Some(true))
    }) else {
        return;
    };
    if field
        .type_name
        .as_deref()
        .is_none_or(|t| !t.ends_with(&format!("{}.{entry_name}", message.name())))
    {
        return;
    }
    let Some(key) = entry.field.iter().find(|f| f.number() == 1) else {
        return;
    };
    let message = match key.r#type {
        Some(Type::Enum) => "Key in map fields cannot be enum types.",
        Some(Type::Float | Type::Double | Type::Message | Type::Group | Type::Bytes) => {
            "Key in map fields cannot be float/double, bytes or message types."
        }
        _ => return,
    };
    errors.push(Located::new(
        path.to_vec(),
        ErrorLocation::Type,
        message.to_owned(),
    ));
}

/// An extension's validation-phase checks: proto3's rules, and no custom
/// JSON name.
fn extension_checks(
    extension: &FieldDescriptorProto,
    proto3: bool,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    if proto3 {
        proto3_field(extension, true, path, errors);
    }
    if extension
        .json_name
        .as_deref()
        .is_some_and(|name| name != json_name(extension.name()))
    {
        errors.push(Located::new(
            path.to_vec(),
            ErrorLocation::JsonName,
            "option json_name is not allowed on extension fields.".to_owned(),
        ));
    }
}

/// proto3's rules for one field or extension.
fn proto3_field(
    field: &FieldDescriptorProto,
    is_extension: bool,
    path: &[i32],
    errors: &mut Vec<Located>,
) {
    let mut error = |location, message: &str| {
        errors.push(Located::new(path.to_vec(), location, message.to_owned()));
    };
    if is_extension
        && !field
            .extendee()
            .strip_prefix(".google.protobuf.")
            .is_some_and(|options| options.ends_with("Options"))
    {
        error(
            ErrorLocation::Extendee,
            "Extensions in proto3 are only allowed for defining options.",
        );
    }
    if field.label == Some(Label::Required) {
        error(
            ErrorLocation::Type,
            "Required fields are not allowed in proto3.",
        );
    }
    if field.default_value.is_some() {
        error(
            ErrorLocation::DefaultValue,
            "Explicit default values are not allowed in proto3.",
        );
    }
    if field.r#type == Some(Type::Group) {
        error(
            ErrorLocation::Type,
            "Groups are not supported in proto3 syntax.",
        );
    }
}

/// protoc's JSON name conflict check over a message's fields, on default
/// JSON names only or on custom ones too.
fn json_names(
    message: &DescriptorProto,
    path: &[i32],
    use_custom: bool,
    json: JsonConflicts,
    errors: &mut Vec<Located>,
) {
    // Each field's JSON name and whether it is custom, by name.
    let mut seen: HashMap<String, (&str, bool)> = HashMap::new();
    for (i, field) in message.field.iter().enumerate() {
        let default = json_name(field.name());
        let (name, custom) = match &field.json_name {
            Some(custom) if use_custom && *custom != default => (custom.clone(), true),
            _ => (default, false),
        };
        let field_path = child(path, &[2, i as i32]);
        if custom && name.starts_with('[') && name.ends_with(']') {
            errors.push(Located::new(
                field_path,
                ErrorLocation::Name,
                format!(
                    "The custom JSON name of field \"{}\" (\"{name}\") is invalid: JSON names \
                     may not start with '[' and end with ']'.",
                    field.name()
                ),
            ));
            continue;
        }
        let Some(&(other, other_custom)) = seen.get(&name) else {
            seen.insert(name, (field.name(), custom));
            continue;
        };
        if use_custom && !custom && !other_custom {
            continue;
        }
        if json == JsonConflicts::LegacyBestEffort && (!custom || !other_custom) {
            // A warning in protoc.
            continue;
        }
        let other_name = message
            .field
            .iter()
            .find(|f| f.name() == other)
            .map(|f| match &f.json_name {
                Some(custom) if other_custom => custom.clone(),
                _ => json_name(f.name()),
            })
            .unwrap_or_default();
        let suffix = if other_name != name {
            format!(" (\"{other_name}\")")
        } else {
            String::new()
        };
        errors.push(Located::new(
            field_path,
            ErrorLocation::Name,
            format!(
                "The {} JSON name of field \"{}\" (\"{name}\") conflicts with the {} JSON name \
                 of field \"{other}\"{suffix}.",
                if custom { "custom" } else { "default" },
                field.name(),
                if other_custom { "custom" } else { "default" },
            ),
        ));
    }
}

/// An enum's validation-phase checks: value names that clash once the
/// enum's name is stripped and case ignored.
fn validate_enum(
    enumeration: &EnumDescriptorProto,
    path: &[i32],
    proto2: bool,
    errors: &mut Vec<Located>,
) {
    let legacy = enumeration.options.as_option().is_some_and(|o| {
        o.deprecated_legacy_json_field_conflicts == Some(true)
            || o.uninterpreted_option.iter().any(|u| {
                u.name
                    .first()
                    .is_some_and(|n| n.name_part() == "deprecated_legacy_json_field_conflicts")
            })
    });
    let prefix: String = enumeration
        .name()
        .chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut seen: HashMap<String, (&str, i32)> = HashMap::new();
    for (i, value) in enumeration.value.iter().enumerate() {
        let stripped = pascal_case(strip_prefix(value.name(), &prefix));
        match seen.get(&stripped) {
            None => {
                seen.insert(stripped, (value.name(), value.number()));
            }
            Some(&(other, number)) => {
                if other != value.name() && number != value.number() && !(legacy && proto2) {
                    errors.push(Located::new(
                        child(path, &[2, i as i32]),
                        ErrorLocation::Name,
                        format!(
                            "Enum name {} has the same name as {other} if you ignore case and \
                             strip out the enum name prefix (if any). (If you are using \
                             allow_alias, please assign the same number to each enum value \
                             name.)",
                            value.name()
                        ),
                    ));
                }
            }
        }
    }
}

/// `name` without the enum's name (`prefix`, lower case without
/// underscores) in front, underscores and case ignored; `name` itself when
/// it does not start with it or is nothing more.
fn strip_prefix<'a>(name: &'a str, prefix: &str) -> &'a str {
    let bytes = name.as_bytes();
    let prefix = prefix.as_bytes();
    let (mut i, mut j) = (0, 0);
    while i < bytes.len() && j < prefix.len() {
        if bytes[i] != b'_' {
            if bytes[i].to_ascii_lowercase() != prefix[j] {
                return name;
            }
            j += 1;
        }
        i += 1;
    }
    if j < prefix.len() {
        return name;
    }
    while i < bytes.len() && bytes[i] == b'_' {
        i += 1;
    }
    if i == bytes.len() { name } else { &name[i..] }
}

/// protoc's `EnumValueToPascalCase`: underscores dropped, the letter after
/// each (and the first) upper case, the others lower case.
fn pascal_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else {
            out.push(if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            });
            upper = false;
        }
    }
    out
}
