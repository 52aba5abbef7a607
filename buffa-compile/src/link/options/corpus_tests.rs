//! Interpretation of whole corpora against protoc, before the parser
//! exists: protoc's source info locates every option it interpreted (the
//! span of `name = value`, under the path of the option it became), so
//! the uninterpreted options protoc's parser produced are read back from
//! the text at those spans, interpreted here, and the result compared
//! with protoc's file.

use std::collections::HashMap;
use std::path::Path;

use buffa::Message;
use buffa_descriptor::DescriptorPool;
use buffa_descriptor::rules::{Escapes, unescape};
use buffa_types::google::protobuf::{
    FileDescriptorProto, FileDescriptorSet, UninterpretedOption, uninterpreted_option::NamePart,
};
use protoc_runner::Protoc;

use super::slot::{Which, walk};
use super::wire::put_len;
use super::{interpret, strip_source_retention};

/// protoc's descriptor set for `files` under `include`, with source info.
fn protoc_with_info(include: &Path, files: &[&str]) -> Result<FileDescriptorSet, String> {
    let set = Protoc::new([include])
        .include_imports(true)
        .include_source_info(true)
        .descriptor_set(files)?;
    Ok(FileDescriptorSet::decode_from_slice(&set).unwrap())
}

/// The text of `lines` between two (line, column) positions, columns as
/// protoc counts them (a tab advances to the next multiple of 8).
fn slice(lines: &[&str], start: (usize, usize), end: (usize, usize)) -> Option<String> {
    let byte_at = |line: &str, column: usize| -> usize {
        let mut col = 0;
        for (i, c) in line.char_indices() {
            if col >= column {
                return i;
            }
            col = if c == '\t' {
                col + 8 - col % 8
            } else {
                col + 1
            };
        }
        line.len()
    };
    let mut out = String::new();
    for line_no in start.0..=end.0 {
        let line = lines.get(line_no)?;
        let from = if line_no == start.0 {
            byte_at(line, start.1)
        } else {
            0
        };
        let to = if line_no == end.0 {
            byte_at(line, end.1)
        } else {
            line.len()
        };
        out.push_str(line.get(from..to.max(from))?);
        if line_no != end.0 {
            out.push('\n');
        }
    }
    Some(out)
}

/// `text` with `//` and `/* */` comments blanked, strings kept.
fn without_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '\'' {
            out.push(c);
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    out.push(chars[i]);
                    i += 1;
                }
                out.push(chars[i]);
                i += 1;
            }
            if i < chars.len() {
                out.push(chars[i]);
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Parses `name = value` (after an optional `option` keyword) as
/// protoc's parser records it.
fn parse_option(text: &str) -> Option<UninterpretedOption> {
    let text = without_comments(text);
    let mut rest = text.trim_start();
    if let Some(after) = rest.strip_prefix("option")
        && after.starts_with(|c: char| c.is_whitespace() || c == '(')
    {
        rest = after.trim_start();
    }
    let eq = {
        // The name ends at the first `=` outside parentheses.
        let mut depth = 0;
        rest.char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                c == '=' && depth == 0
            })?
            .0
    };
    let name: String = rest[..eq].chars().filter(|c| !c.is_whitespace()).collect();
    let mut parts = Vec::new();
    let mut n = name.as_str();
    while !n.is_empty() {
        let (part, is_extension, next) = if let Some(inner) = n.strip_prefix('(') {
            let close = inner.find(')')?;
            (&inner[..close], true, &inner[close + 1..])
        } else {
            let end = n.find('.').unwrap_or(n.len());
            (&n[..end], false, &n[end..])
        };
        parts.push(NamePart {
            name_part: Some(part.to_owned()),
            is_extension: Some(is_extension),
            ..Default::default()
        });
        n = next.strip_prefix('.').unwrap_or(next);
    }
    let value = rest[eq + 1..].trim();
    let value = value.strip_suffix(';').unwrap_or(value).trim();
    let mut option = UninterpretedOption {
        name: parts,
        ..Default::default()
    };
    if let Some(inner) = value.strip_prefix('{') {
        option.aggregate_value = Some(inner.strip_suffix('}')?.trim().to_owned());
    } else if value.starts_with('"') || value.starts_with('\'') {
        let mut bytes = Vec::new();
        let mut s = value;
        while !s.is_empty() {
            let quote = s.chars().next()?;
            let body = &s[1..];
            let mut end = None;
            let mut escaped = false;
            for (i, c) in body.char_indices() {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == quote {
                    end = Some(i);
                    break;
                }
            }
            let end = end?;
            bytes.extend(unescape(&body[..end], Escapes::TextFormat).ok()?);
            s = body[end + 1..].trim_start();
        }
        option.string_value = Some(bytes);
    } else {
        let (negative, number) = match value.strip_prefix('-') {
            Some(v) => (true, v.trim_start()),
            None => (false, value),
        };
        if number.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            match (negative, number) {
                (false, _) => option.identifier_value = Some(number.to_owned()),
                (true, "inf") => option.double_value = Some(f64::NEG_INFINITY),
                (true, "nan") => option.double_value = Some(f64::NAN),
                _ => return None,
            }
        } else {
            let integer = if let Some(hex) = number.strip_prefix("0x").or(number.strip_prefix("0X"))
            {
                u64::from_str_radix(hex, 16).ok()
            } else if number.len() > 1
                && number.starts_with('0')
                && number.chars().all(|c| c.is_ascii_digit())
            {
                u64::from_str_radix(&number[1..], 8).ok()
            } else {
                number.parse::<u64>().ok()
            };
            match integer {
                Some(v) if negative && v <= 1 << 63 => {
                    option.negative_int_value = Some((v as i64).wrapping_neg())
                }
                Some(v) if !negative => option.positive_int_value = Some(v),
                _ => {
                    let d: f64 = number.trim_end_matches(['f', 'F']).parse().ok()?;
                    option.double_value = Some(if negative { -d } else { d });
                }
            }
        }
    }
    Some(option)
}

