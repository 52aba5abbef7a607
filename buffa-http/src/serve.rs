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
use std::future::poll_fn;
use std::sync::Arc;

use axum::body::Body as AxumBody;
use buffa::json::{DeserializeOptions, SerializeOptions};
use buffa_reflect::{DynamicMessage, MethodDescriptor};
use bytes::{BufMut, Bytes, BytesMut};
use http::header::{ALLOW, CONTENT_TYPE, HeaderName, HeaderValue};
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use tower_service::Service;

use crate::bind::bind_all;
use crate::percent::Keep;
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
}

impl<S: Clone> Clone for Transcoder<S> {
    fn clone(&self) -> Self {
        Transcoder {
            router: Arc::clone(&self.router),
            grpc: self.grpc.clone(),
            max_body: self.max_body,
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
        }
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
        let body = http_body_util::Limited::new(body, self.max_body)
            .collect()
            .await
            .map_err(|_| {
                Failure::Status(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Status::new(
                        Code::InvalidArgument,
                        format!("the request body is larger than {} bytes", self.max_body),
                    ),
                )
            })?
            .to_bytes();
        let message = request_message(route.rule, &route.bindings, parts.uri.query(), &body)
            .map_err(|message| Failure::from(Status::new(Code::InvalidArgument, message)))?;
        let call = grpc_request(&route.rule.rpc, &message, &parts.headers);
        let mut grpc = self.grpc.clone();
        let unavailable = |e: S::Error| {
            Status::new(
                Code::Unavailable,
                format!("the service failed: {}", e.into()),
            )
        };
        poll_fn(|cx| grpc.poll_ready(cx))
            .await
            .map_err(unavailable)?;
        let response = grpc.call(call).await.map_err(unavailable)?;
        json_response(route.rule, response).await
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
        let mut response = json(http, status.to_json().into_bytes());
        if let Some(allow) = allow.and_then(|a| HeaderValue::from_str(&a).ok()) {
            response.headers_mut().insert(ALLOW, allow);
        }
        response
    }
}

/// An answer of `status` with a JSON `body`.
fn json(status: StatusCode, body: Vec<u8>) -> Response<AxumBody> {
    let mut response = Response::new(AxumBody::from(body));
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
        Body::Whole if body.is_empty() => {}
        Body::Whole => buffa_reflect::json::merge_from_str_with(&mut message, text()?, &options)
            .map_err(|e| format!("the body: {e}"))?,
        Body::Field(_) if body.is_empty() => {}
        Body::Field(field) => {
            // The body is the field's JSON value: read it as that field of
            // an object, built by serde_json so the body cannot escape it.
            let value: serde_json::Value =
                serde_json::from_str(text()?).map_err(|e| format!("the body: {e}"))?;
            let wrapped = serde_json::json!({ field.name(): value }).to_string();
            buffa_reflect::json::merge_from_str_with(&mut message, &wrapped, &options)
                .map_err(|e| format!("the body: {e}"))?;
        }
    }
    bind_all(&mut message, bindings).map_err(|e| e.to_string())?;
    Ok(message)
}

/// The gRPC call of `rpc` carrying `message`, with the metadata of the
/// HTTP `headers`.
fn grpc_request(
    rpc: &MethodDescriptor,
    message: &DynamicMessage,
    headers: &HeaderMap,
) -> Request<AxumBody> {
    let encoded = message.encode_to_vec();
    let mut framed = BytesMut::with_capacity(5 + encoded.len());
    framed.put_u8(0);
    framed.put_u32(encoded.len() as u32);
    framed.put_slice(&encoded);
    let path = format!("/{}/{}", rpc.parent_service().full_name(), rpc.name());
    let mut request = Request::new(AxumBody::from(framed.freeze()));
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

/// The JSON answer of `rule` to the gRPC `response`.
async fn json_response<B>(
    rule: &HttpRule,
    response: Response<B>,
) -> Result<Response<AxumBody>, Failure>
where
    B: http_body::Body<Data = Bytes>,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let (parts, body) = response.into_parts();
    let collected = body.collect().await.map_err(|e| {
        Status::new(
            Code::Unavailable,
            format!("the service's answer broke off: {}", e.into()),
        )
    })?;
    let trailers = collected.trailers().cloned().unwrap_or_default();
    let status = call_status(&parts.headers, &trailers);
    if status.code() != Code::Ok {
        return Err(status.into());
    }
    let data = collected.to_bytes();
    let output = rule.rpc.output();
    let mut messages = Vec::new();
    let mut rest = &data[..];
    while !rest.is_empty() {
        let malformed = || Status::new(Code::Internal, "the service's answer is not gRPC framing");
        if rest.len() < 5 || rest[0] != 0 {
            return Err(malformed().into());
        }
        let len = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        let frame = rest.get(5..5 + len).ok_or_else(malformed)?;
        let message = DynamicMessage::decode(output.clone(), frame).map_err(|e| {
            Status::new(
                Code::Internal,
                format!("the service's answer does not decode: {e}"),
            )
        })?;
        messages.push(message);
        rest = &rest[5 + len..];
    }
    let body = if rule.rpc.is_server_streaming() {
        let mut body = b"[".to_vec();
        for (i, message) in messages.iter().enumerate() {
            if i > 0 {
                body.push(b',');
            }
            body.extend(response_json(rule, message)?);
        }
        body.push(b']');
        body
    } else {
        let [message] = &messages[..] else {
            return Err(Status::new(
                Code::Internal,
                format!(
                    "the service answered a unary call with {} messages",
                    messages.len()
                ),
            )
            .into());
        };
        response_json(rule, message)?
    };
    let mut response = json(StatusCode::OK, body);
    for (name, value) in parts.headers.iter().chain(trailers.iter()) {
        let name = name.as_str();
        if name.starts_with("grpc-") || name == "content-type" || name == "te" {
            continue;
        }
        if let Ok(header) = HeaderName::from_bytes(format!("{METADATA_PREFIX}{name}").as_bytes()) {
            response.headers_mut().append(header, value.clone());
        }
    }
    Ok(response)
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
    // The field's value as the message's JSON writes it, defaults included
    // so that an empty list is `[]`, not nothing.
    let options = SerializeOptions::DEFAULT.with_emit_default_values(true);
    let whole = buffa_reflect::json::to_vec_with(message, &options).map_err(failed)?;
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&whole)
        .map_err(|e| Failure::from(Status::new(Code::Internal, e.to_string())))?;
    let value = object
        .get(field.json_name())
        .cloned()
        .unwrap_or(serde_json::Value::Null);
    Ok(value.to_string().into_bytes())
}

/// The status of a finished call: `grpc-status` and `grpc-message` from
/// the trailers, or from the headers of a trailers-only answer.
fn call_status(headers: &HeaderMap, trailers: &HeaderMap) -> Status {
    let read = |name: &str| trailers.get(name).or_else(|| headers.get(name));
    let Some(code) = read("grpc-status") else {
        return Status::new(Code::Unknown, "the service's answer has no grpc-status");
    };
    let code = code
        .to_str()
        .ok()
        .and_then(|c| c.parse::<i32>().ok())
        .map_or(Code::Unknown, Code::from_i32);
    let message = read("grpc-message")
        .and_then(|m| m.to_str().ok())
        .map(percent_decode_lossy)
        .unwrap_or_default();
    Status::new(code, message)
}

/// `grpc-message` is percent-encoded UTF-8 (gRPC over HTTP/2); a message
/// that does not decode is kept as written.
fn percent_decode_lossy(text: &str) -> String {
    crate::percent::decode(text, Keep::Nothing, false).unwrap_or_else(|_| text.to_owned())
}
