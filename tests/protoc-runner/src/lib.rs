//! protoc for tests and the corpus tools: the one place the workspace
//! finds the protoc binary and the well-known types, and runs it.
//!
//! protoc is the independent reference most tests compare with: its
//! `--encode` and `--decode` modes run the C++ implementation on text
//! format, and `--descriptor_set_out` is the descriptor set buffa's own
//! compiler must match.
//!
//! ```no_run
//! let protoc = protoc_runner::Protoc::new(["proto"]);
//! let set = protoc.clone().include_imports(true).descriptor_set(&["a.proto"])?;
//! let encoded = protoc.run(&["--encode=pkg.Msg", "a.proto"], b"x: 1")?;
//! # Ok::<(), String>(())
//! ```

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The protoc binary: `PROTOC` when set (as buffa-build finds it), the
/// vendored one otherwise.
///
/// # Panics
///
/// If `PROTOC` is unset and protoc-bin-vendored has no binary for this
/// platform.
pub fn binary() -> PathBuf {
    match std::env::var_os("PROTOC") {
        Some(path) => PathBuf::from(path),
        None => {
            protoc_bin_vendored::protoc_bin_path().expect("a vendored protoc for this platform")
        }
    }
}

/// The directory holding `google/protobuf/*.proto`, as vendored with the
/// binary.
///
/// # Panics
///
/// If protoc-bin-vendored has no include directory.
pub fn well_known_types() -> PathBuf {
    protoc_bin_vendored::include_path().expect("the vendored well-known types")
}

/// protoc with its include paths (`--proto_path`): the caller's, in order,
/// then the well-known types; and what a descriptor set holds besides the
/// files named (nothing, as protoc's own defaults, until asked).
#[derive(Clone, Debug)]
pub struct Protoc {
    includes: Vec<PathBuf>,
    current_dir: Option<PathBuf>,
    include_imports: bool,
    include_source_info: bool,
}

impl Protoc {
    /// protoc reading `includes`, then the well-known types.
    pub fn new<P: Into<PathBuf>>(includes: impl IntoIterator<Item = P>) -> Protoc {
        let mut includes: Vec<PathBuf> = includes.into_iter().map(Into::into).collect();
        includes.push(well_known_types());
        Protoc {
            includes,
            current_dir: None,
            include_imports: false,
            include_source_info: false,
        }
    }

    /// Runs protoc in `dir` (for file names relative to it).
    pub fn in_dir(mut self, dir: impl AsRef<Path>) -> Protoc {
        self.current_dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Whether [`Protoc::descriptor_set`] holds the files the named ones
    /// import, transitively (`--include_imports`).
    pub fn include_imports(mut self, include: bool) -> Protoc {
        self.include_imports = include;
        self
    }

    /// Whether [`Protoc::descriptor_set`] holds source locations and
    /// comments (`--include_source_info`).
    pub fn include_source_info(mut self, include: bool) -> Protoc {
        self.include_source_info = include;
        self
    }

    /// The include arguments (`--proto_path=DIR`, one per directory), for
    /// a caller that runs [`binary`] its own way (and sets the directory
    /// of [`Protoc::in_dir`] itself, if it uses one).
    pub fn include_args(&self) -> impl Iterator<Item = String> + '_ {
        self.includes
            .iter()
            .map(|include| format!("--proto_path={}", include.display()))
    }

    /// Runs protoc with `args` after the include paths and `input` on its
    /// standard input: its standard output, or, when it fails, its error
    /// output.
    pub fn run(&self, args: &[impl AsRef<OsStr>], input: &[u8]) -> Result<Vec<u8>, String> {
        let mut command = Command::new(binary());
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        let mut child = command
            .args(self.include_args())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run protoc: {e}"))?;
        let mut stdin = child.stdin.take().expect("protoc's stdin is piped");
        // protoc may exit without reading (on a bad file); its output says
        // why, so a broken pipe here is not the error to report.
        let _ = stdin.write_all(input);
        drop(stdin);
        let output = child
            .wait_with_output()
            .map_err(|e| format!("protoc did not finish: {e}"))?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    }

