#!/usr/bin/env bash
# buffa-compile against protoc on real schemas: googleapis (every package,
# fetched by googleapis.sh), protobuf 27.1's own test protos (the
# protobuf-src crate's sources) and, once conformance/fetch-runner.sh has
# fetched them, protobuf 33.2's conformance protos. Every unit is compiled
# by both, with and without source info, and compared byte for byte; see
# src/bin/compare-protoc.rs for the flags.
#
#   bash corpus/compare-protoc.sh              # every unit of every corpus
#   bash corpus/compare-protoc.sh --sample 25  # CI: every 25th unit
#   bash corpus/compare-protoc.sh --only google/api,unittest_custom
#   bash corpus/compare-protoc.sh --whole-tree # all googleapis in one call each: speed
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
googleapis="$(bash "${repo}/corpus/googleapis.sh" --root)"
conformance="${BUFFA_CACHE_DIR:-${HOME}/.cache/buffa}/protobuf-33.2/package/include"

args=(--googleapis "${googleapis}")
if [[ " $* " != *" --whole-tree "* ]]; then
    args+=(--protobuf auto)
    if [[ -d "${conformance}" ]]; then
        args+=(--conformance "${conformance}")
    fi
fi
cd "${repo}"
exec cargo run --quiet --release -p buffa-corpus --bin compare-protoc -- "${args[@]}" "$@"
