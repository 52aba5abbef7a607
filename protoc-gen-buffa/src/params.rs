//! The plugin's parameter: `--buffa_opt=views,json,box_type=inline`
//! (protoc joins repeated `--buffa_opt`s with commas) turned into the
//! [`Options`] buffa-build's `Config` would build.
//!
//! The parameter is a comma-separated list of options, in one of four
//! shapes:
//!
//! - `key`, a switch (`views`);
//! - `key=value` (`box_type=inline`, `include_file=mod.rs`);
//! - `key=path`, a rule for a proto path (`btree_map=.shop.Order`);
//! - `key=path=value`, a rule with a value (`extern_path=.geo=::geo_rs`,
//!   `type_attribute=.shop=#[derive(Hash)]`): the path ends at the first
//!   `=` after the key, the value may hold more.
//!
//! A comma inside a value (an attribute such as `#[derive(Eq, Hash)]`) is
//! written `\,`, a backslash before a comma `\\`; other backslashes are
//! kept as they are. Spaces around an option are ignored. Options apply
//! in order, so of several path rules covering one field the last wins,
//! as with `Config`'s methods. Each key matches one `Config` method, and
//! [`apply`] is the one table that says how.

use buffa_codegen::{BytesRepr, Options, PointerRepr, StringRepr, TonicOptions};

/// What the parameter asks for: code generation options, and the files
/// written beside the generated packages.
#[derive(Debug, Default)]
pub struct Params {
    /// Options for buffa-codegen.
    pub options: Options,
    /// `include_file`: the name of a file that mounts every generated
    /// package in nested modules.
    pub include_file: Option<String>,
    /// `layout_report`: where to write the layout report, relative to the
    /// output directory.
    pub layout_report: Option<String>,
}

/// Every key [`apply`] accepts, for the message about an unknown one.
pub const KEYS: &[&str] = &[
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
    "include_file",
    "layout_report",
];

/// Parses a plugin parameter (empty for none) into [`Params`]. The error
/// names the option at fault.
pub fn parse(parameter: &str) -> Result<Params, String> {
    let mut params = Params::default();
    for option in split(parameter) {
        let option = option.trim();
        if option.is_empty() {
            continue;
        }
        let (key, value) = match option.split_once('=') {
            Some((key, value)) => (key.trim(), Some(value)),
            None => (option, None),
        };
        apply(&mut params, key, value).map_err(|e| format!("option `{option}`: {e}"))?;
    }
    Ok(params)
}

/// Splits `parameter` at unescaped commas, resolving `\,` and `\\`.
fn split(parameter: &str) -> Vec<String> {
    let mut options = vec![String::new()];
    let mut chars = parameter.chars().peekable();
    while let Some(c) = chars.next() {
        let current = options.last_mut().expect("never empty");
        match c {
            '\\' => match chars.peek() {
                Some(&next @ (',' | '\\')) => {
                    current.push(next);
                    chars.next();
                }
                _ => current.push('\\'),
            },
            ',' => options.push(String::new()),
            c => current.push(c),
        }
    }
    options
}

