//! proto3 JSON: the `json_encode` and `json_decode` operations.
//!
//! A configuration that can print and parse the proto3 JSON form of its
//! messages implements [`JsonCodec`] on top of its [`Codec`]: [`Prost`]
//! through the serde impls pbjson-build generates, and (once buffa's JSON
//! support lands) [`BuffaInline`](crate::BuffaInline).
//!
//! - `json_encode`: the message populated in advance to a fresh `Vec<u8>`
//!   of JSON (`serde_json::to_vec` or the library's equivalent).
//! - `json_decode`: a message from JSON bytes (`serde_json::from_slice` or
//!   the library's equivalent). Every configuration parses the same input,
//!   the reference JSON (pbjson's, see [`PreparedJson::new`]), so that the
//!   work is identical whatever each library's printer emits.
//!
//! [`json_differences`] compares two JSON documents as proto3 JSON values,
//! so that configurations can be checked to print the same data.
//!
//! [`Prost`]: crate::Prost

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{Codec, Dataset};

/// A [`Codec`] that also prints and parses proto3 JSON.
///
/// Like [`Codec`], implementations must not cache anything between calls.
pub trait JsonCodec<D: Dataset>: Codec<D> {
    /// The proto3 JSON of `msg`, in a new vector. Panics on failure.
    fn to_json(msg: &Self::Msg) -> Vec<u8>;

    /// Parses a message from its proto3 JSON. Panics on invalid input.
    fn from_json(json: &[u8]) -> Self::Msg;
}

/// One of the two measured JSON operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonOp {
    /// Print the message populated in advance as JSON.
    Encode,
    /// Parse a message from the reference JSON.
    Decode,
}

impl JsonOp {
    /// Both operations, in report order.
    pub const ALL: [JsonOp; 2] = [JsonOp::Encode, JsonOp::Decode];

    /// Name as used in reports (one word, as report lines are
    /// whitespace-separated).
    pub fn name(self) -> &'static str {
        match self {
            JsonOp::Encode => "json_encode",
            JsonOp::Decode => "json_decode",
        }
    }
}

/// What one (dataset, library) pair needs for the JSON operations: the
/// message populated in advance, the library's own JSON of it, and the JSON
/// that [`JsonOp::Decode`] parses.
pub struct PreparedJson<D: Dataset, C: JsonCodec<D>> {
    message: C::Msg,
    json: Vec<u8>,
    input: Vec<u8>,
    marker: PhantomData<D>,
}

impl<D: Dataset, C: JsonCodec<D>> PreparedJson<D, C> {
    /// Populates a message from `native` and prints it. [`JsonOp::Decode`]
    /// parses `reference` if given (another library's JSON of the same
    /// data), else this library's own JSON.
    ///
    /// # Panics
    ///
    /// If parsing this library's JSON, or `reference`, and converting does
    /// not give back `native`.
    pub fn new(native: &D, reference: Option<&[u8]>) -> Self {
        let message = C::populate(native);
        let json = C::to_json(&message);
        let input = reference.map_or_else(|| json.clone(), <[u8]>::to_vec);
        let mut checks = vec![("its own JSON", &json)];
        if input != json {
            checks.push(("the reference JSON", &input));
        }
        for (what, bytes) in checks {
            assert!(
                C::convert(C::from_json(bytes)) == *native,
                "{}/{}: parsing {what} + convert does not give back the original data",
                D::NAME,
                C::NAME,
            );
        }
        Self {
            message,
            json,
            input,
            marker: PhantomData,
        }
    }

    /// This library's JSON of the data.
    pub fn json(&self) -> &[u8] {
        &self.json
    }

    /// The JSON [`JsonOp::Decode`] parses.
    pub fn input(&self) -> &[u8] {
        &self.input
    }

    /// [`JsonOp::Encode`]: prints the prepared message.
    pub fn encode(&self) -> Vec<u8> {
        C::to_json(black_box(&self.message))
    }

    /// [`JsonOp::Decode`]: parses a message from the input.
    pub fn decode(&self) -> C::Msg {
        C::from_json(black_box(&self.input))
    }

    /// Runs `op` once; the result is dropped inside the call.
    pub fn run_once(&self, op: JsonOp) {
        match op {
            JsonOp::Encode => {
                black_box(self.encode());
            }
            JsonOp::Decode => {
                black_box(self.decode());
            }
        }
    }
}

