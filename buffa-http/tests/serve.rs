//! The transcoder against a stand-in gRPC service (a tower service that
//! answers with frames and trailers it is given): server streams in both
//! formats, failures before and after the first message, and a service
//! whose answer is not gRPC.

mod support;

use std::convert::Infallible;
use std::future::{Ready, ready};
use std::task::{Context, Poll};

use axum::body::Body;
use buffa_http::router::Router;
use buffa_http::serve::{StreamFormat, Transcoder};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response};
use http_body::Frame;
use http_body_util::{BodyExt, StreamBody};
use support::{pool_of, proto_dir};

/// A frame of the canned answer (frames themselves are not `Clone`).
#[derive(Clone)]
enum Part {
    Data(Bytes),
    Trailers(HeaderMap),
}

type Frames = Vec<Part>;

type CannedBody =
    StreamBody<futures_util::stream::Iter<std::vec::IntoIter<Result<Frame<Bytes>, Infallible>>>>;

/// A gRPC service that answers every call with the same frames.
#[derive(Clone)]
struct Canned {
    headers: HeaderMap,
    frames: Frames,
}

impl tower_service::Service<Request<Body>> for Canned {
    type Response = Response<CannedBody>;
    type Error = Infallible;
    type Future = Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Request<Body>) -> Self::Future {
        let frames: Vec<_> = (self.frames.iter())
            .map(|part| {
                Ok(match part.clone() {
                    Part::Data(data) => Frame::data(data),
                    Part::Trailers(trailers) => Frame::trailers(trailers),
                })
            })
            .collect();
        let mut response = Response::new(StreamBody::new(futures_util::stream::iter(frames)));
        *response.headers_mut() = self.headers.clone();
        ready(Ok(response))
    }
}

/// A `shelf.v1.Shelf` named `name`, framed.
fn shelf(name: &str) -> Part {
    let pool = pool_of(&proto_dir(), "shelf/v1/shelf.proto");
    let mut message =
        buffa_reflect::DynamicMessage::new(pool.get_message_by_name("shelf.v1.Shelf").unwrap());
    message
        .set_field_by_name("name", buffa_reflect::Value::String(name.into()))
        .unwrap();
    let encoded = message.encode_to_vec();
    let mut framed = vec![0];
    framed.extend_from_slice(&(encoded.len() as u32).to_be_bytes());
    framed.extend_from_slice(&encoded);
    Part::Data(Bytes::from(framed))
}

fn trailers(status: &str, message: &str) -> Part {
    let mut trailers = HeaderMap::new();
    trailers.insert("grpc-status", HeaderValue::from_str(status).unwrap());
    trailers.insert("grpc-message", HeaderValue::from_str(message).unwrap());
    Part::Trailers(trailers)
}

/// `GET /v1/shelves:watch` (a server stream) answered from `frames`.
async fn watch(headers: HeaderMap, frames: Frames, format: StreamFormat) -> (u16, String, String) {
    let pool = pool_of(&proto_dir(), "shelf/v1/shelf.proto");
    let service = pool.get_service_by_name("shelf.v1.Shelves").unwrap();
    let router = Router::for_services([&service]).unwrap();
    let mut transcoder = Transcoder::new(router, Canned { headers, frames });
    transcoder.stream_format(format);
    let request = Request::get("/v1/shelves:watch")
        .body(Body::empty())
        .unwrap();
    let response = transcoder.call(request).await;
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        content_type,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

#[tokio::test]
async fn server_streams_are_a_json_array_or_lines() {
    let frames = || vec![shelf("shelves/1"), shelf("shelves/2"), trailers("0", "")];
    assert_eq!(
        watch(HeaderMap::new(), frames(), StreamFormat::JsonArray).await,
        (
            200,
            "application/json".into(),
            r#"[{"name":"shelves/1"},{"name":"shelves/2"}]"#.into()
        )
    );
    assert_eq!(
        watch(HeaderMap::new(), frames(), StreamFormat::NewlineDelimited).await,
        (
            200,
            "application/x-ndjson".into(),
            "{\"name\":\"shelves/1\"}\n{\"name\":\"shelves/2\"}\n".into()
        )
    );
    // An empty stream.
    let empty = vec![trailers("0", "")];
    assert_eq!(
        watch(HeaderMap::new(), empty.clone(), StreamFormat::JsonArray)
            .await
            .2,
        "[]"
    );
    assert_eq!(
        watch(HeaderMap::new(), empty, StreamFormat::NewlineDelimited)
            .await
            .2,
        ""
    );
}

#[tokio::test]
async fn a_stream_failing_after_its_first_message_ends_with_an_error_element() {
    let frames = || vec![shelf("shelves/1"), trailers("14", "back%20soon")];
    assert_eq!(
        watch(HeaderMap::new(), frames(), StreamFormat::JsonArray)
            .await
            .2,
        r#"[{"name":"shelves/1"},{"error":{"code":14,"message":"back soon","details":[]}}]"#
    );
    assert_eq!(
        watch(HeaderMap::new(), frames(), StreamFormat::NewlineDelimited)
            .await
            .2,
        "{\"name\":\"shelves/1\"}\n{\"error\":{\"code\":14,\"message\":\"back soon\",\"details\":[]}}\n"
    );
    // A stream cut off without a status, and one with a frame that is not
    // a message of the output type.
    let cut = vec![shelf("shelves/1")];
    assert_eq!(
        watch(HeaderMap::new(), cut, StreamFormat::JsonArray)
            .await
            .2,
        r#"[{"name":"shelves/1"},{"error":{"code":2,"message":"the service's answer has no grpc-status","details":[]}}]"#
    );
    let garbage = vec![Part::Data(Bytes::from_static(&[0, 0, 0, 0, 2, 0xff, 0xff]))];
    let (_, _, body) = watch(HeaderMap::new(), garbage, StreamFormat::JsonArray).await;
    assert!(
        body.starts_with(r#"[{"error":{"code":13,"message":"the service's answer does not decode"#),
        "{body}"
    );
}

#[tokio::test]
async fn a_stream_failing_before_its_first_message_answers_with_its_status() {
    let mut headers = HeaderMap::new();
    headers.insert("grpc-status", HeaderValue::from_static("7"));
    headers.insert("grpc-message", HeaderValue::from_static("not%20yours"));
    assert_eq!(
        watch(headers, vec![], StreamFormat::JsonArray).await,
        (
            403,
            "application/json".into(),
            r#"{"code":7,"message":"not yours","details":[]}"#.into()
        )
    );
}