/// Applies one option: the table from keys to the `Config` method each
/// one stands for.
fn apply(params: &mut Params, key: &str, value: Option<&str>) -> Result<(), String> {
    let options = &mut params.options;
    match key {
        // Config::extern_path(proto_path, rust_path)
        "extern_path" => {
            let (path, rust) = path_value(value, "<rust path>")?;
            options
                .extern_paths
                .push((buffa_codegen::normalize(path), rust.to_owned()));
        }
        "compile_well_known_types" => switch(value, &mut options.compile_well_known_types)?,
        "btree_map" => options.btree_maps.insert(path(value)?, ()),
        // Config::bytes(paths), the prost-build spelling
        "bytes" => options.bytes.insert(path(value)?, BytesRepr::Bytes),
        "bytes_type" => options.bytes.insert(".", bytes_repr(required(value)?)?),
        "bytes_type_in" => {
            let (path, repr) = path_value(value, "vec|bytes")?;
            options.bytes.insert(path, bytes_repr(repr)?);
        }
        "string_type" => options.strings.insert(".", string_repr(required(value)?)?),
        "string_type_in" => {
            let (path, repr) = path_value(value, "string|bytes_str")?;
            options.strings.insert(path, string_repr(repr)?);
        }
        "box_type" => options
            .pointers
            .insert(".", pointer_repr(required(value)?)?),
        "box_type_in" => {
            let (path, repr) = path_value(value, "box|inline")?;
            options.pointers.insert(path, pointer_repr(repr)?);
        }
        "box_type_custom" => {
            let template = required(value)?;
            options
                .pointers
                .insert(".", PointerRepr::Custom(template.to_owned()));
        }
        "box_type_custom_in" => {
            let (path, template) = path_value(value, "<pointer template>")?;
            options
                .pointers
                .insert(path, PointerRepr::Custom(template.to_owned()));
        }
        "unbox_message_fields" => {
            no_value(value)?;
            options.pointers.insert(".", PointerRepr::Inline);
        }
        "unbox_message_fields_in" => options.pointers.insert(path(value)?, PointerRepr::Inline),
        "unbox_oneof" => {
            no_value(value)?;
            options.unboxed_oneofs.insert(".", true);
        }
        "unbox_oneof_in" => options.unboxed_oneofs.insert(path(value)?, true),
        "inline_max_size" => options.inline_max_size.insert(".", size(required(value)?)?),
        "inline_max_size_in" => {
            let (path, bytes) = path_value(value, "<bytes>")?;
            options.inline_max_size.insert(path, size(bytes)?);
        }
        "views" => switch(value, &mut options.views)?,
        "views_behind_feature" => {
            options.views_feature = Some(required(value)?.to_owned());
            options.views = true;
        }
        // Config::lazy_views and lazy_views_in imply views.
        "lazy_views" => {
            no_value(value)?;
            options.views = true;
            options.lazy_views.insert(".", true);
        }
        "lazy_views_in" => {
            options.lazy_views.insert(path(value)?, true);
            options.views = true;
        }
        "eager_views_in" => options.lazy_views.insert(path(value)?, false),
        "json" => switch(value, &mut options.json)?,
        "json_behind_feature" => {
            options.json_feature = Some(required(value)?.to_owned());
            options.json = true;
        }
        "reflection" => switch(value, &mut options.reflection)?,
        "reflection_behind_feature" => {
            options.reflection_feature = Some(required(value)?.to_owned());
            options.reflection = true;
        }
        "strip_source_info" => switch(value, &mut options.strip_source_info)?,
        "buffa_reflect_path" => options.buffa_reflect_path = Some(required(value)?.to_owned()),
        "type_attribute" => {
            let (path, attribute) = path_value(value, "<attribute>")?;
            options.type_attributes.insert(path, attribute.to_owned());
        }
        "message_attribute" => {
            let (path, attribute) = path_value(value, "<attribute>")?;
            options
                .message_attributes
                .insert(path, attribute.to_owned());
        }
        "enum_attribute" => {
            let (path, attribute) = path_value(value, "<attribute>")?;
            options.enum_attributes.insert(path, attribute.to_owned());
        }
        "field_attribute" => {
            let (path, attribute) = path_value(value, "<attribute>")?;
            options.field_attributes.insert(path, attribute.to_owned());
        }
        "disable_comments" => switch(value, &mut options.disable_comments)?,
        "buffa_path" => options.buffa_path = Some(required(value)?.to_owned()),
        "no_std" => switch(value, &mut options.no_std)?,
        // Config::tonic, and tonic_server, tonic_client and
        // tonic_codec_path, which imply it.
        "tonic" => {
            no_value(value)?;
            tonic(options)?;
        }
        "tonic_server" => tonic(options)?.server = boolean(required(value)?)?,
        "tonic_client" => tonic(options)?.client = boolean(required(value)?)?,
        "tonic_codec_path" => tonic(options)?.codec_path = Some(required(value)?.to_owned()),
        "include_file" => params.include_file = Some(file_name(required(value)?)?),
        "layout_report" => params.layout_report = Some(relative_path(required(value)?)?),
        _ => {
            return Err(format!(
                "unknown option (known: {}; see docs/protoc-plugin.md)",
                KEYS.join(", ")
            ));
        }
    }
    Ok(())
}

/// A switch: sets `flag`, and takes no value.
fn switch(value: Option<&str>, flag: &mut bool) -> Result<(), String> {
    no_value(value)?;
    *flag = true;
    Ok(())
}

fn no_value(value: Option<&str>) -> Result<(), String> {
    match value {
        None => Ok(()),
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

/// The tonic options, switched on; an error when the plugin was built
/// without service generation.
fn tonic(options: &mut Options) -> Result<&mut TonicOptions, String> {
    if !cfg!(feature = "tonic") {
        return Err("gRPC services need protoc-gen-buffa's `tonic` feature \
             (cargo install --path protoc-gen-buffa --features tonic)"
            .into());
    }
    Ok(options.tonic.get_or_insert_with(Default::default))
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

fn size(value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("`{value}` is not a size in bytes"))
}

/// The include file includes the package files by paths relative to
/// itself, so it must sit beside them.
fn file_name(value: &str) -> Result<String, String> {
    if value.contains(['/', '\\']) || value == "." || value == ".." {
        return Err(format!(
            "`{value}` is not a file name: the include file is written beside the package files"
        ));
    }
    Ok(value.to_owned())
}

/// A `/`-separated path inside the output directory.
fn relative_path(value: &str) -> Result<String, String> {
    let escapes = value.starts_with('/')
        || value.contains('\\')
        || value
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..");
    if escapes {
        return Err(format!(
            "`{value}` is not a relative path inside the output directory"
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests;
