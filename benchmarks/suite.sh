#!/usr/bin/env bash
# The real rust_serialization_benchmark (the trimmed copy in
# ../shared/datasets/rust_serialization_benchmark/suite) against this
# checkout, run by that copy's own run.sh, with one change to a copy of it:
# the project's configurations ("ours": inline sub-messages and views;
# "ours_shared": BytesStr/Bytes) discard unknown fields
# (`unknown_fields(UnknownFieldsRepr::Discard)`), which prost never keeps:
# the setting a performance-minded user picks (the suite's build.rs fixes
# the configurations, hence the patch). The suite's own `run.sh` builds
# against the checkout unchanged.
#
#   bash benchmarks/suite.sh [PASSES] [--keep-unknown]
#
# --keep-unknown leaves buffa-build's default (unknown fields kept).
# CRITERION_ARGS shortens criterion's timings, e.g.
# CRITERION_ARGS="--warm-up-time 1 --measurement-time 2". Prints run.sh's
# per-cell ratios (median over passes of the per-pass ratio).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
suite="${repo}/../shared/datasets/rust_serialization_benchmark/suite"
passes="${1:-4}"
keep=false
[[ "${2:-}" == --keep-unknown ]] && keep=true
[[ -f "${suite}/run.sh" ]] || { echo "no suite at ${suite}" >&2; exit 1; }

root="${RSB_PATCHED_DIR:-/tmp/rsb-suite-patched}"
copy="${root}/suite"
rm -rf "${copy}"
mkdir -p "${root}"
cp -r "${suite}" "${copy}"
rm -rf "${copy}/target"

# Each patch fails loudly if the line it replaces is gone.
patch_line() { # FILE OLD NEW
    grep -qF -- "$2" "$1" || { echo "$1 changed: update the patch in $0" >&2; exit 1; }
    OLD="$2" NEW="$3" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/g' "$1"
}
if ! ${keep}; then
    patch_line "${copy}/build.rs" '.buffa_path("::buffa_ours");' \
        '.buffa_path("::buffa_ours")
            .unknown_fields(buffa_build_ours::UnknownFieldsRepr::Discard);'
    echo "[suite] ours and ours_shared discard unknown fields" >&2
else
    echo "[suite] ours and ours_shared keep unknown fields" >&2
fi
RSB_DIR="${root}/run" exec bash "${copy}/run.sh" "${repo}" "${passes}"