/// A type-erased [`PreparedJson`], so that reports can hold several
/// libraries for one dataset side by side.
pub trait JsonRunner {
    /// The library's name.
    fn library(&self) -> &'static str;

    /// This library's JSON of the data.
    fn json(&self) -> &[u8];

    /// Runs `op` `iters` times and returns the elapsed time.
    fn time(&self, op: JsonOp, iters: u64) -> Duration;
}

impl<D: Dataset, C: JsonCodec<D>> JsonRunner for PreparedJson<D, C> {
    fn library(&self) -> &'static str {
        C::NAME
    }

    fn json(&self) -> &[u8] {
        &self.json
    }

    fn time(&self, op: JsonOp, iters: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..iters {
            self.run_once(op);
        }
        start.elapsed()
    }
}

/// Boxes a [`PreparedJson`] for `native` as a [`JsonRunner`]; see
/// [`PreparedJson::new`] for `reference`.
pub fn json_runner<D: Dataset, C: JsonCodec<D> + 'static>(
    native: &D,
    reference: Option<&[u8]>,
) -> Box<dyn JsonRunner>
where
    C::Msg: 'static,
{
    Box::new(PreparedJson::<D, C>::new(native, reference))
}

/// Where two JSON documents differ as proto3 JSON values: each entry is a
/// JSON pointer and what differs there. Empty if they are equal.
///
/// Tolerated, as the proto3 JSON mapping lets printers differ there (and
/// parsers must accept both):
///
/// - a number printed as a string (64-bit integers are strings in proto3
///   JSON; a parser accepts either) equals the number;
/// - numbers compare by value, not spelling (`1.0` = `1` = `1e0`), and two
///   that round to the same `f32` are equal (a `float` field printed with
///   `f64` digits).
///
/// Everything else, object keys included, must match exactly; a field
/// missing on one side (a default value left out) is a difference.
pub fn json_differences(a: &Value, b: &Value) -> Vec<String> {
    let mut differences = Vec::new();
    differences_at(a, b, &mut String::new(), &mut differences);
    differences
}

fn differences_at(a: &Value, b: &Value, path: &mut String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let len = path.len();
                path.push('/');
                path.push_str(key);
                match y.get(key) {
                    Some(other) => differences_at(value, other, path, out),
                    None => out.push(format!("{path}: only in the first")),
                }
                path.truncate(len);
            }
            for key in y.keys().filter(|key| !x.contains_key(*key)) {
                out.push(format!("{path}/{key}: only in the second"));
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                out.push(format!("{path}: {} vs {} elements", x.len(), y.len()));
                return;
            }
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                differences_at(u, v, path, out);
                path.truncate(len);
            }
        }
        _ => {
            if !scalars_equal(a, b) {
                out.push(format!("{path}: {a} vs {b}"));
            }
        }
    }
}

/// A number, or a string holding one (proto3 JSON's 64-bit integers,
/// `"NaN"`, `"Infinity"`, `"-Infinity"`).
fn numeric(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn scalars_equal(a: &Value, b: &Value) -> bool {
    if a == b {
        return true;
    }
    // Integers beyond 2^53 must match exactly: compare their digits.
    if let (Some(x), Some(y)) = (integer(a), integer(b)) {
        return x == y;
    }
    match (numeric(a), numeric(b)) {
        (Some(x), Some(y)) => x == y || (x as f32 == y as f32) || (x.is_nan() && y.is_nan()),
        _ => false,
    }
}

/// An integer, or a string holding one, as `i128`.
fn integer(value: &Value) -> Option<i128> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tolerated_differences() {
        let a = json!({"a": "18446744073709551615", "b": 1.0, "c": [0.1, "NaN"], "d": 3});
        let b = json!({"a": 18446744073709551615u64, "b": 1, "c": [0.10000000149011612, "NaN"], "d": "3"});
        assert_eq!(json_differences(&a, &b), Vec::<String>::new());
    }

    #[test]
    fn real_differences() {
        let a = json!({"a": "18446744073709551615", "b": {"x": 1}, "c": [1, 2], "e": "A"});
        let b = json!({"a": "18446744073709551614", "b": {"y": 1}, "c": [1], "e": "B"});
        assert_eq!(
            json_differences(&a, &b),
            [
                "/a: \"18446744073709551615\" vs \"18446744073709551614\"",
                "/b/x: only in the first",
                "/b/y: only in the second",
                "/c: 2 vs 1 elements",
                "/e: \"A\" vs \"B\"",
            ]
        );
    }
}
