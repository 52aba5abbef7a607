//! buffa's encode and decode errors as gRPC statuses.

use buffa::{DecodeError, EncodeError};
use tonic::Status;

/// The status for a message that failed to decode: `INTERNAL`, the code
/// the gRPC status code table gives for "error parsing request proto"
/// (server) and "error parsing response proto" (client). The message
/// names the type and carries buffa's error, with the byte offset and the
/// path of fields down to the bad value.
pub(crate) fn decode_error(message: &'static str, error: DecodeError) -> Status {
    Status::internal(format!("{message}: {error}"))
}

/// The status for a message that failed to encode (beyond the encode
/// limits): `INTERNAL`, since the fault is the sender's own.
pub(crate) fn encode_error(error: EncodeError) -> Status {
    Status::internal(error.to_string())
}
