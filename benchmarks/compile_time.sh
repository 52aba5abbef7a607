#!/usr/bin/env bash
# Compile time of generated code: seconds to rebuild a crate holding only
# the generated code (build script included; dependencies built
# beforehand), median of three, with CARGO_INCREMENTAL=0, for prost,
# prost + pbjson, buffa, buffa with JSON, buffa with views and buffa with
# reflection, in the dev and release profiles. Each line gives CPU seconds
# (user + sys) and wall seconds, and the generated lines.
#
# Usage: bash benchmarks/compile_time.sh [--googleapis] [WORK_DIR]   (default: a temp dir)
#
# The schemas: the four rust_serialization_benchmark ones, or with
# --googleapis eight googleapis packages (pubsub, spanner, firestore,
# storage, bigquery storage, longrunning, rpc, type; fetched by
# corpus/googleapis.sh) with their imports.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schema=benchmark
if [[ "${1:-}" == --googleapis ]]; then
    schema=googleapis
    shift
fi
work="${1:-$(mktemp -d)}"
mkdir -p "${work}"
work="$(cd "${work}" && pwd)"
export CARGO_TARGET_DIR="${work}/target" CARGO_INCREMENTAL=0

if [[ "${schema}" == benchmark ]]; then
    protos="$(cd "${repo}/../shared/datasets/rust_serialization_benchmark" && pwd)"
    proto_files=("${protos}/log.proto" "${protos}/mesh.proto" "${protos}/minecraft_savedata.proto" "${protos}/mk48.proto")
