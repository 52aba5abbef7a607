//! The server side: `Echo` implemented over the generated trait.

use std::pin::Pin;

use tokio_stream::{Stream, StreamExt};
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status, Streaming};

use crate::echo::echo_server::Echo;
use crate::echo::{EchoReply, EchoRequest, RepeatRequest};

/// The metadata key the client sends and the server sends back.
pub const REQUEST_ID: &str = "x-request-id";
/// The metadata key the server adds to every unary reply.
pub const SERVED_BY: &str = "x-served-by";
/// The most replies `Repeat` sends.
pub const MAX_REPEAT: u32 = 1_000;

/// A stream of replies, as the streaming methods return them.
pub type ReplyStream = Pin<Box<dyn Stream<Item = Result<EchoReply, Status>> + Send>>;

/// The service: stateless, every method sends its input back.
#[derive(Debug, Default)]
pub struct EchoService;

#[tonic::async_trait]
impl Echo for EchoService {
    async fn say(&self, request: Request<EchoRequest>) -> Result<Response<EchoReply>, Status> {
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        let request = request.into_inner();
        if request.text.is_empty() {
            return Err(Status::invalid_argument("text must not be empty"));
        }
        let mut response = Response::new(EchoReply {
            text: request.text,
            payload: request.payload,
            ..Default::default()
        });
        let metadata = response.metadata_mut();
        metadata.insert(SERVED_BY, MetadataValue::from_static("buffa-grpc-example"));
        if let Some(id) = request_id {
            metadata.insert(REQUEST_ID, id);
        }
        Ok(response)
    }

    type RepeatStream = ReplyStream;

    async fn repeat(
        &self,
        request: Request<RepeatRequest>,
    ) -> Result<Response<ReplyStream>, Status> {
        let RepeatRequest { text, times, .. } = request.into_inner();
        if times > MAX_REPEAT {
            return Err(Status::invalid_argument(format!(
                "times is {times}, at most {MAX_REPEAT}"
            )));
        }
        let replies = (0..times).map(move |sequence| Ok(reply(text.clone(), sequence)));
        Ok(Response::new(Box::pin(tokio_stream::iter(replies))))
    }

    async fn collect(
        &self,
        request: Request<Streaming<EchoRequest>>,
    ) -> Result<Response<EchoReply>, Status> {
        let mut requests = request.into_inner();
        let mut texts = Vec::new();
        while let Some(request) = requests.message().await? {
            texts.push(request.text);
        }
        Ok(Response::new(reply(texts.join("+"), 0)))
    }

    type ChatStream = ReplyStream;

    async fn chat(
        &self,
        request: Request<Streaming<EchoRequest>>,
    ) -> Result<Response<ReplyStream>, Status> {
        let mut sequence = 0;
        let replies = request.into_inner().map(move |request| {
            let request = request?;
            let reply = reply(request.text.to_uppercase(), sequence);
            sequence += 1;
            Ok(reply)
        });
        Ok(Response::new(Box::pin(replies)))
    }
}

fn reply(text: String, sequence: u32) -> EchoReply {
    EchoReply {
        text,
        sequence,
        ..Default::default()
    }
}
