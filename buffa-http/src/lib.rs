//! # buffa-http
//!
//! HTTP/JSON transcoding as `google/api/http.proto` specifies it (the
//! `google.api.http` method option): a service's rules read from its
//! descriptors, requests routed by method and URL path, the request
//! message built by reflection from the path, the query string and the
//! JSON body, and (feature `axum`) an axum service that calls the gRPC
//! server in process and answers with JSON, so that one implementation
//! of a service answers both protocols.
//!
//! - [`template`]: [`PathTemplate`](template::PathTemplate), parsed from
//!   http.proto's grammar (`/v1/{name=messages/*}`), matched against a
//!   path to give one [`Binding`] per variable.
//! - [`query`]: [`query::parse`] reads `a.b=1&c=x&c=y` into one
//!   [`Binding`] per parameter, in order.
//! - [`rule`]: the `google.api.http` rules of a service's methods, read
//!   from its descriptors and checked against its messages.
//! - [`router`]: the rule a request's method and path answer to, or why
//!   none does (404, 405, 400).
//! - [`bind`]: decoded values put into a request message's fields, by
//!   reflection.
//! - [`status`]: gRPC status codes as HTTP statuses, and the JSON form of
//!   `google.rpc.Status` that failed calls answer with.
//! - `serve` (feature `axum`): a `Transcoder` answering HTTP/JSON by
//!   calling the gRPC service in process, as an axum router.
//! - `grpc_json` (feature `axum`): the same service answering gRPC calls
//!   whose messages are JSON (`application/grpc+json`).
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
#[cfg(feature = "axum")]
mod grpc;
#[cfg(feature = "axum")]
pub mod grpc_json;
mod percent;
pub mod query;
pub mod router;
pub mod rule;
#[cfg(feature = "axum")]
pub mod serve;
pub mod status;
pub mod template;

/// The directory holding `google/api/http.proto` and
/// `google/api/annotations.proto` (the wire schema of googleapis' files of
/// those names, without their documentation), to add to a build's include
/// paths so that `.proto` files can `import "google/api/annotations.proto"`
/// without a googleapis checkout:
///
/// ```text
/// // build.rs, with buffa-http as a build-dependency
/// buffa_build::Config::new()
///     .files(&["proto/shop/v1/shop.proto"])
///     .includes(&["proto", buffa_http::PROTO_INCLUDE])
///     .compile()
///     .unwrap();
/// ```
pub const PROTO_INCLUDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proto");

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
