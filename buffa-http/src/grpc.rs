//! What calling a gRPC service in process takes (`serve`, `grpc_json`):
//! reading a request body within a limit, the call itself, and gRPC's
//! length-prefixed messages (a flag byte, 0 for not compressed, the
//! message's length in four big-endian bytes, the message).

use std::error::Error as StdError;
use std::future::poll_fn;

use axum::body::Body as AxumBody;
use bytes::{BufMut, Bytes, BytesMut};
use http::{Request, Response};
use http_body_util::BodyExt;
use tower_service::Service;

use crate::status::{Code, Status};

/// The whole of `body`, or `None` when it is longer than `limit` bytes
/// (or breaks off).
pub(crate) async fn read_body(body: AxumBody, limit: usize) -> Option<Bytes> {
    let collected = http_body_util::Limited::new(body, limit).collect().await;
    collected.ok().map(|collected| collected.to_bytes())
}

/// Calls `service` with `request` once it is ready; a failure of the
/// service itself (not a gRPC status it answers with) is `UNAVAILABLE`.
pub(crate) async fn call<S, B>(
    service: &S,
    request: Request<AxumBody>,
) -> Result<Response<B>, Status>
where
    S: Service<Request<AxumBody>, Response = Response<B>> + Clone,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let mut service = service.clone();
    let unavailable = |e: S::Error| {
        Status::new(
            Code::Unavailable,
            format!("the service failed: {}", e.into()),
        )
    };
    poll_fn(|cx| service.poll_ready(cx))
        .await
        .map_err(unavailable)?;
    service.call(request).await.map_err(unavailable)
}

/// `message` framed.
pub(crate) fn frame(message: &[u8]) -> Bytes {
    let mut framed = BytesMut::with_capacity(5 + message.len());
    framed.put_u8(0);
    framed.put_u32(message.len() as u32);
    framed.put_slice(message);
    framed.freeze()
}

/// The messages of a stream of frames, read from the bytes received so
/// far.
#[derive(Default)]
pub(crate) struct Frames {
    buffer: BytesMut,
}

impl Frames {
    /// Adds bytes received.
    pub(crate) fn push(&mut self, data: &[u8]) {
        self.buffer.extend_from_slice(data);
    }

    /// Whether every byte received belongs to a message taken out.
    pub(crate) fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }

    /// The next whole message, or `None` until one has arrived. A
    /// compressed one is an error: none was asked for.
    pub(crate) fn next_message(&mut self) -> Result<Option<Bytes>, Status> {
        if self.buffer.len() < 5 {
            return Ok(None);
        }
        if self.buffer[0] != 0 {
            return Err(Status::new(
                Code::Internal,
                "a compressed message, which was not asked for",
            ));
        }
        let len = u32::from_be_bytes([
            self.buffer[1],
            self.buffer[2],
            self.buffer[3],
            self.buffer[4],
        ]) as usize;
        if self.buffer.len() - 5 < len {
            return Ok(None);
        }
        let mut frame = self.buffer.split_to(5 + len);
        Ok(Some(frame.split_off(5).freeze()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_split_messages_received_in_pieces() {
        let mut stream = frame(b"abc").to_vec();
        stream.extend_from_slice(&frame(b""));
        stream.extend_from_slice(&frame(&[7; 300]));
        let mut frames = Frames::default();
        let mut messages = Vec::new();
        for byte in stream {
            frames.push(&[byte]);
            while let Some(message) = frames.next_message().unwrap() {
                messages.push(message.to_vec());
            }
        }
        assert_eq!(messages, [b"abc".to_vec(), vec![], vec![7; 300]]);
        assert!(frames.is_empty());
        frames.push(&[1, 0, 0, 0, 0]);
        assert!(frames.next_message().is_err());
    }
}
