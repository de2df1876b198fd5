#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# annrt-cpu on every default model at 1 and 2 threads, nnapi-reference beside
# it, and memory, as one markdown table. Each model's runs follow each other,
# so the ratios compare runs minutes apart on the same machine state. Before
# and after the table, annrt_thread_handoff_bench says what a second thread
# was worth on the host (a 2-vCPU VM's second core comes and goes with the
# host's load), so the 2-thread column can be read against it.
#
# Beside annrt-cpu, in the same run, native TensorFlow Lite 2.9 + XNNPACK
# (bench/tflite_c_bench.cpp on the C library scripts/fetch-tflite-native.sh
# fetches into BUILD_DIR/tflite-native): each of its runs follows annrt-cpu's
# at the same thread count, and the "vs native" ratios compare those pairs.
# The issue's figures are of TFLite 2.19 on a Zen 3 machine; TFLite 2.9 is
# older (its XNNPACK is of May 2022, Debian's of February 2022).
#
# Also real TensorFlow Lite: the shared oracle's
# WebAssembly build (single-threaded, XNNPACK inside) under Node, set up by the
# accuracy tests in BUILD_DIR/tflite-reference. It is slower than native
# TFLite (the issue measured 2-3.5x), so its column is a floor, not the target;
# its init + first is create_runner + first_inference. The selfie models run as
# their builtin variants (stock TFLite lacks MediaPipe's custom op).
#
# usage: bench/model_table.sh [BUILD_DIR] [NUM_RUNS]   (defaults: build, 100)
# Environment: MIN_SECS (default 1), REFERENCE_RUNS (default 5; 0 skips nnapi-reference), WASM_RUNS
# (default 30; 0 skips TFLite WebAssembly), NATIVE=0 skips native TFLite.
# TFLITE_BENCHMARK_MODEL=PATH: a native TFLite `benchmark_model` built outside
# the project (the newest LiteRT sources with their pinned XNNPACK, stock
# Release flags), run in the same run after annrt-cpu at each thread count
# with its default flags, as the peer column and its ratios. MODELS="a b"
# limits the table to those models.
# LOAD=N runs the whole table beside N CPU-bound processes the script starts
# and stops (LOAD=auto: one per core but one), as users run it beside other
# programs; docs/threads.md has such tables.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$root/bench/bench_lib.sh"
build="${1:-$root/build}"
runs="${2:-100}"
reference_runs="${REFERENCE_RUNS:-5}"
# annrt-cpu and the peer run NUM_RUNS times and at least MIN_SECS (default 1,
# as benchmark_model's default): 100 runs of a 0.5 ms model were a 50 ms
# window, too short to average a 2-vCPU VM's second core. (tflite_c_bench
# takes a number of runs only.)
min_secs="${MIN_SECS:-1}"
wasm_runs="${WASM_RUNS:-30}"
oracle="$build/tflite-reference/oracle/run_tflite.mjs"
benchmark="$build/tools/annrt-benchmark/annrt-benchmark"
native_bench="$build/bench/annrt_tflite_c_bench"
native_lib=""
if [ "${NATIVE:-1}" != "0" ] && [ -x "$native_bench" ]; then
  native_lib="$("$root/scripts/fetch-tflite-native.sh" "$build/tflite-native")" || native_lib=""
fi
[ -x "$benchmark" ] || { echo "model_table: $benchmark is not built" >&2; exit 1; }

start_busy_load "${LOAD:-0}"
echo "load: $busy_load CPU-bound processes beside the runs; host ISA: $(host_isa)"

# run MODEL DEVICE THREADS RUNS -> timings of annrt-benchmark
run() {
  local out
  out="$("$benchmark" --graph="$root/models/$1.tflite" --use_nnapi=true \
    --nnapi_accelerator_name="$2" --num_threads="$3" --num_runs="$4" --min_secs="$min_secs" 2>&1)" || {
    echo "model_table: annrt-benchmark failed on $1 ($2, $3 threads):" >&2
    echo "$out" | tail -5 >&2
    exit 1
  }
  echo "$out" | timings
}

# tflite_model MODEL -> the file stock TFLite runs (bench_lib.sh)
tflite_model() { tflite_file "$build" "$1"; }

# native MODEL THREADS RUNS -> timings of native TFLite, or "- - - - -"
native() {
  local model out
  model="$(tflite_model "$1")"
  if [ -n "$native_lib" ] && out="$("$native_bench" --lib="$native_lib" --graph="$model" \
    --num_threads="$2" --num_runs="$3" 2>&1)"; then
    echo "$out" | timings
  else
    echo "- - - - -"
  fi
}

# peer MODEL THREADS RUNS -> timings of TFLITE_BENCHMARK_MODEL, or "- - - - -"
peer() {
  local out
  if [ -n "${TFLITE_BENCHMARK_MODEL:-}" ] && out="$("$TFLITE_BENCHMARK_MODEL" \
    --graph="$(tflite_model "$1")" --num_threads="$2" --num_runs="$3" --min_secs="$min_secs" 2>&1)"; then
    echo "$out" | timings
  else
    echo "- - - - -"
  fi
}

# ratio A B -> A / B with two decimals, or "-"
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b == "-" || a == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'
}

