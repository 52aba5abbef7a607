//! Serving HTTP/JSON by calling the gRPC service in process (feature
//! `axum`).
//!
//! A [`Transcoder`] holds the [`Router`] of an API and the gRPC service
//! that implements it: the tonic server generated for the service (any
//! `tower` service taking HTTP/2 gRPC requests). A request is routed by
//! method and path, its message built by reflection from the path
//! bindings, the body and the query string, encoded and framed as a gRPC
//! call, and passed to that service; its answer is decoded and written as
//! JSON. One implementation of the service trait thus answers gRPC and
//! HTTP/JSON, with no code generated for the HTTP side, the way Envoy's
//! transcoder does it from outside the process.
//!
//! - **The request message:** query parameters first (unless `body: "*"`,
//!   which leaves none: http.proto), then the body (the whole message for
//!   `*`, the named field otherwise), then the path bindings, so that the
//!   path wins over both.
//! - **Answers:** the response message as proto3 JSON (`response_body`
//!   writes that field alone, defaults included), a server stream as a
//!   JSON array of its messages. A failed call answers with the HTTP
//!   status of its gRPC code and `google.rpc.Status` as JSON; routing
//!   errors are 404, 405 (with `Allow`), a malformed path, query or body
//!   400 (`INVALID_ARGUMENT`), a body over the limit 413.
//! - **Metadata:** `authorization` and every `grpc-metadata-NAME` header go
//!   to the call as metadata (`NAME`), and the call's response metadata
//!   comes back as `grpc-metadata-NAME` headers, as grpc-gateway maps
//!   them by default.

use std::error::Error as StdError;
use std::sync::Arc;

use axum::body::Body as AxumBody;
use buffa::json::{DeserializeOptions, SerializeOptions};
use buffa_reflect::{DynamicMessage, Kind, MethodDescriptor, ReflectMessage, Value};
use bytes::Bytes;
use http::header::{ALLOW, CONTENT_TYPE, HeaderName, HeaderValue};
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use tower_service::Service;

use crate::bind::bind_all;
use crate::grpc::{self, Frames, frame};
use crate::query;
use crate::router::{RouteError, Router};
use crate::rule::{Body, HttpRule};
use crate::status::{Code, Status};

/// The default largest request body read, in bytes (4 MiB, gRPC's default
/// largest message).
pub const DEFAULT_MAX_BODY: usize = 4 << 20;

/// The header prefix of metadata passed through (`grpc-metadata-NAME`).
const METADATA_PREFIX: &str = "grpc-metadata-";

/// Serves the `google.api.http` rules of a [`Router`] by calling a gRPC
/// service in process. Cheap to clone: the router is shared.
pub struct Transcoder<S> {
    router: Arc<Router>,
    grpc: S,
    max_body: usize,
    stream_format: StreamFormat,
}

/// How the answer to a server-streaming method is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StreamFormat {
    /// One JSON array, its elements written as the messages arrive (as
    /// Envoy's transcoder and grpc-gateway answer); `application/json`.
    #[default]
    JsonArray,
    /// One JSON value per line; `application/x-ndjson`.
    NewlineDelimited,
}

impl<S: Clone> Clone for Transcoder<S> {
    fn clone(&self) -> Self {
        Transcoder {
            router: Arc::clone(&self.router),
            grpc: self.grpc.clone(),
            max_body: self.max_body,
            stream_format: self.stream_format,
        }
    }
}

