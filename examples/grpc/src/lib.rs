//! A gRPC server and client over buffa messages with tonic, in one
//! process: [`run`] serves the `Echo` service of `proto/echo.proto` on
//! an ephemeral port of 127.0.0.1, calls each of its four methods (unary,
//! server streaming, client streaming, bidirectional), sends metadata both
//! ways, provokes an error status, sends a message over tonic's 4 MiB
//! default limit to a server and client whose limits are raised, and
//! shows a client with the default limit refusing it. `cargo run -p grpc`
//! prints what it saw; `tests/scenario.rs` checks it.

#[allow(missing_docs, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/mod.rs"));
}
mod server;

pub use generated::echo;
pub use server::{EchoService, MAX_REPEAT, REQUEST_ID, SERVED_BY};

use std::error::Error;
use std::net::SocketAddr;

use bytes::Bytes;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, Endpoint, Server};
use tonic::{Code, Request};

use echo::echo_client::EchoClient;
use echo::echo_server::EchoServer;
use echo::{EchoRequest, RepeatRequest};

/// The size of the large payload: over tonic's 4 MiB default limit.
pub const LARGE_PAYLOAD: usize = 5 * 1024 * 1024;
/// The message size limit of the server and of the raised client, in
/// both directions.
pub const RAISED_LIMIT: usize = 16 * 1024 * 1024;

/// The error type of the scenario: anything that went wrong on the way.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// What the client saw.
#[derive(Debug)]
pub struct Report {
    /// The text of the unary reply.
    pub said: String,
    /// The response metadata `x-request-id`, sent back by the server.
    pub request_id: Option<String>,
    /// The response metadata `x-served-by`.
    pub served_by: Option<String>,
    /// The server-streamed replies: sequence number and text.
    pub repeated: Vec<(u32, String)>,
    /// The text of the client-streaming reply.
    pub collected: String,
    /// The bidirectional replies: sequence number and text.
    pub chat: Vec<(u32, String)>,
    /// The status of the unary call made with an empty text.
    pub error: (Code, String),
    /// The length of the large payload sent back to the raised client.
    pub large_len: usize,
    /// Whether that payload came back byte for byte.
    pub large_intact: bool,
    /// The status a client with the default 4 MiB limit got for the same
    /// call.
    pub refused: (Code, String),
}

/// Serves `Echo` on 127.0.0.1 (an ephemeral port), runs the client side
/// against it, stops the server and returns what the client saw.
pub async fn run() -> Result<Report, BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let service = EchoServer::new(EchoService)
        .max_decoding_message_size(RAISED_LIMIT)
        .max_encoding_message_size(RAISED_LIMIT);
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(
        Server::builder()
            .add_service(service)
            .serve_with_incoming_shutdown(TcpListenerStream::new(listener), async {
                // A dropped sender stops the server too.
                let _ = stopped.await;
            }),
    );
    let report = client_side(addr).await;
    let _ = stop.send(());
    server.await??;
    report
}

/// Every call of the scenario, from a client connected to `addr`.
async fn client_side(addr: SocketAddr) -> Result<Report, BoxError> {
    let channel: Channel = Endpoint::from_shared(format!("http://{addr}"))?
        .connect()
        .await?;
    let mut client = EchoClient::new(channel.clone())
        .max_decoding_message_size(RAISED_LIMIT)
        .max_encoding_message_size(RAISED_LIMIT);

    // Unary, with request metadata the server sends back.
    let mut request = Request::new(text_request("hello"));
    request
        .metadata_mut()
        .insert(REQUEST_ID, MetadataValue::from_static("req-42"));
    let response = client.say(request).await?;
    let header = |key: &str| {
        let value = response.metadata().get(key)?;
        value.to_str().ok().map(str::to_owned)
    };
    let request_id = header(REQUEST_ID);
    let served_by = header(SERVED_BY);
    let said = response.into_inner().text;

    // Server streaming.
    let mut replies = client
        .repeat(RepeatRequest {
            text: "again".into(),
            times: 3,
            ..Default::default()
        })
        .await?
        .into_inner();
    let mut repeated = Vec::new();
    while let Some(reply) = replies.message().await? {
        repeated.push((reply.sequence, reply.text));
    }

    // Client streaming.
    let requests = tokio_stream::iter(["a", "b", "c"].map(text_request));
    let collected = client.collect(requests).await?.into_inner().text;

    // Bidirectional streaming.
    let requests = tokio_stream::iter(["ping", "pong"].map(text_request));
    let mut replies = client.chat(requests).await?.into_inner();
    let mut chat = Vec::new();
    while let Some(reply) = replies.message().await? {
        chat.push((reply.sequence, reply.text));
    }

    // An error status: the server refuses an empty text.
    let error = match client.say(text_request("")).await {
        Ok(_) => return Err("an empty text was accepted".into()),
        Err(status) => (status.code(), status.message().to_owned()),
    };

    // A message over 4 MiB, each way, within the raised limits.
    let payload = Bytes::from(
        (0..LARGE_PAYLOAD)
            .map(|i| (i % 251) as u8)
            .collect::<Vec<u8>>(),
    );
    let large = EchoRequest {
        text: "large".into(),
        payload: payload.clone(),
        ..Default::default()
    };
    let reply = client.say(large.clone()).await?.into_inner();
    let large_len = reply.payload.len();
    let large_intact = reply.payload == payload;

    // The same call from a client with tonic's default 4 MiB decoding
    // limit: the server accepts the request and sends the reply, which
    // the client refuses.
    let mut default_client = EchoClient::new(channel);
    let refused = match default_client.say(large).await {
        Ok(_) => return Err("a reply over 4 MiB passed the default limit".into()),
        Err(status) => (status.code(), status.message().to_owned()),
    };

    Ok(Report {
        said,
        request_id,
        served_by,
        repeated,
        collected,
        chat,
        error,
        large_len,
        large_intact,
        refused,
    })
}

fn text_request(text: &str) -> EchoRequest {
    EchoRequest {
        text: text.into(),
        ..Default::default()
    }
}
