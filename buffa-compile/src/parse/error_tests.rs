//! protoc's parse errors, wording, line and column, on bad inputs: each
//! case is run through protoc and compared with the parser's errors.

use protoc_runner::Protoc;

use super::parse_file;
use super::tests::temp_path;

/// Bad inputs, each checked against protoc's first error (wording, line
/// and column).
const BAD: &[&str] = &[
    "syntax = \"proto2\"\nmessage A {}\n",
    "syntax = \"proto3\";\nfoo\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = ; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 99999999999; }\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"abc]; }\n",
    "syntax = \"proto2\";\n/* unterminated\nmessage A {}\n",
    "syntax = \"proto2\";\noption java_package = \"\\q\";\n",
    "syntax = \"proto4\";\n",
    "edition = \"2025\";\n",
    "syntax = \"proto2\";\nmessage A { required int32 x = 1; } }\n",
    "syntax = \"proto3\";\nmessage A { int32 x = 1;\n",
    "syntax = \"proto2\";\nmessage A { optional group foo = 1 {} }\n",
    "syntax = \"proto2\";\nmessage A { oneof o { map<int32,int32> m = 1; } }\n",
    "syntax = \"proto2\";\nmessage A { int32 x = 1; }\n",
    "syntax = \"proto2\";\nenum E { A = 1; option allow_alias = false; }\n",
    "syntax = \"proto2\";\nenum E { A = 1; B = 2; option allow_alias = true; }\n",
    "syntax = \"proto2\";\nmessage A { optional uint32 x = 1 [default = -1]; }\n",
    "syntax = \"proto2\";\nmessage A { reserved foo; }\n",
    "edition = \"2023\";\nmessage A { reserved \"foo\"; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 2147483647; }\n",
    "syntax = \"proto2\";\n\tmessage A {\n\t\toptional int32 x = 1\n\t}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 0x; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 08; }\n",
    "syntax = \"proto2\";\noption java_package = -\"a\";\n",
    "syntax = \"proto2\";\noption java_package = -foo;\n",
    "syntax = \"proto2\";\noption java_package = { a: 1 \n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [json_name = \"a\", json_name = \"b\"]; }\n",
    "syntax = \"proto2\";\nmessage \u{e9} {}\n",
    "syntax = \"proto2\";\u{1}\n",
    "syntax = \"proto2\";\nimport weak;\n",
    "edition = \"2023\";\nimport option \"a.proto\";\n",
    "edition = \"2024\";\nimport option \"a.proto\";\nimport \"b.proto\";\n",
    "edition = \"2024\";\nimport weak \"a.proto\";\n",
    "edition = \"2024\";\nmessage A { export int32 x = 1; }\n",
    "syntax = \"proto3\";\nexport message A {}\n",
    "edition = \"2023\";\nlocal message A {}\n",
    "edition = \"2024\";\nexport service S {}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 1x = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional double d = 1 [default = 1.5.3]; }\n",
    "syntax = \"proto3\";\nservice S { rpc M(A) returns (B) }\n",
    "syntax = \"proto2\";\nmessage B { extensions max; }\n",
    "syntax = \"proto2\";\npackage a.b;\npackage c;\n",
    "syntax = \"proto2\";\nmessage A { optional int32 a = 1 [default = 1, default = 2]; }\n",
    "syntax = \"proto2\";\nmessage A { optional group G = 1; }\n",
    "syntax = \"proto2\";\nmessage A {\n  option map_entry = true;\n}\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"\\u12\"]; }\n",
    "syntax = \"proto2\";\n/* a /* b */\nmessage A {}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [(foo.) = 1]; }\n",
    "edition = \"2023\";\nmessage A { optional int32 x = 1; }\n",
    "edition = \"2023\";\nmessage A { group G = 1 {} }\n",
    "syntax = \"proto2\";\nmessage A { reserved 5 to max, \"a\"; }\n",
    "syntax = \"proto2\";\nenum E { reserved -5 to foo; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 y = 2 [default = 9223372036854775808]; }\n",
    "syntax = \"proto2\";\nmessage A { repeated map<int32, int32> m = 1; }\n",
    "syntax = \"proto2\";\nextend A { map<int32,int32> m = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional bool b = 1 [default = yes]; }\n",
    "syntax = \"proto2\";\noption java_package = \"abc\ndef\";\n",
    "syntax = \"proto2\";\nmessage A { optional A a = 1 [default = 1]; optional int32 b = 2 [default = x]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = 1.5]; }\n",
    "syntax = \"proto2\";\nservice S { rpc M(int32) returns (A); }\n",
    "syntax = \"proto2\";\nservice S { rpc M(stream A) returns (stream B) { option deprecated = true } }\n",
    "syntax = \"proto2\";\nmessage A { oneof o { optional int32 x = 1; } }\n",
    "syntax = \"proto2\";\nmessage A { reserved 5, 2147483647; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [packed = true, (a.b).c = 1, d = ]; }\n",
    "syntax = \"proto2\";\nmessage A { optional string x = 1 [default = \"\\U00110000\"]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1e5; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; }\nmessage A.B {}\n",
    "syntax = \"proto2\";\nimport public \"a.proto\" \n",
    "",
    "// only a comment\n}",
    "syntax = \"proto2\";\nenum E { A = 1 [deprecated = true; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 5 [declaration = { number: 1 }; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 }\nmessage B { foo bar baz; optional int32 y = ; }\nenum E { X; Y = ; }\nservice S { rpc ; }\n",
    "syntax = \"proto2\";\nmessage A {\n  optional int32 x = 1;\n  }\n}\n}\nmessage B {}\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"\\xZ\"]; optional string t = 2 [default = \"\\U0020ffff\"]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; }\n/* unterminated /* nested\n",
    "syntax = \"proto2\";\nmessage A { optional double x = 1 [default = 1e]; optional double y = 2 [default = 0x1.5]; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 0xFFFFFFFFFFFFFFFFFF; optional int32 y = 2147483648; }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = -2147483649]; optional int64 y = 2 [default = 9223372036854775808]; }\n",
    "syntax = \"proto2\";\nmessage A { optional uint32 x = 1 [default = 4294967296]; optional uint64 y = 2 [default = 18446744073709551616]; }\n",
    "syntax = \"proto2\";\nmessage A { optional float x = 1 [default = abc]; optional float y = 2 [default = 0777777777777777777777777]; }\n",
    "syntax = \"proto2\";\nmessage A { reserved 1 to; reserved to 5; reserved \"a\" \"b\", c; }\n",
    "syntax = \"proto2\";\nmessage A { extensions 1 to 10 [; extensions; }\n",
    "syntax = \"proto2\";\nenum E { A = -2147483649; B = 2147483648; C = 0x80000000; }\n",
    "syntax = \"proto2\";\nmessage A { oneof { int32 x = 1; } oneof o { } oneof p { option foo; } }\n",
    "syntax = \"proto2\";\nmessage A { map<int32> m = 1; map<int32, int32 m2 = 2; map<,> m3 = 3; }\n",
    "syntax = \"proto2\";\nimport \"a.proto\"\nimport public;\nimport weak 5;\n",
    "syntax = \"proto2\";\npackage ;\npackage a..b;\npackage .a;\n",
    "syntax = \"proto2\";\noption = 1;\noption a;\noption (a = 1;\noption a.(b = 1;\noption a = ;\n",
    "syntax = \"proto2\";\nmessage A { optional group g = 1 { optional int32 a = 2; } optional group H = 2 { optional int32 b = 3 } }\n",
    "syntax = \"proto2\";\nservice S { rpc M(.A) returns (B.C) { option a = 1 } rpc N(A) returns B; rpc O returns (B); }\n",
    "syntax = \"proto2\";\nextend { optional int32 x = 1; }\nextend A { }\nextend A.B { required int32 y = 2 }\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = 1 2]; optional A y = 2 [json_name = 5]; }\n",
    "edition = \"2024\";\nimport option \"a.proto\";\nimport option b.proto;\n",
    "edition = \"2023\";\nmessage A { reserved \"foo\", bar; reserved 1, foo; }\n",
    "edition = \"UNSTABLE\";\nmessage A { sint32 x = 1; fixed64 y = 2; zigzag32 z = 3; }\n",
    "edition = \"2024\";\nlocal export message A {}\nexport local enum E {}\nexport extend A {}\n",
    "syntax = \"proto2\";\n\u{1}\u{2}message A {}\u{7f}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x\u{0} = 1; }\n",
    "syntax = \"proto2\";\nmessage A { optional string s = 1 [default = \"a\n\"]; }\n",
    "syntax = \"proto2\";\nmessage A {\n\toptional\tint32\tx\t=\t1\t[\tdefault\t=\t\"\\q\"\t];\n}\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1; optional int32 y = 2 [default = 1.2.3]; optional int32 z = 3abc; }\n",
    "syntax = \"proto2\";\noption java_package = 1.x;\noption java_package = a.5;\n",
    "syntax = \"proto2\";\nmessage A { optional int32 x = 1 [a = {]; }\n",
    "syntax = \"proto2\" \"x\";\n",
    "syntax = proto2;\n",
    "syntax;\n",
    "edition = 2023;\n",
    "package a;\nsyntax = \"proto2\";\n",
];

