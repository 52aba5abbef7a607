#!/usr/bin/env bash
# Runs the runtime's tests without its `std` feature (unit tests and
# doctests; the integration tests, whose fixtures use `HashMap`, compile to
# nothing there), then builds the no_std test crate (tests/no-std: code
# generated with `Config::no_std()` against buffa without its `std`
# feature) for thumbv7em-none-eabihf, a bare-metal target with no std at all: if
# anything in its dependency graph needs std, the build fails with "can't
# find crate for `std`". The target has atomic compare-and-swap, which
# `bytes` and buffa's `OnceBox` need.
#
# `-Zbuild-std` builds core and alloc from source, so it needs a nightly
# toolchain (its rust-src component is added here) but no installed target;
# without nightly this prints SKIPPED and succeeds. The crate's tests (`cargo test -p
# buffa-no-std-test`, part of the workspace tests) check its messages
# against protoc on the host.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test -p buffa --no-default-features

if ! command -v rustup >/dev/null || ! rustup toolchain list | grep -q '^nightly'; then
    echo "SKIPPED no-std build: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
rustup component add --toolchain nightly rust-src

cargo +nightly build -Zbuild-std=core,alloc --target thumbv7em-none-eabihf -p buffa-no-std-test
