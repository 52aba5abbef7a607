//! Differential testing against protoc: random edits of valid files,
//! parsed by both.

use std::path::Path;

use super::parse_file;
use super::robustness_tests::{Rng, mutate};
use super::tests::{first_difference, proto_files, protoc_files, temp_path, unlinked};

/// Random edits of the edge-case files, each parsed by both: when protoc
/// accepts, source info and structure are protoc's; when the parser
/// rejects, its first error is protoc's. (`PARSE_MUTANTS` sets how many,
/// `PARSE_MUTANTS_SEED` the generator's seed;
/// when only protoc rejects, the error may be linking's and is not
/// checked.)
#[test]
fn mutants_parse_as_protoc_parses_them() {
    let count: usize = std::env::var("PARSE_MUTANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/parse/testdata");
    let root = temp_path("mutants");
    std::fs::create_dir_all(root.join("edge")).unwrap();
    let mut seeds = Vec::new();
    for dir in ["", "edge"] {
        for name in proto_files(&testdata, dir, false) {
            let name = name.trim_start_matches('/').to_owned();
            let text = std::fs::read_to_string(testdata.join(&name)).unwrap();
            std::fs::write(root.join(&name), &text).unwrap();
            if dir.is_empty() {
                seeds.push(text);
            }
        }
    }
    // Some of protobuf's test protos too (options and aggregates, maps,
    // proto3), with what they import.
    let protobuf = protobuf_sources::protobuf_source_dir()
        .expect("protobuf sources")
        .join("src");
    std::fs::create_dir_all(root.join("google/protobuf")).unwrap();
    for name in [
        "unittest_custom_options.proto",
        "unittest_proto3.proto",
        "map_unittest.proto",
        "unittest_import.proto",
        "unittest_import_public.proto",
        "unittest_proto3_optional.proto",
    ] {
        let relative = format!("google/protobuf/{name}");
        let text = std::fs::read_to_string(protobuf.join(&relative)).unwrap();
        std::fs::write(root.join(&relative), &text).unwrap();
        seeds.push(text);
    }
    let name = "mutant.proto".to_owned();
    let seed = std::env::var("PARSE_MUTANTS_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let (mut both_accept, mut both_reject, mut protoc_only) = (0, 0, 0);
    for _ in 0..count {
        let seed = &seeds[rng.below(seeds.len())];
        let text = mutate(seed, &mut rng);
        std::fs::write(root.join(&name), &text).unwrap();
        let theirs = protoc_files(&root, std::slice::from_ref(&name));
        let ours = parse_file(&name, &text);
        match (theirs, ours) {
            (Ok(theirs), Ok(ours)) => {
                both_accept += 1;
                if let Some(difference) = first_difference(&ours, &theirs[0]) {
                    failures.push(format!("{text:?}\n  source info differs at {difference}"));
                } else if unlinked(ours) != unlinked(theirs[0].clone()) {
                    failures.push(format!("{text:?}\n  structure differs"));
                }
            }
            (Err(stderr), Err(errors)) => {
                both_reject += 1;
                // protoc names the file by its path on disk here.
                let theirs = stderr
                    .lines()
                    .find(|l| l.contains("mutant.proto") && !l.contains(": warning:"));
                let ours = errors[0].to_string();
                if !theirs.is_some_and(|t| t == ours || t.ends_with(&format!("/{ours}"))) {
                    failures.push(format!(
                        "{text:?}\n  ours:   {ours:?}\n  protoc: {theirs:?}"
                    ));
                }
            }
            (Err(stderr), Ok(_)) => {
                protoc_only += 1;
                if std::env::var_os("PARSE_MUTANTS_VERBOSE").is_some() {
                    eprintln!("protoc only: {}", stderr.lines().next().unwrap_or_default());
                }
            }
            (Ok(_), Err(errors)) => failures.push(format!(
                "{text:?}\n  ours: {:?}, protoc accepts",
                errors[0].to_string()
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    eprintln!(
        "{count} mutants: {both_accept} accepted by both, {both_reject} rejected by both, \
         {protoc_only} rejected by protoc only (linking), {} differ",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