else
    protos="$(bash "${repo}/corpus/googleapis.sh" --root)"
    proto_files=()
    for dir in google/pubsub/v1 google/spanner/v1 google/firestore/v1 google/storage/v2 \
        google/cloud/bigquery/storage/v1 google/longrunning google/rpc google/type; do
        for f in "${protos}/${dir}"/*.proto; do
            proto_files+=("${f#"${protos}/"}")
        done
    done
fi
files="&[$(printf '"%s", ' "${proto_files[@]}")]"

crate() { # name, [dependencies], [build-dependencies], build.rs body, lib.rs body
    mkdir -p "${work}/$1/src"
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n[workspace]\n[dependencies]\n%s\n[build-dependencies]\n%s\n' \
        "$1" "$2" "$3" >"${work}/$1/Cargo.toml"
    printf 'fn main() {\n%s\n}\n' "$4" >"${work}/$1/build.rs"
    printf '#![allow(clippy::all)]\n%s\n' "$5" >"${work}/$1/src/lib.rs"
    cp "${repo}/Cargo.lock" "${work}/$1/"
}
mount='include!(concat!(env!("OUT_DIR"), "/mod.rs"));'
prost_build="std::env::set_var(\"PROTOC\", protoc_bin_vendored::protoc_bin_path().unwrap());
    let set = std::path::PathBuf::from(std::env::var(\"OUT_DIR\").unwrap()).join(\"set.bin\");
    prost_build::Config::new().protoc_arg(\"--experimental_allow_proto3_optional\").include_file(\"mod.rs\")
        .file_descriptor_set_path(&set).compile_protos(${files}, &[\"${protos}\"]).unwrap();"
crate gen_prost $'prost = "0.14"\nprost-types = "0.14"' $'prost-build = "0.14"\nprotoc-bin-vendored = "3"' "${prost_build}" "${mount}"
# pbjson's serde impls (one `<package>.serde.rs` each) go into the
# package modules of prost's include file; the well-known types are
# pbjson-types', as pbjson requires.
pbjson_build="std::env::set_var(\"PROTOC\", protoc_bin_vendored::protoc_bin_path().unwrap());
    let out = std::path::PathBuf::from(std::env::var(\"OUT_DIR\").unwrap());
    let set = out.join(\"set.bin\");
    prost_build::Config::new().protoc_arg(\"--experimental_allow_proto3_optional\").include_file(\"mod.rs\")
        .compile_well_known_types().extern_path(\".google.protobuf\", \"::pbjson_types\")
        .file_descriptor_set_path(&set).compile_protos(${files}, &[\"${protos}\"]).unwrap();
    pbjson_build::Builder::new().register_descriptors(&std::fs::read(&set).unwrap()).unwrap()
        .extern_path(\".google.protobuf\", \"::pbjson_types\").build(&[\".\"]).unwrap();
    let mut mounted = String::new();
    for line in std::fs::read_to_string(out.join(\"mod.rs\")).unwrap().lines() {
        mounted.push_str(line);
        mounted.push('\\n');
        if let Some(file) = line.trim().strip_prefix(\"include!(concat!(env!(\\\"OUT_DIR\\\"), \\\"/\").and_then(|f| f.strip_suffix(\".rs\\\"));\")) {
            if out.join(format!(\"{file}.serde.rs\")).exists() {
                mounted.push_str(&format!(\"include!(concat!(env!(\\\"OUT_DIR\\\"), \\\"/{file}.serde.rs\\\"));\\n\"));
            }
        }
    }
    std::fs::write(out.join(\"mod.rs\"), mounted).unwrap();"
crate gen_pbjson $'prost = "0.14"\npbjson = "0.9"\npbjson-types = "0.9"\nserde = "1"' $'prost-build = "0.14"\npbjson-build = "0.9"\nprotoc-bin-vendored = "3"' \
    "${pbjson_build}" "${mount}"
buffa_build="buffa_build::Config::new()
    .files(${files}).includes(&[\"${protos}\"]).include_file(\"mod.rs\")"
# buffa-types' features, as a user would enable them: `descriptor` for
# googleapis, whose custom options (google/api/annotations.proto, ...)
# extend descriptor.proto's options messages; `views` for the views row,
# whose views name the well-known types' views.
types_features=""
if [[ "${schema}" == googleapis ]]; then
    types_features='"descriptor", '
fi
buffa_deps="buffa = { path = \"${repo}/buffa\" }
buffa-types = { path = \"${repo}/buffa-types\", features = [${types_features}] }"
buffa_json_deps="buffa = { path = \"${repo}/buffa\", features = [\"json\"] }
buffa-types = { path = \"${repo}/buffa-types\", features = [${types_features}\"json\"] }"
buffa_views_deps="buffa = { path = \"${repo}/buffa\" }
buffa-types = { path = \"${repo}/buffa-types\", features = [${types_features}\"views\"] }"
buffa_build_dep="buffa-build = { path = \"${repo}/buffa-build\" }"
crate gen_buffa "${buffa_deps}" "${buffa_build_dep}" "${buffa_build}.compile().unwrap();" "${mount}"
crate gen_buffa_json "${buffa_json_deps}" "${buffa_build_dep}" "${buffa_build}.json().compile().unwrap();" "${mount}"
crate gen_buffa_views "${buffa_views_deps}" "${buffa_build_dep}" "${buffa_build}.views().compile().unwrap();" "${mount}"
crate gen_buffa_reflect "${buffa_deps}"$'\n'"buffa-reflect = { path = \"${repo}/buffa-reflect\" }" \
    "${buffa_build_dep}" "${buffa_build}.reflection().compile().unwrap();" "${mount}"

lines() { # generated lines of crate $1 (after a build)
    local out
    out="$(find "${CARGO_TARGET_DIR}" -path "*/build/$1-*/out" -type d | head -n 1)"
    cat "${out}"/*.rs | wc -l
}
for profile in dev release; do
    flag=()
    [[ "${profile}" == release ]] && flag=(--release)
    for name in gen_prost gen_pbjson gen_buffa gen_buffa_json gen_buffa_views gen_buffa_reflect; do
        (cd "${work}/${name}" && cargo build -q ${flag[@]+"${flag[@]}"})
        cpu=() wall=()
        for _ in 1 2 3; do
            touch "${work}/${name}/build.rs" "${work}/${name}/src/lib.rs"
            /usr/bin/time -f "%U %S %e" -o "${work}/time.txt" \
                bash -c "cd '${work}/${name}' && cargo build -q ${flag[*]:-}"
            cpu+=("$(awk '{ printf "%.2f", $1 + $2 }' "${work}/time.txt")")
            wall+=("$(awk '{ printf "%.2f", $3 }' "${work}/time.txt")")
        done
        median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
        printf '%-8s %-18s cpu %6s  wall %6s  lines %7s  (cpu runs: %s)\n' "${profile}" "${name}" \
            "$(median "${cpu[@]}")" "$(median "${wall[@]}")" "$(lines "${name}")" "${cpu[*]}"
    done
done
