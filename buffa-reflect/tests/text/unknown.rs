//! Unknown fields: bytes that no field of the schema describes print as
//! protoc prints them. A length-delimited value is printed as a nested
//! message when C++ protobuf reads its bytes as one
//! (`UnknownFieldSet::ParseFromCodedStream`), so every quirk of C++'s
//! reader shows in the output: tags of up to ten bytes cut to 32 bits,
//! lengths read the same way, varints of up to ten bytes, the recursion
//! budget. Random bytes find the quirks that hand-written cases miss.

use std::time::Instant;

use buffa_reflect::{DynamicMessage, text};

use super::print::assert_prints_like_protoc;
use super::{compile, decoded, protoc, protoc_in};

#[test]
fn unknown_field_edge_cases_print_like_protoc() {
    let cases: &[&[u8]] = &[
        // An empty length-delimited field: a string.
        &[0x0a, 0x00],
        // Bytes that are not a message: a string.
        &[0x0a, 0x02, 0xff, 0xff],
        // A field number 0 inside: not a message.
        &[0x0a, 0x02, 0x00, 0x01],
        // A tag of 0 at the end: not a message.
        &[0x0a, 0x03, 0x08, 0x01, 0x00],
        // An end-group key at the top of a nested guess: not a message.
        &[0x0a, 0x01, 0x0c],
        // A group in a guessed message.
        &[0x0a, 0x04, 0x0b, 0x08, 0x01, 0x0c],
        // Groups closed by another number's end key, or not at all.
        &[0x0a, 0x02, 0x0b, 0x14],
        &[0x0a, 0x03, 0x0b, 0x08, 0x01],
        // Fixed32 and fixed64 inside a guessed message.
        &[0x0a, 0x0e, 0x0d, 1, 2, 3, 4, 0x09, 1, 2, 3, 4, 5, 6, 7, 8],
        // Wire types 6 and 7: not a message.
        &[0x0a, 0x02, 0x0e, 0x01],
        &[0x0a, 0x02, 0x0f, 0x01],
        // A ten-byte varint.
        &[
            0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
        // Ten-byte varints in a guessed message, the last byte's bits
        // beyond 64 dropped; eleven bytes are not a varint.
        &[
            0x0a, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
        ],
        &[
            0x0a, 0x0c, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
        // Tags longer than five bytes, cut to their low 32 bits: field 1
        // in ten bytes; eleven bytes are not a tag.
        &[
            0x0a, 0x0b, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x5b,
        ],
        &[
            0x0a, 0x0c, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x5b,
        ],
        // A group's end key written long, matching once cut to 32 bits.
        &[0x0a, 0x07, 0x0b, 0x8c, 0x80, 0x80, 0x80, 0x70, 0x01],
        // Lengths read as 32 bits: 2 in ten bytes, 2 with bits above 32,
        // and 2^31 + 2, which does not fit C++'s signed int.
        &[
            0x0a, 0x0d, 0x0a, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x08,
            0x01,
        ],
        &[0x0a, 0x08, 0x0a, 0x82, 0x80, 0x80, 0x80, 0x10, 0x08, 0x01],
        &[0x0a, 0x08, 0x0a, 0x82, 0x80, 0x80, 0x80, 0x08, 0x08, 0x01],
        // Nested groups at the top level.
        &[0x0b, 0x13, 0x18, 0x05, 0x14, 0x0c],
        // A huge field number.
        &[0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01],
    ];
    for bytes in cases {
        assert_prints_like_protoc("text2.Empty", bytes);
    }
    // Length-delimited values nested deeper than the guessing budget of
    // ten levels: the innermost are printed as strings.
    let mut nested = vec![0x08, 0x01];
    for _ in 0..14 {
        let mut outer = vec![0x0a, nested.len() as u8];
        outer.extend_from_slice(&nested);
        nested = outer;
    }
    assert_prints_like_protoc("text2.Empty", &nested);
}

#[test]
fn over_long_tag_in_a_guessed_message_prints_like_protoc() {
    // Unknown field 511 of TestAllTypesProto3 holds a tag of five bytes
    // (which also start a four-byte UTF-8 character) whose bits above 32
    // C++ drops: field 268435726, a varint of 91.
    let dir = protobuf_sources::protobuf_source_dir().expect("protobuf sources");
    let include = dir.join("src");
    let file = "google/protobuf/test_messages_proto3.proto";
    let message_type = "protobuf_test_messages.proto3.TestAllTypesProto3";
    let bytes = [0xfa, 0x1f, 0x06, 0xf0, 0x90, 0x80, 0x80, 0x78, 0x5b];
    let expected = "511 {\n  268435726: 91\n}\n";
    let decoded = protoc_in(
        &include,
        &[format!("--decode={message_type}"), file.to_owned()],
        &bytes,
    )
    .unwrap_or_else(|e| panic!("protoc --decode: {e}"));
    assert_eq!(String::from_utf8(decoded).unwrap(), expected);

    let pool = compile(&include, &[file]);
    let descriptor = pool.get_message_by_name(message_type).unwrap();
    let message = DynamicMessage::decode(descriptor, &bytes).unwrap();
    assert_eq!(text::to_string(&message), expected);
}

/// How many random payloads [`random_unknown_fields_print_like_protoc`]
/// compares, and how many go to one run of protoc.
const RANDOM_PAYLOADS: usize = 50_000;
const PAYLOADS_PER_RUN: usize = 1000;

#[test]
fn random_unknown_fields_print_like_protoc() {
    // Each payload is an unknown length-delimited field of a `text2.Node`
    // among its `children`, so one run of protoc prints hundreds of them;
    // each child's lines are compared on their own, to name the payload
    // that differs.
    let started = Instant::now();
    let mut rng = Rng(0x5eed_b0ff_a0f7);
    let mut compared = 0;
    while compared < RANDOM_PAYLOADS {
        let payloads: Vec<Vec<u8>> = (0..PAYLOADS_PER_RUN).map(|_| payload(&mut rng)).collect();
        let mut node = Vec::new();
        for payload in &payloads {
            let mut child = Vec::new();
            if rng.chance(20) {
                child.extend_from_slice(&[0x08, 0x01]); // value: 1, a known field
            }
            let number: u32 = rng.pick(&[5, 100, 2047, 536_870_911]);
            put_varint(&mut child, u128::from(number << 3 | 2), 0);
            put_varint(&mut child, payload.len() as u128, 0);
            child.extend_from_slice(payload);
            node.push(0x1a); // children, field 3
            put_varint(&mut node, child.len() as u128, 0);
            node.extend_from_slice(&child);
        }
        let expected = protoc(
            &["--decode=text2.Node".to_owned(), "text2.proto".to_owned()],
            &node,
        )
        .unwrap_or_else(|e| panic!("protoc --decode: {e}"));
        let expected = String::from_utf8(expected).expect("protoc prints UTF-8");
        let printed = text::to_string(&decoded("text2.Node", &node));
        if printed != expected {
            let (ours, theirs) = (children(&printed), children(&expected));
            assert_eq!(ours.len(), theirs.len(), "the number of children differs");
            for ((payload, ours), theirs) in payloads.iter().zip(ours).zip(theirs) {
                assert_eq!(
                    ours, theirs,
                    "buffa (left) and protoc (right) print the payload {payload:02x?} differently"
                );
            }
            assert_eq!(printed, expected, "buffa (left) and protoc (right) differ");
        }
        compared += payloads.len();
    }
    eprintln!(
        "{compared} random payloads print like protoc ({:.1?})",
        started.elapsed()
    );
}

/// The text of each `children { ... }` of a printed `text2.Node`.
fn children(printed: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = printed
        .match_indices("children {\n")
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || printed.as_bytes()[at - 1] == b'\n')
        .collect();
    starts.push(printed.len());
    starts.windows(2).map(|w| &printed[w[0]..w[1]]).collect()
}

/// A deterministic pseudo-random source (SplitMix64): the same payloads
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Random bytes, as many as a random length in `len`.
    fn bytes(&mut self, len: std::ops::Range<u64>) -> Vec<u8> {
        let len = len.start + self.below(len.end - len.start);
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// How deep payloads nest: past the printer's guessing budget (ten) and
/// C++'s group recursion budget within it.
const MAX_DEPTH: usize = 13;

/// The bytes of one unknown length-delimited value: mostly a message of
/// fields, sometimes cut short or followed by a stray byte.
fn payload(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    match rng.below(10) {
        0 => out = rng.bytes(0..8),
        1 => out.extend_from_slice(text_bytes(rng)),
        _ => fields(rng, &mut out, 0),
    }
    if rng.chance(5) && !out.is_empty() {
        out.truncate(rng.below(out.len() as u64) as usize);
    }
    if rng.chance(3) {
        out.push(rng.pick(&[0x00, 0x0c, 0x80, 0xff]));
    }
    out
}

/// One to three fields (fewer deeper down).
fn fields(rng: &mut Rng, out: &mut Vec<u8>, depth: usize) {
    let count = 1 + rng.below(if depth < 3 { 3 } else { 2 });
    for _ in 0..count {
        field(rng, out, depth);
    }
}

/// UTF-8 text, some of it in four-byte characters (whose first bytes also
/// read as long varints).
fn text_bytes(rng: &mut Rng) -> &'static [u8] {
    rng.pick(&[
        "😀".as_bytes(),
        "\u{10000}[".as_bytes(),
        "a😀b".as_bytes(),
        "\u{10ffff}".as_bytes(),
        "héllo".as_bytes(),
        b"xyz",
    ])
}

/// A field number, often one at the edge of a varint's length.
fn number(rng: &mut Rng) -> u32 {
    match rng.below(12) {
        0 => 0,
        1 => 1 + rng.below(1 << 29) as u32,
        n => [1, 2, 3, 15, 16, 2047, 2048, 268_435_726, 536_870_911, 19000][n as usize - 2],
    }
}

/// One field: its tag and a value of its wire type, well-formed or not.
fn field(rng: &mut Rng, out: &mut Vec<u8>, depth: usize) {
    let number = number(rng);
    let wire_type = match rng.below(40) {
        0 => 6,
        1 => 7,
        2 => 4,
        n if depth >= MAX_DEPTH => [0, 1, 5][n as usize % 3],
        n => [0, 0, 1, 2, 2, 2, 3, 5][n as usize % 8],
    };
    tag(rng, out, number, wire_type);
    match wire_type {
        0 => {
            let value = match rng.below(4) {
                0 => rng.below(128),
                1 => u64::MAX >> rng.below(64),
                _ => rng.next(),
            };
            put_varint(out, u128::from(value) | above(rng, 64), varint_len(rng));
        }
        1 => {
            let len = if rng.chance(5) { 0..8 } else { 8..9 };
            out.extend(rng.bytes(len));
        }
        5 => {
            let len = if rng.chance(5) { 0..4 } else { 4..5 };
            out.extend(rng.bytes(len));
        }
        2 => {
            let contents = delimited(rng, depth);
            let len = match rng.below(40) {
                0 => contents.len() + 1 + rng.below(3) as usize,
                1 => contents.len() | 1 << 31,
                _ => contents.len(),
            };
            put_varint(out, len as u128 | above(rng, 32), varint_len(rng));
            out.extend(contents);
        }
        3 => {
            if rng.chance(10) {
                // A chain of groups, to reach the recursion budget.
                let levels = 8 + rng.below(5) as u32;
                for level in 0..levels {
                    tag(rng, out, level + 1, 3);
                }
                fields(rng, out, MAX_DEPTH);
                for level in (0..levels).rev() {
                    tag(rng, out, level + 1, 4);
                }
            } else {
                fields(rng, out, depth + 1);
            }
            match rng.below(20) {
                0 => {}
                1 => tag(rng, out, number.wrapping_add(1), 4),
                2 => tag(rng, out, number, 2),
                _ => tag(rng, out, number, 4),
            }
        }
        _ => out.push(rng.next() as u8),
    }
}

/// The bytes of a length-delimited value: a message, text, bytes or
/// nothing.
fn delimited(rng: &mut Rng, depth: usize) -> Vec<u8> {
    let mut contents = Vec::new();
    match rng.below(10) {
        0 => {}
        1 => contents = rng.bytes(1..7),
        2 => contents.extend_from_slice(text_bytes(rng)),
        3 => {
            // A chain of messages, to reach the guessing budget.
            let levels = 8 + rng.below(5);
            fields(rng, &mut contents, MAX_DEPTH);
            for _ in 0..levels {
                let mut outer = Vec::new();
                tag(rng, &mut outer, 1, 2);
                put_varint(&mut outer, contents.len() as u128, 0);
                outer.extend(contents);
                contents = outer;
            }
        }
        _ => fields(rng, &mut contents, depth + 1),
    }
    contents
}

/// A tag, sometimes longer than needed or with bits above 32.
fn tag(rng: &mut Rng, out: &mut Vec<u8>, number: u32, wire_type: u32) {
    let tag = number << 3 | wire_type;
    put_varint(out, u128::from(tag) | above(rng, 32), varint_len(rng));
}

/// Now and then, random bits above the lowest `bits` that a reader
/// of that many bits drops (within the 70 bits of ten bytes).
fn above(rng: &mut Rng, bits: u32) -> u128 {
    if rng.chance(8) {
        u128::from(rng.next()) << bits & ((1 << 70) - 1)
    } else {
        0
    }
}

/// The length of a varint: mostly as short as its value allows (0),
/// sometimes padded up to ten bytes, and rarely eleven, which is too long.
fn varint_len(rng: &mut Rng) -> usize {
    match rng.below(20) {
        0 | 1 => 2 + rng.below(9) as usize,
        2 => 11,
        _ => 0,
    }
}

/// `bits` as a varint of at least `len` bytes: as many as `bits` needs,
/// padded with continuation bytes up to `len`.
fn put_varint(out: &mut Vec<u8>, mut bits: u128, len: usize) {
    let mut written = 0;
    loop {
        written += 1;
        let byte = (bits & 0x7f) as u8;
        bits >>= 7;
        if bits == 0 && written >= len {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}