impl<S, B> Transcoder<S>
where
    S: Service<Request<AxumBody>, Response = Response<B>> + Clone + Send + Sync + 'static,
    S::Future: Send,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    /// A transcoder answering `router`'s rules with calls to `grpc`.
    pub fn new(router: Router, grpc: S) -> Transcoder<S> {
        Transcoder {
            router: Arc::new(router),
            grpc,
            max_body: DEFAULT_MAX_BODY,
            stream_format: StreamFormat::default(),
        }
    }

    /// Sets how server streams are written (default
    /// [`StreamFormat::JsonArray`]).
    pub fn stream_format(&mut self, format: StreamFormat) -> &mut Self {
        self.stream_format = format;
        self
    }

    /// Sets the largest request body read (default [`DEFAULT_MAX_BODY`]);
    /// a longer one is answered with 413.
    pub fn max_body(&mut self, bytes: usize) -> &mut Self {
        self.max_body = bytes;
        self
    }

    /// An axum router sending every request to this transcoder, to mount
    /// beside the gRPC service (see the crate's `bookstore` example).
    pub fn into_axum_router(self) -> axum::Router {
        axum::Router::new().fallback(move |request: Request<AxumBody>| {
            let transcoder = self.clone();
            async move { transcoder.call(request).await }
        })
    }

    /// Answers one HTTP request.
    pub async fn call(&self, request: Request<AxumBody>) -> Response<AxumBody> {
        match self.answer(request).await {
            Ok(response) => response,
            Err(failure) => failure.into_response(),
        }
    }

    async fn answer(&self, request: Request<AxumBody>) -> Result<Response<AxumBody>, Failure> {
        let (parts, body) = request.into_parts();
        let route = self
            .router
            .route(parts.method.as_str(), parts.uri.path())
            .map_err(Failure::Route)?;
        let body = grpc::read_body(body, self.max_body).await.ok_or_else(|| {
            Failure::Status(
                StatusCode::PAYLOAD_TOO_LARGE,
                Status::new(
                    Code::InvalidArgument,
                    format!("the request body is larger than {} bytes", self.max_body),
                ),
            )
        })?;
        let content_type = (parts.headers.get(CONTENT_TYPE))
            .and_then(|value| value.to_str().ok())
            .unwrap_or("");
        let message = request_message(
            route.rule,
            &route.bindings,
            parts.uri.query(),
            content_type,
            &body,
        )
        .map_err(|message| Failure::from(Status::new(Code::InvalidArgument, message)))?;
        let call = grpc_request(&route.rule.rpc, &message, &parts.headers);
        let response = grpc::call(&self.grpc, call).await?;
        json_response(route.rule, response, self.stream_format).await
    }
}

/// Why a request gets no answer from the service.
enum Failure {
    Route(RouteError),
    Status(StatusCode, Status),
}

impl From<Status> for Failure {
    fn from(status: Status) -> Failure {
        let http =
            StatusCode::from_u16(status.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Failure::Status(http, status)
    }
}

impl Failure {
    /// The status the failure answers with.
    fn status(self) -> Status {
        match self {
            Failure::Route(error) => Status::new(Code::InvalidArgument, error.to_string()),
            Failure::Status(_, status) => status,
        }
    }

