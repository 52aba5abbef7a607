//! Binding decoded values to request fields: each [`Binding`] that
//! [`PathTemplate::matches`](crate::template::PathTemplate::matches) or
//! [`query::parse`](crate::query::parse) yields is set into the request
//! message through reflection ([`ReflectMessage`]), so that generated and
//! dynamic messages are served alike.
//!
//! ```
//! # fn example(request: &mut dyn buffa_reflect::ReflectMessage) -> Result<(), Box<dyn std::error::Error>> {
//! use buffa_http::{bind, query};
//!
//! // `request` is a GetMessageRequest { message_id, revision, sub { subfield } }.
//! bind::bind_all(request, &query::parse("revision=2&sub.subfield=foo")?)?;
//! # Ok(()) }
//! ```
//!
//! # Field paths
//!
//! Each name of a field path is a field of the message the names before
//! it reached: its .proto name (`update_mask`) or, as grpc-gateway
//! accepts in query parameters, its JSON name (`updateMask`, or the
//! `json_name` option's; a JSON name that another field shares is not
//! accepted, as in proto3 JSON). Extensions cannot be named. Every name
//! but the last must be a singular message field; a sub-message that is
//! not set is created. These cannot be bound, after http.proto ("fields
//! which are mapped to URL query parameters must have a primitive type or
//! a repeated primitive type or a non-repeated message type"):
//!
//! - a repeated message field, anywhere in the path ("Repeated message
//!   fields must not be mapped to URL query parameters");
//! - a map field, anywhere in the path;
//! - a message field as the last name (its fields are bound one by one,
//!   `sub.subfield=foo`), except the well-known types whose JSON form is a
//!   string or a number: `Timestamp`, `Duration`, `FieldMask` and the
//!   wrappers (`Int64Value` and the like);
//! - the fields of a well-known type with a special JSON form
//!   (`when.seconds`): such a message is bound whole, by that form, as in
//!   Envoy's transcoder, which builds the JSON form of the request
//!   (grpc-gateway reaches the fields). `Any`, `Struct`, `Value` and
//!   `ListValue` cannot be bound at all.
//!
//! # Values
//!
//! A value is read as the proto3 JSON value its field would hold, by
//! buffa-reflect's JSON reader ([`buffa_reflect::json`]), so that text
//! means in a URL what it means in a JSON request body:
//!
//! - integers in decimal (also with a fraction or an exponent, when
//!   integral), 64-bit ones included, within the type's range;
//! - `float` and `double` as JSON numbers, or `NaN`, `Infinity`,
//!   `-Infinity`;
//! - `bool` as `true` or `false`;
//! - `string` as is; `bytes` in base64, standard or URL-safe, padded or
//!   not;
//! - enums by value name, or by number: any number for an open enum, the
//!   declared ones for a closed enum;
//! - `Timestamp` as RFC 3339 (`1972-01-01T10:00:20.021Z`), `Duration` as
//!   seconds (`1.5s`), `FieldMask` as comma-separated lowerCamelCase paths
//!   (`user.displayName,photo`), a wrapper as the text of the scalar it
//!   wraps.
//!
//! Each binding of a repeated field appends one element
//! (`?ids=1&ids=2`). A singular field bound twice keeps the last value,
//! as in grpc-gateway (a message-typed one is replaced, not merged), and
//! binding a member of a oneof clears the others.
//!
//! # Errors
//!
//! A binding that cannot be applied is a [`BindError`], and leaves the
//! message unchanged: the path and the value are checked before anything
//! is set. Untrusted text in its message is cut short after 64
//! characters.

use std::error::Error;
use std::fmt;

use buffa::json::scalar::Quoted;
use buffa::json::{DeserializeOptions, JsonError};
use buffa_reflect::json::MessageSeed;
use buffa_reflect::{
    FieldDescriptor, Kind, MessageDescriptor, ReflectError, ReflectMessage, Value, ValueMut,
};
use serde::de::DeserializeSeed;

