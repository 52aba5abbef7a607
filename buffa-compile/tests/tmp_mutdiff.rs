mod support;
use buffa::Message;
use buffa_compile::Compiler;
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
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        .collect();
    match rng.below(4) {
        0 => {
            lines.remove(rng.below(lines.len()));
            lines.join("\n")
        }
        1 => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i]);
            lines.join("\n")
        }
        _ => {
            let from = words[rng.below(words.len())];
            let to = words[rng.below(words.len())];
            let occ: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
            let at = occ[rng.below(occ.len())];
            format!("{}{to}{}", &text[..at], &text[at + from.len()..])
        }
    }
}
#[test]
fn mutdiff() {
    let src = support::protobuf_src();
    let dir = src.join("google/protobuf");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".proto"))
        .collect();
    names.sort();
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut rng = Rng(std::env::var("SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12345));
    let tmp = std::env::temp_dir().join("mutdiff");
    let _ = std::fs::remove_dir_all(&tmp);
    let (mut same_ok, mut same_err, mut diff) = (0, 0, 0);
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let vname = format!("google/protobuf/{name}");
        for _ in 0..n {
            let broken = mutate(&text, &mut rng);
            // a tree: copy of src with the mutated file overlaid via a separate include dir first
            std::fs::create_dir_all(tmp.join("google/protobuf")).unwrap();
            std::fs::write(tmp.join(&vname), &broken).unwrap();
            let protoc = protoc_bin_vendored::protoc_bin_path().unwrap();
            let out = std::process::Command::new(protoc)
                .current_dir(&tmp)
                .arg("--include_imports")
                .arg("--descriptor_set_out=/dev/stdout")
                .arg("-I.")
                .arg(format!("-I{}", src.display()))
                .arg(&vname)
                .output()
                .unwrap();
            let ours = Compiler::new()
                .include(&tmp)
                .include(&src)
                .compile(&[vname.as_str()]);
            match (ours, out.status.success()) {
                (Ok(set), true) => {
                    if set.encode_to_vec() == out.stdout {
                        same_ok += 1
                    } else {
                        diff += 1;
                        println!("BYTES {vname}")
                    }
                }
                (Err(e), false) => {
                    let theirs = String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_owned();
                    let ours = e.diagnostics()[0].to_string();
                    if ours == theirs {
                        same_err += 1
                    } else {
                        diff += 1;
                        println!("ERR ours: {ours}\n    protoc: {theirs}")
                    }
                }
                (Ok(_), false) => {
                    diff += 1;
                    println!(
                        "ACCEPTED protoc: {}",
                        String::from_utf8_lossy(&out.stderr)
                            .lines()
                            .next()
                            .unwrap_or("")
                    )
                }
                (Err(e), true) => {
                    diff += 1;
                    println!("REFUSED ours: {}", e.diagnostics()[0])
                }
            }
            std::fs::remove_file(tmp.join(&vname)).unwrap();
        }
    }
    println!("same ok {same_ok}, same err {same_err}, diff {diff}");
}
