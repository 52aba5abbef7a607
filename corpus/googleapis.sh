#!/usr/bin/env bash
# The googleapis corpus: generates every googleapis package with every
# option set (default; views + json; tonic; reflection) and, with --build,
# builds the selected packages per option set; see src/main.rs for the
# flags. The tree comes from the npm package google-proto-files 6.0.1
# (the googleapis protos and their dependencies), unpacked once into
# ${BUFFA_CACHE_DIR:-~/.cache/buffa}; GOOGLEAPIS_DIR names another tree.
#
#   bash corpus/googleapis.sh                   # generate all packages
#   bash corpus/googleapis.sh --sample --build  # CI: the sample, generated and built
#   bash corpus/googleapis.sh --check --chunk 40  # every package, checked in crates of 40 packages
#   bash corpus/googleapis.sh --root            # only fetch the tree and print its root
#   bash corpus/googleapis.sh --crosscheck      # googleapis messages with data: prost -> buffa -> protoc's bytes
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

root="${GOOGLEAPIS_DIR:-}"
if [[ -z "${root}" ]]; then
    root="${BUFFA_CACHE_DIR:-${HOME}/.cache/buffa}/google-proto-files-6.0.1"
    if [[ ! -d "${root}/google" ]]; then
        scratch="$(mktemp -d)"
        trap 'rm -rf "${scratch}"' EXIT
        echo "[googleapis] npm pack google-proto-files@6.0.1" >&2
        (cd "${scratch}" && npm pack --silent google-proto-files@6.0.1 >&2)
        tar -xzf "${scratch}"/google-proto-files-*.tgz -C "${scratch}"
        mkdir -p "$(dirname "${root}")"
        rm -rf "${root}"
        mv "${scratch}/package" "${root}"
    fi
fi

if [[ "${1:-}" == --root ]]; then
    echo "${root}"
    exit 0
fi
if [[ "${1:-}" == --crosscheck ]]; then
    cd "${repo}/corpus/crosscheck"
    exec env GOOGLEAPIS_DIR="${root}" cargo test --quiet
fi

cd "${repo}"
cargo build --quiet --release -p buffa-corpus
exec "${repo}/target/release/googleapis" "${root}" "$@"
