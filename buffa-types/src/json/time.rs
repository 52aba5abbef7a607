//! `Timestamp` as an RFC 3339 string (`"1972-01-01T10:00:20.021Z"`) and
//! `Duration` as seconds with an `s` suffix (`"1.000340012s"`).

use core::fmt;

use buffa::json::DeserializeCx;
use buffa::json::{JsonMessage, SerializeOptions};
use serde::de::{self, Visitor};
use serde::ser::Error as _;
use serde::{Deserializer, Serializer};

use super::serde_through_json_message;
use crate::google::protobuf as wkt;

/// Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
const MIN_TIMESTAMP: i64 = -62_135_596_800;
const MAX_TIMESTAMP: i64 = 253_402_300_799;
/// The largest magnitude of a Duration's seconds: 10,000 years.
const MAX_DURATION: i64 = 315_576_000_000;
const NANOS_PER_SECOND: i32 = 1_000_000_000;

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Writes nanoseconds as a fraction of 3, 6 or 9 digits (the shortest that
/// is exact), or nothing for zero.
fn write_fraction(out: &mut String, nanos: u32) {
    use fmt::Write as _;
    let _ = if nanos == 0 {
        Ok(())
    } else if nanos.is_multiple_of(1_000_000) {
        write!(out, ".{:03}", nanos / 1_000_000)
    } else if nanos.is_multiple_of(1_000) {
        write!(out, ".{:06}", nanos / 1_000)
    } else {
        write!(out, ".{nanos:09}")
    };
}

/// The RFC 3339 form of a timestamp, or why it has none.
pub(crate) fn format_timestamp(seconds: i64, nanos: i32) -> Result<String, String> {
    if !(MIN_TIMESTAMP..=MAX_TIMESTAMP).contains(&seconds) {
        return Err(format!(
            "Timestamp seconds {seconds} is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z"
        ));
    }
    if !(0..NANOS_PER_SECOND).contains(&nanos) {
        return Err(format!("Timestamp nanos {nanos} is outside 0 to 999999999"));
    }
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let second_of_day = seconds.rem_euclid(86_400);
    let mut out = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    );
    write_fraction(&mut out, nanos as u32);
    out.push('Z');
    Ok(out)
}

/// A cursor over ASCII text, for the fixed layouts of timestamps and
/// durations.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    /// Exactly `n` decimal digits.
    fn digits(&mut self, n: usize) -> Option<u32> {
        let digits = self.text.get(self.at..self.at + n)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.at += n;
        Some(digits.iter().fold(0, |v, d| v * 10 + u32::from(d - b'0')))
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.text.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// An optional fraction: `.` and 1 to 9 digits, as nanoseconds.
    fn fraction(&mut self) -> Option<u32> {
        if !self.eat(b'.') {
            return Some(0);
        }
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = &self.text[start..self.at];
        if digits.is_empty() || digits.len() > 9 {
            return None;
        }
        let value = digits.iter().fold(0, |v, d| v * 10 + u32::from(d - b'0'));
        Some(value * 10u32.pow(9 - digits.len() as u32))
    }

    fn done(&self) -> bool {
        self.at == self.text.len()
    }
}

