//! gRPC with JSON messages (`application/grpc+json`, feature `axum`):
//! the same service answering gRPC clients that send proto3 JSON in
//! gRPC's frames instead of the binary encoding.
//!
//! A [`GrpcJson`] sits in front of the tonic server: it finds the method
//! the call's path names in the descriptor pool, reads each JSON message
//! of the request as that method's input type, sends the call on to the
//! server as ordinary `application/grpc`, and writes each message of the
//! answer back as JSON, in its own frame, as it arrives; the status and
//! the metadata pass through. Tonic's generated server keeps one codec;
//! the choice per call is made here, by content type.
//!
//! The request's messages are read whole before the call (at most
//! [`DEFAULT_MAX_BODY`] bytes, as for transcoded calls), so a client
//! stream is sent once the client has finished it; answers stream.

use std::error::Error as StdError;
use std::pin::Pin;

use axum::body::Body as AxumBody;
use buffa::json::{DeserializeOptions, SerializeOptions};
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, MethodDescriptor};
use bytes::Bytes;
use http::header::{CONTENT_TYPE, HeaderValue};
use http::{HeaderMap, Request, Response};
use http_body::Frame;
use http_body_util::{BodyExt, StreamBody};
use tower_service::Service;

use crate::grpc::{self, Frames, frame};
use crate::serve::DEFAULT_MAX_BODY;
use crate::status::{Code, Status};

/// The content type of gRPC with JSON messages.
pub const CONTENT_TYPE_GRPC_JSON: &str = "application/grpc+json";

/// Answers `application/grpc+json` calls by calling a gRPC service that
/// speaks the binary encoding, converting each message.
#[derive(Clone)]
pub struct GrpcJson<S> {
    pool: DescriptorPool,
    grpc: S,
}

/// Whether `headers` say the call's messages are JSON
/// (`application/grpc+json`, parameters allowed).
pub fn is_grpc_json(headers: &HeaderMap) -> bool {
    (headers.get(CONTENT_TYPE))
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|value| value.trim().eq_ignore_ascii_case(CONTENT_TYPE_GRPC_JSON))
}

impl<S, B> GrpcJson<S>
where
    S: Service<Request<AxumBody>, Response = Response<B>> + Clone + Send + Sync + 'static,
    S::Future: Send,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    /// Converts calls of the services of `pool` for `grpc`.
    pub fn new(pool: DescriptorPool, grpc: S) -> GrpcJson<S> {
        GrpcJson { pool, grpc }
    }

    /// An axum router sending every request to this converter.
    pub fn into_axum_router(self) -> axum::Router {
        axum::Router::new().fallback(move |request: Request<AxumBody>| {
            let converter = self.clone();
            async move { converter.call(request).await }
        })
    }

    /// Answers one `application/grpc+json` call. Failures are gRPC
    /// answers (HTTP 200, `grpc-status` in the headers), as gRPC clients
    /// expect: `UNIMPLEMENTED` for a path that names no method of the
    /// pool, `INVALID_ARGUMENT` for a message that is not the input type's
    /// JSON.
    pub async fn call(&self, request: Request<AxumBody>) -> Response<AxumBody> {
        match self.answer(request).await {
            Ok(response) => response,
            Err(status) => trailers_only(&status),
        }
    }

    async fn answer(&self, request: Request<AxumBody>) -> Result<Response<AxumBody>, Status> {
        let (mut parts, body) = request.into_parts();
        let rpc = method(&self.pool, parts.uri.path()).ok_or_else(|| {
            Status::new(
                Code::Unimplemented,
                format!("no method {} in the descriptor pool", parts.uri.path()),
            )
        })?;
        let body = grpc::read_body(body, DEFAULT_MAX_BODY)
            .await
            .ok_or_else(|| {
                Status::new(
                    Code::ResourceExhausted,
                    format!("the call's messages are larger than {DEFAULT_MAX_BODY} bytes"),
                )
            })?;
        let binary = to_binary(&rpc.input(), &body)?;
        parts
            .headers
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/grpc"));
        parts.headers.remove(http::header::CONTENT_LENGTH);
        let call = Request::from_parts(parts, AxumBody::from(binary));
        let response = grpc::call(&self.grpc, call).await?;
        let (mut parts, body) = response.into_parts();
        parts.headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static(CONTENT_TYPE_GRPC_JSON),
        );
        let stream = futures_util::stream::unfold(
            ToJson {
                output: rpc.output(),
                body: Box::pin(body),
                frames: Frames::default(),
                done: false,
            },
            ToJson::next_frame,
        );
        Ok(Response::from_parts(
            parts,
            AxumBody::new(StreamBody::new(stream)),
        ))
    }
}