use crate::{Binding, MAX_FIELD_PATH_DEPTH};

/// Sets the value of `binding` into `message`, at its field path, as the
/// [module](self) describes.
///
/// ```
/// # fn example(request: &mut dyn buffa_reflect::ReflectMessage) -> Result<(), buffa_http::bind::BindError> {
/// use buffa_http::{bind, Binding};
///
/// let binding = Binding {
///     field_path: vec!["sub".into(), "subfield".into()],
///     value: "foo".into(),
/// };
/// bind::bind(request, &binding)?;
/// # Ok(()) }
/// ```
pub fn bind(message: &mut dyn ReflectMessage, binding: &Binding) -> Result<(), BindError> {
    let error = |kind, message| BindError::new(binding, kind, message);
    let path = resolve(message.descriptor(), &binding.field_path).map_err(|(k, m)| error(k, m))?;
    let Some((leaf, through)) = path.split_last() else {
        return Err(error(BindErrorKind::Unbindable, "empty field path".into()));
    };
    let value = read_value(leaf, &binding.value).map_err(|source| BindError {
        source: Some(source),
        ..error(
            BindErrorKind::InvalidValue,
            format!(
                "invalid {} value {}",
                kind_name(leaf),
                Quoted(&binding.value)
            ),
        )
    })?;
    store(message, through, leaf, value)
        .map_err(|e| error(BindErrorKind::Unbindable, e.to_string()))
}

/// [`bind`]s each of `bindings` into `message`, in order, stopping at the
/// first error (the bindings before it stay applied).
pub fn bind_all(message: &mut dyn ReflectMessage, bindings: &[Binding]) -> Result<(), BindError> {
    bindings
        .iter()
        .try_for_each(|binding| bind(message, binding))
}

/// A binding that cannot be applied: its field path, what kind of
/// failure it is, and a message saying what is wrong.
///
/// ```text
/// "sub.nope": no field "nope" in message `example.SubMessage`
/// "revision": invalid int64 value "two"
/// ```
#[derive(Debug)]
pub struct BindError {
    field_path: Vec<String>,
    kind: BindErrorKind,
    message: String,
    source: Option<JsonError>,
}

/// What kind of failure a [`BindError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BindErrorKind {
    /// A name of the field path is not a field of the message it is
    /// looked up in (a server may choose to ignore such query
    /// parameters, as grpc-gateway does).
    UnknownField,
    /// The field path names fields, but not one a URL can bind: it goes
    /// through a field that is not a singular message, or it names a
    /// repeated message, a map, or a message without a scalar JSON form
    /// (see the [module](self)); or it is empty or longer than
    /// [`MAX_FIELD_PATH_DEPTH`].
    Unbindable,
    /// The value does not read as a value of the field's type.
    InvalidValue,
}

impl BindError {
    fn new(binding: &Binding, kind: BindErrorKind, message: String) -> BindError {
        BindError {
            field_path: binding.field_path.clone(),
            kind,
            message,
            source: None,
        }
    }

    /// The field path of the binding, as given.
    pub fn field_path(&self) -> &[String] {
        &self.field_path
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> BindErrorKind {
        self.kind
    }

    /// What is wrong, without the field path.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}",
            Quoted(&self.field_path.join(".")),
            self.message
        )
    }
}

/// The JSON reader's error, for [`BindErrorKind::InvalidValue`]: why the
/// value, as the JSON token the field would hold, does not read.
impl Error for BindError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_ref().map(|e| e as &(dyn Error + 'static))
    }
}

/// How a message type is written in proto3 JSON, which decides how a URL
/// can bind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JsonForm {
    /// An object of its fields: bound field by field.
    Fields,
    /// A string or a number (`Timestamp`, `Duration`, `FieldMask`, the
    /// wrappers): bound whole, from one value.
    Scalar,
    /// Anything else (`Any`, `Struct`, `Value`, `ListValue`): not bound.
    Other,
}