/// Parses an RFC 3339 timestamp: `YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|±hh:mm)`.
pub(crate) fn parse_timestamp(text: &str) -> Result<(i64, i32), String> {
    let invalid = || {
        format!("invalid Timestamp {text:?}: expected RFC 3339, e.g. \"1972-01-01T10:00:20.021Z\"")
    };
    let mut c = Cursor {
        text: text.as_bytes(),
        at: 0,
    };
    let year = c.digits(4).ok_or_else(invalid)?;
    let date = (
        c.eat(b'-'),
        c.digits(2),
        c.eat(b'-'),
        c.digits(2),
        c.eat(b'T'),
    );
    let (true, Some(month), true, Some(day), true) = date else {
        return Err(invalid());
    };
    let time = (
        c.digits(2),
        c.eat(b':'),
        c.digits(2),
        c.eat(b':'),
        c.digits(2),
    );
    let (Some(hour), true, Some(minute), true, Some(second)) = time else {
        return Err(invalid());
    };
    let nanos = c.fraction().ok_or_else(invalid)?;
    let offset = match c.peek() {
        Some(b'Z') => {
            c.at += 1;
            0
        }
        Some(sign @ (b'+' | b'-')) => {
            c.at += 1;
            let (Some(h), true, Some(m)) = (c.digits(2), c.eat(b':'), c.digits(2)) else {
                return Err(invalid());
            };
            if h > 23 || m > 59 {
                return Err(invalid());
            }
            let offset = i64::from(h * 3600 + m * 60);
            if sign == b'-' { -offset } else { offset }
        }
        _ => return Err(invalid()),
    };
    if !c.done()
        || !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(i64::from(year), month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return Err(invalid());
    }
    let seconds = days_from_civil(i64::from(year), month, day) * 86_400
        + i64::from(hour * 3600 + minute * 60 + second)
        - offset;
    if !(MIN_TIMESTAMP..=MAX_TIMESTAMP).contains(&seconds) {
        return Err(format!(
            "Timestamp {text:?} is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"
        ));
    }
    Ok((seconds, nanos as i32))
}

/// The JSON form of a duration, or why it has none.
pub(crate) fn format_duration(seconds: i64, nanos: i32) -> Result<String, String> {
    if !(-MAX_DURATION..=MAX_DURATION).contains(&seconds) {
        return Err(format!(
            "Duration seconds {seconds} is outside -315576000000 to 315576000000"
        ));
    }
    if nanos <= -NANOS_PER_SECOND
        || nanos >= NANOS_PER_SECOND
        || (seconds > 0 && nanos < 0)
        || (seconds < 0 && nanos > 0)
    {
        return Err(format!(
            "Duration nanos {nanos} is out of range or of the opposite sign to seconds {seconds}"
        ));
    }
    let sign = if seconds < 0 || nanos < 0 { "-" } else { "" };
    let mut out = format!("{sign}{}", seconds.unsigned_abs());
    write_fraction(&mut out, nanos.unsigned_abs());
    out.push('s');
    Ok(out)
}

/// Parses a duration: `-?\d+(\.\d{1,9})?s`.
pub(crate) fn parse_duration(text: &str) -> Result<(i64, i32), String> {
    let invalid =
        || format!("invalid Duration {text:?}: expected seconds with an s suffix, e.g. \"1.5s\"");
    let mut c = Cursor {
        text: text.as_bytes(),
        at: 0,
    };
    let negative = c.eat(b'-');
    let start = c.at;
    while c.peek().is_some_and(|b| b.is_ascii_digit()) {
        c.at += 1;
    }
    let digits = &text[start..c.at];
    // More than 12 digits is out of range whatever they say.
    if digits.is_empty() || digits.len() > 12 {
        return Err(if digits.is_empty() {
            invalid()
        } else {
            out_of_range(text)
        });
    }
    let seconds: i64 = digits.parse().map_err(|_| invalid())?;
    let nanos = c.fraction().ok_or_else(invalid)? as i32;
    if !c.eat(b's') || !c.done() {
        return Err(invalid());
    }
    if seconds > MAX_DURATION {
        return Err(out_of_range(text));
    }
    Ok(if negative {
        (-seconds, -nanos)
    } else {
        (seconds, nanos)
    })
}

fn out_of_range(text: &str) -> String {
    format!("Duration {text:?} is outside -315576000000s to 315576000000s")
}

/// Reads a JSON string through `parse`.
struct ParsedString(&'static str, fn(&str) -> Result<(i64, i32), String>);

impl<'de> Visitor<'de> for ParsedString {
    type Value = (i64, i32);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(i64, i32), E> {
        (self.1)(v).map_err(E::custom)
    }
}

impl JsonMessage for wkt::Timestamp {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        _: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        let text = format_timestamp(self.seconds, self.nanos).map_err(S::Error::custom)?;
        serializer.serialize_str(&text)
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        _: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        let (seconds, nanos) = deserializer.deserialize_str(ParsedString(
            "a Timestamp as an RFC 3339 string",
            parse_timestamp,
        ))?;
        Ok(wkt::Timestamp {
            seconds,
            nanos,
            ..Default::default()
        })
    }
}

