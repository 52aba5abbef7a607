//! Where prost knowingly accepts input buffa refuses, so the differential
//! target can tell a prost quirk from a buffa bug.

use std::fmt::Debug;

use buffa::{DecodeError, DecodeErrorKind};

/// The map fields of the schema, by message full name.
const MAP_FIELDS: &[(&str, &[u32])] = &[
    ("sink.Maps", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    ("sink.three.Open", &[34, 35, 36, 37, 38]),
];

/// The fields, reachable from `sink.Portable`, whose message type has map
/// fields: (message full name, field number) -> the field's message type.
const MAP_HOLDERS: &[((&str, u32), &str)] = &[
    (("sink.Portable", 5), "sink.Maps"),
    (("sink.Portable", 9), "sink.three.Open"),
    (("sink.Maps", 12), "sink.three.Open"),
    (("sink.three.Open", 35), "sink.three.Open"),
    (("sink.three.Open", 44), "sink.three.Open"),
    (("sink.three.Open", 47), "sink.three.Open"),
];

/// Whether buffa refused `sink.Portable` input for a map field's wire type.
///
/// prost does not check the wire type of a map field: prost-derive's map
/// merge never looks at it and reads the field as length-delimited whatever
/// its key says, so prost accepts what buffa refuses. buffa reports a wrong
/// wire type as [`DecodeErrorKind::WireTypeMismatch`], with the field at the
/// end of the error's path, and an end-group key as
/// [`DecodeErrorKind::UnmatchedEndGroup`], raised by the message holding the
/// field, so the path ends at the field that holds that message.
pub fn map_field_of_any_wire_type(error: &DecodeError) -> bool {
    let last = error.field_path().last();
    let (message, number) = match *error.kind() {
        DecodeErrorKind::WireTypeMismatch { field_number, .. } => match last {
            Some((message, number)) if number == field_number => (message, number),
            _ => return false,
        },
        DecodeErrorKind::UnmatchedEndGroup { field_number } => {
            let holder = last.and_then(|field| {
                MAP_HOLDERS
                    .iter()
                    .find(|(holder, _)| *holder == field)
                    .map(|(_, message)| *message)
            });
            match holder {
                Some(message) => (message, field_number),
                None => return false,
            }
        }
        _ => return false,
    };
    MAP_FIELDS
        .iter()
        .any(|(name, numbers)| *name == message && numbers.contains(&number))
}

/// Whether prost may have left out a float field of `message`: prost
/// writes an implicit-presence (proto3) `float` or `double` only when it
/// compares unequal to `0.0`, which `-0.0` does not, so prost's encoding
/// loses the sign that buffa (like protoc's runtimes, which compare the
/// bits) writes. The two then read back as `-0.0` and `0.0`, which compare
/// equal. Looks for `-0.0` in the `Debug` output: conservative, as a
/// `-0.0` in a field with explicit presence or in a string also says yes.
pub fn may_drop_negative_zero<M: Debug>(message: &M) -> bool {
    format!("{message:?}").contains("-0.0")
}
