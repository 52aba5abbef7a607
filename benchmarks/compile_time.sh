#!/usr/bin/env bash
# Compile time of generated code: CPU seconds (user + sys) to rebuild a
# crate holding only the code generated for the four benchmark schemas
# (build script included; dependencies built beforehand), median of three,
# with CARGO_INCREMENTAL=0, for prost, prost + pbjson, buffa, buffa with
# JSON and buffa with reflection, in the dev and release profiles.
#
# Usage: bash benchmarks/compile_time.sh [WORK_DIR]   (default: a temp dir)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
protos="$(cd "${repo}/../shared/datasets/rust_serialization_benchmark" && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "${work}"
export CARGO_TARGET_DIR="${work}/target" CARGO_INCREMENTAL=0

files="&[\"${protos}/log.proto\", \"${protos}/mesh.proto\", \"${protos}/minecraft_savedata.proto\", \"${protos}/mk48.proto\"]"
modules() { # $1: suffix of an extra include per module ("" or ".serde")
    for m in log mesh minecraft_savedata mk48; do
        extra=""
        [[ -n "$1" ]] && extra=" include!(concat!(env!(\"OUT_DIR\"), \"/prost.${m}$1.rs\"));"
        echo "pub mod ${m} { include!(concat!(env!(\"OUT_DIR\"), \"/prost.${m}.rs\"));${extra} }"
    done
}
crate() { # name, [dependencies], [build-dependencies], build.rs body, lib.rs suffix
    mkdir -p "${work}/$1/src"
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n[workspace]\n[dependencies]\n%s\n[build-dependencies]\n%s\n' \
        "$1" "$2" "$3" >"${work}/$1/Cargo.toml"
    printf 'fn main() {\n%s\n}\n' "$4" >"${work}/$1/build.rs"
    { echo '#![allow(clippy::all)]'; modules "$5"; } >"${work}/$1/src/lib.rs"
    cp "${repo}/Cargo.lock" "${work}/$1/"
}
prost_build="std::env::set_var(\"PROTOC\", protoc_bin_vendored::protoc_bin_path().unwrap());
    let set = std::path::PathBuf::from(std::env::var(\"OUT_DIR\").unwrap()).join(\"set.bin\");
    prost_build::Config::new().protoc_arg(\"--experimental_allow_proto3_optional\")
        .file_descriptor_set_path(&set).compile_protos(${files}, &[\"${protos}\"]).unwrap();"
crate gen_prost 'prost = "0.14"' $'prost-build = "0.14"\nprotoc-bin-vendored = "3"' "${prost_build}" ""
crate gen_pbjson $'prost = "0.14"\npbjson = "0.9"\nserde = "1"' $'prost-build = "0.14"\npbjson-build = "0.9"\nprotoc-bin-vendored = "3"' \
    "${prost_build}
    pbjson_build::Builder::new().register_descriptors(&std::fs::read(set).unwrap()).unwrap().build(&[\".prost\"]).unwrap();" ".serde"
buffa_build="buffa_build::Config::new().protoc_arg(\"--experimental_allow_proto3_optional\")
    .files(${files}).includes(&[\"${protos}\"])"
crate gen_buffa "buffa = { path = \"${repo}/buffa\" }" "buffa-build = { path = \"${repo}/buffa-build\" }" \
    "${buffa_build}.compile().unwrap();" ""
crate gen_buffa_json "buffa = { path = \"${repo}/buffa\", features = [\"json\"] }" "buffa-build = { path = \"${repo}/buffa-build\" }" \
    "${buffa_build}.json().compile().unwrap();" ""
crate gen_buffa_reflect "buffa = { path = \"${repo}/buffa\" }"$'\n'"buffa-reflect = { path = \"${repo}/buffa-reflect\" }" \
    "buffa-build = { path = \"${repo}/buffa-build\" }" "${buffa_build}.reflection().compile().unwrap();" ""

for profile in dev release; do
    flag=()
    [[ "${profile}" == release ]] && flag=(--release)
    for name in gen_prost gen_pbjson gen_buffa gen_buffa_json gen_buffa_reflect; do
        (cd "${work}/${name}" && cargo build -q ${flag[@]+"${flag[@]}"})
        times=()
        for _ in 1 2 3; do
            touch "${work}/${name}/build.rs" "${work}/${name}/src/lib.rs"
            /usr/bin/time -f "%U %S" -o "${work}/time.txt" \
                bash -c "cd '${work}/${name}' && cargo build -q ${flag[*]:-}"
            times+=("$(awk '{ printf "%.2f", $1 + $2 }' "${work}/time.txt")")
        done
        median="$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)"
        echo "${profile} ${name} ${median} (runs: ${times[*]})"
    done
done
