//! Hostile input: no panic, bounded depth, time linear in the input.

use std::time::{Duration, Instant};

use super::parse_file;

/// A small deterministic generator (xorshift).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    /// The next pseudo-random number.
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Characters that matter to the tokenizer and parser.
const INTERESTING: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "<",
    ">",
    ";",
    "=",
    ",",
    ".",
    "\"",
    "'",
    "/",
    "*",
    "-",
    "\n",
    "\t",
    "\\",
    "0",
    "0x",
    "9",
    "e",
    "_",
    "x",
    "\u{0}",
    "\u{1}",
    "\u{e9}",
    "message ",
    "group ",
    "map<",
    "option ",
    "extend ",
    "oneof ",
    "reserved ",
    "extensions ",
    "max",
    "to",
    "//",
    "/*",
    "*/",
    "\\u",
    "\\U0010ffff",
    "1e",
    ".5",
    "inf",
    "nan",
    "syntax = \"proto3\";",
    "edition = \"2024\";",
];

/// Random edits of `seed`: replacements, insertions, deletions and cuts.
pub(super) fn mutate(seed: &str, rng: &mut Rng) -> String {
    let mut text: Vec<char> = seed.chars().collect();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(text.len() + 1);
        match rng.below(4) {
            0 => text.truncate(at),
            1 if at < text.len() => {
                text.remove(at);
            }
            _ => {
                let piece = INTERESTING[rng.below(INTERESTING.len())];
                for (i, c) in piece.chars().enumerate() {
                    text.insert((at + i).min(text.len()), c);
                }
            }
        }
    }
    text.into_iter().collect()
}

#[test]
fn mutated_files_never_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/parse/testdata");
    let mut seeds: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "proto"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    seeds.sort();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for seed in &seeds {
        for _ in 0..400 {
            let text = mutate(seed, &mut rng);
            let _ = parse_file("m.proto", &text);
        }
    }
}

/// Asserts that parsing `text` takes well under a second.
fn parses_quickly(what: &str, text: &str) {
    let start = Instant::now();
    let _ = parse_file("big.proto", text);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "{what}: {took:?}");
}

#[test]
fn deep_and_long_inputs_stay_linear() {
    let n = 100_000;
    parses_quickly("nested messages", &"message A {".repeat(n));
    parses_quickly(
        "nested braces in an option",
        &format!("option (a) = {}", "{".repeat(n)),
    );
    parses_quickly(
        "nested groups",
        &format!(
            "syntax = \"proto2\";\nmessage A {{ {}",
            "optional group G = 1 {".repeat(n)
        ),
    );
    parses_quickly("unmatched braces", &"}".repeat(n));
    parses_quickly("block comments", &"/* a */\n".repeat(n));
    parses_quickly("line comments", &"// a\n\n".repeat(n));
    parses_quickly(
        "long option name",
        &format!("option a{} = 1;", ".b".repeat(n)),
    );
    parses_quickly(
        "concatenated strings",
        &format!("option a = {};", "\"ab\" ".repeat(n)),
    );
    parses_quickly("control characters", &"\u{1}".repeat(n));
    parses_quickly(
        "ranges sharing options",
        &format!(
            "syntax = \"proto2\";\nmessage A {{ extensions {} [{}]; }}",
            (1..n).map(|i| i.to_string()).collect::<Vec<_>>().join(","),
            vec!["(a) = 1"; 1000].join(",")
        ),
    );
    let mut colliding = String::from("syntax = \"proto3\";\nmessage A {\n");
    for _ in 0..5000 {
        colliding.push_str("optional int32 a = 1;\n");
    }
    colliding.push('}');
    parses_quickly("colliding synthetic oneofs", &colliding);
}

#[test]
fn nesting_stops_at_protocs_limit() {
    let nested = |depth: usize| {
        let mut text = String::from("syntax = \"proto2\";\n");
        text.push_str(&"message A {\n".repeat(depth));
        text.push_str(&"}\n".repeat(depth));
        text
    };
    assert!(parse_file("a.proto", &nested(31)).is_ok());
    let errors = parse_file("a.proto", &nested(32)).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "a.proto:33:1: Reached maximum recursion limit for nested messages."
    );
}

/// Parsing speed over googleapis (run by hand: `cargo test --release
/// parse_speed -- --ignored --nocapture`).
#[test]
#[ignore]
fn parse_speed() {
    let root = crate::corpus_cache::googleapis().join("google");
    let mut texts = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "proto") {
                texts.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let start = Instant::now();
    for text in &texts {
        let _ = parse_file("x.proto", text);
    }
    let took = start.elapsed();
    eprintln!(
        "{} files, {} MB in {took:?}: {:.1} MB/s",
        texts.len(),
        bytes / 1_000_000,
        bytes as f64 / 1e6 / took.as_secs_f64()
    );
}
