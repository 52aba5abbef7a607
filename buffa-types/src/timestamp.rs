//! [`Timestamp`] and [`SystemTime`]: checked conversions both ways.

use std::time::{Duration as StdDuration, SystemTime, UNIX_EPOCH};

use crate::{RangeError, Timestamp};

/// The largest valid `nanos` of a timestamp.
const MAX_NANOS: i32 = 999_999_999;

impl Timestamp {
    /// The earliest valid `seconds`: 0001-01-01T00:00:00Z.
    pub const MIN_SECONDS: i64 = -62_135_596_800;
    /// The latest valid `seconds`: 9999-12-31T23:59:59Z.
    pub const MAX_SECONDS: i64 = 253_402_300_799;

    /// Whether the timestamp lies in the range protobuf allows:
    /// `seconds` in [`Timestamp::MIN_SECONDS`]`..=`[`Timestamp::MAX_SECONDS`]
    /// and `nanos` in `0..=999_999_999`, that is from
    /// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
    pub fn is_valid(&self) -> bool {
        (Self::MIN_SECONDS..=Self::MAX_SECONDS).contains(&self.seconds)
            && (0..=MAX_NANOS).contains(&self.nanos)
    }
}

/// The timestamp of a [`SystemTime`], or
/// [`RangeError::SystemTimeOutOfRange`] when it is before
/// 0001-01-01T00:00:00Z or after 9999-12-31T23:59:59.999999999Z.
impl TryFrom<SystemTime> for Timestamp {
    type Error = RangeError;

    fn try_from(time: SystemTime) -> Result<Timestamp, RangeError> {
        let (seconds, nanos) = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => (i128::from(after.as_secs()), after.subsec_nanos()),
            Err(before) => {
                // `nanos` counts forward in time, so a fraction of a second
                // before the epoch borrows a whole second.
                let before = before.duration();
                match before.subsec_nanos() {
                    0 => (-i128::from(before.as_secs()), 0),
                    fraction => (-i128::from(before.as_secs()) - 1, 1_000_000_000 - fraction),
                }
            }
        };
        let seconds = i64::try_from(seconds)
            .ok()
            .filter(|s| (Timestamp::MIN_SECONDS..=Timestamp::MAX_SECONDS).contains(s))
            .ok_or(RangeError::SystemTimeOutOfRange(time))?;
        Ok(Timestamp {
            seconds,
            // Below 10^9 either way.
            nanos: nanos as i32,
            ..Default::default()
        })
    }
}

/// The [`SystemTime`] of a timestamp: [`RangeError::InvalidTimestamp`]
/// unless [`Timestamp::is_valid`], and
/// [`RangeError::TimestampBeyondSystemTime`] on platforms whose
/// `SystemTime` does not reach that far (not Unix-like ones).
impl TryFrom<&Timestamp> for SystemTime {
    type Error = RangeError;

    fn try_from(timestamp: &Timestamp) -> Result<SystemTime, RangeError> {
        let (seconds, nanos) = (timestamp.seconds, timestamp.nanos);
        if !timestamp.is_valid() {
            return Err(RangeError::InvalidTimestamp { seconds, nanos });
        }
        let whole = StdDuration::from_secs(seconds.unsigned_abs());
        let time = if seconds >= 0 {
            UNIX_EPOCH.checked_add(whole)
        } else {
            UNIX_EPOCH.checked_sub(whole)
        };
        time.and_then(|time| time.checked_add(StdDuration::new(0, nanos.unsigned_abs())))
            .ok_or(RangeError::TimestampBeyondSystemTime { seconds, nanos })
    }
}

/// The [`SystemTime`] of a timestamp; see the impl for `&Timestamp`.
impl TryFrom<Timestamp> for SystemTime {
    type Error = RangeError;

    fn try_from(timestamp: Timestamp) -> Result<SystemTime, RangeError> {
        SystemTime::try_from(&timestamp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timestamp(seconds: i64, nanos: i32) -> Timestamp {
        Timestamp {
            seconds,
            nanos,
            ..Default::default()
        }
    }

    fn at(seconds: i64, nanos: u32) -> SystemTime {
        let whole = StdDuration::from_secs(seconds.unsigned_abs());
        let time = if seconds >= 0 {
            UNIX_EPOCH + whole
        } else {
            UNIX_EPOCH - whole
        };
        time + StdDuration::new(0, nanos)
    }

    #[test]
    fn validity_ends() {
        assert!(timestamp(Timestamp::MIN_SECONDS, 0).is_valid());
        assert!(timestamp(Timestamp::MAX_SECONDS, 999_999_999).is_valid());
        assert!(timestamp(0, 0).is_valid());
        assert!(!timestamp(Timestamp::MIN_SECONDS - 1, 999_999_999).is_valid());
        assert!(!timestamp(Timestamp::MAX_SECONDS + 1, 0).is_valid());
        assert!(!timestamp(0, -1).is_valid());
        assert!(!timestamp(0, 1_000_000_000).is_valid());
        // The documented bounds are the calendar ones.
        assert_eq!(Timestamp::MIN_SECONDS, -719_162 * 86_400);
        assert_eq!(Timestamp::MAX_SECONDS, (2_932_897 * 86_400) - 1);
    }

    #[test]
    fn system_time_round_trips() {
        for (seconds, nanos) in [
            (0, 0),
            (1_700_000_000, 123_456_789),
            (-1, 999_999_999),
            (-1, 0),
            (-62_135_596_800, 0),
            (253_402_300_799, 999_999_999),
        ] {
            let time = at(seconds, nanos);
            let ts = Timestamp::try_from(time).unwrap();
            assert_eq!((ts.seconds, ts.nanos), (seconds, nanos as i32));
            assert_eq!(SystemTime::try_from(&ts), Ok(time));
            assert_eq!(SystemTime::try_from(ts), Ok(time));
        }
    }

    #[test]
    fn fractions_before_the_epoch_count_forward() {
        let ts = Timestamp::try_from(UNIX_EPOCH - StdDuration::from_millis(1_250)).unwrap();
        assert_eq!((ts.seconds, ts.nanos), (-2, 750_000_000));
    }

    #[test]
    fn system_times_outside_the_range_are_refused() {
        let too_late = at(Timestamp::MAX_SECONDS + 1, 0);
        assert_eq!(
            Timestamp::try_from(too_late),
            Err(RangeError::SystemTimeOutOfRange(too_late))
        );
        let too_early = at(Timestamp::MIN_SECONDS, 0) - StdDuration::from_nanos(1);
        assert_eq!(
            Timestamp::try_from(too_early),
            Err(RangeError::SystemTimeOutOfRange(too_early))
        );
        let message = RangeError::SystemTimeOutOfRange(too_late).to_string();
        assert!(
            message.contains("253402300800s after the Unix epoch"),
            "{message}"
        );
    }

    #[test]
    fn invalid_timestamps_are_refused() {
        for (seconds, nanos) in [
            (Timestamp::MAX_SECONDS + 1, 0),
            (Timestamp::MIN_SECONDS - 1, 999_999_999),
            (0, -1),
            (0, 1_000_000_000),
            (i64::MIN, 0),
        ] {
            assert_eq!(
                SystemTime::try_from(&timestamp(seconds, nanos)),
                Err(RangeError::InvalidTimestamp { seconds, nanos })
            );
        }
        let message = RangeError::InvalidTimestamp {
            seconds: 253_402_300_800,
            nanos: 0,
        }
        .to_string();
        assert!(message.contains("seconds: 253402300800"), "{message}");
    }
}
