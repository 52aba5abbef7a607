#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a short fixed time, starting from
# its committed seeds (fuzz/seeds/<target>/). Inputs the run discovers go to
# a scratch directory that is deleted afterwards, so the seeds stay as
# committed. Every target runs; a crash in any fails the script, and
# libFuzzer saves the crashing input under fuzz/artifacts/<target>/.
#
# cargo-fuzz needs a nightly toolchain; without one this prints SKIPPED and
# succeeds. FUZZ_SECONDS sets the time per target (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"

if ! command -v rustup >/dev/null || ! rustup toolchain list | grep -q '^nightly'; then
    echo "SKIPPED fuzz smoke: no nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

failed=()
for target in $(cargo +nightly fuzz list); do
    echo "== fuzz $target (${seconds}s)"
    mkdir -p "$scratch/$target"
    if ! cargo +nightly fuzz run "$target" "$scratch/$target" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1; then
        failed+=("$target")
    fi
done

if ((${#failed[@]})); then
    echo "FAILED fuzz targets: ${failed[*]} (inputs in fuzz/artifacts/)"
    exit 1
fi
echo "fuzz smoke: all targets ran ${seconds}s without a crash"
