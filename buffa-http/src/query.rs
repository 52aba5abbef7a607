//! URL query strings: the parameters that name request fields not bound
//! by the path (`?revision=2&sub.subfield=foo`).
//!
//! [`parse`] reads `application/x-www-form-urlencoded` text, the form
//! http.proto's examples use:
//!
//! - parameters are separated by `&`; empty ones (`a=1&&b=2`, a trailing
//!   `&`) are skipped;
//! - a parameter is `name=value`, split at its first `=`; a parameter
//!   without `=` has the empty value;
//! - in names and values `+` is a space and percent-escapes are decoded;
//!   the decoded text must be UTF-8;
//! - the decoded name is a field path, split at each `.` (`sub.subfield`
//!   is `["sub", "subfield"]`); no field name may be empty (`=x`, `.a`,
//!   `a..b` are errors);
//! - repeated names are kept, in order (`param=A&param=B` for a repeated
//!   field).
//!
//! Limits: at most [`MAX_PARAMETERS`] parameters, and at most
//! [`MAX_FIELD_PATH_DEPTH`] names in a field path.

use std::fmt;

use crate::percent::{self, DecodeError, Keep};
use crate::{Binding, MAX_FIELD_PATH_DEPTH};

/// The most parameters [`parse`] accepts in one query string.
pub const MAX_PARAMETERS: usize = 1024;

/// A query string that does not parse: the offending parameter (as
/// written, and its byte offset in the query), and what is wrong with it.
///
/// ```text
/// query parameter `a%G1` at byte 4: malformed percent-escape at byte 5
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    offset: usize,
    parameter: String,
    message: String,
}

impl QueryError {
    /// The byte offset in the query of the offending parameter.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The offending parameter's name, as written (not decoded).
    pub fn parameter(&self) -> &str {
        &self.parameter
    }

    /// What is wrong, without the parameter.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "query parameter `{}` at byte {}: {}",
            self.parameter, self.offset, self.message
        )
    }
}

impl std::error::Error for QueryError {}

