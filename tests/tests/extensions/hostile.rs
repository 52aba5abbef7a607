//! Malformed and mutated extension values: errors, never panics.

use super::*;

#[test]
fn malformed_values_are_errors_not_panics() {
    let mut bytes = encode_extendee("id: 3");
    // e_payload whose field `b` claims 5 bytes and has 1; e_string that is
    // not UTF-8; r_sint64 packed, ending inside a varint; a group
    // extension whose body holds a field `x` of the wrong wire type.
    bytes.extend(ld(116, &[0x12, 0x05, b'a']));
    bytes.extend(ld(113, &[0xc3, 0x28]));
    bytes.extend(ld(131, &[0x80]));
    bytes.extend([key(117, 3), ld(1, b"x"), key(117, 4)].concat());
    let message = Extendee::decode_from_slice(&bytes).unwrap();
    assert_eq!(message.id, Some(3));

    let error = message.extension(&ext::E_PAYLOAD).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::LengthOutOfBounds { length: 5, .. }
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("in test.ext.Extendee field 116 > test.ext.Payload field 2"),
        "{error}"
    );
    let error = message.extension(&ext::E_STRING).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(
        error.field_path().collect::<Vec<_>>(),
        [("test.ext.Extendee", 113)]
    );
    let error = message.extension(&ext::R_SINT64).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::Truncated);
    let error = message.extension(&ext::EGROUP).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::WireTypeMismatch {
                field_number: 1,
                ..
            }
        ),
        "{error}"
    );
    // protoc refuses the same bytes outright.
    assert!(std::panic::catch_unwind(|| decode_extendee(&bytes)).is_err());
}

/// Reads every extension of `test.ext.Extendee`, ignoring the results.
fn read_all(message: &Extendee) {
    let _ = message.extension(&ext::E_INT32);
    let _ = message.extension(&ext::E_INT64);
    let _ = message.extension(&ext::E_UINT32);
    let _ = message.extension(&ext::E_UINT64);
    let _ = message.extension(&ext::E_SINT32);
    let _ = message.extension(&ext::E_SINT64);
    let _ = message.extension(&ext::E_FIXED32);
    let _ = message.extension(&ext::E_FIXED64);
    let _ = message.extension(&ext::E_SFIXED32);
    let _ = message.extension(&ext::E_SFIXED64);
    let _ = message.extension(&ext::E_FLOAT);
    let _ = message.extension(&ext::E_DOUBLE);
    let _ = message.extension(&ext::E_BOOL);
    let _ = message.extension(&ext::E_STRING);
    let _ = message.extension(&ext::E_BYTES);
    let _ = message.extension(&ext::E_KIND);
    let _ = message.extension(&ext::E_PAYLOAD);
    let _ = message.extension(&ext::EGROUP);
    let _ = message.extension(&ext::R_INT32);
    let _ = message.extension(&ext::R_SINT64);
    let _ = message.extension(&ext::R_DOUBLE);
    let _ = message.extension(&ext::R_FIXED32);
    let _ = message.extension(&ext::R_BOOL);
    let _ = message.extension(&ext::R_UINT64);
    let _ = message.extension(&ext::R_STRING);
    let _ = message.extension(&ext::R_BYTES);
    let _ = message.extension(&ext::R_KIND);
    let _ = message.extension(&ext::R_PAYLOAD);
    let _ = message.extension(&ext::RGROUP);
    let _ = message.extension(&ext::scope::NESTED);
    let _ = message.extension(&ext::scope::SCOPES);
    let _ = message.extension(&ed::EDITIONS_LEAF);
    let _ = message.extension(&ed::EDITIONS_SINTS);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever a mutated encoding decodes to, reading its extensions
    /// returns values or errors.
    #[test]
    fn reading_mutated_extensions_never_panics(
        mutations in proptest::collection::vec(mutation(), 1..6)
    ) {
        let seed = [
            encode_extendee(SCALARS_TEXT),
            encode_extendee(REPEATED_TEXT),
        ].concat();
        if let Ok(message) = Extendee::decode_from_slice(&mutate(&seed, &mutations)) {
            read_all(&message);
        }
    }
}