    fn into_response(self) -> Response<AxumBody> {
        let (http, status, allow) = match self {
            Failure::Route(error) => {
                let code = match error {
                    RouteError::NotFound => Code::NotFound,
                    RouteError::MethodNotAllowed(_) => Code::Unimplemented,
                    RouteError::BadPath(_) => Code::InvalidArgument,
                };
                let allow = match &error {
                    RouteError::MethodNotAllowed(methods) => Some(methods.join(", ")),
                    _ => None,
                };
                let http = StatusCode::from_u16(error.http_status())
                    .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                (http, Status::new(code, error.to_string()), allow)
            }
            Failure::Status(http, status) => (http, status, None),
        };
        let mut response = json(http, AxumBody::from(status.to_json()));
        if let Some(allow) = allow.and_then(|a| HeaderValue::from_str(&a).ok()) {
            response.headers_mut().insert(ALLOW, allow);
        }
        response
    }
}

/// An answer of `status` with a JSON `body`.
fn json(status: StatusCode, body: AxumBody) -> Response<AxumBody> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The request message of `rule`, from the query string, the body and the
/// path `bindings`, in that order; an error says what does not read.
fn request_message(
    rule: &HttpRule,
    bindings: &[crate::Binding],
    query_string: Option<&str>,
    content_type: &str,
    body: &[u8],
) -> Result<DynamicMessage, String> {
    let mut message = DynamicMessage::new(rule.rpc.input());
    let options = DeserializeOptions::DEFAULT;
    if rule.body != Body::Whole
        && let Some(query_string) = query_string
    {
        let parameters = query::parse(query_string).map_err(|e| e.to_string())?;
        bind_all(&mut message, &parameters).map_err(|e| e.to_string())?;
    }
    let text = || std::str::from_utf8(body).map_err(|_| "the body is not UTF-8".to_owned());
    match &rule.body {
        Body::None => {}
        // A raw body: the whole request, or the field, is an HttpBody.
        Body::Whole if is_http_body(&message.descriptor()) => {
            fill_http_body(&mut message, content_type, body)?
        }
        Body::Whole if body.is_empty() => {}
        Body::Whole => buffa_reflect::json::merge_from_str_with(&mut message, text()?, &options)
            .map_err(|e| format!("the body: {e}"))?,
        Body::Field(field) => match http_body_type(field) {
            Some(http_body) => {
                let mut raw = DynamicMessage::new(http_body);
                fill_http_body(&mut raw, content_type, body)?;
                message
                    .set_field(field, Value::Message(raw))
                    .map_err(|e| e.to_string())?;
            }
            None if body.is_empty() => {}
            None => {
                // The body is the field's JSON value: read it as that field
                // of an object, built by serde_json so the body cannot
                // escape it.
                let value: serde_json::Value =
                    serde_json::from_str(text()?).map_err(|e| format!("the body: {e}"))?;
                let wrapped = serde_json::json!({ field.name(): value }).to_string();
                buffa_reflect::json::merge_from_str_with(&mut message, &wrapped, &options)
                    .map_err(|e| format!("the body: {e}"))?;
            }
        },
    }
    bind_all(&mut message, bindings).map_err(|e| e.to_string())?;
    Ok(message)
}

/// The full name of googleapis' raw HTTP body message.
const HTTP_BODY: &str = "google.api.HttpBody";

/// Whether `message` is `google.api.HttpBody`, a raw body and its content
/// type.
fn is_http_body(message: &buffa_reflect::MessageDescriptor) -> bool {
    message.full_name() == HTTP_BODY
}

/// The `HttpBody` type of `field`, if that is its type.
fn http_body_type(
    field: &buffa_reflect::FieldDescriptor,
) -> Option<buffa_reflect::MessageDescriptor> {
    match field.kind() {
        Kind::Message(message) if is_http_body(&message) && !field.is_list() => Some(message),
        _ => None,
    }
}

/// Sets the `content_type` and `data` of an `HttpBody`.
fn fill_http_body(
    message: &mut DynamicMessage,
    content_type: &str,
    body: &[u8],
) -> Result<(), String> {
    let mut set = |name, value| {
        message
            .set_field_by_name(name, value)
            .map_err(|e| e.to_string())
    };
    set("content_type", Value::String(content_type.to_owned()))?;
    set("data", Value::Bytes(body.to_vec()))
}

/// The answer carrying an `HttpBody`: its data, with its content type.
fn raw_answer(http_body: &DynamicMessage) -> Response<AxumBody> {
    let content_type = match http_body.field_by_name("content_type") {
        Some(Value::String(content_type)) => content_type.as_str(),
        _ => "",
    };
    let data = match http_body.field_by_name("data") {
        Some(Value::Bytes(data)) => data.clone(),
        _ => Vec::new(),
    };
    let mut response = Response::new(AxumBody::from(data));
    if !content_type.is_empty()
        && let Ok(value) = HeaderValue::from_str(content_type)
    {
        response.headers_mut().insert(CONTENT_TYPE, value);
    }
    response
}

/// The gRPC call of `rpc` carrying `message`, with the metadata of the
/// HTTP `headers`.
fn grpc_request(
    rpc: &MethodDescriptor,
    message: &DynamicMessage,
    headers: &HeaderMap,
) -> Request<AxumBody> {
    let framed = frame(&message.encode_to_vec());
    let path = format!("/{}/{}", rpc.parent_service().full_name(), rpc.name());
    let mut request = Request::new(AxumBody::from(framed));
    *request.method_mut() = Method::POST;
    *request.uri_mut() = path.parse().unwrap_or_default();
    *request.version_mut() = http::Version::HTTP_2;
    let out = request.headers_mut();
    out.insert(CONTENT_TYPE, HeaderValue::from_static("application/grpc"));
    out.insert("te", HeaderValue::from_static("trailers"));
    for (name, value) in headers {
        if name == http::header::AUTHORIZATION {
            out.append(name.clone(), value.clone());
        } else if let Some(metadata) = name.as_str().strip_prefix(METADATA_PREFIX)
            && let Ok(metadata) = HeaderName::from_bytes(metadata.as_bytes())
        {
            out.append(metadata, value.clone());
        }
    }
    request
}

/// The JSON answer of `rule` to the gRPC `response`: the one message of a
/// unary call, or a server stream's messages as a JSON array written as
/// they arrive.
async fn json_response<B>(
    rule: &HttpRule,
    response: Response<B>,
    format: StreamFormat,
) -> Result<Response<AxumBody>, Failure>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let (parts, body) = response.into_parts();
    // A call that fails before answering answers with its status alone,
    // in the headers ("trailers-only").
    if parts.headers.contains_key("grpc-status") {
        let status = grpc::call_status(&parts.headers, &HeaderMap::new());
        if status.code() != Code::Ok {
            return Err(status.into());
        }
    }
    let mut answer = if rule.rpc.is_server_streaming() {
        let stream = futures_util::stream::unfold(
            JsonStream {
                rule: rule.clone(),
                format,
                body: Box::pin(body),
                frames: Frames::default(),
                started: false,
                done: false,
            },
            JsonStream::next_chunk,
        );
        let mut answer = json(StatusCode::OK, AxumBody::from_stream(stream));
        if format == StreamFormat::NewlineDelimited {
            answer.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("application/x-ndjson"),
            );
        }
        answer
    } else {
        let collected = body.collect().await.map_err(|e| {
            Status::new(
                Code::Unavailable,
                format!("the service's answer broke off: {}", e.into()),
            )
        })?;
        let trailers = collected.trailers().cloned().unwrap_or_default();
        let status = grpc::call_status(&parts.headers, &trailers);
        if status.code() != Code::Ok {
            return Err(status.into());
        }
        let mut frames = Frames::default();
        frames.push(&collected.to_bytes());
        let output = rule.rpc.output();
        let message = next_message(&mut frames, &output)?;
        let (Some(message), None) = (message, next_message(&mut frames, &output)?) else {
            return Err(Status::new(
                Code::Internal,
                "the service did not answer a unary call with one message",
            )
            .into());
        };
        let mut answer = match raw_body(rule, &message) {
            Some(http_body) => raw_answer(&http_body),
            None => json(
                StatusCode::OK,
                AxumBody::from(response_json(rule, &message)?),
            ),
        };
        add_metadata(answer.headers_mut(), &trailers);
        answer
    };
    add_metadata(answer.headers_mut(), &parts.headers);
    Ok(answer)
}

