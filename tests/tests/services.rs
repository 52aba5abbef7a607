//! The tonic service and client generated from buffa-build's golden
//! `service.proto` (which buffa-build's golden test compares as text only),
//! compiled and called: [`Ledger`] implements the generated server trait,
//! so the compiler checks its method signatures, and the generated client
//! calls the generated server in process (the server is a tower `Service`,
//! which the client takes as its transport directly), with every method
//! kind, a nested response type (`Total.Entry`) and a well-known type
//! (`google.protobuf.Empty`); [`Opener`] implements `Session`, whose rpcs
//! `Connect` and `New` are named like the client's own methods. The routes
//! are checked against the methods of protoc's descriptor, with request
//! and reply bytes from protoc's encoder.

mod common;

use std::convert::Infallible;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

use buffa::Message;
use buffa_types::google::protobuf::{Empty, FileDescriptorSet};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use common::{protoc_descriptor_set, protoc_encode_in};
use http_body_util::{BodyExt, Full};
use tokio_stream::{Stream, StreamExt};
use tonic::codegen::Service;
use tonic::codegen::http;
use tonic::{Code, Request, Response, Status, Streaming};

#[allow(clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/services/include.rs"));
}

use generated::golden::service::session_client::SessionClient;
use generated::golden::service::session_server::{Session, SessionServer};
use generated::golden::service::tally_client::TallyClient;
use generated::golden::service::tally_server::{Tally, TallyServer};
use generated::golden::service::{Number, Total, total};

/// The server streams' type.
type ReplyStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// The tally: a running total that `add`, `sum` and `running` add to and
/// `reset` forgets.
#[derive(Debug, Default)]
struct Ledger {
    total: Mutex<i64>,
}

impl Ledger {
    /// Adds `value` to the total and returns the new total.
    fn add_value(&self, value: i64) -> i64 {
        let mut total = self.total.lock().unwrap();
        *total += value;
        *total
    }
}

#[tonic::async_trait]
impl Tally for Ledger {
    async fn add(&self, request: Request<Number>) -> Result<Response<Total>, Status> {
        let sum = self.add_value(request.into_inner().value);
        Ok(Response::new(Total {
            sum,
            ..Default::default()
        }))
    }

    type CountStream = ReplyStream<Total>;

    async fn count(&self, request: Request<Number>) -> Result<Response<Self::CountStream>, Status> {
        let value = request.into_inner().value;
        if value < 0 {
            return Err(Status::invalid_argument(format!(
                "cannot count up to {value}"
            )));
        }
        let totals = (0..=value).map(|sum| {
            Ok(Total {
                sum,
                ..Default::default()
            })
        });
        Ok(Response::new(Box::pin(tokio_stream::iter(totals))))
    }

    async fn sum(&self, request: Request<Streaming<Number>>) -> Result<Response<Total>, Status> {
        let mut numbers = request.into_inner();
        let mut sum = *self.total.lock().unwrap();
        while let Some(number) = numbers.message().await? {
            sum = self.add_value(number.value);
        }
        Ok(Response::new(Total {
            sum,
            ..Default::default()
        }))
    }

    type RunningStream = ReplyStream<total::Entry>;

    async fn running(
        &self,
        request: Request<Streaming<Number>>,
    ) -> Result<Response<Self::RunningStream>, Status> {
        // Everything is read before replying: the stream of replies must
        // not borrow `self`.
        let mut numbers = request.into_inner();
        let mut entries = Vec::new();
        while let Some(number) = numbers.message().await? {
            entries.push(Ok(total::Entry {
                sum: self.add_value(number.value),
                ..Default::default()
            }));
        }
        Ok(Response::new(Box::pin(tokio_stream::iter(entries))))
    }

    async fn reset(&self, _: Request<Empty>) -> Result<Response<Empty>, Status> {
        *self.total.lock().unwrap() = 0;
        Ok(Response::new(Empty::default()))
    }
}