/// A message nested `depth` times.
fn nested(depth: usize) -> String {
    let mut text = String::from("syntax = \"proto2\";\n");
    for i in 0..depth {
        text.push_str(&format!("message M{i} {{\n"));
    }
    text.push_str(&"}\n".repeat(depth));
    text
}

/// protoc's errors (not warnings) for `text` as `bad.proto`, in order.
fn protoc_errors(text: &str) -> Vec<String> {
    let dir = temp_path("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.proto"), text).unwrap();
    let result = Protoc::new(["."])
        .in_dir(&dir)
        .run(&["--descriptor_set_out=out.pb", "bad.proto"], b"");
    let errors = match result {
        Ok(_) => Vec::new(),
        Err(stderr) => stderr
            .lines()
            .filter(|l| l.starts_with("bad.proto") && !l.contains(": warning:"))
            .map(str::to_owned)
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    errors
}

#[test]
fn first_errors_match_protoc() {
    let mut cases: Vec<String> = BAD.iter().map(|s| s.to_string()).collect();
    cases.push(nested(31));
    cases.push(nested(32));
    cases.push(nested(200));
    // Groups count toward the limit only in protoc's DescriptorBuilder.
    for (groups, messages) in [(30, 0), (31, 0), (40, 0), (20, 11), (20, 12), (31, 1)] {
        let mut text = String::from("syntax = \"proto2\";\nmessage M {\n");
        for i in 0..groups {
            text.push_str(&format!("optional group G{i} = 1 {{\n"));
        }
        for i in 0..messages {
            text.push_str(&format!("message N{i} {{\n"));
        }
        text.push_str(&"}\n".repeat(groups + messages + 1));
        cases.push(text.clone());
        text.push_str("message After { optional int32 a = 1 }\n");
        cases.push(text);
    }
    let mut failures = Vec::new();
    let (mut first_matches, mut all_match, mut rejected) = (0, 0, 0);
    for text in &cases {
        let theirs = protoc_errors(text);
        let ours: Vec<String> = match parse_file("bad.proto", text) {
            Ok(_) => Vec::new(),
            Err(diagnostics) => diagnostics.iter().map(|d| d.to_string()).collect(),
        };
        if theirs.is_empty() {
            if !ours.is_empty() {
                failures.push(format!(
                    "{text:?}\n  ours: {:?}\n  protoc accepts it",
                    ours[0]
                ));
            }
            continue;
        }
        rejected += 1;
        if ours.first() == theirs.first() {
            first_matches += 1;
            if ours == theirs {
                all_match += 1;
            } else {
                eprintln!(
                    "{text:?}: later errors differ\n  ours:   {ours:?}\n  protoc: {theirs:?}"
                );
            }
        } else {
            failures.push(format!(
                "{text:?}\n  ours:   {:?}\n  protoc: {:?}",
                ours.first(),
                theirs.first()
            ));
        }
    }
    eprintln!(
        "first error as protoc's on {first_matches} of {rejected} bad inputs (all errors on {all_match})"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(rejected > 50);
}
