//! Real files, slightly broken: lines dropped or repeated, names and
//! numbers swapped for others of the same file. Whatever the linker makes
//! of them, it must not panic, its diagnostics must point inside the file
//! they name, and what it accepts the descriptor pool must accept too (the
//! fuzz target's checks, on inputs that get past the parser).

mod support;

use buffa_compile::Compiler;
use buffa_descriptor::DescriptorPool;

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `text` changed in one of a few ways.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        .collect();
    match rng.below(4) {
        0 if !lines.is_empty() => {
            lines.remove(rng.below(lines.len()));
            lines.join("\n")
        }
        1 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i]);
            lines.join("\n")
        }
        _ if !words.is_empty() => {
            // Replace one occurrence of a word with another word of the
            // file: a type for a name, a number for a number, and so on.
            let from = words[rng.below(words.len())];
            let to = words[rng.below(words.len())];
            let occurrences: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
            let at = occurrences[rng.below(occurrences.len())];
            format!("{}{to}{}", &text[..at], &text[at + from.len()..])
        }
        _ => text.to_owned(),
    }
}

#[test]
fn broken_real_files_never_panic_and_never_pass_what_the_pool_refuses() {
    let src = support::protobuf_src();
    let dir = src.join("google/protobuf");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".proto"))
        .collect();
    names.sort();
    // BUFFA_MUTATIONS=n tries n variants of each file (8 by default), with
    // a seed of its own.
    let variants: u64 = std::env::var("BUFFA_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ variants);
    let (mut accepted, mut refused) = (0, 0);
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let virtual_name = format!("google/protobuf/{name}");
        for _ in 0..variants {
            let broken = mutate(&text, &mut rng);
            let mut compiler = Compiler::new();
            compiler
                .include(&src)
                .source(virtual_name.clone(), broken.clone())
                .include_source_info(true);
            match compiler.compile(&[virtual_name.as_str()]) {
                Ok(set) => {
                    accepted += 1;
                    if let Err(e) = DescriptorPool::from_file_descriptor_set(set) {
                        panic!("{virtual_name}: compiled, but the pool refuses it: {e}\n{broken}");
                    }
                }
                Err(error) => {
                    refused += 1;
                    let _ = error.render();
                    for d in error.diagnostics() {
                        if d.file == virtual_name {
                            assert!(
                                d.line as usize <= broken.lines().count().max(1),
                                "{d} points outside the file"
                            );
                        }
                    }
                }
            }
        }
    }
    println!("{accepted} broken files accepted, {refused} refused");
    assert!(accepted > 0 && refused > 0);
}
