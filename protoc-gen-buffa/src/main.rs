//! # protoc-gen-buffa
//!
//! A protoc plugin that generates Rust code for the `buffa` runtime: the
//! same files, byte for byte, that `buffa-build` writes for the same
//! inputs and options, for projects that run protoc or buf themselves.
//!
//! ```text
//! protoc --plugin=protoc-gen-buffa --buffa_out=src/gen \
//!     --buffa_opt=views,json,include_file=mod.rs -I proto shop/v1/shop.proto
//! ```
//!
//! protoc writes a `CodeGeneratorRequest` to the plugin's stdin; the
//! plugin reads its options from the request's parameter (see `params`),
//! hands the descriptors to `buffa-codegen`, and writes a
//! `CodeGeneratorResponse` to stdout. Errors, including bad options, go
//! into the response, which protoc prints. `docs/protoc-plugin.md`
//! describes the options and the use with buf.

mod generate;
mod params;
mod plugin;

use std::io::{Read, Write};
use std::process::ExitCode;

use prost::Message as _;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    if let Some(arg) = args.next() {
        if arg == "--version" && args.next().is_none() {
            println!("protoc-gen-buffa {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "protoc-gen-buffa: a protoc plugin, run by protoc or buf; it takes no arguments \
             (options go in --buffa_opt=...)\n\
             usage: protoc --plugin=protoc-gen-buffa --buffa_out=DIR [--buffa_opt=OPTIONS] FILES"
        );
        return ExitCode::from(2);
    }
    let mut request = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut request) {
        eprintln!("protoc-gen-buffa: reading the request from stdin: {e}");
        return ExitCode::FAILURE;
    }
    let response = generate::respond(&request).encode_to_vec();
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(&response).and_then(|()| stdout.flush()) {
        eprintln!("protoc-gen-buffa: writing the response to stdout: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