/// Adds the call's metadata among `headers` to the answer's headers, as
/// `grpc-metadata-NAME`.
fn add_metadata(answer: &mut HeaderMap, headers: &HeaderMap) {
    for (name, value) in headers {
        let name = name.as_str();
        if name.starts_with("grpc-") || name == "content-type" || name == "te" {
            continue;
        }
        if let Ok(header) = HeaderName::from_bytes(format!("{METADATA_PREFIX}{name}").as_bytes()) {
            answer.append(header, value.clone());
        }
    }
}

/// The next whole message among `frames`, decoded as `output`.
fn next_message(
    frames: &mut Frames,
    output: &buffa_reflect::MessageDescriptor,
) -> Result<Option<DynamicMessage>, Status> {
    let Some(frame) = frames.next_message()? else {
        return Ok(None);
    };
    DynamicMessage::decode(output.clone(), &frame)
        .map(Some)
        .map_err(|e| {
            Status::new(
                Code::Internal,
                format!("the service's answer does not decode: {e}"),
            )
        })
}

/// A server stream being written in `format`: a JSON array (`[`, each
/// message's JSON as it arrives, `]`) or one JSON value per line. A stream
/// that ends with an error (after the `200` is sent) ends with one more
/// element, `{"error": STATUS}`, the `google.rpc.Status` of the failure.
struct JsonStream<B> {
    rule: HttpRule,
    format: StreamFormat,
    body: std::pin::Pin<Box<B>>,
    frames: Frames,
    /// Whether an element has been written (`[` of an array).
    started: bool,
    /// Whether the stream is closed.
    done: bool,
}