/// The JSON form of `message`: the well-known types with a special form
/// are those buffa-reflect's JSON mapping gives one.
fn json_form(message: &MessageDescriptor) -> JsonForm {
    match message.full_name() {
        "google.protobuf.Timestamp"
        | "google.protobuf.Duration"
        | "google.protobuf.FieldMask"
        | "google.protobuf.DoubleValue"
        | "google.protobuf.FloatValue"
        | "google.protobuf.Int64Value"
        | "google.protobuf.UInt64Value"
        | "google.protobuf.Int32Value"
        | "google.protobuf.UInt32Value"
        | "google.protobuf.BoolValue"
        | "google.protobuf.StringValue"
        | "google.protobuf.BytesValue" => JsonForm::Scalar,
        "google.protobuf.Any"
        | "google.protobuf.Struct"
        | "google.protobuf.Value"
        | "google.protobuf.ListValue" => JsonForm::Other,
        _ => JsonForm::Fields,
    }
}

/// The field `name` names in `message`: its .proto name, or its JSON name
/// unless another field shares that.
fn find_field(message: &MessageDescriptor, name: &str) -> Option<FieldDescriptor> {
    message.get_field_by_name(name).or_else(|| {
        message
            .get_field_by_json_name(name)
            .filter(|field| !field.json_name_is_shared())
    })
}

/// The fields `path` names from `root`, checked to be bindable, or the
/// kind of failure and its message.
fn resolve(
    root: MessageDescriptor,
    path: &[String],
) -> Result<Vec<FieldDescriptor>, (BindErrorKind, String)> {
    let unbindable = |message: String| (BindErrorKind::Unbindable, message);
    if path.len() > MAX_FIELD_PATH_DEPTH {
        return Err(unbindable(format!(
            "a field path of {} names is longer than {MAX_FIELD_PATH_DEPTH}",
            path.len()
        )));
    }
    let mut message = root;
    let mut fields = Vec::with_capacity(path.len());
    for (i, name) in path.iter().enumerate() {
        match json_form(&message) {
            JsonForm::Fields => {}
            _ => {
                return Err(unbindable(format!(
                    "`{}` is bound whole, by its JSON form, not field by field",
                    message.full_name()
                )));
            }
        }
        let Some(field) = find_field(&message, name) else {
            return Err((
                BindErrorKind::UnknownField,
                format!(
                    "no field {} in message `{}`",
                    Quoted(name),
                    message.full_name()
                ),
            ));
        };
        let last = i + 1 == path.len();
        let kind = field.kind();
        if field.is_map() {
            return Err(unbindable(format!(
                "`{}` is a map field, which a URL cannot bind",
                field.name()
            )));
        }
        match kind {
            Kind::Message(_) if field.is_list() => {
                return Err(unbindable(format!(
                    "`{}` is a repeated message field, which http.proto maps to no URL parameter",
                    field.name()
                )));
            }
            Kind::Message(sub) if !last => message = sub,
            Kind::Message(sub) => match json_form(&sub) {
                JsonForm::Scalar => {}
                JsonForm::Fields => {
                    return Err(unbindable(format!(
                        "`{}` is a message field (`{}`): bind its fields, `{}.<field>`",
                        field.name(),
                        sub.full_name(),
                        field.name()
                    )));
                }
                JsonForm::Other => {
                    return Err(unbindable(format!(
                        "`{}` is a `{}`, which a URL cannot bind",
                        field.name(),
                        sub.full_name()
                    )));
                }
            },
            _ if !last => {
                let repeated = if field.is_list() { "repeated " } else { "" };
                return Err(unbindable(format!(
                    "`{}` is a {repeated}{} field, not a message",
                    field.name(),
                    kind_name(&field)
                )));
            }
            _ => {}
        }
        fields.push(field);
    }
    Ok(fields)
}

