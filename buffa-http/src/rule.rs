//! The `google.api.http` rules of a service's methods, read from a
//! descriptor pool and checked against the request and response messages
//! as http.proto requires: every path variable names a singular,
//! non-message field (through singular message fields), `body` and
//! `response_body` name top-level fields, and additional bindings nest one
//! level deep.
//!
//! The option is read through reflection (`google.api.http`, extension
//! 72295728 of `MethodOptions`), so any pool whose files import
//! `google/api/annotations.proto` has its rules, without generated code for
//! googleapis' own types.

use std::fmt;

use buffa_reflect::{
    DescriptorPool, DynamicOptions, FieldDescriptor, Kind, MessageDescriptor, MethodDescriptor,
    ReflectMessage, ServiceDescriptor, ValueRef,
};

use crate::template::PathTemplate;

/// The full name of the method option that carries the rule.
const HTTP_OPTION: &str = "google.api.http";

/// The HTTP method of a rule: one of the five `HttpRule` patterns, or
/// `custom`'s `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HttpMethod {
    /// `get`.
    Get,
    /// `put`.
    Put,
    /// `post`.
    Post,
    /// `delete`.
    Delete,
    /// `patch`.
    Patch,
    /// `custom`: the method's name as `kind` gives it (`HEAD`, `OPTIONS`,
    /// ...).
    Custom(String),
}

impl HttpMethod {
    /// The method as a request line spells it (`GET`; a custom kind as
    /// written).
    pub fn as_str(&self) -> &str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Put => "PUT",
            HttpMethod::Post => "POST",
            HttpMethod::Delete => "DELETE",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Custom(kind) => kind,
        }
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where the request body goes (`HttpRule.body`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// No `body`: the request has no body; every field not bound by the
    /// path is a query parameter.
    None,
    /// `body: "*"`: every field not bound by the path comes from the body;
    /// there are no query parameters.
    Whole,
    /// `body: "field"`: the body is that top-level field of the request;
    /// the fields bound neither by the path nor by it are query
    /// parameters.
    Field(FieldDescriptor),
}

/// One HTTP binding of a method: the primary rule or one of its
/// `additional_bindings`.
#[derive(Clone, Debug)]
pub struct HttpRule {
    /// The method the rule calls.
    pub rpc: MethodDescriptor,
    /// The HTTP method.
    pub method: HttpMethod,
    /// The URL path template.
    pub template: PathTemplate,
    /// Where the request body goes.
    pub body: Body,
    /// The response field sent as the body (`response_body`), or `None` for
    /// the whole response message.
    pub response_body: Option<FieldDescriptor>,
}

/// An `HttpRule` that does not hold: what, and on which method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    method: String,
    message: String,
}

impl RuleError {
    fn new(rpc: &MethodDescriptor, message: impl Into<String>) -> RuleError {
        RuleError {
            method: rpc.full_name().to_owned(),
            message: message.into(),
        }
    }

    /// The full name of the method whose rule is wrong.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: google.api.http: {}", self.method, self.message)
    }
}

impl std::error::Error for RuleError {}

/// The rules of every method of `service` that carries `google.api.http`,
/// in method order, each method's primary rule before its additional
/// bindings. A method without the option has no rule; a pool without
/// `google/api/http.proto` has none at all.
pub fn service_rules(service: &ServiceDescriptor) -> Result<Vec<HttpRule>, RuleError> {
    let Some(option) = http_option(service.pool()) else {
        return Ok(Vec::new());
    };
    let mut rules = Vec::new();
    for rpc in service.methods() {
        let options = rpc.dynamic_options().map_err(|e| {
            RuleError::new(&rpc, format!("the method's options do not decode: {e}"))
        })?;
        let Some(ValueRef::Message(rule)) = options.field(&option) else {
            continue;
        };
        rules.push(read_rule(&rpc, rule)?);
        if let Some(ValueRef::List(additional)) = field_by_name(rule, "additional_bindings") {
            for index in 0..additional.len() {
                let Some(ValueRef::Message(binding)) = additional.get(index) else {
                    continue;
                };
                if let Some(ValueRef::List(nested)) = field_by_name(binding, "additional_bindings")
                    && !nested.is_empty()
                {
                    return Err(RuleError::new(
                        &rpc,
                        "an additional binding may not have additional bindings of its own",
                    ));
                }
                rules.push(read_rule(&rpc, binding)?);
            }
        }
    }
    Ok(rules)
}

