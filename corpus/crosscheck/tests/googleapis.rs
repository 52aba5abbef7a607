//! googleapis messages filled with seeded random data, encoded by prost;
//! buffa decodes them and encodes them again, to the bytes protoc (C++
//! protobuf) writes for the same message, and prost reads buffa's bytes
//! back to the message it started from.
//!
//! protoc, not prost, is the reference for the bytes: both write fields
//! in an order of their own choosing where the encoding allows it, and
//! they choose differently in two places these messages reach. prost
//! writes a oneof where its lowest field number would go (`HttpRule`'s
//! `custom`, 8, before `body`, 7) and leaves an empty map key or value
//! out of its entry; buffa, like C++, writes fields in field-number order and always
//! writes a map entry's key and value. Where neither case arises, the
//! three agree byte for byte, which the tests also check.

use std::collections::BTreeMap;
use std::fmt::Debug;

use googleapis_crosscheck::by_buffa::google as b;
use googleapis_crosscheck::by_prost::google as p;

/// Messages per type.
const CASES: usize = 40;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// Mostly small values, sometimes the extremes.
    fn int(&mut self) -> i64 {
        match self.below(4) {
            0 => 0,
            1 => self.below(300) as i64 - 150,
            2 => self.next() as i64,
            _ => [i64::MIN, i64::MAX, -1, 1][self.below(4) as usize],
        }
    }
    fn int32(&mut self) -> i32 {
        self.int() as i32
    }
    fn string(&mut self) -> String {
        const PIECES: &[&str] = &[
            "",
            "a",
            "topic",
            "é",
            "名前",
            "🦀",
            " ",
            "/",
            "\0",
            "projects/p",
        ];
        (0..self.below(5))
            .map(|_| PIECES[self.below(PIECES.len() as u64) as usize])
            .collect()
    }
    fn bytes(&mut self) -> Vec<u8> {
        (0..self.below(40)).map(|_| self.next() as u8).collect()
    }
    fn map(&mut self) -> BTreeMap<String, String> {
        (0..self.below(4))
            .map(|_| (self.string(), self.string()))
            .collect()
    }
    fn timestamp(&mut self) -> Option<prost_types::Timestamp> {
        self.chance(70).then(|| prost_types::Timestamp {
            seconds: self.int(),
            nanos: self.below(1_000_000_000) as i32,
        })
    }
    fn duration(&mut self) -> Option<prost_types::Duration> {
        self.chance(70).then(|| prost_types::Duration {
            seconds: self.int(),
            nanos: self.int32() % 1_000_000_000,
        })
    }
}

/// Encodes `message` with prost, decodes and re-encodes it with buffa
/// type `B`, and checks the bytes are protoc's, that prost reads them
/// back to `message`, and that they are prost's too unless `message`
/// holds a oneof member or an empty map key (see the module docs).
fn crosscheck<P, B>(message: &P)
where
    P: prost::Message + prost::Name + Default + PartialEq + Debug,
    B: buffa::Message,
{
    let by_prost = message.encode_to_vec();
    let decoded = B::decode_from_slice(&by_prost)
        .unwrap_or_else(|e| panic!("buffa cannot decode prost's {message:?}: {e}"));
    let by_buffa = decoded.encode_to_vec();
    let back = P::decode(by_buffa.as_slice()).expect("prost reads buffa's bytes");
    assert_eq!(
        &back, message,
        "prost reads buffa's bytes as another message"
    );
    assert_eq!(
        by_buffa,
        protoc_canonical(&P::full_name(), &by_prost),
        "buffa's bytes for {message:?} are not protoc's"
    );
    if prost_is_canonical(&format!("{message:?}")) {
        assert_eq!(
            by_buffa, by_prost,
            "buffa and prost write {message:?} differently"
        );
    }
}

/// Whether prost writes the message printed as `debug` as protoc does:
/// unless a map entry has an empty key (sorted first in a `BTreeMap`) or
/// value, or an `HttpRule` has a `custom` pattern (field 8, which prost
/// writes before `body`, 7), the only differences these messages reach.
fn prost_is_canonical(debug: &str) -> bool {
    !debug.contains("{\"\": ") && !debug.contains("\": \"\"") && !debug.contains("Custom(")
}

/// What protoc writes for the message of type `full_name` that `bytes`
/// encode: protoc reads them (`--decode`) and writes the text back
/// (`--encode`).
fn protoc_canonical(full_name: &str, bytes: &[u8]) -> Vec<u8> {
    let text = protoc(&["--decode", full_name], bytes);
    protoc(&["--encode", full_name], &text)
}

