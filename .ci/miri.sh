#!/usr/bin/env bash
# Runs the buffa runtime's tests under Miri, which checks the unsafe code
# (the write pass into spare buffer memory, `Encoder::from_slice`, the
# pointer behind `UnknownFields`, the decoder's ASCII fast path to `str`,
# `BytesStr` reading its bytes as `str`, and `OnceBox`, the no_std
# default instances' once-cell) for undefined behaviour and leaks.
# buffa/tests/unsafe_sites.rs drives each of those sites through its edges.
#
# The whole suite runs; tests too slow for Miri are scaled down under
# `cfg(miri)` (fewer proptest cases, smaller inputs), and only the ones that
# allocate gigabytes are ignored there. It takes a few minutes.
#
# Miri needs a nightly toolchain; without one this prints SKIPPED and
# succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rustup >/dev/null || ! rustup toolchain list | grep -q '^nightly'; then
    echo "SKIPPED miri: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi

rustup component add --toolchain nightly miri rust-src
cargo +nightly miri setup
time cargo +nightly miri test -p buffa
