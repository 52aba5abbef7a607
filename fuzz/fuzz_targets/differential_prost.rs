//! Decodes arbitrary bytes as `sink.Portable` with buffa (inline layout) and
//! with prost. Portable leaves out closed enums, where the two differ by
//! design, so:
//!
//! - both accept or both reject, except that prost reads a map field of
//!   any wire type (see `prost_quirks`);
//! - prost reads buffa's re-encoding as the same values as the input
//!   (compared through prost's encodings: prost drops the unknown fields
//!   buffa keeps, and a NaN is unequal to itself);
//! - when buffa kept no unknown fields, its re-encoding and prost's carry
//!   the same values: byte for byte the same (maps are `BTreeMap` on both
//!   sides) except for map entries, which prost shortens, and a proto3
//!   `-0.0`, which prost leaves out (see `prost_quirks`).
#![no_main]

use buffa::Message as _;
use buffa_fuzz::{encode, inline, keeps_unknown_fields, prost_quirks, prost_sink, same_values};
use libfuzzer_sys::fuzz_target;
use prost::Message as _;

type Buffa = inline::sink::Portable;
type Prost = prost_sink::sink::Portable;

fuzz_target!(|data: &[u8]| {
    let buffa = Buffa::decode_from_slice(data);
    let prost = Prost::decode(data);
    let (buffa, prost) = match (buffa, prost) {
        (Ok(buffa), Ok(prost)) => (buffa, prost),
        (Err(_), Err(_)) => return,
        (Ok(buffa), Err(e)) => panic!("buffa accepts, prost rejects: {e}\nbuffa: {buffa:?}"),
        (Err(e), Ok(_)) if prost_quirks::map_field_of_any_wire_type(&e) => return,
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
        if encode(&from_prost) != buffa_bytes {
            assert!(
                prost_quirks::may_drop_negative_zero(&buffa) && same_values(&from_prost, &buffa),
                "buffa reads other values from prost's re-encoding\nbuffa: {buffa:?}\nfrom prost: {from_prost:?}"
            );
        }
    }
});