/// `file` as protoc's parser left it, read back from its source info and
/// `text`: each options message holding the options located under it,
/// in source order. `None` when an option's text cannot be read back.
fn uninterpreted_from_source(
    file: &FileDescriptorProto,
    text: &str,
) -> Option<FileDescriptorProto> {
    let lines: Vec<&str> = text.lines().collect();
    let mut paths = Vec::new();
    let mut probe = file.clone();
    walk(&mut probe, Which::Every, &mut |element, _| {
        paths.push(element.options_path.clone())
    });
    let mut by_element: HashMap<Vec<i32>, Vec<(Vec<i32>, UninterpretedOption)>> = HashMap::new();
    let info = file.source_code_info.as_option()?;
    for location in &info.location {
        let Some(options_path) = paths
            .iter()
            .filter(|p| location.path.len() > p.len() && location.path.starts_with(p))
            .max_by_key(|p| p.len())
        else {
            continue;
        };
        let span = &location.span;
        let (start, end) = match span.as_slice() {
            [l, c, e] => ((*l as usize, *c as usize), (*l as usize, *e as usize)),
            [l, c, el, ec] => ((*l as usize, *c as usize), (*el as usize, *ec as usize)),
            _ => return None,
        };
        let option_text = slice(&lines, start, end)?;
        let Some(option) = parse_option(&option_text) else {
            eprintln!("cannot read back {option_text:?}");
            return None;
        };
        by_element
            .entry(options_path.clone())
            .or_default()
            .push(((start.0 as i32, start.1 as i32).into_vec(), option));
    }
    let count: usize = by_element.values().map(Vec::len).sum();
    OPTIONS_READ.fetch_add(count, std::sync::atomic::Ordering::Relaxed);
    let mut file = file.clone();
    file.source_code_info = Default::default();
    walk(&mut file, Which::Every, &mut |element, slot| {
        let Some(list) = by_element.get_mut(&element.options_path) else {
            return;
        };
        list.sort_by(|a, b| a.0.cmp(&b.0));
        let mut bytes = Vec::new();
        for (_, option) in list.iter() {
            put_len(&mut bytes, 999, &option.encode_to_vec());
        }
        slot.clear();
        let _ = slot.replace(&bytes);
    });
    Some(file)
}

/// How many options the corpus tests read back, for their report.
static OPTIONS_READ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A position as a sortable pair.
trait IntoVec {
    /// The pair as a vector.
    fn into_vec(self) -> Vec<i32>;
}

impl IntoVec for (i32, i32) {
    fn into_vec(self) -> Vec<i32> {
        vec![self.0, self.1]
    }
}

