//! Choosing the rule a request answers to: its HTTP method and URL path
//! against the path templates of a set of [`HttpRule`]s.
//!
//! Rules are tried in the order given (for [`Router::for_services`]: the
//! services' order, each service's methods in order, each method's primary
//! rule before its additional bindings); the first whose template matches
//! the path with the request's method wins. A path that some rule matches
//! with another method is [`RouteError::MethodNotAllowed`] (HTTP 405,
//! listing the methods that would do), one that no template matches is
//! [`RouteError::NotFound`] (404), and a path that is not well-formed
//! percent-encoding, or binds a value that is not UTF-8, is
//! [`RouteError::BadPath`] (400).

use std::fmt;

use buffa_reflect::ServiceDescriptor;

use crate::Binding;
use crate::rule::{HttpRule, RuleError, service_rules};
use crate::template::MatchError;

/// The rules of an API, to route requests by.
#[derive(Clone, Debug, Default)]
pub struct Router {
    rules: Vec<HttpRule>,
}

/// The rule a request answers to, with the values its path binds.
#[derive(Clone, Debug)]
pub struct Route<'r> {
    /// The rule that matched.
    pub rule: &'r HttpRule,
    /// One binding per variable of the rule's template, in order.
    pub bindings: Vec<Binding>,
}

/// Why no rule answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteError {
    /// No template matches the path.
    NotFound,
    /// Templates match the path, but not with the request's method: the
    /// methods that would, in rule order, without repeats.
    MethodNotAllowed(Vec<String>),
    /// The path is not well-formed for matching.
    BadPath(MatchError),
}

impl RouteError {
    /// The HTTP status of the error: 404, 405 or 400.
    pub fn http_status(&self) -> u16 {
        match self {
            RouteError::NotFound => 404,
            RouteError::MethodNotAllowed(_) => 405,
            RouteError::BadPath(_) => 400,
        }
    }
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouteError::NotFound => f.write_str("no method is bound to this path"),
            RouteError::MethodNotAllowed(allowed) => {
                write!(
                    f,
                    "method not allowed here; allowed: {}",
                    allowed.join(", ")
                )
            }
            RouteError::BadPath(e) => write!(f, "malformed path: {e}"),
        }
    }
}

impl std::error::Error for RouteError {}

impl Router {
    /// A router over `rules`, tried in the order given.
    pub fn new(rules: impl IntoIterator<Item = HttpRule>) -> Router {
        Router {
            rules: rules.into_iter().collect(),
        }
    }

    /// A router over the `google.api.http` rules of every method of
    /// `services` ([`service_rules`]); fails on the first rule that does
    /// not hold.
    pub fn for_services<'s>(
        services: impl IntoIterator<Item = &'s ServiceDescriptor>,
    ) -> Result<Router, RuleError> {
        let mut rules = Vec::new();
        for service in services {
            rules.extend(service_rules(service)?);
        }
        Ok(Router { rules })
    }

    /// The rules, in the order they are tried.
    pub fn rules(&self) -> &[HttpRule] {
        &self.rules
    }

    /// The rule that a request with HTTP `method` (`GET`, case-sensitive as
    /// RFC 9110 has it) for URL `path` (without the query string) answers
    /// to, and the values its path binds.
    pub fn route(&self, method: &str, path: &str) -> Result<Route<'_>, RouteError> {
        let mut allowed: Vec<String> = Vec::new();
        for rule in &self.rules {
            let Some(bindings) = rule.template.matches(path).map_err(RouteError::BadPath)? else {
                continue;
            };
            if rule.method.as_str() == method {
                return Ok(Route { rule, bindings });
            }
            let other = rule.method.as_str();
            if !allowed.iter().any(|m| m == other) {
                allowed.push(other.to_owned());
            }
        }
        Err(match allowed.is_empty() {
            true => RouteError::NotFound,
            false => RouteError::MethodNotAllowed(allowed),
        })
    }
}