impl<B> JsonStream<B>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    /// The next piece of the array and the state after it, or `None` once
    /// the array is closed.
    async fn next_chunk(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Self)> {
        if self.done {
            return None;
        }
        let output = self.rule.rpc.output();
        loop {
            match next_message(&mut self.frames, &output) {
                Ok(Some(message)) => {
                    let chunk = match response_json(&self.rule, &message) {
                        Ok(json) => self.element(json),
                        Err(failure) => self.close(Some(failure.status())),
                    };
                    return Some((Ok(chunk), self));
                }
                Ok(None) => {}
                Err(status) => {
                    let chunk = self.close(Some(status));
                    return Some((Ok(chunk), self));
                }
            }
            match self.body.frame().await {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => self.frames.push(&data),
                    Err(frame) => {
                        let trailers = frame.into_trailers().unwrap_or_default();
                        let status = grpc::call_status(&HeaderMap::new(), &trailers);
                        let chunk = self.close((status.code() != Code::Ok).then_some(status));
                        return Some((Ok(chunk), self));
                    }
                },
                Some(Err(e)) => {
                    let status = Status::new(
                        Code::Unavailable,
                        format!("the service's answer broke off: {}", e.into()),
                    );
                    let chunk = self.close(Some(status));
                    return Some((Ok(chunk), self));
                }
                None => {
                    let status =
                        Status::new(Code::Unknown, "the service's answer has no grpc-status");
                    let chunk = self.close(Some(status));
                    return Some((Ok(chunk), self));
                }
            }
        }
    }

    /// One element: after `[` or `,` in an array, ended by a newline
    /// otherwise.
    fn element(&mut self, json: Vec<u8>) -> Bytes {
        let mut chunk = Vec::with_capacity(json.len() + 1);
        if self.format == StreamFormat::JsonArray {
            chunk.push(if self.started { b',' } else { b'[' });
        }
        self.started = true;
        chunk.extend(json);
        if self.format == StreamFormat::NewlineDelimited {
            chunk.push(b'\n');
        }
        chunk.into()
    }

    /// The end of the stream, with the error element when the call failed.
    fn close(&mut self, failure: Option<Status>) -> Bytes {
        let mut chunk = match failure {
            Some(status) => {
                let error = format!("{{\"error\":{}}}", status.to_json());
                self.element(error.into_bytes()).to_vec()
            }
            None if !self.started && self.format == StreamFormat::JsonArray => b"[".to_vec(),
            None => Vec::new(),
        };
        if self.format == StreamFormat::JsonArray {
            chunk.push(b']');
        }
        self.done = true;
        chunk.into()
    }
}

/// The `HttpBody` a unary answer sends raw: the response message, or its
/// `response_body` field, when it is one.
fn raw_body(rule: &HttpRule, message: &DynamicMessage) -> Option<DynamicMessage> {
    match &rule.response_body {
        None if is_http_body(&message.descriptor()) => Some(message.clone()),
        Some(field) => match message.field_owned(field) {
            Some(Value::Message(body)) if is_http_body(&body.descriptor()) => Some(body),
            _ => None,
        },
        None => None,
    }
}

/// The JSON of `message`, or of its `response_body` field alone.
fn response_json(rule: &HttpRule, message: &DynamicMessage) -> Result<Vec<u8>, Failure> {
    let failed = |e: buffa::json::JsonError| {
        Failure::from(Status::new(
            Code::Internal,
            format!("the answer has no JSON form: {e}"),
        ))
    };
    let Some(field) = &rule.response_body else {
        return buffa_reflect::json::to_vec_with(message, &SerializeOptions::DEFAULT)
            .map_err(failed);
    };
    // The field alone in a message of the same type, written as JSON
    // (`{"shelves":[...]}`), then its value cut out: the writer's own
    // output, field order and number forms included.
    let mut only = DynamicMessage::new(message.descriptor());
    if let Some(value) = message.field_owned(field) {
        only.set_field(field, value)
            .map_err(|e| Failure::from(Status::new(Code::Internal, e.to_string())))?;
    }
    let mut json =
        buffa_reflect::json::to_vec_with(&only, &SerializeOptions::DEFAULT).map_err(failed)?;
    if json == b"{}" {
        // Unset or empty: the field's default (`[]`, `{}`, `0`, `""`), or
        // an empty message.
        let defaults = SerializeOptions::DEFAULT.with_emit_default_values(true);
        json = buffa_reflect::json::to_vec_with(&only, &defaults).map_err(failed)?;
        if json == b"{}" {
            return Ok(b"{}".to_vec());
        }
    }
    let key = serde_json::Value::from(field.json_name()).to_string();
    let value = json
        .get(key.len() + 2..json.len() - 1)
        .ok_or_else(|| Failure::from(Status::new(Code::Internal, "unexpected JSON form")))?;
    Ok(value.to_vec())
}