/// The method a gRPC path (`/pkg.Service/Method`) names in `pool`.
fn method(pool: &DescriptorPool, path: &str) -> Option<MethodDescriptor> {
    let (service, name) = path.strip_prefix('/')?.split_once('/')?;
    let service = pool.get_service_by_name(service)?;
    service.methods().find(|method| method.name() == name)
}

/// The frames of `body`, each a JSON message of `input`, as frames of
/// the binary encoding.
fn to_binary(input: &MessageDescriptor, body: &[u8]) -> Result<Vec<u8>, Status> {
    let mut frames = Frames::default();
    frames.push(body);
    let mut binary = Vec::with_capacity(body.len());
    while let Some(json) = frames.next_message()? {
        let message =
            buffa_reflect::json::from_slice_with(input, &json, &DeserializeOptions::DEFAULT)
                .map_err(|e| {
                    Status::new(
                        Code::InvalidArgument,
                        format!("a message is not {}'s JSON: {e}", input.full_name()),
                    )
                })?;
        binary.extend_from_slice(&frame(&message.encode_to_vec()));
    }
    if !frames.is_empty() {
        return Err(Status::new(
            Code::InvalidArgument,
            "the call's body ends inside a message",
        ));
    }
    Ok(binary)
}

/// A gRPC answer carrying only its status.
fn trailers_only(status: &Status) -> Response<AxumBody> {
    let mut response = Response::new(AxumBody::empty());
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(CONTENT_TYPE_GRPC_JSON),
    );
    headers.extend(grpc::status_headers(status));
    response
}

/// The answer's frames rewritten from the binary encoding to JSON, the
/// trailers passed on; a message that does not convert ends the answer
/// with `INTERNAL` in the trailers.
struct ToJson<B> {
    output: MessageDescriptor,
    body: Pin<Box<B>>,
    frames: Frames,
    done: bool,
}

impl<B> ToJson<B>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    async fn next_frame(
        mut self,
    ) -> Option<(Result<Frame<Bytes>, std::convert::Infallible>, Self)> {
        if self.done {
            return None;
        }
        loop {
            match self.frames.next_message() {
                Ok(Some(binary)) => {
                    let frame = match self.to_json(&binary) {
                        Ok(json) => Frame::data(frame(&json)),
                        Err(status) => self.fail(&status),
                    };
                    return Some((Ok(frame), self));
                }
                Ok(None) => {}
                Err(status) => {
                    let frame = self.fail(&status);
                    return Some((Ok(frame), self));
                }
            }
            match self.body.frame().await {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => self.frames.push(&data),
                    Err(frame) => {
                        self.done = true;
                        return Some((Ok(frame), self));
                    }
                },
                Some(Err(e)) => {
                    let status = Status::new(
                        Code::Unavailable,
                        format!("the service's answer broke off: {}", e.into()),
                    );
                    let frame = self.fail(&status);
                    return Some((Ok(frame), self));
                }
                None => return None,
            }
        }
    }

    fn to_json(&self, binary: &[u8]) -> Result<Vec<u8>, Status> {
        let message = DynamicMessage::decode(self.output.clone(), binary).map_err(|e| {
            Status::new(
                Code::Internal,
                format!("the service's answer does not decode: {e}"),
            )
        })?;
        buffa_reflect::json::to_vec_with(&message, &SerializeOptions::DEFAULT)
            .map_err(|e| Status::new(Code::Internal, format!("the answer has no JSON form: {e}")))
    }

    /// The trailers ending the answer with `status`.
    fn fail(&mut self, status: &Status) -> Frame<Bytes> {
        self.done = true;
        Frame::trailers(grpc::status_headers(status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_type_is_recognised_with_parameters_and_any_case() {
        let headers = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(value));
            headers
        };
        assert!(is_grpc_json(&headers("application/grpc+json")));
        assert!(is_grpc_json(&headers(
            "Application/GRPC+JSON; charset=utf-8"
        )));
        assert!(!is_grpc_json(&headers("application/grpc")));
        assert!(!is_grpc_json(&headers("application/json")));
        assert!(!is_grpc_json(&HeaderMap::new()));
    }
}
