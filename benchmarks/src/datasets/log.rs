//! The `log` dataset: 10,000 HTTP access-log entries.

use rand::Rng as _;

use super::{Rng, generate_vec, pick, pick_string};

/// An IPv4 address, one byte per field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// First octet.
    pub x0: u8,
    /// Second octet.
    pub x1: u8,
    /// Third octet.
    pub x2: u8,
    /// Fourth octet.
    pub x3: u8,
}

/// One access-log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log {
    /// Client address.
    pub address: Address,
    /// Always `"-"`.
    pub identity: String,
    /// User name.
    pub userid: String,
    /// Date, like `"17/Feb/1999:22:18:8 +1100"`.
    pub date: String,
    /// Request line, like `"GET /img/logo-full.svg HTTP/1.1"`.
    pub request: String,
    /// HTTP status code.
    pub code: u16,
    /// Response size.
    pub size: u64,
}

/// The top-level `log` dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logs {
    /// The log entries.
    pub logs: Vec<Log>,
}

/// Number of log entries.
pub const COUNT: usize = 10_000;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const TIMEZONES: [&str; 25] = [
    "-1200", "-1100", "-1000", "-0900", "-0800", "-0700", "-0600", "-0500", "-0400", "-0300",
    "-0200", "-0100", "+0000", "+0100", "+0200", "+0300", "+0400", "+0500", "+0600", "+0700",
    "+0800", "+0900", "+1000", "+1100", "+1200",
];
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "UPDATE", "DELETE"];
const ROUTES: [&str; 7] = [
    "/favicon.ico",
    "/css/index.css",
    "/css/font-awsome.min.css",
    "/img/logo-full.svg",
    "/img/splash.jpg",
    "/api/login",
    "/api/logout",
];
const PROTOCOLS: [&str; 4] = ["HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3"];
const USERIDS: [&str; 9] = [
    "-", "alice", "bob", "carmen", "david", "eric", "frank", "george", "harry",
];
const CODES: [u16; 63] = [
    100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304,
    305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414,
    415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504,
    505, 506, 507, 508, 510, 511,
];

impl Address {
    /// Draws x0..x3, each `gen_range(0..=255)` as u8.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            x0: rng.gen_range(0..=255u8),
            x1: rng.gen_range(0..=255u8),
            x2: rng.gen_range(0..=255u8),
            x3: rng.gen_range(0..=255u8),
        }
    }
}

impl Log {
    /// Generates one entry: the date and request draws come first, then the
    /// struct fields in order.
    pub fn generate(rng: &mut Rng) -> Self {
        // 1-7: the date string.
        let day = rng.gen_range(1..=28i32);
        let month = pick(rng, &MONTHS);
        let year = rng.gen_range(1970..=2021i32);
        let hour = rng.gen_range(0..24i32);
        let minute = rng.gen_range(0..60i32);
        let second = rng.gen_range(0..60i32);
        let timezone = pick(rng, &TIMEZONES);
        let date = format!("{day}/{month}/{year}:{hour}:{minute}:{second} {timezone}");
        // 8-10: the request string.
        let method = pick(rng, &METHODS);
        let route = pick(rng, &ROUTES);
        let protocol = pick(rng, &PROTOCOLS);
        let request = format!("{method} {route} {protocol}");
        // 11: the struct, in field order.
        let address = Address::generate(rng);
        let identity = "-".to_owned();
        let userid = pick_string(rng, &USERIDS);
        let code = pick(rng, &CODES);
        let size = rng.gen_range(0..100_000_000u64);
        Self {
            address,
            identity,
            userid,
            date,
            request,
            code,
            size,
        }
    }
}

/// Generates the whole dataset from a fresh RNG.
pub fn generate() -> Logs {
    let mut rng = super::rng();
    Logs {
        logs: generate_vec(&mut rng, COUNT..COUNT + 1, Log::generate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_entries() {
        let logs = generate().logs;
        assert_eq!(logs.len(), COUNT);
        let expected = [
            (
                [38, 4, 128, 5],
                "-",
                "david",
                "17/Feb/1999:22:18:8 +1100",
                "POST /img/logo-full.svg HTTP/1.1",
                424,
                84520116,
            ),
            (
                [65, 72, 252, 10],
                "-",
                "harry",
                "16/Jan/1972:5:11:27 -0600",
                "GET /img/logo-full.svg HTTP/1.1",
                405,
                50235613,
            ),
            (
                [228, 45, 154, 69],
                "-",
                "bob",
                "23/Jun/2014:8:20:3 +0200",
                "GET /img/logo-full.svg HTTP/1.1",
                501,
                41006245,
            ),
        ];
        for (log, (addr, identity, userid, date, request, code, size)) in logs.iter().zip(expected)
        {
            let a = &log.address;
            assert_eq!([a.x0, a.x1, a.x2, a.x3], addr);
            assert_eq!(log.identity, identity);
            assert_eq!(log.userid, userid);
            assert_eq!(log.date, date);
            assert_eq!(log.request, request);
            assert_eq!(log.code, code);
            assert_eq!(log.size, size);
        }
    }
}