/// The outcome of one file of a corpus.
enum Outcome {
    /// The file's options are protoc's, byte for byte.
    Same,
    /// They are not: what differs.
    Different(String),
    /// The file's options could not be read back from its text.
    Unreadable,
}

/// Interprets `name` (the last file of `set`, read from `include`) and
/// compares it with protoc's.
fn check(set: &FileDescriptorSet, include: &Path, name: &str) -> Outcome {
    let Some(index) = set.file.iter().position(|f| f.name() == name) else {
        return Outcome::Unreadable;
    };
    let expected_with_info = &set.file[index];
    let Ok(text) = std::fs::read_to_string(include.join(name)) else {
        return Outcome::Unreadable;
    };
    let Some(mut file) = uninterpreted_from_source(expected_with_info, &text) else {
        return Outcome::Unreadable;
    };
    let mut expected = expected_with_info.clone();
    expected.source_code_info = Default::default();
    let deps: Vec<_> = set.file[..index]
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.source_code_info = Default::default();
            f
        })
        .collect();
    let build = |file: &FileDescriptorProto| {
        let mut pool = DescriptorPool::new();
        for dep in &deps {
            pool.add_file_descriptor_proto(dep.clone()).ok()?;
        }
        match pool.add_file_descriptor_proto(file.clone()) {
            Ok(()) => Some(pool),
            Err(e) => {
                eprintln!("{name}: the pool rejects the file: {e}");
                None
            }
        }
    };
    // A pool checks rules that depend on options (`allow_alias`,
    // `message_set_wire_format`, features): where the file with its options
    // uninterpreted breaks them, its names are taken from protoc's file.
    let Some(pool) = build(&file).or_else(|| build(&expected)) else {
        return Outcome::Unreadable;
    };
    if let Err(errors) = interpret(&mut file, &pool) {
        return Outcome::Different(format!("{name}: rejected: {errors:?}"));
    }
    let Some(final_pool) = build(&file) else {
        return Outcome::Different(format!("{name}: interpreted file does not build"));
    };
    strip_source_retention(&mut file, &final_pool);
    if file.encode_to_vec() == expected.encode_to_vec() {
        Outcome::Same
    } else {
        if let Ok(dir) = std::env::var("BUFFA_OPTIONS_DIFF_DIR") {
            let base = Path::new(&dir).join(name.replace('/', "_"));
            let _ = std::fs::write(base.with_extension("ours"), format!("{file:#?}"));
            let _ = std::fs::write(base.with_extension("protoc"), format!("{expected:#?}"));
        }
        Outcome::Different(format!(
            "{name}: differs (BUFFA_OPTIONS_DIFF_DIR=dir writes both)"
        ))
    }
}

/// Runs [`check`] on each of `files`; (same, different, unreadable) and
/// the first differences.
fn corpus(include: &Path, files: &[String]) -> (usize, Vec<String>, usize) {
    let mut same = 0;
    let mut different = Vec::new();
    let mut unreadable = 0;
    for name in files {
        let Ok(set) = protoc_with_info(include, &[name]) else {
            continue;
        };
        match check(&set, include, name) {
            Outcome::Same => same += 1,
            Outcome::Different(d) => different.push(d),
            Outcome::Unreadable => {
                eprintln!("not read back: {name}");
                unreadable += 1
            }
        }
    }
    (same, different, unreadable)
}

