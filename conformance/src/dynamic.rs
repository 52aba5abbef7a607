//! [`Mode::Dynamic`](crate::Mode::Dynamic): every request answered through
//! a [`DynamicMessage`] of the test message type, described by the
//! descriptor pool of the test protos (the one the generated code embeds
//! with `Config::reflection()`), instead of the generated types: the
//! payload is
//! decoded (binary), parsed (JSON, text format) into the dynamic message,
//! which is then encoded, printed as JSON or in the text format.

use buffa::EnumValue;
use buffa::json::DeserializeOptions;
use buffa_reflect::{DynamicMessage, json, text};

use crate::conformance::conformance_request::Payload;
use crate::conformance::conformance_response::Result as Outcome;
use crate::conformance::{ConformanceRequest, TestCategory, WireFormat};

/// Reads the payload into a dynamic message of the requested type and
/// writes it in the requested format.
pub(crate) fn round_trip(request: &ConformanceRequest) -> Outcome {
    let Some(descriptor) = crate::descriptor_pool().get_message_by_name(&request.message_type)
    else {
        return Outcome::RuntimeError(format!("unknown message type {:?}", request.message_type));
    };
    let read = match &request.payload {
        Some(Payload::ProtobufPayload(payload)) => {
            DynamicMessage::decode(descriptor, payload).map_err(|e| e.to_string())
        }
        Some(Payload::JsonPayload(payload)) => {
            let ignore_unknown = request.test_category
                == EnumValue::Known(TestCategory::JsonIgnoreUnknownParsingTest);
            let options = DeserializeOptions::new().with_ignore_unknown_fields(ignore_unknown);
            json::from_str_with(&descriptor, payload, &options).map_err(|e| e.to_string())
        }
        Some(Payload::TextPayload(payload)) => {
            text::parse(&descriptor, payload).map_err(|e| e.to_string())
        }
        Some(Payload::JspbPayload(_)) => {
            return Outcome::Skipped("JSPB format not supported".to_owned());
        }
        None => return Outcome::RuntimeError("request has no payload".to_owned()),
    };
    let message = match read {
        Ok(message) => message,
        Err(e) => return Outcome::ParseError(e),
    };
    match request.requested_output_format {
        EnumValue::Known(WireFormat::Protobuf) => {
            match message.encode_to_vec_with_options(&buffa::EncodeOptions::new()) {
                Ok(bytes) => Outcome::ProtobufPayload(bytes),
                Err(e) => Outcome::SerializeError(e.to_string()),
            }
        }
        EnumValue::Known(WireFormat::Json) => match json::to_string(&message) {
            Ok(json) => Outcome::JsonPayload(json),
            Err(e) => Outcome::SerializeError(e.to_string()),
        },
        EnumValue::Known(WireFormat::TextFormat) => {
            let options =
                text::PrintOptions::new().with_print_unknown_fields(request.print_unknown_fields);
            Outcome::TextPayload(text::to_string_with(&message, &options))
        }
        EnumValue::Known(WireFormat::Jspb) => {
            Outcome::Skipped("JSPB format not supported".to_owned())
        }
        other => Outcome::RuntimeError(format!("unsupported output format {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use buffa::{EnumValue, Message};
    use buffa_reflect::DynamicMessage;

    use crate::conformance::conformance_request::Payload;
    use crate::conformance::conformance_response::Result as Outcome;
    use crate::conformance::{ConformanceRequest, WireFormat};
    use crate::{Mode, handle};

    const PROTO3: &str = "protobuf_test_messages.proto3.TestAllTypesProto3";
    const PROTO2: &str = "protobuf_test_messages.proto2.TestAllTypesProto2";
    const EDITION2023: &str = "protobuf_test_messages.editions.TestAllTypesEdition2023";

    fn answer(message_type: &str, payload: Payload, format: WireFormat, mode: Mode) -> Outcome {
        let request = ConformanceRequest {
            message_type: message_type.to_owned(),
            payload: Some(payload),
            requested_output_format: EnumValue::Known(format),
            ..Default::default()
        };
        handle(&request.encode_to_vec(), mode)
            .result
            .expect("a result")
    }

    /// A binary answer in one order: generated code writes the extensions
    /// it read from JSON after the fields (it keeps them with the unknown
    /// fields), a dynamic message among them, by number.
    fn canonical(message_type: &str, outcome: Outcome) -> Outcome {
        match outcome {
            Outcome::ProtobufPayload(bytes) => {
                let descriptor = crate::descriptor_pool()
                    .get_message_by_name(message_type)
                    .expect("a test type");
                let message = DynamicMessage::decode(descriptor, &bytes).expect("valid output");
                Outcome::ProtobufPayload(message.encode_to_vec())
            }
            other => other,
        }
    }

    /// `json` read as `message_type` and written as JSON and as binary,
    /// and that binary read and written as JSON, give the same answers
    /// through the dynamic message as through the generated type.
    #[track_caller]
    fn same_as_generated(message_type: &str, json: &str) {
        let json_payload = || Payload::JsonPayload(json.to_owned());
        for format in [WireFormat::Json, WireFormat::Protobuf] {
            let generated = answer(message_type, json_payload(), format, Mode::Owned);
            let dynamic = answer(message_type, json_payload(), format, Mode::Dynamic);
            assert_eq!(
                canonical(message_type, dynamic),
                canonical(message_type, generated),
                "{json} as {format:?}"
            );
        }
        let binary = match answer(
            message_type,
            json_payload(),
            WireFormat::Protobuf,
            Mode::Owned,
        ) {
            Outcome::ProtobufPayload(binary) => binary,
            other => panic!("{json} does not parse: {other:?}"),
        };
        let binary_payload = || Payload::ProtobufPayload(binary.clone());
        let generated = answer(
            message_type,
            binary_payload(),
            WireFormat::Json,
            Mode::Owned,
        );
        let dynamic = answer(
            message_type,
            binary_payload(),
            WireFormat::Json,
            Mode::Dynamic,
        );
        assert_eq!(dynamic, generated, "{json} through binary");
    }

    #[test]
    fn dynamic_json_matches_generated_json() {
        // Maps hold one entry each: the generated HashMaps then agree with
        // the dynamic BTreeMaps on the order.
        same_as_generated(
            PROTO3,
            r#"{"optionalInt32": -1, "optionalInt64": "-9223372036854775808",
                "optionalUint64": "18446744073709551615", "optionalSint32": 5,
                "optionalFloat": "-Infinity", "optionalDouble": "NaN", "optionalBool": true,
                "optionalString": "\u00e9\"", "optionalBytes": "3q2+7w==",
                "optionalNestedMessage": {"a": 1, "corecursive": {"optionalInt32": 2}},
                "optionalNestedEnum": "NEG", "optionalForeignEnum": 7,
                "optionalAliasedEnum": "ALIAS_BAZ", "repeatedDouble": [1.5, "Infinity", 0],
                "packedSint64": ["-3", "4"], "repeatedNestedEnum": ["FOO", 9],
                "mapInt32Double": {"-1": 0.5}, "mapStringNestedMessage": {"k": {"a": 3}},
                "mapBoolBool": {"false": true}, "mapStringForeignEnum": {"e": "FOREIGN_BAZ"},
                "oneofNullValue": null, "optionalNullValue": null,
                "optionalTimestamp": "1970-01-01T00:00:00.000000001Z",
                "optionalDuration": "-0.5s", "optionalFieldMask": "fooBar,baz.qux",
                "optionalStruct": {"a": [1, {"b": null}]}, "optionalValue": null,
                "optionalBoolWrapper": false, "optionalBytesWrapper": "",
                "repeatedInt64Wrapper": ["1", "-2"], "repeatedValue": [null, "x"],
                "repeatedListValue": [[1], []],
                "optionalAny": {"@type": "type.googleapis.com/google.protobuf.Any",
                  "value": {"@type": "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3",
                            "optionalInt32": 3, "mapStringString": {"a": "b"},
                            "optionalAny": {"@type": "type.googleapis.com/google.protobuf.Duration",
                                            "value": "1s"}}},
                "repeatedAny": [{}, {"@type": "type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage", "c": 1}],
                "fieldname1": 1, "field_name2": 2, "FIELDNAME11": 11}"#,
        );
        same_as_generated(
            PROTO2,
            r#"{"optionalInt32": 1, "optionalNestedEnum": "BAZ", "repeatedNestedEnum": ["FOO"],
                "data": {"groupInt32": 5, "groupUint32": 6}, "defaultInt64": "-7",
                "[protobuf_test_messages.proto2.extension_int32]": 7,
                "oneofEnum": "BAR", "mapStringNestedEnum": {"x": "NEG"}}"#,
        );
        same_as_generated(
            EDITION2023,
            r#"{"optionalInt32": 2, "delimitedField": {"groupInt32": 3},
                "optionalNestedEnum": "BAR"}"#,
        );
    }

    #[test]
    fn dynamic_mode_reports_errors_like_generated() {
        for json in [
            r#"{"optionalInt32": "x"}"#,
            r#"{"oneofUint32": 1, "oneofString": "x"}"#,
            r#"{"optionalAny": {"@type": "type.googleapis.com/unknown.Type"}}"#,
        ] {
            let payload = || Payload::JsonPayload(json.to_owned());
            let generated = answer(PROTO3, payload(), WireFormat::Protobuf, Mode::Owned);
            let dynamic = answer(PROTO3, payload(), WireFormat::Protobuf, Mode::Dynamic);
            assert!(matches!(generated, Outcome::ParseError(_)), "{generated:?}");
            assert_eq!(dynamic, generated, "{json}");
        }
        // A binary payload the test type refuses (invalid UTF-8 in a
        // string field).
        let bad = Payload::ProtobufPayload(vec![0x72, 0x01, 0xff]);
        let dynamic = answer(PROTO3, bad, WireFormat::Protobuf, Mode::Dynamic);
        assert!(matches!(dynamic, Outcome::ParseError(_)), "{dynamic:?}");
    }

    #[test]
    fn dynamic_mode_answers_text_format() {
        let text = Payload::TextPayload("optional_int32: 150 optional_string: \"x\"".to_owned());
        let binary = answer(PROTO3, text, WireFormat::Protobuf, Mode::Dynamic);
        assert_eq!(
            binary,
            Outcome::ProtobufPayload(vec![0x08, 0x96, 0x01, 0x72, 0x01, b'x'])
        );
        let Outcome::ProtobufPayload(binary) = binary else {
            unreachable!()
        };
        let text = answer(
            PROTO3,
            Payload::ProtobufPayload(binary),
            WireFormat::TextFormat,
            Mode::Dynamic,
        );
        assert_eq!(
            text,
            Outcome::TextPayload("optional_int32: 150\noptional_string: \"x\"\n".to_owned())
        );
    }
}
