//! [`Options::apply`]: the one table from option keys (the names of the
//! builder methods, and of `protoc-gen-buffa`'s parameters) to the
//! builder methods, so that the plugin and `buffa_build::Config` share
//! one mapping.

use super::{BytesRepr, Options, PointerRepr, StringRepr, UnknownFieldsRepr};
use crate::error::Error;

impl Options {
    /// Every key [`Options::apply`] accepts.
    pub const KEYS: &'static [&'static str] = &[
        "extern_path",
        "compile_well_known_types",
        "btree_map",
        "bytes",
        "bytes_type",
        "bytes_type_in",
        "string_type",
        "string_type_in",
        "box_type",
        "box_type_in",
        "box_type_custom",
        "box_type_custom_in",
        "unbox_message_fields",
        "unbox_message_fields_in",
        "unbox_oneof",
        "unbox_oneof_in",
        "inline_max_size",
        "inline_max_size_in",
        "unknown_fields",
        "unknown_fields_in",
        "views",
        "views_behind_feature",
        "lazy_views",
        "lazy_views_in",
        "eager_views_in",
        "json",
        "json_behind_feature",
        "reflection",
        "reflection_behind_feature",
        "strip_source_info",
        "buffa_reflect_path",
        "type_attribute",
        "message_attribute",
        "enum_attribute",
        "field_attribute",
        "disable_comments",
        "buffa_path",
        "no_std",
        "tonic",
        "tonic_server",
        "tonic_client",
        "tonic_codec_path",
    ];

    /// Applies one option given as text, by calling the builder method of
    /// the same name. `value` is what follows the first `=` of `key=value`
    /// (`None` for a bare `key`), in one of these shapes:
    ///
    /// - none, for a switch (`views`);
    /// - a value (`box_type=inline`, `buffa_path=::buffa_rt`);
    /// - a proto path, for a rule (`btree_map=.shop.Order`);
    /// - `path=value`, for a rule with a value
    ///   (`extern_path=.geo=::geo_rs`, `type_attribute=.shop=#[derive(Hash)]`):
    ///   the path ends at the first `=`, the value may hold more.
    ///
    /// Spaces around the key, the path and the value are ignored. The
    /// error names the option as given (`option `box_type=heap`: ...`)
    /// and what is wrong with it.
    pub fn apply(&mut self, key: &str, value: Option<&str>) -> Result<(), Error> {
        self.apply_one(key.trim(), value).map_err(|reason| {
            let option = match value {
                Some(value) => format!("{key}={value}"),
                None => key.to_owned(),
            };
            Error::new(format!("option `{option}`: {reason}"))
        })
    }

    fn apply_one(&mut self, key: &str, value: Option<&str>) -> Result<(), String> {
        match key {
            "extern_path" => {
                let (path, rust) = path_value(value, "<rust path>")?;
                self.extern_path(path, rust)
            }
            "compile_well_known_types" => switch(value, Self::compile_well_known_types, self)?,
            "btree_map" => self.btree_map(&[path(value)?]),
            "bytes" => self.bytes(&[path(value)?]),
            "bytes_type" => self.bytes_type(bytes_repr(required(value)?)?),
            "bytes_type_in" => {
                let (path, repr) = path_value(value, "vec|bytes")?;
                self.bytes_type_in(bytes_repr(repr)?, &[path])
            }
            "string_type" => self.string_type(string_repr(required(value)?)?),
            "string_type_in" => {
                let (path, repr) = path_value(value, "string|bytes_str")?;
                self.string_type_in(string_repr(repr)?, &[path])
            }
            "box_type" => self.box_type(pointer_repr(required(value)?)?),
            "box_type_in" => {
                let (path, repr) = path_value(value, "box|inline")?;
                self.box_type_in(pointer_repr(repr)?, &[path])
            }
            "box_type_custom" => self.box_type_custom(required(value)?),
            "box_type_custom_in" => {
                let (path, template) = path_value(value, "<pointer template>")?;
                self.box_type_custom_in(template, &[path])
            }
            "unbox_message_fields" => switch(value, Self::unbox_message_fields, self)?,
            "unbox_message_fields_in" => self.unbox_message_fields_in(&[path(value)?]),
            "unbox_oneof" => switch(value, Self::unbox_oneof, self)?,
            "unbox_oneof_in" => self.unbox_oneof_in(&[path(value)?]),
            "inline_max_size" => self.inline_max_size(size(required(value)?)?),
            "inline_max_size_in" => {
                let (path, bytes) = path_value(value, "<bytes>")?;
                self.inline_max_size_in(size(bytes)?, &[path])
            }
            "unknown_fields" => self.unknown_fields(unknown_fields_repr(required(value)?)?),
            "unknown_fields_in" => {
                let (path, repr) = path_value(value, "keep|discard")?;
                self.unknown_fields_in(unknown_fields_repr(repr)?, &[path])
            }
            "views" => switch(value, Self::views, self)?,
            "views_behind_feature" => self.views_behind_feature(required(value)?),
            "lazy_views" => switch(value, Self::lazy_views, self)?,
            "lazy_views_in" => self.lazy_views_in(&[path(value)?]),
            "eager_views_in" => self.eager_views_in(&[path(value)?]),
            "json" => switch(value, Self::json, self)?,
            "json_behind_feature" => self.json_behind_feature(required(value)?),
            "reflection" => switch(value, Self::reflection, self)?,
            "reflection_behind_feature" => self.reflection_behind_feature(required(value)?),
            "strip_source_info" => switch(value, Self::strip_source_info, self)?,
            "buffa_reflect_path" => self.buffa_reflect_path(required(value)?),
            "type_attribute" => {
                let (path, attribute) = path_value(value, "<attribute>")?;
                self.type_attribute(path, attribute)
            }
            "message_attribute" => {
                let (path, attribute) = path_value(value, "<attribute>")?;
                self.message_attribute(path, attribute)
            }
            "enum_attribute" => {
                let (path, attribute) = path_value(value, "<attribute>")?;
                self.enum_attribute(path, attribute)
            }
            "field_attribute" => {
                let (path, attribute) = path_value(value, "<attribute>")?;
                self.field_attribute(path, attribute)
            }
            "disable_comments" => switch(value, Self::disable_comments, self)?,
            "buffa_path" => self.buffa_path(required(value)?),
            "no_std" => switch(value, Self::no_std, self)?,
            "tonic" => switch(value, Self::tonic, self)?,
            "tonic_server" => self.tonic_server(boolean(required(value)?)?),
            "tonic_client" => self.tonic_client(boolean(required(value)?)?),
            "tonic_codec_path" => self.tonic_codec_path(required(value)?),
            _ => {
                return Err(format!("unknown option (known: {})", Self::KEYS.join(", ")));
            }
        };
        Ok(())
    }
}