/// The `.proto` files directly in `dir`, as names under `include`.
fn protos_in(include: &Path, dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(include.join(dir))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".proto"))
                .map(|n| format!("{dir}/{n}"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Prints and asserts the outcome of a corpus.
fn assert_corpus(label: &str, include: &Path, files: &[String]) {
    let (same, different, unreadable) = corpus(include, files);
    eprintln!(
        "{label}: options identical to protoc's on {same} files, different on {}, {unreadable} not read back ({} options so far)",
        different.len(),
        OPTIONS_READ.load(std::sync::atomic::Ordering::Relaxed)
    );
    for d in different.iter().take(3) {
        eprintln!("{d}\n");
    }
    assert!(different.is_empty(), "{} files differ", different.len());
    assert!(same > 0);
}

#[test]
fn protobuf_test_protos() {
    let Ok(dir) = protobuf_sources::protobuf_source_dir() else {
        return;
    };
    let include = dir.join("src");
    let files = protos_in(&include, "google/protobuf");
    assert_corpus("protobuf 27.1 test protos", &include, &files);
}

#[test]
fn googleapis_api_protos() {
    let include = crate::corpus_cache::googleapis();
    let mut files = protos_in(&include, "google/api");
    files.extend(protos_in(&include, "google/cloud/run/v2"));
    files.extend(protos_in(&include, "google/pubsub/v1"));
    assert_corpus(
        "googleapis (google/api, cloud/run/v2, pubsub/v1)",
        &include,
        &files,
    );
}

#[test]
fn protobuf_33_conformance_protos() {
    let include = crate::corpus_cache::protobuf_33_include();
    let files = protos_in(&include, "google/protobuf");
    assert_corpus("protobuf 33.2 conformance protos", &include, &files);
}

/// Every `.proto` file under `dir` (relative to `include`), recursively.
fn protos_under(include: &Path, dir: &str) -> Vec<String> {
    let mut names = protos_in(include, dir);
    if let Ok(entries) = std::fs::read_dir(include.join(dir)) {
        let mut subdirs: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
            .collect();
        subdirs.sort();
        for sub in subdirs {
            names.extend(protos_under(include, &sub));
        }
    }
    names
}

/// All of googleapis (8,000 files, minutes): `cargo test -p buffa-compile
/// --lib googleapis_all -- --ignored --nocapture`.
#[test]
#[ignore]
fn googleapis_all() {
    let include = crate::corpus_cache::googleapis();
    let step: usize = std::env::var("BUFFA_OPTIONS_STEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let root = std::env::var("BUFFA_OPTIONS_DIR").unwrap_or_else(|_| "google".to_owned());
    let files: Vec<String> = protos_under(&include, &root)
        .into_iter()
        .step_by(step)
        .collect();
    assert_corpus("googleapis", &include, &files);
}

/// Compiles `BUFFA_OPTIONS_FILE` under googleapis end to end and writes
/// ours and protoc's sets (debug form) to `BUFFA_OPTIONS_DIFF_DIR`.
#[test]
#[ignore]
fn end_to_end_one_file() {
    let include = crate::corpus_cache::googleapis();
    let name = std::env::var("BUFFA_OPTIONS_FILE").unwrap();
    let dir = std::env::var("BUFFA_OPTIONS_DIFF_DIR").unwrap();
    let mut compiler = crate::Compiler::new();
    compiler.include(&include);
    let ours = compiler.compile(&[&name]).map_err(|e| e.to_string());
    let mut protoc = protoc_with_info(&include, &[&name]).unwrap();
    for f in &mut protoc.file {
        f.source_code_info = Default::default();
    }
    std::fs::write(format!("{dir}/e2e.ours"), format!("{ours:#?}")).unwrap();
    std::fs::write(
        format!("{dir}/e2e.protoc"),
        format!("{:#?}", Ok::<_, String>(protoc)),
    )
    .unwrap();
}

/// Mutations of protobuf's custom-options test file (every kind of
/// option, aggregates, sub-fields) through the whole compiler: errors are
/// fine, panics are not.
#[test]
fn mutated_options_never_panic() {
    let Ok(dir) = protobuf_sources::protobuf_source_dir() else {
        return;
    };
    let path = dir.join("src/google/protobuf/unittest_custom_options.proto");
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let bytes = text.as_bytes();
    let pieces: [&[u8]; 12] = [
        b"(",
        b")",
        b".",
        b"=",
        b"{",
        b"}",
        b"-",
        b"\"",
        b"[",
        b"]",
        b"9999999999999999999999",
        b"inf",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let rounds: usize = std::env::var("BUFFA_OPTIONS_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    for _ in 0..rounds {
        let mut mutated = bytes.to_vec();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % mutated.len();
            match next() % 3 {
                0 => {
                    mutated.remove(at);
                }
                1 => {
                    let piece = pieces[(next() as usize) % pieces.len()];
                    mutated.splice(at..at, piece.iter().copied());
                }
                _ => {
                    let len = (next() as usize % 16).min(mutated.len() - at);
                    mutated.drain(at..at + len);
                }
            }
        }
        let mutated = String::from_utf8_lossy(&mutated).into_owned();
        let mut compiler = crate::Compiler::new();
        compiler.source("google/protobuf/unittest_custom_options.proto", mutated);
        let _ = compiler.compile(&["google/protobuf/unittest_custom_options.proto"]);
    }
}