/// A client whose transport is a server over a fresh [`Ledger`].
fn client() -> TallyClient<TallyServer<Ledger>> {
    TallyClient::new(TallyServer::new(Ledger::default()))
}

/// `future`, failed after five seconds so that a test cannot hang.
async fn within<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(5), future)
        .await
        .expect("timed out after 5 s")
}

fn number(value: i64) -> Number {
    Number {
        value,
        ..Default::default()
    }
}

#[tokio::test]
async fn unary_calls_share_the_servers_state() {
    within(async {
        let mut client = client();
        assert_eq!(client.add(number(5)).await.unwrap().into_inner().sum, 5);
        assert_eq!(client.add(number(-7)).await.unwrap().into_inner().sum, -2);
        #[allow(deprecated)] // `Reset` is `deprecated` in the .proto.
        let reply = client.reset(Empty::default()).await.unwrap();
        assert_eq!(reply.into_inner(), Empty::default());
        assert_eq!(client.add(number(3)).await.unwrap().into_inner().sum, 3);
    })
    .await;
}

#[tokio::test]
async fn server_streaming_sends_each_total() {
    within(async {
        let mut client = client();
        let mut replies = client.count(number(3)).await.unwrap().into_inner();
        let mut sums = Vec::new();
        while let Some(total) = replies.message().await.unwrap() {
            sums.push(total.sum);
        }
        assert_eq!(sums, [0, 1, 2, 3]);

        let status = client.count(number(-1)).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "cannot count up to -1");
    })
    .await;
}

#[tokio::test]
async fn client_and_bidirectional_streaming() {
    within(async {
        let mut client = client();
        let numbers = tokio_stream::iter([1, 2, 3].map(number));
        assert_eq!(client.sum(numbers).await.unwrap().into_inner().sum, 6);

        // The nested response type `Total.Entry`, after the 6 above.
        let numbers = tokio_stream::iter([10, -20].map(number));
        let entries: Vec<total::Entry> = client
            .running(numbers)
            .await
            .unwrap()
            .into_inner()
            .map(Result::unwrap)
            .collect()
            .await;
        let sums: Vec<i64> = entries.iter().map(|entry| entry.sum).collect();
        assert_eq!(sums, [16, -4]);
    })
    .await;
}

/// `Session`: `connect_` replies with the number as a total, `new_` with
/// the number 1.
#[derive(Debug, Default)]
struct Opener;

#[tonic::async_trait]
impl Session for Opener {
    async fn connect_(&self, request: Request<Number>) -> Result<Response<Total>, Status> {
        Ok(Response::new(Total {
            sum: request.into_inner().value,
            ..Default::default()
        }))
    }

    async fn new_(&self, _: Request<Empty>) -> Result<Response<Number>, Status> {
        Ok(Response::new(number(1)))
    }
}

#[tokio::test]
async fn rpcs_named_like_the_clients_methods_take_an_underscore() {
    within(async {
        let mut client = SessionClient::new(SessionServer::new(Opener));
        assert_eq!(
            client.connect_(number(9)).await.unwrap().into_inner().sum,
            9
        );
        assert_eq!(
            client.new_(Empty::default()).await.unwrap().into_inner(),
            number(1)
        );
        // The client's own `connect`, beside `connect_`: a compile-time
        // check of its signature.
        let _: fn(&'static str) -> _ =
            SessionClient::<tonic::transport::Channel>::connect::<&'static str>;
    })
    .await;
}

/// The directory of the golden protos, `service.proto` among them.
fn golden_protos() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../buffa-build/tests/golden")
}

/// `text` encoded by protoc as `message_type` of `service.proto`.
fn protoc_encode(message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&golden_protos(), "service.proto", message_type, text)
}

/// `message` in a gRPC frame: uncompressed, with its length.
fn frame(message: &[u8]) -> Bytes {
    let mut framed = BytesMut::new();
    framed.put_u8(0);
    framed.put_u32(u32::try_from(message.len()).unwrap());
    framed.put_slice(message);
    framed.freeze()
}