/// A switch: calls `set`, and takes no value.
fn switch<'a>(
    value: Option<&str>,
    set: fn(&mut Options) -> &mut Options,
    options: &'a mut Options,
) -> Result<&'a mut Options, String> {
    match value {
        None => Ok(set(options)),
        Some(_) => Err("takes no value".into()),
    }
}

fn required(value: Option<&str>) -> Result<&str, String> {
    match value.map(str::trim) {
        Some(value) if !value.is_empty() => Ok(value),
        _ => Err("needs a value (`key=value`)".into()),
    }
}

/// A proto path (`.pkg.Msg.field`, the leading dot optional; `.` for
/// everything).
fn path(value: Option<&str>) -> Result<&str, String> {
    match value.map(str::trim) {
        Some(path) if !path.is_empty() => Ok(path),
        _ => Err("needs a proto path (`key=.pkg.Message`)".into()),
    }
}

/// `path=value`: the path ends at the first `=`.
fn path_value<'a>(value: Option<&'a str>, what: &str) -> Result<(&'a str, &'a str), String> {
    let shape = format!("expected `key=<proto path>={what}`");
    let (path, value) = value
        .and_then(|v| v.split_once('='))
        .ok_or_else(|| shape.clone())?;
    let (path, value) = (path.trim(), value.trim());
    if path.is_empty() || value.is_empty() {
        return Err(shape);
    }
    Ok((path, value))
}

fn boolean(value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "`{value}` is not a boolean (expected true or false)"
        )),
    }
}

fn pointer_repr(value: &str) -> Result<PointerRepr, String> {
    match value {
        "box" => Ok(PointerRepr::Box),
        "inline" => Ok(PointerRepr::Inline),
        _ => Err(format!(
            "unknown pointer `{value}` (expected box or inline; box_type_custom takes a template)"
        )),
    }
}

fn bytes_repr(value: &str) -> Result<BytesRepr, String> {
    match value {
        "vec" => Ok(BytesRepr::Vec),
        "bytes" => Ok(BytesRepr::Bytes),
        _ => Err(format!(
            "unknown bytes representation `{value}` (expected vec or bytes)"
        )),
    }
}

fn string_repr(value: &str) -> Result<StringRepr, String> {
    match value {
        "string" => Ok(StringRepr::String),
        "bytes_str" => Ok(StringRepr::BytesStr),
        _ => Err(format!(
            "unknown string representation `{value}` (expected string or bytes_str)"
        )),
    }
}

fn unknown_fields_repr(value: &str) -> Result<UnknownFieldsRepr, String> {
    match value {
        "keep" => Ok(UnknownFieldsRepr::Keep),
        "discard" => Ok(UnknownFieldsRepr::Discard),
        _ => Err(format!(
            "unknown unknown-fields choice `{value}` (expected keep or discard)"
        )),
    }
}

fn size(value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("`{value}` is not a size in bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_in_the_table() {
        for key in Options::KEYS {
            let mut options = Options::default();
            let e = options
                .apply(key, Some("x"))
                .and_then(|()| options.apply(key, None));
            if let Err(e) = e {
                assert!(!e.to_string().contains("unknown option"), "{key}: {e}");
            }
        }
        let e = Options::default().apply("jsno", None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("option `jsno`: unknown option (known: extern_path,"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_option_and_the_bad_value() {
        let e = Options::default().apply("box_type", Some("heap"));
        assert_eq!(
            e.unwrap_err().to_string(),
            "option `box_type=heap`: unknown pointer `heap` (expected box or inline; \
             box_type_custom takes a template)"
        );
        let e = Options::default().apply("views", Some("true"));
        assert_eq!(
            e.unwrap_err().to_string(),
            "option `views=true`: takes no value"
        );
    }

    #[test]
    fn keys_call_the_builder_methods() {
        let mut applied = Options::default();
        applied.apply("unbox_message_fields", None).unwrap();
        applied.apply(" box_type_in", Some(" .a.B = box")).unwrap();
        applied.apply("lazy_views_in", Some("a")).unwrap();
        applied.apply("extern_path", Some("geo=::geo_rs")).unwrap();
        let mut built = Options::default();
        built
            .unbox_message_fields()
            .box_type_in(PointerRepr::Box, &[".a.B"])
            .lazy_views_in(&["a"])
            .extern_path("geo", "::geo_rs");
        assert_eq!(format!("{applied:?}"), format!("{built:?}"));
    }
}
