//! The error of the checked conversions between well-known types and their
//! standard library counterparts.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A value outside the range its target type can hold (or a well-known
/// type outside the range its documentation allows). Each variant carries
/// the value that was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RangeError {
    /// A [`Timestamp`](crate::Timestamp) that is not valid: `seconds`
    /// outside [`Timestamp::MIN_SECONDS`](crate::Timestamp::MIN_SECONDS)
    /// ..= [`Timestamp::MAX_SECONDS`](crate::Timestamp::MAX_SECONDS)
    /// (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z), or `nanos` outside
    /// `0..=999_999_999`.
    InvalidTimestamp {
        /// The timestamp's `seconds`.
        seconds: i64,
        /// The timestamp's `nanos`.
        nanos: i32,
    },
    /// A valid [`Timestamp`](crate::Timestamp) that this platform's
    /// [`SystemTime`] cannot represent.
    TimestampBeyondSystemTime {
        /// The timestamp's `seconds`.
        seconds: i64,
        /// The timestamp's `nanos`.
        nanos: i32,
    },
    /// A [`SystemTime`] outside the range of
    /// [`Timestamp`](crate::Timestamp), 0001-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59.999999999Z.
    SystemTimeOutOfRange(SystemTime),
    /// A [`Duration`](crate::Duration) that is not valid: `seconds`
    /// outside `-315_576_000_000..=315_576_000_000`
    /// ([`Duration::MAX_SECONDS`](crate::Duration::MAX_SECONDS)), `nanos`
    /// outside `-999_999_999..=999_999_999`, or `seconds` and `nanos` of
    /// opposite signs.
    InvalidDuration {
        /// The duration's `seconds`.
        seconds: i64,
        /// The duration's `nanos`.
        nanos: i32,
    },
    /// A valid but negative [`Duration`](crate::Duration), which
    /// [`std::time::Duration`] cannot hold.
    NegativeDuration {
        /// The duration's `seconds`.
        seconds: i64,
        /// The duration's `nanos`.
        nanos: i32,
    },
    /// A [`std::time::Duration`] longer than the longest
    /// [`Duration`](crate::Duration), 315,576,000,000 seconds and
    /// 999,999,999 nanoseconds.
    StdDurationOutOfRange(std::time::Duration),
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::InvalidTimestamp { seconds, nanos } => write!(
                f,
                "invalid Timestamp (seconds: {seconds}, nanos: {nanos}): seconds must be in \
                 -62135596800..=253402300799 (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) \
                 and nanos in 0..=999999999"
            ),
            RangeError::TimestampBeyondSystemTime { seconds, nanos } => write!(
                f,
                "Timestamp (seconds: {seconds}, nanos: {nanos}) is outside the range of \
                 SystemTime on this platform"
            ),
            RangeError::SystemTimeOutOfRange(time) => {
                write!(f, "SystemTime ")?;
                match time.duration_since(UNIX_EPOCH) {
                    Ok(after) => write!(f, "{after:?} after")?,
                    Err(before) => write!(f, "{:?} before", before.duration())?,
                }
                write!(
                    f,
                    " the Unix epoch is outside the range of Timestamp \
                     (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z)"
                )
            }
            RangeError::InvalidDuration { seconds, nanos } => write!(
                f,
                "invalid Duration (seconds: {seconds}, nanos: {nanos}): seconds must be in \
                 -315576000000..=315576000000, nanos in -999999999..=999999999, \
                 and both of the same sign"
            ),
            RangeError::NegativeDuration { seconds, nanos } => write!(
                f,
                "Duration (seconds: {seconds}, nanos: {nanos}) is negative, which \
                 std::time::Duration cannot hold"
            ),
            RangeError::StdDurationOutOfRange(duration) => write!(
                f,
                "std::time::Duration {duration:?} is longer than the longest Duration \
                 (315576000000 s and 999999999 ns)"
            ),
        }
    }
}

impl std::error::Error for RangeError {}
