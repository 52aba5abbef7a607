//! URL path templates: http.proto's grammar, parsed into a
//! [`PathTemplate`] and matched against request paths.
//!
//! ```text
//! Template = "/" Segments [ Verb ] ;
//! Segments = Segment { "/" Segment } ;
//! Segment  = "*" | "**" | LITERAL | Variable ;
//! Variable = "{" FieldPath [ "=" Segments ] "}" ;
//! FieldPath = IDENT { "." IDENT } ;
//! Verb     = ":" LITERAL ;
//! ```
//!
//! [`PathTemplate::parse`] enforces what http.proto says around the
//! grammar:
//!
//! - `*` matches one path segment, `**` zero or more, and `**` must be
//!   the template's last segment (it may be the last segment of the last
//!   variable: `/v1/{name=files/**}`), before the verb if any;
//! - a variable holds no other variable, and `{var}` is `{var=*}`;
//! - a field path is bound at most once;
//! - a `LITERAL` (a segment or the verb) is unreserved characters
//!   (`A-Z a-z 0-9 - . _ ~`) and percent-escapes; reserved characters are
//!   written escaped;
//! - an `IDENT` is a letter or `_`, then letters, digits and `_`.
//!
//! Limits: a template is at most [`MAX_TEMPLATE_LEN`] bytes with at most
//! [`MAX_SEGMENTS`] segments (those inside variables counted), and a
//! field path at most [`MAX_FIELD_PATH_DEPTH`](crate::MAX_FIELD_PATH_DEPTH)
//! names.
//!
//! [`PathTemplate::matches`] describes matching and decoding.

use std::fmt::{self, Write as _};
use std::ops::Range;

mod matching;
mod parse;

pub use matching::{MatchError, ReservedExpansion};
pub use parse::TemplateError;

/// The longest template [`PathTemplate::parse`] accepts, in bytes.
pub const MAX_TEMPLATE_LEN: usize = 4096;

/// The most segments a template may have, counting those inside
/// variables (`/v1/{name=shelves/*}` has three).
pub const MAX_SEGMENTS: usize = 256;

/// A parsed URL path template, such as `/v1/{name=messages/*}` or
/// `/v1/{parent=projects/*}/topics:batchGet`.
///
/// Two templates are equal when they have the same segments, variables
/// and verb; `{var}` and `{var=*}` parse to the same template, and
/// [`Display`](fmt::Display) prints the shorter form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathTemplate {
    /// Every segment in order, those of variables inline.
    segments: Vec<Segment>,
    /// The variables in order, each naming its run of `segments`.
    variables: Vec<Variable>,
    /// The verb without its `:`, as written.
    verb: Option<String>,
}

/// One segment of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    /// A `LITERAL`, as written (escapes not decoded).
    Literal(String),
    /// `*`: one path segment.
    Wildcard,
    /// `**`: zero or more path segments; only ever the last segment.
    DoubleWildcard,
}

/// A variable: a field path and the run of segments whose match is its
/// value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Variable {
    field_path: Vec<String>,
    segments: Range<usize>,
}

impl PathTemplate {
    /// Parses `template` (http.proto's `Template`, such as
    /// `/v1/{name=messages/*}`), or says what is wrong with it and at which
    /// byte.
    ///
    /// ```
    /// use buffa_http::template::PathTemplate;
    ///
    /// let template = PathTemplate::parse("/v1/{name=messages/*}:undelete").unwrap();
    /// assert_eq!(template.verb(), Some("undelete"));
    ///
    /// let error = PathTemplate::parse("/v1/**/messages").unwrap_err();
    /// assert_eq!(error.offset(), 4);
    /// assert_eq!(error.to_string(), "`**` must be the last segment of the template, at byte 4");
    /// ```
    pub fn parse(template: &str) -> Result<PathTemplate, TemplateError> {
        parse::parse(template)
    }

    /// The field paths of the variables, in the template's order
    /// (`["sub", "subfield"]` for `{sub.subfield}`).
    pub fn variables(&self) -> impl ExactSizeIterator<Item = &[String]> {
        self.variables.iter().map(|v| v.field_path.as_slice())
    }

    /// The custom verb, without its `:` (`cancel` for `/v1/{name=operations/**}:cancel`),
    /// as written.
    pub fn verb(&self) -> Option<&str> {
        self.verb.as_deref()
    }
}

impl Variable {
    /// Whether the variable matches exactly one path segment (`{var}`,
    /// `{var=*}`, `{var=literal}`): http.proto decodes such a variable's
    /// value fully.
    fn is_single_segment(&self, segments: &[Segment]) -> bool {
        self.segments.len() == 1 && segments[self.segments.start] != Segment::DoubleWildcard
    }
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Literal(literal) => f.write_str(literal),
            Segment::Wildcard => f.write_char('*'),
            Segment::DoubleWildcard => f.write_str("**"),
        }
    }
}

/// Prints the template in its canonical form: as parsed, with `{var=*}`
/// written `{var}`. What it prints parses to an equal template.
impl fmt::Display for PathTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut at = 0;
        let mut variables = self.variables.iter().peekable();
        while at < self.segments.len() {
            f.write_char('/')?;
            let Some(variable) = variables.next_if(|v| v.segments.start == at) else {
                write!(f, "{}", self.segments[at])?;
                at += 1;
                continue;
            };
            write!(f, "{{{}", variable.field_path.join("."))?;
            let segments = &self.segments[variable.segments.clone()];
            if segments != [Segment::Wildcard] {
                for (i, segment) in segments.iter().enumerate() {
                    f.write_char(if i == 0 { '=' } else { '/' })?;
                    write!(f, "{segment}")?;
                }
            }
            f.write_char('}')?;
            at = variable.segments.end;
        }
        if let Some(verb) = &self.verb {
            write!(f, ":{verb}")?;
        }
        Ok(())
    }
}