/// The `google.api.http` extension, if the pool declares it.
fn http_option(pool: &DescriptorPool) -> Option<FieldDescriptor> {
    pool.get_extension_by_name(HTTP_OPTION)
        .filter(|option| matches!(option.kind(), Kind::Message(_)) && !option.is_list())
}

/// The value of the field called `name` of `message`, if it has one and it
/// is set.
fn field_by_name<'m>(message: &'m dyn ReflectMessage, name: &str) -> Option<ValueRef<'m>> {
    let field = message.descriptor().get_field_by_name(name)?;
    message.field(&field)
}

/// The string field `name` of `message`, empty when unset.
fn string_field<'m>(message: &'m dyn ReflectMessage, name: &str) -> &'m str {
    match field_by_name(message, name) {
        Some(ValueRef::String(value)) => value,
        _ => "",
    }
}

/// One `HttpRule` message of `rpc`, checked.
fn read_rule(rpc: &MethodDescriptor, rule: &dyn ReflectMessage) -> Result<HttpRule, RuleError> {
    let (method, path) = pattern(rpc, rule)?;
    let template = PathTemplate::parse(path)
        .map_err(|e| RuleError::new(rpc, format!("path template {path:?}: {e}")))?;
    let input = rpc.input();
    for variable in template.variables() {
        check_variable(rpc, &input, variable)?;
    }
    let body = match string_field(rule, "body") {
        "" => Body::None,
        "*" => Body::Whole,
        name => Body::Field(top_level_field(rpc, &input, "body", name)?),
    };
    let response_body = match string_field(rule, "response_body") {
        "" => None,
        name => Some(top_level_field(rpc, &rpc.output(), "response_body", name)?),
    };
    Ok(HttpRule {
        rpc: rpc.clone(),
        method,
        template,
        body,
        response_body,
    })
}

/// The method and path of the rule's `pattern` oneof.
fn pattern<'m>(
    rpc: &MethodDescriptor,
    rule: &'m dyn ReflectMessage,
) -> Result<(HttpMethod, &'m str), RuleError> {
    let simple = [
        ("get", HttpMethod::Get),
        ("put", HttpMethod::Put),
        ("post", HttpMethod::Post),
        ("delete", HttpMethod::Delete),
        ("patch", HttpMethod::Patch),
    ];
    for (name, method) in simple {
        if let Some(ValueRef::String(path)) = field_by_name(rule, name) {
            return Ok((method, path));
        }
    }
    if let Some(ValueRef::Message(custom)) = field_by_name(rule, "custom") {
        let kind = string_field(custom, "kind");
        if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Err(RuleError::new(
                rpc,
                format!("custom kind {kind:?} is not an HTTP method name"),
            ));
        }
        return Ok((
            HttpMethod::Custom(kind.to_owned()),
            string_field(custom, "path"),
        ));
    }
    Err(RuleError::new(
        rpc,
        "no pattern: one of get, put, post, delete, patch or custom must be set",
    ))
}

/// Checks that a path variable's field path names a singular, non-message
/// field of `input`, through singular message fields (http.proto: "The
/// path variables must not refer to any repeated or mapped field").
fn check_variable(
    rpc: &MethodDescriptor,
    input: &MessageDescriptor,
    path: &[String],
) -> Result<(), RuleError> {
    let dotted = path.join(".");
    let mut message = input.clone();
    for (depth, name) in path.iter().enumerate() {
        let Some(field) = message.get_field_by_name(name) else {
            return Err(RuleError::new(
                rpc,
                format!(
                    "path variable {dotted}: no field {name} in {}",
                    message.full_name()
                ),
            ));
        };
        if field.is_list() || field.is_map() {
            return Err(RuleError::new(
                rpc,
                format!("path variable {dotted}: {name} is a repeated or map field"),
            ));
        }
        let last = depth + 1 == path.len();
        match field.kind() {
            Kind::Message(next) if !last => message = next,
            Kind::Message(_) => {
                return Err(RuleError::new(
                    rpc,
                    format!("path variable {dotted}: {name} is a message field"),
                ));
            }
            _ if !last => {
                return Err(RuleError::new(
                    rpc,
                    format!("path variable {dotted}: {name} is not a message field"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The top-level field `name` of `message`, which `option` (`body` or
/// `response_body`) names.
fn top_level_field(
    rpc: &MethodDescriptor,
    message: &MessageDescriptor,
    option: &str,
    name: &str,
) -> Result<FieldDescriptor, RuleError> {
    message.get_field_by_name(name).ok_or_else(|| {
        RuleError::new(
            rpc,
            format!(
                "{option} {name:?} is not a field of {} (it must be a top-level field)",
                message.full_name()
            ),
        )
    })
}
