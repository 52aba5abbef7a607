//! Decodes arbitrary bytes as `sink.Portable` with buffa (inline layout) and
//! with prost. Portable leaves out closed enums, where the two differ by
//! design, so:
//!
//! - both accept or both reject, except that prost reads a map field of
//!   any wire type (see [`is_map_wire_type_mismatch`]);
//! - prost reads buffa's re-encoding as the same values as the input
//!   (compared through prost's encodings: prost drops the unknown fields
//!   buffa keeps, and a NaN is unequal to itself);
//! - when buffa kept no unknown fields, its re-encoding and prost's carry
//!   the same values: byte for byte the same (maps are `BTreeMap` on both
//!   sides) except for map entries, which prost shortens.
#![no_main]

use buffa::{DecodeError, DecodeErrorKind, Message as _};
use buffa_fuzz::{encode, inline, keeps_unknown_fields, prost_sink};
use libfuzzer_sys::fuzz_target;
use prost::Message as _;

type Buffa = inline::sink::Portable;
type Prost = prost_sink::sink::Portable;

/// The map fields of the schema: message full name, field numbers.
const MAP_FIELDS: &[(&str, &[u32])] = &[
    ("sink.Maps", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    ("sink.three.Open", &[34, 35, 36, 37, 38]),
];

/// Whether buffa refused a map field for its wire type. prost does not
/// check a map field's wire type and reads any as length-delimited
/// (prost-derive's map merge ignores it), so it accepts such input.
fn is_map_wire_type_mismatch(error: &DecodeError) -> bool {
    let DecodeErrorKind::WireTypeMismatch { field_number, .. } = *error.kind() else {
        return false;
    };
    let Some((message, number)) = error.field_path().last() else {
        return false;
    };
    number == field_number
        && MAP_FIELDS
            .iter()
            .any(|(name, numbers)| *name == message && numbers.contains(&number))
}

fuzz_target!(|data: &[u8]| {
    let buffa = Buffa::decode_from_slice(data);
    let prost = Prost::decode(data);
    let (buffa, prost) = match (buffa, prost) {
        (Ok(buffa), Ok(prost)) => (buffa, prost),
        (Err(_), Err(_)) => return,
        (Ok(buffa), Err(e)) => panic!("buffa accepts, prost rejects: {e}\nbuffa: {buffa:?}"),
        (Err(e), Ok(_)) if is_map_wire_type_mismatch(&e) => return,
        (Err(e), Ok(prost)) => panic!("prost accepts, buffa rejects: {e}\nprost: {prost:?}"),
    };

    let buffa_bytes = encode(&buffa);
    let prost_bytes = prost.encode_to_vec();
    let reread = match Prost::decode(&buffa_bytes[..]) {
        Ok(reread) => reread,
        Err(e) => panic!("prost rejects buffa's re-encoding: {e}"),
    };
    assert_eq!(
        reread.encode_to_vec(),
        prost_bytes,
        "prost reads other values from buffa's re-encoding\nbuffa: {buffa:?}\nprost: {prost:?}\nreread: {reread:?}"
    );
    if !keeps_unknown_fields(&buffa) && buffa_bytes != prost_bytes {
        // The encodings may still differ in map entries: prost leaves out a
        // key or value equal to its default, buffa writes both (as protoc's
        // runtimes do). Read through buffa, prost's bytes must then carry
        // the same values.
        let from_prost = match Buffa::decode_from_slice(&prost_bytes) {
            Ok(from_prost) => from_prost,
            Err(e) => panic!("buffa rejects prost's re-encoding: {e}"),
        };
        assert_eq!(
            encode(&from_prost),
            buffa_bytes,
            "buffa reads other values from prost's re-encoding\nbuffa: {buffa:?}\nfrom prost: {from_prost:?}"
        );
    }
});
