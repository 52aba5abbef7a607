#!/usr/bin/env bash
# Build the official protobuf conformance test runner (and a matching protoc)
# from the protobuf 27.1 sources shipped in the crates.io crate
# `protobuf-src` version 2.1.1+27.1.
#
# Output layout (cached across runs):
#   ${BUFFA_CACHE_DIR:-$HOME/.cache/buffa}/protobuf-27.1/
#     build/                          cmake/ninja build tree
#     bin/conformance_test_runner     final runner binary
#     bin/protoc                      final protoc binary
#
# If both binaries in bin/ already exist the script exits immediately.
# Progress goes to stderr; the last two lines on stdout are
#   CONFORMANCE_TEST_RUNNER=<path>
#   PROTOC=<path>
#
# Environment:
#   PROTOBUF_SRC_DIR   use this protobuf source tree instead of the cargo registry
#   BUFFA_CACHE_DIR    cache root (default: $HOME/.cache/buffa)
#   BUFFA_BUILD_JOBS   ninja parallelism (default: nproc)
#   CARGO_HOME, CARGO  as usual for cargo
set -euo pipefail

PROTOBUF_VERSION="27.1"
PROTOBUF_SRC_CRATE="protobuf-src-2.1.1+${PROTOBUF_VERSION}"

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_root="$(cd "${script_dir}/.." && pwd)"

cache_root="${BUFFA_CACHE_DIR:-${HOME}/.cache/buffa}"
out_dir="${cache_root}/protobuf-${PROTOBUF_VERSION}"
build_dir="${out_dir}/build"
bin_dir="${out_dir}/bin"
runner_bin="${bin_dir}/conformance_test_runner"
protoc_bin="${bin_dir}/protoc"

log() { printf '[build-runner] %s\n' "$*" >&2; }
die() { printf '[build-runner] error: %s\n' "$*" >&2; exit 1; }

print_paths() {
    printf 'CONFORMANCE_TEST_RUNNER=%s\n' "${runner_bin}"
    printf 'PROTOC=%s\n' "${protoc_bin}"
}

have_binaries() { [[ -x "${runner_bin}" && -x "${protoc_bin}" ]]; }

# Fast path: nothing to do.
if have_binaries; then
    log "using cached binaries in ${bin_dir}"
    print_paths
    exit 0
fi

mkdir -p "${out_dir}"

# Serialise concurrent invocations (e.g. a background build plus run.sh):
# two ninja processes must never share a build directory.
exec 9>"${out_dir}/.lock"
if ! flock -n 9; then
    log "another build holds ${out_dir}/.lock; waiting for it to finish..."
    flock 9
fi
# Re-check now that we hold the lock: the other build may have finished.
if have_binaries; then
    log "using cached binaries in ${bin_dir}"
    print_paths
    exit 0
fi

# --- 1. system packages -------------------------------------------------------
install_packages() {
    local missing=() pkg
    for pkg in libjsoncpp-dev cmake ninja-build g++; do
        if ! dpkg -s "${pkg}" >/dev/null 2>&1; then
            missing+=("${pkg}")
        fi
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        return 0
    fi
    log "installing missing packages: ${missing[*]}"
    local sudo=()
    if [[ "$(id -u)" -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 ||
            die "need root or sudo to install: ${missing[*]}"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

if command -v dpkg >/dev/null 2>&1; then
    install_packages
else
    log "dpkg not found; assuming cmake, ninja, a C++ compiler and jsoncpp are installed"
fi

# --- 2. protobuf sources ------------------------------------------------------
cargo_bin="${CARGO:-cargo}"
cargo_home="${CARGO_HOME:-${HOME}/.cargo}"

find_registry_sources() {
    local d
    for d in "${cargo_home}"/registry/src/*/"${PROTOBUF_SRC_CRATE}"/protobuf; do
        if [[ -f "${d}/conformance/conformance.proto" ]]; then
            printf '%s\n' "${d}"
            return 0
        fi
    done
    return 1
}

locate_sources() {
    if [[ -n "${PROTOBUF_SRC_DIR:-}" ]]; then
        [[ -f "${PROTOBUF_SRC_DIR}/CMakeLists.txt" ]] ||
            die "PROTOBUF_SRC_DIR=${PROTOBUF_SRC_DIR} does not contain CMakeLists.txt"
        printf '%s\n' "${PROTOBUF_SRC_DIR}"
        return 0
    fi
    if find_registry_sources; then
        return 0
    fi
    # Cargo.lock pins protobuf-src through the protobuf-sources crate, so a
    # fetch downloads and extracts it into the registry.
    log "protobuf sources not found under ${cargo_home}/registry/src; running cargo fetch"
    "${cargo_bin}" fetch --manifest-path "${workspace_root}/Cargo.toml" >&2 ||
        log "cargo fetch failed"
    if find_registry_sources; then
        return 0
    fi
    # Fallback that works even without the lockfile entry.
    log "trying: cargo info protobuf-src@2.1.1+${PROTOBUF_VERSION}"
    "${cargo_bin}" info "protobuf-src@2.1.1+${PROTOBUF_VERSION}" >/dev/null 2>&1 || true
    find_registry_sources ||
        die "could not obtain ${PROTOBUF_SRC_CRATE}; run: cargo fetch --manifest-path ${workspace_root}/Cargo.toml"
}

src_dir="$(locate_sources)"
log "protobuf sources: ${src_dir}"

# --- 3. configure + build -----------------------------------------------------
# The jsoncpp package installs its headers in /usr/include/jsoncpp, but the
# conformance runner includes <json/json.h> without adding that directory.
export CPATH="/usr/include/jsoncpp${CPATH:+:${CPATH}}"

jobs="${BUFFA_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}"

if [[ ! -f "${build_dir}/build.ninja" ]]; then
    log "configuring in ${build_dir}"
    rm -rf "${build_dir}"
    cmake -S "${src_dir}" -B "${build_dir}" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release \
        -Dprotobuf_BUILD_CONFORMANCE=ON \
        -Dprotobuf_JSONCPP_PROVIDER=package \
        -Dprotobuf_BUILD_TESTS=OFF \
        -Dprotobuf_BUILD_EXAMPLES=OFF >&2
else
    log "reusing configured build tree ${build_dir}"
fi

log "building conformance_test_runner and protoc with ${jobs} jobs (this takes a while)"
cmake --build "${build_dir}" --target conformance_test_runner protoc -- -j "${jobs}" >&2

# --- 4. install into bin/ atomically -------------------------------------------
mkdir -p "${bin_dir}"
install_bin() {
    local name="$1" built="${build_dir}/$1"
    [[ -x "${built}" ]] || die "build finished but ${built} is missing"
    cp "${built}" "${bin_dir}/.${name}.tmp"
    mv -f "${bin_dir}/.${name}.tmp" "${bin_dir}/${name}"
}
install_bin protoc
install_bin conformance_test_runner

log "done"
print_paths
