//! [`Duration`] and [`std::time::Duration`]: checked conversions both ways.

use std::time::Duration as StdDuration;

use crate::{Duration, RangeError};

/// The largest valid magnitude of a duration's `nanos`.
const MAX_NANOS: i32 = 999_999_999;

impl Duration {
    /// The largest valid magnitude of `seconds`: 315,576,000,000 seconds,
    /// about 10,000 years.
    pub const MAX_SECONDS: i64 = 315_576_000_000;

    /// Whether the duration lies in the range protobuf allows: `seconds` in
    /// `-MAX_SECONDS..=MAX_SECONDS`, `nanos` in `-999_999_999..=999_999_999`,
    /// and `nanos` zero or of the sign of `seconds` (when `seconds` is
    /// not zero).
    pub fn is_valid(&self) -> bool {
        (-Self::MAX_SECONDS..=Self::MAX_SECONDS).contains(&self.seconds)
            && (-MAX_NANOS..=MAX_NANOS).contains(&self.nanos)
            && !(self.seconds > 0 && self.nanos < 0 || self.seconds < 0 && self.nanos > 0)
    }
}

/// The duration of a [`std::time::Duration`], or
/// [`RangeError::StdDurationOutOfRange`] when it is longer than
/// [`Duration::MAX_SECONDS`] seconds and 999,999,999 nanoseconds.
impl TryFrom<StdDuration> for Duration {
    type Error = RangeError;

    fn try_from(duration: StdDuration) -> Result<Duration, RangeError> {
        let seconds = i64::try_from(duration.as_secs())
            .ok()
            .filter(|s| *s <= Duration::MAX_SECONDS)
            .ok_or(RangeError::StdDurationOutOfRange(duration))?;
        Ok(Duration {
            seconds,
            // Below 10^9.
            nanos: duration.subsec_nanos() as i32,
            ..Default::default()
        })
    }
}

/// The [`std::time::Duration`] of a duration:
/// [`RangeError::InvalidDuration`] unless [`Duration::is_valid`], and
/// [`RangeError::NegativeDuration`] when it is negative.
impl TryFrom<&Duration> for StdDuration {
    type Error = RangeError;

    fn try_from(duration: &Duration) -> Result<StdDuration, RangeError> {
        let (seconds, nanos) = (duration.seconds, duration.nanos);
        if !duration.is_valid() {
            return Err(RangeError::InvalidDuration { seconds, nanos });
        }
        if seconds < 0 || nanos < 0 {
            return Err(RangeError::NegativeDuration { seconds, nanos });
        }
        Ok(StdDuration::new(
            seconds.unsigned_abs(),
            nanos.unsigned_abs(),
        ))
    }
}

/// The [`std::time::Duration`] of a duration; see the impl for
/// `&Duration`.
impl TryFrom<Duration> for StdDuration {
    type Error = RangeError;

    fn try_from(duration: Duration) -> Result<StdDuration, RangeError> {
        StdDuration::try_from(&duration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duration(seconds: i64, nanos: i32) -> Duration {
        Duration {
            seconds,
            nanos,
            ..Default::default()
        }
    }

    #[test]
    fn validity_ends_and_signs() {
        let max = Duration::MAX_SECONDS;
        for (seconds, nanos) in [
            (0, 0),
            (max, 999_999_999),
            (-max, -999_999_999),
            (0, -999_999_999),
            (0, 999_999_999),
            (-1, 0),
        ] {
            assert!(duration(seconds, nanos).is_valid(), "{seconds} {nanos}");
        }
        for (seconds, nanos) in [
            (max + 1, 0),
            (-max - 1, 0),
            (0, 1_000_000_000),
            (0, -1_000_000_000),
            (1, -1),
            (-1, 1),
        ] {
            assert!(!duration(seconds, nanos).is_valid(), "{seconds} {nanos}");
        }
    }

    #[test]
    fn std_durations_round_trip() {
        for std in [
            StdDuration::ZERO,
            StdDuration::new(1, 500_000_000),
            StdDuration::from_nanos(1),
            StdDuration::new(315_576_000_000, 999_999_999),
        ] {
            let d = Duration::try_from(std).unwrap();
            assert_eq!(
                (d.seconds, d.nanos),
                (std.as_secs() as i64, std.subsec_nanos() as i32)
            );
            assert_eq!(StdDuration::try_from(&d), Ok(std));
            assert_eq!(StdDuration::try_from(d), Ok(std));
        }
    }

    #[test]
    fn long_std_durations_are_refused() {
        for std in [StdDuration::from_secs(315_576_000_001), StdDuration::MAX] {
            assert_eq!(
                Duration::try_from(std),
                Err(RangeError::StdDurationOutOfRange(std))
            );
        }
        let message =
            RangeError::StdDurationOutOfRange(StdDuration::from_secs(315_576_000_001)).to_string();
        assert!(message.contains("315576000001s"), "{message}");
    }

    #[test]
    fn negative_durations_are_refused() {
        for (seconds, nanos) in [(-1, 0), (0, -1), (-1, -500), (-Duration::MAX_SECONDS, 0)] {
            assert_eq!(
                StdDuration::try_from(&duration(seconds, nanos)),
                Err(RangeError::NegativeDuration { seconds, nanos })
            );
        }
        let message = RangeError::NegativeDuration {
            seconds: -1,
            nanos: 0,
        }
        .to_string();
        assert!(message.contains("seconds: -1") && message.contains("negative"));
    }

    #[test]
    fn invalid_durations_are_refused() {
        for (seconds, nanos) in [
            (1, -1),
            (-1, 1),
            (Duration::MAX_SECONDS + 1, 0),
            (0, 1_000_000_000),
            (i64::MIN, 0),
        ] {
            assert_eq!(
                StdDuration::try_from(&duration(seconds, nanos)),
                Err(RangeError::InvalidDuration { seconds, nanos })
            );
        }
        let message = RangeError::InvalidDuration {
            seconds: 1,
            nanos: -1,
        }
        .to_string();
        assert!(message.contains("seconds: 1, nanos: -1"), "{message}");
    }
}
