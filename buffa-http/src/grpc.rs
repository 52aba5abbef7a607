//! What calling a gRPC service in process takes (`serve`, `grpc_json`):
//! reading a request body within a limit, the call itself, a call's
//! status as gRPC carries it (`grpc-status`, `grpc-message`), and gRPC's
//! length-prefixed messages (a flag byte, 0 for not compressed, the
//! message's length in four big-endian bytes, the message).

use std::error::Error as StdError;
use std::future::poll_fn;

use axum::body::Body as AxumBody;
use bytes::{BufMut, Bytes, BytesMut};
use http::{HeaderMap, HeaderValue, Request, Response};
use http_body_util::BodyExt;
use tower_service::Service;

use crate::percent::{self, Keep};
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

/// The status of a finished call: `grpc-status` and `grpc-message` from
/// the trailers, or from the headers of a trailers-only answer.
pub(crate) fn call_status(headers: &HeaderMap, trailers: &HeaderMap) -> Status {
    let read = |name: &str| trailers.get(name).or_else(|| headers.get(name));
    let Some(code) = read("grpc-status") else {
        return Status::new(Code::Unknown, "the service's answer has no grpc-status");
    };
    let code = code
        .to_str()
        .ok()
        .and_then(|c| c.parse::<i32>().ok())
        .map_or(Code::Unknown, Code::from_i32);
    // Percent-encoded UTF-8; a message that does not decode is kept as
    // written.
    let message = read("grpc-message")
        .and_then(|m| m.to_str().ok())
        .map(|m| percent::decode(m, Keep::Nothing, false).unwrap_or_else(|_| m.to_owned()))
        .unwrap_or_default();
    Status::new(code, message)
}

/// The `grpc-status` and `grpc-message` headers (or trailers) of `status`.
pub(crate) fn status_headers(status: &Status) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert("grpc-status", HeaderValue::from(status.code().to_i32()));
    if let Ok(message) = HeaderValue::from_str(&grpc_message(status.message())) {
        headers.insert("grpc-message", message);
    }
    headers
}

/// `message` percent-encoded as `grpc-message` carries it: printable ASCII
/// but `%` as itself, every other byte escaped.
fn grpc_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for byte in message.bytes() {
        if (0x20..0x7f).contains(&byte) && byte != b'%' {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
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
    fn grpc_messages_are_percent_encoded() {
        assert_eq!(grpc_message("no shelf \"s\""), "no shelf \"s\"");
        assert_eq!(grpc_message("50% é\n"), "50%25 %C3%A9%0A");
    }

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
