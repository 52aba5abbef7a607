//! Errors as HTTP answers: gRPC's canonical status codes, the HTTP status
//! each maps to (the mapping `google/rpc/code.proto` documents for every
//! code), and the JSON form of `google.rpc.Status` that a transcoded call
//! answers with when it fails.

use std::fmt;

/// A canonical gRPC status code (`google.rpc.Code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// `OK` (0).
    Ok,
    /// `CANCELLED` (1).
    Cancelled,
    /// `UNKNOWN` (2).
    Unknown,
    /// `INVALID_ARGUMENT` (3).
    InvalidArgument,
    /// `DEADLINE_EXCEEDED` (4).
    DeadlineExceeded,
    /// `NOT_FOUND` (5).
    NotFound,
    /// `ALREADY_EXISTS` (6).
    AlreadyExists,
    /// `PERMISSION_DENIED` (7).
    PermissionDenied,
    /// `RESOURCE_EXHAUSTED` (8).
    ResourceExhausted,
    /// `FAILED_PRECONDITION` (9).
    FailedPrecondition,
    /// `ABORTED` (10).
    Aborted,
    /// `OUT_OF_RANGE` (11).
    OutOfRange,
    /// `UNIMPLEMENTED` (12).
    Unimplemented,
    /// `INTERNAL` (13).
    Internal,
    /// `UNAVAILABLE` (14).
    Unavailable,
    /// `DATA_LOSS` (15).
    DataLoss,
    /// `UNAUTHENTICATED` (16).
    Unauthenticated,
}

/// Every code, by number.
const CODES: [Code; 17] = [
    Code::Ok,
    Code::Cancelled,
    Code::Unknown,
    Code::InvalidArgument,
    Code::DeadlineExceeded,
    Code::NotFound,
    Code::AlreadyExists,
    Code::PermissionDenied,
    Code::ResourceExhausted,
    Code::FailedPrecondition,
    Code::Aborted,
    Code::OutOfRange,
    Code::Unimplemented,
    Code::Internal,
    Code::Unavailable,
    Code::DataLoss,
    Code::Unauthenticated,
];

impl Code {
    /// The code numbered `number`; a number gRPC does not define is
    /// `UNKNOWN`, as gRPC reads it.
    pub fn from_i32(number: i32) -> Code {
        usize::try_from(number)
            .ok()
            .and_then(|i| CODES.get(i).copied())
            .unwrap_or(Code::Unknown)
    }

    /// The code's number.
    pub fn to_i32(self) -> i32 {
        CODES.iter().position(|&c| c == self).unwrap_or(2) as i32
    }

    /// The HTTP status `google/rpc/code.proto` maps the code to.
    pub fn http_status(self) -> u16 {
        match self {
            Code::Ok => 200,
            Code::Cancelled => 499,
            Code::Unknown | Code::Internal | Code::DataLoss => 500,
            Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => 400,
            Code::DeadlineExceeded => 504,
            Code::NotFound => 404,
            Code::AlreadyExists | Code::Aborted => 409,
            Code::PermissionDenied => 403,
            Code::Unauthenticated => 401,
            Code::ResourceExhausted => 429,
            Code::Unimplemented => 501,
            Code::Unavailable => 503,
        }
    }
}

/// A failed call's answer: a code and a message for the client, written as
/// the JSON form of `google.rpc.Status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    code: Code,
    message: String,
}

impl Status {
    /// A status of `code` saying `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Status {
        Status {
            code,
            message: message.into(),
        }
    }

    /// The status code.
    pub fn code(&self) -> Code {
        self.code
    }

    /// The message for the client.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The HTTP status to answer with ([`Code::http_status`]).
    pub fn http_status(&self) -> u16 {
        self.code.http_status()
    }

    /// The proto3 JSON form of the `google.rpc.Status` (`{"code":5,
    /// "message":"...","details":[]}`), the body of the answer.
    pub fn to_json(&self) -> String {
        let message = serde_json::Value::from(self.message.as_str());
        format!(
            "{{\"code\":{},\"message\":{message},\"details\":[]}}",
            self.code.to_i32()
        )
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for Status {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each code's HTTP status as `google/rpc/code.proto`'s "HTTP Mapping"
    /// lines give it, by number.
    #[test]
    fn codes_map_to_http_as_code_proto_documents() {
        let documented = [
            200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401,
        ];
        for (number, status) in documented.into_iter().enumerate() {
            let code = Code::from_i32(number as i32);
            assert_eq!(code.to_i32(), number as i32);
            assert_eq!(code.http_status(), status, "{code:?}");
        }
        assert_eq!(Code::from_i32(17), Code::Unknown);
        assert_eq!(Code::from_i32(-1), Code::Unknown);
    }

    #[test]
    fn status_json_escapes_the_message() {
        let status = Status::new(Code::NotFound, "shelf \"s1\"\nnot found \u{1}é");
        assert_eq!(status.http_status(), 404);
        assert_eq!(
            status.to_json(),
            r#"{"code":5,"message":"shelf \"s1\"\nnot found \u0001é","details":[]}"#
        );
    }
}
