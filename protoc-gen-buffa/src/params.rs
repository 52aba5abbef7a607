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
//! as with `Config`'s methods. Each key but the output keys names one
//! builder method of [`Options`], and [`Options::apply`] is the one
//! table that says how.

use buffa_codegen::Options;

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

/// The keys the plugin handles itself, beside [`Options::KEYS`]: they
/// name the files written beside the generated packages.
pub const OUTPUT_KEYS: &[&str] = &["include_file", "layout_report"];

/// Every key the parameter accepts, for the message about an unknown one.
pub fn keys() -> impl Iterator<Item = &'static str> {
    Options::KEYS.iter().chain(OUTPUT_KEYS).copied()
}

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
            Some((key, value)) => (key, Some(value)),
            None => (option, None),
        };
        apply(&mut params, key, value)?;
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

/// Applies one option: the output keys here, every other key through
/// [`Options::apply`], the one table from keys to the builder methods
/// that `Config`'s methods call too. `key` and `value` are as written,
/// so that errors quote the option as given.
fn apply(params: &mut Params, key: &str, value: Option<&str>) -> Result<(), String> {
    let output = |check: fn(&str) -> Result<String, String>| match value.map(str::trim) {
        Some(value) if !value.is_empty() => check(value),
        _ => Err("needs a value (`key=value`)".to_owned()),
    };
    let quoted = |e: String| match value {
        Some(value) => format!("option `{key}={value}`: {e}"),
        None => format!("option `{key}`: {e}"),
    };
    match key.trim() {
        "include_file" => params.include_file = Some(output(file_name).map_err(quoted)?),
        "layout_report" => params.layout_report = Some(output(relative_path).map_err(quoted)?),
        known if Options::KEYS.contains(&known) => {
            if known.starts_with("tonic") && !cfg!(feature = "tonic") {
                return Err(quoted(
                    "gRPC services need protoc-gen-buffa's `tonic` feature \
                     (cargo install --path protoc-gen-buffa --features tonic)"
                        .into(),
                ));
            }
            params
                .options
                .apply(key, value)
                .map_err(|e| e.to_string())?;
        }
        _ => {
            return Err(quoted(format!(
                "unknown option (known: {}; see docs/protoc-plugin.md)",
                keys().collect::<Vec<_>>().join(", ")
            )));
        }
    }
    Ok(())
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
