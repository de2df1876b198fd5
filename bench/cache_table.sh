#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# What the compilation cache is worth at start-up: annrt-benchmark's "Init"
# and "First inference" and its overall peak memory on every default model,
# with the automatic cache off (ANNRT_CACHE_CAPACITY=0), cold (an empty
# cache: the compilation also writes its entries) and warm (the entries the
# cold run wrote), as one markdown table. Each model's three runs follow each
# other, ROUNDS times (the median of each column is shown), so the ratios
# compare runs seconds apart. warm/cold is (init + first) warm over cold.
#
# usage: bench/cache_table.sh [BUILD_DIR]   (default: build)
# Environment: ROUNDS (default 5), THREADS (default 1), MODELS="a b" limits
# the table to those models, SERIALIZE=1 uses --delegate_serialize_dir and
# --delegate_serialize_token (NNAPI's setCaching) instead of the automatic
# cache.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$root/bench/bench_lib.sh"
build="${1:-$root/build}"
rounds="${ROUNDS:-5}"
threads="${THREADS:-1}"
benchmark="$build/tools/annrt-benchmark/annrt-benchmark"
[ -x "$benchmark" ] || { echo "cache_table: $benchmark is not built" >&2; exit 1; }
models="${MODELS:-$(cd "$root/models" && ls -- *.tflite | sed 's/\.tflite$//')}"
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT

# Prints "init_us first_us peak_mb cache_hits" of one run.
run() {
  local model="$1" capacity="$2" out
  local flags=(--graph="$root/models/$model.tflite" --num_threads="$threads" --num_runs=1
    --min_secs=0 --warmup_runs=1 --warmup_min_secs=0)
  if [ "${SERIALIZE:-0}" = 1 ]; then
    flags+=(--delegate_serialize_dir="$cache" --delegate_serialize_token="$model")
  fi
  out="$(ANNRT_CACHE_PATH="$cache" ANNRT_CACHE_CAPACITY="$capacity" "$benchmark" "${flags[@]}" 2>&1)" || {
    echo "cache_table: annrt-benchmark failed on $model:" >&2
    echo "$out" >&2
    exit 1
  }
  awk '
    /Inference timings in us:/ { gsub(",", ""); for (i = 1; i <= NF; ++i) {
        if ($i == "Init:") init = $(i + 1); if ($i == "inference:") first = $(i + 1) } }
    /Overall peak memory footprint/ { peak = $NF }
    /cache_hits=/ { for (i = 1; i <= NF; ++i) if ($i ~ /^cache_hits=/) { split($i, a, "="); hits += a[2] } }
    END { printf "%s %s %s %d\n", init, first, peak, hits }' <<<"$out"
}

echo "| model | off: init + first (ms) | cold: init + first (ms) | warm: init + first (ms) | warm/cold | peak MB off / cold / warm | warm hits |"
echo "|---|---|---|---|---|---|---|"
for model in $models; do
  : >"$cache.off"; : >"$cache.cold"; : >"$cache.warm"
  for ((r = 0; r < rounds; ++r)); do
    run "$model" 0 >>"$cache.off"
    find "$cache" -mindepth 1 -delete
    run "$model" 10000 >>"$cache.cold"
    run "$model" 10000 >>"$cache.warm"
  done
  col() { awk -v c="$2" '{ print $c }' "$cache.$1" | median; }
  sum() { awk '{ printf "%.3f\n", ($1 + $2) / 1000 }' "$cache.$1" | median; }
  off=$(sum off); cold=$(sum cold); warm=$(sum warm)
  hits=$(col warm 4)
  printf "| %s | %.1f (%.1f + %.1f) | %.1f (%.1f + %.1f) | %.1f (%.1f + %.1f) | %.2f | %.1f / %.1f / %.1f | %s |\n" \
    "$model" "$off" "$(col off 1 | awk '{print $1/1000}')" "$(col off 2 | awk '{print $1/1000}')" \
    "$cold" "$(col cold 1 | awk '{print $1/1000}')" "$(col cold 2 | awk '{print $1/1000}')" \
    "$warm" "$(col warm 1 | awk '{print $1/1000}')" "$(col warm 2 | awk '{print $1/1000}')" \
    "$(awk -v w="$warm" -v c="$cold" 'BEGIN { print w / c }')" \
    "$(col off 3)" "$(col cold 3)" "$(col warm 3)" "$hits"
  rm -f "$cache.off" "$cache.cold" "$cache.warm"
done