/// Parses `query` (the text after the `?`, without it) into one
/// [`Binding`] per parameter, in order, as the [module](self) describes.
///
/// ```
/// use buffa_http::query;
///
/// let parameters = query::parse("a.b=1&c=x&c=y&d=%20+").unwrap();
/// let pairs: Vec<_> = parameters
///     .iter()
///     .map(|p| (p.field_path.join("."), p.value.as_str()))
///     .collect();
/// assert_eq!(pairs, [("a.b".into(), "1"), ("c".into(), "x"), ("c".into(), "y"), ("d".into(), "  ")]);
///
/// let error = query::parse("a=1&=2").unwrap_err();
/// assert_eq!(error.offset(), 4);
/// assert_eq!(error.message(), "empty parameter name");
/// ```
pub fn parse(query: &str) -> Result<Vec<Binding>, QueryError> {
    let mut parameters = Vec::new();
    let mut offset = 0;
    for parameter in query.split('&') {
        let start = offset;
        offset += parameter.len() + 1;
        if parameter.is_empty() {
            continue;
        }
        let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
        let error = |message: String| QueryError {
            offset: start,
            parameter: name.to_owned(),
            message,
        };
        if parameters.len() == MAX_PARAMETERS {
            return Err(error(format!("more than {MAX_PARAMETERS} parameters")));
        }
        let decode = |text: &str, base: usize, what: &str| {
            percent::decode(text, Keep::Nothing, true).map_err(|e| {
                error(match e {
                    DecodeError::MalformedEscape(at) => {
                        format!("malformed percent-escape at byte {}", base + at)
                    }
                    DecodeError::NotUtf8 => format!("the {what} is not UTF-8 once decoded"),
                })
            })
        };
        let decoded_name = decode(name, start, "name")?;
        if decoded_name.is_empty() {
            return Err(error("empty parameter name".into()));
        }
        if decoded_name.split('.').count() > MAX_FIELD_PATH_DEPTH {
            return Err(error(format!(
                "a field path of more than {MAX_FIELD_PATH_DEPTH} names"
            )));
        }
        if decoded_name.split('.').any(str::is_empty) {
            return Err(error(format!("empty field name in `{decoded_name}`")));
        }
        let value = decode(value, start + name.len() + 1, "value")?;
        parameters.push(Binding {
            field_path: decoded_name.split('.').map(str::to_owned).collect(),
            value,
        });
    }
    Ok(parameters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &str) -> Vec<(String, String)> {
        parse(query)
            .unwrap()
            .into_iter()
            .map(|p| (p.field_path.join("."), p.value))
            .collect()
    }

    fn expected(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|&(f, v)| (f.into(), v.into())).collect()
    }

    /// `(offset, parameter, message)` of the error `query` fails with.
    fn error(query: &str) -> (usize, String, String) {
        let e = parse(query).expect_err(query);
        (e.offset(), e.parameter().to_owned(), e.message().to_owned())
    }

    #[test]
    fn names_split_into_field_paths() {
        let parameters = parse("a.b=1&sub.subfield=foo&x=2").unwrap();
        assert_eq!(parameters[0].field_path, ["a", "b"]);
        assert_eq!(parameters[1].field_path, ["sub", "subfield"]);
        assert_eq!(parameters[2].field_path, ["x"]);
        assert_eq!(parameters[2].value, "2");
    }

    #[test]
    fn plus_and_escapes_decode_in_names_and_values() {
        assert_eq!(pairs("d=%20+"), expected(&[("d", "  ")]));
        assert_eq!(pairs("a%2Eb=x%26y%3Dz%2B"), expected(&[("a.b", "x&y=z+")]));
        assert_eq!(
            pairs("q=caf%C3%A9+au+lait"),
            expected(&[("q", "café au lait")])
        );
        assert_eq!(pairs("n%61me=1"), expected(&[("name", "1")]));
    }

    #[test]
    fn repeated_names_keep_their_order() {
        assert_eq!(
            pairs("c=x&a=1&c=y&c=x"),
            expected(&[("c", "x"), ("a", "1"), ("c", "y"), ("c", "x")])
        );
    }

    #[test]
    fn values_split_at_the_first_equals_sign() {
        assert_eq!(pairs("a=b=c"), expected(&[("a", "b=c")]));
        assert_eq!(pairs("a&b="), expected(&[("a", ""), ("b", "")]));
    }

    #[test]
    fn empty_parameters_are_skipped() {
        assert_eq!(pairs(""), expected(&[]));
        assert_eq!(pairs("&&a=1&&b=2&"), expected(&[("a", "1"), ("b", "2")]));
    }

    #[test]
    fn empty_names_are_errors() {
        assert_eq!(error("=x"), (0, "".into(), "empty parameter name".into()));
        assert_eq!(
            error("a=1&=2"),
            (4, "".into(), "empty parameter name".into())
        );
        assert_eq!(
            error(".a=1"),
            (0, ".a".into(), "empty field name in `.a`".into())
        );
        assert_eq!(
            error("a.=1"),
            (0, "a.".into(), "empty field name in `a.`".into())
        );
        assert_eq!(
            error("x=1&a..b=1"),
            (4, "a..b".into(), "empty field name in `a..b`".into())
        );
        assert_eq!(error("a%2E=1").2, "empty field name in `a.`");
    }

    #[test]
    fn bad_escapes_name_the_parameter() {
        assert_eq!(
            error("ok=1&a%G1=2"),
            (
                5,
                "a%G1".into(),
                "malformed percent-escape at byte 6".into()
            )
        );
        assert_eq!(
            error("a=1&b=%"),
            (4, "b".into(), "malformed percent-escape at byte 6".into())
        );
        assert_eq!(
            error("a=%4"),
            (0, "a".into(), "malformed percent-escape at byte 2".into())
        );
        assert_eq!(
            error("a=%FF"),
            (0, "a".into(), "the value is not UTF-8 once decoded".into())
        );
        assert_eq!(
            error("%FF=1"),
            (0, "%FF".into(), "the name is not UTF-8 once decoded".into())
        );
        assert_eq!(
            parse("ok=1&a%G1=2").unwrap_err().to_string(),
            "query parameter `a%G1` at byte 5: malformed percent-escape at byte 6"
        );
    }

    #[test]
    fn parameter_count_is_bounded() {
        let most = vec!["a=1"; MAX_PARAMETERS].join("&");
        assert_eq!(parse(&most).unwrap().len(), MAX_PARAMETERS);
        let too_many = format!("{most}&b=2");
        assert_eq!(
            error(&too_many),
            (
                4 * MAX_PARAMETERS,
                "b".into(),
                "more than 1024 parameters".into()
            )
        );
        // Skipped empty parameters do not count.
        let sparse = format!("{}{most}", "&".repeat(10_000));
        assert_eq!(parse(&sparse).unwrap().len(), MAX_PARAMETERS);
    }

    #[test]
    fn field_path_depth_is_bounded() {
        let deepest = vec!["a"; MAX_FIELD_PATH_DEPTH].join(".");
        assert_eq!(
            parse(&format!("{deepest}=1")).unwrap()[0].field_path.len(),
            MAX_FIELD_PATH_DEPTH
        );
        let too_deep = format!("x=1&{deepest}.a=1");
        assert_eq!(error(&too_deep).2, "a field path of more than 32 names");
        assert_eq!(error(&too_deep).0, 4);
    }

    #[test]
    fn huge_values_are_fine() {
        let value = "%41".repeat(100_000);
        assert_eq!(
            parse(&format!("a={value}")).unwrap()[0].value,
            "A".repeat(100_000)
        );
    }
}
