//! # buffa-http
//!
//! The request side of HTTP/JSON transcoding as `google/api/http.proto`
//! specifies it (the `google.api.http` method option): the URL path
//! template of an `HttpRule`, matching a request path against it with
//! the spec's percent-decoding, and the URL query string whose parameters
//! name the remaining request fields. Binding the values to message
//! fields is not here yet; this crate turns text into field paths and
//! decoded strings.
//!
//! - [`template`]: [`PathTemplate`](template::PathTemplate), parsed from
//!   http.proto's grammar (`/v1/{name=messages/*}`), matched against a
//!   path to give one [`Binding`] per variable.
//! - [`query`]: [`query::parse`] reads `a.b=1&c=x&c=y` into one
//!   [`Binding`] per parameter, in order.
//!
//! ```
//! use buffa_http::{query, template::PathTemplate};
//!
//! let template = PathTemplate::parse("/v1/{name=messages/*}")?;
//! let bindings = template.matches("/v1/messages/123456")?.expect("the path matches");
//! assert_eq!(bindings[0].field_path, ["name"]);
//! assert_eq!(bindings[0].value, "messages/123456");
//! assert_eq!(template.matches("/v1/users/123456")?, None);
//!
//! let parameters = query::parse("revision=2&sub.subfield=foo")?;
//! assert_eq!(parameters[1].field_path, ["sub", "subfield"]);
//! assert_eq!(parameters[1].value, "foo");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every input is untrusted: malformed text is an error value naming
//! what and where, never a panic, and the work and memory are linear in
//! the input, within the limits each module documents.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bind;
mod percent;
pub mod query;
pub mod template;

/// The most field names in one field path (`a.b.c` has three), in a path
/// template's variable and in a query parameter's name alike.
pub const MAX_FIELD_PATH_DEPTH: usize = 32;

/// A value for a request field: a path template's variable or a query
/// parameter, with its field path and its percent-decoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The field names from the request message down, `["sub",
    /// "subfield"]` for `sub.subfield`; never empty, no name empty.
    pub field_path: Vec<String>,
    /// The value, percent-decoded as its source's rule says.
    pub value: String,
}