/// The messages of a body of gRPC frames.
fn unframe(mut body: Bytes) -> Vec<Bytes> {
    let mut messages = Vec::new();
    while body.has_remaining() {
        assert_eq!(body.get_u8(), 0, "a compressed frame");
        let len = body.get_u32() as usize;
        messages.push(body.split_to(len));
    }
    messages
}

/// Calls `path` on `server` with one framed message, as an HTTP/2 peer
/// would: the `grpc-status` (from the trailers, or from the headers of a
/// trailers-only reply) and the messages of the reply.
async fn call_route<S>(mut server: S, path: &str, message: &[u8]) -> (String, Vec<Bytes>)
where
    S: Service<
            http::Request<Full<Bytes>>,
            Response = http::Response<tonic::body::Body>,
            Error = Infallible,
        >,
{
    let request = http::Request::post(path)
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(Full::new(frame(message)))
        .unwrap();
    let response = server.call(request).await.unwrap();
    let header_status = response.headers().get("grpc-status").cloned();
    let body = response.into_body().collect().await.unwrap();
    let status = body
        .trailers()
        .and_then(|trailers| trailers.get("grpc-status").cloned())
        .or(header_status)
        .expect("a grpc-status");
    (
        status.to_str().unwrap().to_owned(),
        unframe(body.to_bytes()),
    )
}

/// Calls `path` on a fresh server of `service`.
async fn call_service(service: &str, path: &str, message: &[u8]) -> (String, Vec<Bytes>) {
    match service {
        "Tally" => call_route(TallyServer::new(Ledger::default()), path, message).await,
        "Session" => call_route(SessionServer::new(Opener), path, message).await,
        other => panic!("unexpected service {other}"),
    }
}

#[tokio::test]
async fn routes_are_the_methods_of_protocs_descriptor() {
    within(async {
        let set = protoc_descriptor_set(&golden_protos(), &["service.proto"]);
        let set = FileDescriptorSet::decode_from_slice(&set).unwrap();
        let file = set
            .file
            .iter()
            .find(|file| file.name() == "service.proto")
            .unwrap();

        // One request of protoc's encoding, `value: 7`, on every route
        // (`Reset` and `New` read it as an `Empty` with an unknown
        // field); each reply is compared with protoc's encoding.
        let request = protoc_encode("golden.service.Number", "value: 7");
        let total = |sum: i64| protoc_encode("golden.service.Total", &format!("sum: {sum}"));
        let mut routes = Vec::new();
        for service in &file.service {
            for method in &service.method {
                let route = format!("/{}.{}/{}", file.package(), service.name(), method.name());
                let expected = match (service.name(), method.name()) {
                    ("Tally", "Add" | "Sum") | ("Session", "Connect") => vec![total(7)],
                    ("Tally", "Count") => (0..=7).map(total).collect(),
                    ("Tally", "Running") => {
                        vec![protoc_encode("golden.service.Total.Entry", "sum: 7")]
                    }
                    ("Tally", "Reset") => vec![Vec::new()],
                    ("Session", "New") => vec![protoc_encode("golden.service.Number", "value: 1")],
                    other => panic!("unexpected method {other:?}"),
                };
                let (status, replies) = call_service(service.name(), &route, &request).await;
                assert_eq!(status, "0", "{route}");
                assert_eq!(replies, expected, "{route}");
                routes.push(route);
            }
        }
        assert_eq!(routes.len(), 7, "{routes:?}");

        // A method the service does not declare, and routes spelled as
        // the Rust methods are named.
        for route in [
            "/golden.service.Tally/Subtract",
            "/golden.service.Tally/add",
            "/golden.service.Session/Connect_",
        ] {
            let service = route.split(['.', '/']).nth(3).unwrap();
            let (status, replies) = call_service(service, route, &request).await;
            assert_eq!(status, (Code::Unimplemented as i32).to_string(), "{route}");
            assert!(replies.is_empty(), "{route}");
        }
    })
    .await;
}