/// protoc's output for `args` and the googleapis files, with `input` on
/// its standard input.
fn protoc(args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut args = args.to_vec();
    args.extend(env!("GOOGLEAPIS_FILES").split(' '));
    protoc_runner::Protoc::new([env!("GOOGLEAPIS_DIR")])
        .run(&args, input)
        .unwrap_or_else(|error| panic!("protoc {args:?}: {error}"))
}

fn pubsub_message(rng: &mut Rng) -> p::pubsub::v1::PubsubMessage {
    p::pubsub::v1::PubsubMessage {
        data: rng.bytes(),
        attributes: rng.map().into_iter().collect(),
        message_id: rng.string(),
        publish_time: rng.timestamp(),
        ordering_key: rng.string(),
    }
}

fn any(rng: &mut Rng) -> prost_types::Any {
    match rng.below(4) {
        0 => prost_types::Any::from_msg(&p::rpc::ErrorInfo {
            reason: rng.string(),
            domain: rng.string(),
            metadata: rng.map().into_iter().collect(),
        })
        .expect("encodes"),
        1 => prost_types::Any::from_msg(&p::rpc::RetryInfo {
            retry_delay: rng.duration(),
        })
        .expect("encodes"),
        2 => prost_types::Any::from_msg(&p::rpc::BadRequest {
            field_violations: (0..rng.below(3))
                .map(|_| p::rpc::bad_request::FieldViolation {
                    field: rng.string(),
                    description: rng.string(),
                    ..Default::default()
                })
                .collect(),
        })
        .expect("encodes"),
        _ => prost_types::Any {
            type_url: rng.string(),
            value: rng.bytes(),
        },
    }
}

fn status(rng: &mut Rng) -> p::rpc::Status {
    p::rpc::Status {
        code: rng.int32(),
        message: rng.string(),
        details: (0..rng.below(4)).map(|_| any(rng)).collect(),
    }
}

fn http_rule(rng: &mut Rng, depth: u32) -> p::api::HttpRule {
    use p::api::http_rule::Pattern;
    let pattern = match rng.below(7) {
        0 => None,
        1 => Some(Pattern::Get(rng.string())),
        2 => Some(Pattern::Put(rng.string())),
        3 => Some(Pattern::Post(rng.string())),
        4 => Some(Pattern::Delete(rng.string())),
        5 => Some(Pattern::Patch(rng.string())),
        _ => Some(Pattern::Custom(p::api::CustomHttpPattern {
            kind: rng.string(),
            path: rng.string(),
        })),
    };
    p::api::HttpRule {
        selector: rng.string(),
        body: rng.string(),
        response_body: rng.string(),
        additional_bindings: if depth < 3 {
            (0..rng.below(3))
                .map(|_| http_rule(rng, depth + 1))
                .collect()
        } else {
            Vec::new()
        },
        pattern,
    }
}

#[test]
fn pubsub_messages_with_attributes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..CASES {
        let message = pubsub_message(&mut rng);
        crosscheck::<_, b::pubsub::v1::PubsubMessage>(&message);
        let request = p::pubsub::v1::PublishRequest {
            topic: rng.string(),
            messages: (0..rng.below(4))
                .map(|_| pubsub_message(&mut rng))
                .collect(),
        };
        crosscheck::<_, b::pubsub::v1::PublishRequest>(&request);
    }
}

#[test]
fn statuses_with_any_details() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..CASES {
        crosscheck::<_, b::rpc::Status>(&status(&mut rng));
    }
}

#[test]
fn long_running_operations() {
    use p::longrunning::operation::Result;
    let mut rng = Rng(7);
    for _ in 0..CASES {
        let result = match rng.below(3) {
            0 => None,
            1 => Some(Result::Error(status(&mut rng))),
            _ => Some(Result::Response(any(&mut rng))),
        };
        let operation = p::longrunning::Operation {
            name: rng.string(),
            metadata: rng.chance(50).then(|| any(&mut rng)),
            done: rng.chance(50),
            result,
        };
        crosscheck::<_, b::longrunning::Operation>(&operation);
    }
}

#[test]
fn http_rules_nested() {
    let mut rng = Rng(11);
    for _ in 0..CASES {
        crosscheck::<_, b::api::HttpRule>(&http_rule(&mut rng, 0));
    }
}

#[test]
fn money_and_dates() {
    let mut rng = Rng(13);
    for _ in 0..CASES {
        let money = p::r#type::Money {
            currency_code: rng.string(),
            units: rng.int(),
            nanos: rng.int32(),
        };
        crosscheck::<_, b::r#type::Money>(&money);
        let date = p::r#type::Date {
            year: rng.int32(),
            month: rng.int32(),
            day: rng.int32(),
        };
        crosscheck::<_, b::r#type::Date>(&date);
    }
}