# wasm MODEL -> "avg_ms init_plus_first_ms" of TFLite WebAssembly, or "- -"
wasm() {
  local model out
  model="$(tflite_model "$1")"
  if [ "$wasm_runs" -le 0 ] || [ ! -f "$oracle" ] || ! command -v node >/dev/null; then
    echo "- -"
    return
  fi
  out="$(mktemp)"
  if node "$oracle" "$model" --runs "$wasm_runs" --warmup 3 --no-values --out "$out" >/dev/null 2>&1; then
    python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["timing_ms"]
print("%.3f %.0f" % (t["mean"], t["create_runner"] + t["first_inference"]))' "$out"
  else
    echo "- -"
  fi
  rm -f "$out"
}

# host_check WHEN -> one line: serial and 2-thread times of two equal tasks
host_check() {
  local bench="$build/bench/annrt_thread_handoff_bench"
  [ -x "$bench" ] || { echo "host check $1: $bench is not built"; return; }
  "$bench" --benchmark_format=csv 2>/dev/null | awk -F, -v when="$1" '
    /BM_Serial\// { serial = $3 / 1000 }
    /BM_TwoThreadPool\// { pool = $3 / 1000 }
    /BM_SerialFma\// { fma = $3 / 1000 }
    /BM_TwoThreadPoolFma\// { poolfma = $3 / 1000 }
    /BM_HandOffAfterSerialWork/ { handoff = $3 / 1000 }
    /BM_CacheLineRoundTrip/ { roundtrip = $3 }
    /BM_SerialSweep/ { sweep = $3 / 1000 }
    /BM_PoolSweepOfDataTheCallerWrote/ { poolsweep = $3 / 1000 }
    END { printf "host check %s: two equal tasks take %.1f us on one thread, %.1f us on a 2-thread pool (%.2fx), two tasks of multiply-adds at the core'"'"'s peak %.1f and %.1f us (%.2fx: near 1 where the vCPUs share a core); a hand-off after 50 us on one thread takes %.1f us; a cache line goes to the other thread and back in %.0f ns; 256 KB the caller wrote are read in %.1f us alone, %.1f us by the pool\n", when, serial, pool, serial / pool, fma, poolfma, fma / poolfma, handoff, roundtrip, sweep, poolsweep }'
}

host_check before
echo
[ -z "${TFLITE_BENCHMARK_MODEL:-}" ] || echo "peer: $TFLITE_BENCHMARK_MODEL"
echo "| model | annrt-cpu 1 / 2 thr (ms) | native TFLite 2.9 1 / 2 thr (ms) | vs native 1 / 2 thr | peer TFLite 1 / 2 thr (ms) | vs peer 1 / 2 thr | nnapi-reference (ms) | TFLite wasm 1 thr (ms) | TFLite 2.19 1 / 2 thr (ms, issue) | vs issue 1 / 2 thr | init + first, 1 thr (ms): annrt-cpu / native / wasm | memory overall, 1 thr (MB): annrt-cpu / native / peer / issue | annrt-cpu peak (MB) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
while read -r model tflite1 tflite2 tflite_mem; do
  case "$model" in ''|'#'*|model) continue ;; esac
  [ -z "${MODELS:-}" ] || [[ " $MODELS " == *" $model "* ]] || continue
  [ -f "$root/models/$model.tflite" ] || { echo "model_table: models/$model.tflite missing (scripts/fetch-models.sh)" >&2; exit 1; }
  read -r avg1 init1 first1 overall1 peak1 <<<"$(run "$model" annrt-cpu 1 "$runs")"
  read -r native1 native_init native_first native_overall _ <<<"$(native "$model" 1 "$runs")"
  read -r avg2 _ _ _ _ <<<"$(run "$model" annrt-cpu 2 "$runs")"
  read -r peer1 _ _ peer_overall _ <<<"$(peer "$model" 1 "$runs")"
  read -r native2 _ _ _ _ <<<"$(native "$model" 2 "$runs")"
  read -r peer2 _ _ _ _ <<<"$(peer "$model" 2 "$runs")"
  reference="-"
  if [ "$reference_runs" -gt 0 ]; then
    read -r reference _ _ _ _ <<<"$(run "$model" nnapi-reference 1 "$reference_runs")"
  fi
  read -r wasm_avg wasm_startup <<<"$(wasm "$model")"
  startup="$(awk -v i="$init1" -v f="$first1" 'BEGIN { printf "%.0f + %.0f", i, f }')"
  native_startup="$(awk -v i="$native_init" -v f="$native_first" 'BEGIN { if (i == "-") print "-"; else printf "%.0f + %.0f", i, f }')"
  echo "| $model | $avg1 / $avg2 | $native1 / $native2 | $(ratio "$avg1" "$native1") / $(ratio "$avg2" "$native2") | $peer1 / $peer2 | $(ratio "$avg1" "$peer1") / $(ratio "$avg2" "$peer2") | $reference | $wasm_avg | $tflite1 / $tflite2 | $(ratio "$avg1" "$tflite1") / $(ratio "$avg2" "$tflite2") | $startup / $native_startup / $wasm_startup | $overall1 / $native_overall / $peer_overall / $tflite_mem | $peak1 |"
done <"$root/bench/tflite_figures.tsv"
echo
host_check after