impl JsonMessage for wkt::Duration {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        _: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        let text = format_duration(self.seconds, self.nanos).map_err(S::Error::custom)?;
        serializer.serialize_str(&text)
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        _: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        let (seconds, nanos) = deserializer.deserialize_str(ParsedString(
            "a Duration as a string of seconds with an s suffix",
            parse_duration,
        ))?;
        Ok(wkt::Duration {
            seconds,
            nanos,
            ..Default::default()
        })
    }
}

serde_through_json_message!(wkt::Timestamp, wkt::Duration);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        for days in [-719_162, -1, 0, 1, 10_957, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
    }

    #[test]
    fn timestamps_at_the_range_ends() {
        assert_eq!(
            parse_timestamp("0001-01-01T00:00:00Z"),
            Ok((MIN_TIMESTAMP, 0))
        );
        assert_eq!(
            parse_timestamp("9999-12-31T23:59:59.999999999Z"),
            Ok((MAX_TIMESTAMP, 999_999_999))
        );
        assert_eq!(
            format_timestamp(MIN_TIMESTAMP, 0).unwrap(),
            "0001-01-01T00:00:00Z"
        );
        assert_eq!(
            format_timestamp(MAX_TIMESTAMP, 999_999_999).unwrap(),
            "9999-12-31T23:59:59.999999999Z"
        );
        assert!(format_timestamp(MIN_TIMESTAMP - 1, 0).is_err());
        assert!(format_timestamp(MAX_TIMESTAMP + 1, 0).is_err());
        assert!(format_timestamp(0, -1).is_err());
    }

    #[test]
    fn timestamp_offsets_and_fractions() {
        assert_eq!(parse_timestamp("1970-01-01T08:00:01+08:00"), Ok((1, 0)));
        assert_eq!(parse_timestamp("1969-12-31T16:00:01-08:00"), Ok((1, 0)));
        assert_eq!(
            parse_timestamp("1993-02-10T00:00:00.000Z"),
            Ok((729_302_400, 0))
        );
        assert_eq!(
            format_timestamp(0, 10_000_000).unwrap(),
            "1970-01-01T00:00:00.010Z"
        );
        assert_eq!(
            format_timestamp(0, 10_000).unwrap(),
            "1970-01-01T00:00:00.000010Z"
        );
        assert_eq!(
            format_timestamp(0, 10).unwrap(),
            "1970-01-01T00:00:00.000000010Z"
        );
    }

    #[test]
    fn malformed_timestamps_are_rejected() {
        for bad in [
            "0000-01-01T00:00:00Z",
            "10000-01-01T00:00:00Z",
            "0001-01-01T00:00:00",
            "0001-01-01 00:00:00Z",
            "0001-01-01T00:00:00z",
            "0001-01-01t00:00:00Z",
            "2001-02-29T00:00:00Z",
            "2001-01-01T24:00:00Z",
            "2001-01-01T00:00:00.Z",
            "2001-01-01T00:00:00.1234567890Z",
            "2001-01-01T00:00:00+0800",
            "2001-01-01T00:00:00Z ",
        ] {
            assert!(parse_timestamp(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1.5s"), Ok((1, 500_000_000)));
        assert_eq!(parse_duration("-1.5s"), Ok((-1, -500_000_000)));
        assert_eq!(parse_duration("-0.5s"), Ok((0, -500_000_000)));
        assert_eq!(
            parse_duration("-315576000000.999999999s"),
            Ok((-MAX_DURATION, -999_999_999))
        );
        for bad in [
            "1",
            "s",
            "-s",
            "1.s",
            "+1s",
            "1.0000000001s",
            "315576000001s",
            "1e3s",
            "1s ",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(format_duration(0, -500_000_000).unwrap(), "-0.500s");
        assert_eq!(format_duration(1, 340_012).unwrap(), "1.000340012s");
        assert_eq!(format_duration(1, 0).unwrap(), "1s");
        assert!(format_duration(MAX_DURATION + 1, 0).is_err());
        assert!(format_duration(1, -1).is_err());
    }
}