/// The name of `field`'s type, for errors: `int64`, `enum pkg.Color`,
/// `google.protobuf.Timestamp`.
fn kind_name(field: &FieldDescriptor) -> String {
    let name = match field.kind() {
        Kind::Double => "double",
        Kind::Float => "float",
        Kind::Int64 => "int64",
        Kind::Uint64 => "uint64",
        Kind::Int32 => "int32",
        Kind::Fixed64 => "fixed64",
        Kind::Fixed32 => "fixed32",
        Kind::Bool => "bool",
        Kind::String => "string",
        Kind::Bytes => "bytes",
        Kind::Uint32 => "uint32",
        Kind::Sfixed32 => "sfixed32",
        Kind::Sfixed64 => "sfixed64",
        Kind::Sint32 => "sint32",
        Kind::Sint64 => "sint64",
        Kind::Enum(e) => return format!("enum {}", e.full_name()),
        Kind::Message(m) => return m.full_name().to_owned(),
    };
    name.to_owned()
}

/// `text` as the JSON token a field of `kind` would hold, for
/// buffa-reflect's reader to read: a string (which the reader of every
/// numeric type, and of the string forms, accepts), except `true` and
/// `false` for `bool` and a number for an enum (read by name from a
/// string). Text that is not a value of the kind goes through as a
/// string, for the reader to refuse.
fn json_token(kind: &Kind, text: &str) -> serde_json::Value {
    let string = || serde_json::Value::String(text.to_owned());
    match kind {
        Kind::Bool => match text {
            "true" => serde_json::Value::Bool(true),
            "false" => serde_json::Value::Bool(false),
            _ => string(),
        },
        Kind::Enum(_) => match text.parse::<i32>() {
            Ok(number) => serde_json::Value::from(number),
            Err(_) => string(),
        },
        // A wrapper is written as the scalar it wraps (its field 1).
        Kind::Message(message) => match message.get_field(1) {
            Some(wrapped)
                if json_form(message) == JsonForm::Scalar && wrapped.name() == "value" =>
            {
                json_token(&wrapped.kind(), text)
            }
            _ => string(),
        },
        _ => string(),
    }
}

/// The value `text` gives `field` (one element, for a repeated field):
/// the JSON object `{"<field>": <token>}` (an array of the token, for a
/// repeated field) read by buffa-reflect's JSON reader into a scratch
/// message of the field's message type, and taken from there.
fn read_value(field: &FieldDescriptor, text: &str) -> Result<Value, JsonError> {
    let kind = field.kind();
    let token = json_token(&kind, text);
    let token = if field.is_list() {
        serde_json::Value::Array(vec![token])
    } else {
        token
    };
    let mut object = serde_json::Map::new();
    object.insert(field.name().to_owned(), token);
    let containing = field.containing_message();
    let scratch = MessageSeed::new(&containing, &DeserializeOptions::DEFAULT)
        .deserialize(serde_json::Value::Object(object))?;
    Ok(match scratch.field_by_number(field.number()) {
        Some(Value::List(elements)) => elements
            .first()
            .cloned()
            .unwrap_or_else(|| Value::default_of(&kind)),
        Some(value) => value.clone(),
        // Not set: a field without presence, at its default.
        None => Value::default_of(&kind),
    })
}

/// Stores `value` in `leaf` of the message reached from `message` through
/// the singular message fields `through`, creating them where not set: set
/// for a singular field, appended for a repeated one.
fn store(
    message: &mut dyn ReflectMessage,
    through: &[FieldDescriptor],
    leaf: &FieldDescriptor,
    value: Value,
) -> Result<(), ReflectError> {
    let mut target = message;
    for field in through {
        target = match target.field_mut(field)? {
            ValueMut::Message(sub) => sub,
            _ => return Err(not_a(field, "message")),
        };
    }
    if !leaf.is_list() {
        return target.set_field(leaf, value);
    }
    match target.field_mut(leaf)? {
        ValueMut::List(mut list) => list.push(value),
        _ => Err(not_a(leaf, "list")),
    }
}

/// Reflection handed `field` without the container its descriptor says.
fn not_a(field: &FieldDescriptor, what: &str) -> ReflectError {
    ReflectError::new(format!(
        "field {} does not hold a {what}",
        field.full_name()
    ))
}
