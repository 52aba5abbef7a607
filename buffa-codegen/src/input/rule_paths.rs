//! The proto paths named in options, checked against the schema.

use crate::error::Error;
use crate::input::schema::Schema;
use crate::options::Options;
use crate::path;

/// Every path named in an option must cover something in the schema, so
/// that typos fail loudly instead of silently changing nothing.
pub fn check(schema: &Schema<'_>, options: &Options) -> Result<(), Error> {
    let mut known: Vec<String> = Vec::new();
    for file in &schema.files {
        let prefix = path::package_prefix(file.proto.package());
        known.push(if prefix.is_empty() {
            ".".into()
        } else {
            prefix
        });
    }
    for (name, message) in &schema.messages {
        known.push(name.clone());
        known.extend(
            message
                .proto
                .field
                .iter()
                .map(|f| format!("{name}.{}", f.name())),
        );
        known.extend(
            message
                .proto
                .oneof_decl
                .iter()
                .map(|o| format!("{name}.{}", o.name())),
        );
    }
    known.extend(schema.enums.keys().cloned());
    let mut named: Vec<(&str, &str)> = Vec::new();
    named.extend(options.btree_maps.iter().map(|(p, _)| ("btree_map", p)));
    named.extend(options.strings.iter().map(|(p, _)| ("string_type", p)));
    named.extend(options.bytes.iter().map(|(p, _)| ("bytes_type", p)));
    named.extend(options.pointers.iter().map(|(p, _)| ("pointer", p)));
    named.extend(
        options
            .inline_max_size
            .iter()
            .map(|(p, _)| ("inline_max_size", p)),
    );
    named.extend(
        options
            .unboxed_oneofs
            .iter()
            .map(|(p, _)| ("unbox_oneof", p)),
    );
    named.extend(
        options
            .unknown_fields
            .iter()
            .map(|(p, _)| ("unknown_fields", p)),
    );
    named.extend(options.lazy_views.iter().map(|(p, _)| ("lazy_views", p)));
    named.extend(
        options
            .type_attributes
            .iter()
            .map(|(p, _)| ("type_attribute", p)),
    );
    named.extend(
        options
            .message_attributes
            .iter()
            .map(|(p, _)| ("message_attribute", p)),
    );
    named.extend(
        options
            .enum_attributes
            .iter()
            .map(|(p, _)| ("enum_attribute", p)),
    );
    named.extend(
        options
            .field_attributes
            .iter()
            .map(|(p, _)| ("field_attribute", p)),
    );
    for (kind, rule) in named {
        if rule != "." && !known.iter().any(|path| path::covers(rule, path)) {
            return Err(Error::new(format!(
                "{kind} rule names {rule}, which matches no package, message, enum or field"
            )));
        }
    }
    Ok(())
}
