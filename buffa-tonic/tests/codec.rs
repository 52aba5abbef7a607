//! `BuffaCodec` inside tonic's own framing: what it encodes is checked
//! against prost's encoding of the same values, and what it decodes is
//! prost's output. Messages are the well-known types, which both buffa-types
//! and prost-types define.

use buffa::{DecodeOptions, EncodeOptions, Message as _};
use buffa_tonic::{BuffaCodec, BuffaDecoder, BuffaEncoder, CodecOptions};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use http_body_util::{BodyExt, Full};
use prost::Message as _;
use tonic::Code;
use tonic::codec::{Codec, EncodeBody, Streaming};

/// The payloads of gRPC frames (flag byte 0, big-endian length, payload),
/// parsed here rather than by tonic.
fn frames(mut body: Bytes) -> Vec<Bytes> {
    let mut out = Vec::new();
    while body.has_remaining() {
        assert_eq!(body.get_u8(), 0, "uncompressed frame");
        let len = body.get_u32() as usize;
        out.push(body.split_to(len));
    }
    out
}

/// `payloads` as gRPC frames.
fn framed(payloads: &[Vec<u8>]) -> Bytes {
    let mut body = BytesMut::new();
    for payload in payloads {
        body.put_u8(0);
        body.put_u32(payload.len() as u32);
        body.put_slice(payload);
    }
    body.freeze()
}

/// Encodes `messages` as a tonic client would send them.
async fn encode<T: buffa::Message, O: CodecOptions>(
    encoder: BuffaEncoder<T, O>,
    messages: Vec<T>,
) -> Result<Bytes, tonic::Status> {
    let source = tokio_stream::iter(messages.into_iter().map(Ok));
    let body = EncodeBody::new_client(encoder, source, None, None);
    Ok(body.collect().await?.to_bytes())
}

/// Decodes every message of `body` as a tonic server would receive them.
async fn decode<U: buffa::Message, O: CodecOptions>(
    decoder: BuffaDecoder<U, O>,
    body: Bytes,
) -> Result<Vec<U>, tonic::Status> {
    let mut stream = Streaming::new_request(decoder, Full::new(body), None, None);
    let mut out = Vec::new();
    while let Some(message) = stream.message().await? {
        out.push(message);
    }
    Ok(out)
}

fn any(type_url: &str, len: usize) -> (buffa_types::Any, prost_types::Any) {
    let value: Vec<u8> = (0..len).map(|i| (i * 7 % 256) as u8).collect();
    let buffa = buffa_types::Any {
        type_url: type_url.into(),
        value: value.clone(),
        ..Default::default()
    };
    let prost = prost_types::Any {
        type_url: type_url.into(),
        value,
    };
    (buffa, prost)
}

#[tokio::test]
async fn encodes_what_prost_encodes() {
    // The second message is larger than tonic's 8 KiB starting buffer, so
    // the encoder must make room for it.
    let (small, small_prost) = any("type.example/Small", 3);
    let (large, large_prost) = any("type.example/Large", 100_000);
    let (empty, empty_prost) = (buffa_types::Any::default(), prost_types::Any::default());
    let mut codec = BuffaCodec::<buffa_types::Any, buffa_types::Any>::default();
    let body = encode(codec.encoder(), vec![small, large, empty])
        .await
        .unwrap();
    let expected = [
        small_prost.encode_to_vec(),
        large_prost.encode_to_vec(),
        empty_prost.encode_to_vec(),
    ];
    assert_eq!(frames(body), expected.map(Bytes::from));
}

#[tokio::test]
async fn decodes_what_prost_encodes() {
    let timestamps = [(1_700_000_000, 5), (-62_135_596_800, 0), (0, 999_999_999)];
    let payloads: Vec<Vec<u8>> = timestamps
        .iter()
        .map(|&(seconds, nanos)| prost_types::Timestamp { seconds, nanos }.encode_to_vec())
        .collect();
    let mut codec = BuffaCodec::<buffa_types::Timestamp, buffa_types::Timestamp>::default();
    let decoded = decode(codec.decoder(), framed(&payloads)).await.unwrap();
    let decoded: Vec<(i64, i32)> = decoded.iter().map(|t| (t.seconds, t.nanos)).collect();
    assert_eq!(decoded, timestamps);
}

#[tokio::test]
async fn a_malformed_message_is_an_internal_status_naming_the_field() {
    // Field 1 (`type_url`) claims 5 bytes; 1 follows.
    let body = framed(&[vec![0x0a, 0x05, b'a']]);
    let mut codec = BuffaCodec::<buffa_types::Any, buffa_types::Any>::default();
    let status = decode(codec.decoder(), body).await.unwrap_err();
    assert_eq!(status.code(), Code::Internal);
    let message = status.message();
    assert!(
        message.starts_with("google.protobuf.Any: failed to decode")
            && message.contains("google.protobuf.Any field 1"),
        "{message}"
    );
}

/// `Value`s nested `depth` lists deep, as prost encodes them.
fn nested_values(depth: usize) -> Vec<u8> {
    use prost_types::value::Kind;
    let mut value = prost_types::Value {
        kind: Some(Kind::BoolValue(true)),
    };
    for _ in 0..depth {
        value = prost_types::Value {
            kind: Some(Kind::ListValue(prost_types::ListValue {
                values: vec![value],
            })),
        };
    }
    value.encode_to_vec()
}

/// Decoding allows four levels of nesting, encoding none.
struct Shallow;

impl CodecOptions for Shallow {
    const DECODE: DecodeOptions = DecodeOptions::new().with_recursion_limit(4);
    const ENCODE: EncodeOptions = EncodeOptions::new().with_recursion_limit(0);
}

#[tokio::test]
async fn decode_limits_come_from_the_options_type() {
    // Three lists are six levels (each list and each value in it).
    let body = framed(&[nested_values(3)]);
    let mut codec = BuffaCodec::<buffa_types::Value, buffa_types::Value>::default();
    let values = decode(codec.decoder(), body.clone()).await.unwrap();
    assert_eq!(values.len(), 1);

    let mut shallow = BuffaCodec::<buffa_types::Value, buffa_types::Value, Shallow>::default();
    let status = decode(shallow.decoder(), body).await.unwrap_err();
    assert_eq!(status.code(), Code::Internal);
    assert!(
        status.message().contains("recursion limit 4"),
        "{}",
        status.message()
    );
}

#[tokio::test]
async fn encode_limits_come_from_the_options_type() {
    let value = buffa_types::Value::decode_from_slice(&nested_values(1)).unwrap();
    let mut shallow = BuffaCodec::<buffa_types::Value, buffa_types::Value, Shallow>::default();
    let status = encode(shallow.encoder(), vec![value.clone()])
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Internal);
    assert!(
        status.message().contains("google.protobuf.Value")
            && status.message().contains("recursion limit 0"),
        "{}",
        status.message()
    );
    // The default options encode it, as prost does.
    let mut codec = BuffaCodec::<buffa_types::Value, buffa_types::Value>::default();
    let body = encode(codec.encoder(), vec![value]).await.unwrap();
    assert_eq!(frames(body), [Bytes::from(nested_values(1))]);
}