    /// The arguments that make protoc write the descriptor set of `files`
    /// to `out`, with what [`Protoc::include_imports`] and
    /// [`Protoc::include_source_info`] asked for (include paths not
    /// included).
    pub fn descriptor_set_args(&self, files: &[impl AsRef<OsStr>], out: &Path) -> Vec<OsString> {
        let mut out_arg = OsString::from("--descriptor_set_out=");
        out_arg.push(out);
        let mut args = vec![out_arg];
        if self.include_imports {
            args.push("--include_imports".into());
        }
        if self.include_source_info {
            args.push("--include_source_info".into());
        }
        args.extend(files.iter().map(|file| file.as_ref().to_owned()));
        args
    }

    /// The encoded `FileDescriptorSet` of `files`, holding what
    /// [`Protoc::include_imports`] and [`Protoc::include_source_info`]
    /// asked for; or protoc's error output.
    pub fn descriptor_set(&self, files: &[impl AsRef<OsStr>]) -> Result<Vec<u8>, String> {
        self.run(
            &self.descriptor_set_args(files, Path::new("/dev/stdout")),
            &[],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory holding `a.proto`, one per test (`tag`): the tests
    /// run in parallel, and a file being rewritten reads as empty.
    fn fixture(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("protoc-runner-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.proto"),
            "syntax = \"proto3\";\nimport \"google/protobuf/duration.proto\";\n\
             // The message of the tests.\n\
             message A { int32 x = 1; google.protobuf.Duration d = 2; }\n",
        )
        .unwrap();
        dir
    }

    #[test]
    fn encodes_and_decodes_text() {
        let protoc = Protoc::new([fixture("text")]);
        let encoded = protoc.run(&["--encode=A", "a.proto"], b"x: 150").unwrap();
        assert_eq!(encoded, [0x08, 0x96, 0x01]);
        let text = protoc.run(&["--decode=A", "a.proto"], &encoded).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), "x: 150\n");
    }

    #[test]
    fn descriptor_sets_hold_the_imports_when_asked() {
        let protoc = Protoc::new([fixture("set")]);
        let alone = protoc.descriptor_set(&["a.proto"]).unwrap();
        let with_imports = protoc
            .include_imports(true)
            .descriptor_set(&["a.proto"])
            .unwrap();
        // duration.proto's name is in a.proto's imports in both sets, and
        // the name of a file of its own only in the one with imports.
        let needle = b"google/protobuf/duration.proto";
        let holds = |set: &[u8]| set.windows(needle.len()).filter(|w| w == needle).count();
        assert_eq!(holds(&alone), 1, "the import is named by a.proto only");
        assert_eq!(holds(&with_imports), 2, "and is a file of its own");
    }

    #[test]
    fn descriptor_sets_hold_comments_when_asked() {
        let protoc = Protoc::new([fixture("source-info")]);
        let comment = b" The message of the tests.";
        let holds = |set: &[u8]| set.windows(comment.len()).any(|w| w == comment);
        assert!(!holds(&protoc.descriptor_set(&["a.proto"]).unwrap()));
        let with_source_info = protoc
            .include_source_info(true)
            .descriptor_set(&["a.proto"])
            .unwrap();
        assert!(holds(&with_source_info));
    }

    #[test]
    fn errors_are_protoc_s_own() {
        let protoc = Protoc::new([fixture("errors")]);
        let error = protoc
            .run(&["--encode=A", "missing.proto"], b"")
            .unwrap_err();
        assert!(error.contains("missing.proto"), "{error}");
        let error = protoc
            .run(&["--encode=A", "a.proto"], b"x: \"no\"")
            .unwrap_err();
        assert!(error.contains("input:1:4: Expected integer"), "{error}");
    }
}
