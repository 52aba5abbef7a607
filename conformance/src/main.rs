//! `buffa-conformance`: the testee the protobuf conformance runner talks to.
//!
//! Protocol: the runner writes a 4-byte little-endian length and that many
//! bytes of `conformance.ConformanceRequest` to stdin; the testee answers
//! with a 4-byte little-endian length and a `conformance.ConformanceResponse`
//! on stdout, and waits for the next request. End of input ends the process.
//!
//! `BUFFA_CONFORMANCE_MODE=view` round-trips the payloads through borrowed
//! views instead of owned messages, `BUFFA_CONFORMANCE_MODE=dynamic`
//! through dynamic messages of the test protos' descriptors (see
//! [`conformance::Mode`]).

use std::io::{self, ErrorKind, Read, Write};
use std::process::ExitCode;

use buffa::Message;
use conformance::Mode;

fn main() -> ExitCode {
    let mode = match Mode::from_env() {
        Ok(mode) => mode,
        Err(e) => {
            eprintln!("buffa-conformance: {e}");
            return ExitCode::FAILURE;
        }
    };
    match serve(&mut io::stdin().lock(), &mut io::stdout().lock(), mode) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("buffa-conformance: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(input: &mut impl Read, output: &mut impl Write, mode: Mode) -> io::Result<()> {
    let mut tests = 0u64;
    loop {
        let mut len = [0u8; 4];
        match input.read_exact(&mut len) {
            Ok(()) => {}
            // The runner closed the pipe: all tests are done.
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
                eprintln!(
                    "buffa-conformance: answered {tests} requests ({mode:?} mode, protobuf {} \
                     test protos)",
                    conformance::TEST_PROTOS_RELEASE
                );
                return Ok(());
            }
            Err(e) => return Err(e),
        }
        let mut request = vec![0u8; u32::from_le_bytes(len) as usize];
        input.read_exact(&mut request)?;
        let response = conformance::handle(&request, mode).encode_to_vec();
        let response_len = u32::try_from(response.len())
            .map_err(|_| io::Error::other("response longer than 4 GiB"))?;
        output.write_all(&response_len.to_le_bytes())?;
        output.write_all(&response)?;
        output.flush()?;
        tests += 1;
    }
}
