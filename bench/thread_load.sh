#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# annrt-cpu at N threads against 1 thread beside CPU-bound processes this
# script starts, on every default model, as one markdown table: whether N
# threads stay within 10% of 1 thread under load (docs/threads.md). A
# 2-vCPU VM's speed drifts by more than that between runs minutes apart, so
# the runs come in pairs, 1 and N threads one after the other (the order
# swapped every pair), and the ratio is taken pair by pair: the table gives
# its median, its range and how many pairs were over 1.10. With
# TFLITE_BENCHMARK_MODEL (a native TFLite benchmark_model built outside the
# project), each pair also runs it at 1 and N threads, and the table gives
# annrt-cpu over it at each.
#
# usage: bench/thread_load.sh [BUILD_DIR] [PAIRS]   (defaults: build, 8)
# Environment: LOAD (default auto: one busy process per core but one; 0 for a
# quiet table), THREADS (default: the cores), NUM_RUNS (default 300),
# MODELS="a b" limits the table to those models, ANNRT_CPU_ISA as for
# annrt-cpu.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/bench_lib.sh
source "$root/bench/bench_lib.sh"
build="${1:-$root/build}"
pairs="${2:-8}"
threads="${THREADS:-$(nproc)}"
runs="${NUM_RUNS:-300}"
benchmark="$build/tools/annrt-benchmark/annrt-benchmark"
[ -x "$benchmark" ] || { echo "thread_load: $benchmark is not built" >&2; exit 1; }
models="${MODELS:-$(cut -f1 "$root/bench/tflite_figures.tsv" | grep -v '^#\|^model$\|^$')}"
work="$(mktemp -d)"

start_busy_load "${LOAD:-auto}"
trap 'if [ ${#busy_pids[@]} -gt 0 ]; then kill "${busy_pids[@]}" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

# average MODEL THREADS WHO -> the average inference in ms of annrt-cpu
# (WHO=annrt) or of the peer (WHO=peer)
average() {
  local out
  if [ "$3" = annrt ]; then
    out="$("$benchmark" --graph="$root/models/$1.tflite" --num_threads="$2" --num_runs="$runs" \
      --min_secs=0 2>&1)" || { echo "thread_load: annrt-benchmark failed on $1:" >&2; echo "$out" | tail -5 >&2; exit 1; }
  else
    out="$("$TFLITE_BENCHMARK_MODEL" --graph="$(tflite_file "$build" "$1")" --num_threads="$2" \
      --num_runs="$runs" --min_secs=0 2>&1)" || { echo "-"; return; }
  fi
  echo "$out" | timings | awk '{ print $1 }'
}

# pair MODEL WHO PAIR_INDEX -> "one_thread_ms n_threads_ms", in the order the index gives
pair() {
  local one many
  if (($3 % 2 == 0)); then
    one="$(average "$1" 1 "$2")"; many="$(average "$1" "$threads" "$2")"
  else
    many="$(average "$1" "$threads" "$2")"; one="$(average "$1" 1 "$2")"
  fi
  echo "$one $many"
}

col() { awk -v c="$2" '$c != "-" { print $c }' "$1" | median; }

echo "load: $busy_load CPU-bound processes; $threads threads against 1; $pairs pairs of $runs runs; ANNRT_CPU_ISA=${ANNRT_CPU_ISA:-} host ISA: $(host_isa)"
[ -z "${TFLITE_BENCHMARK_MODEL:-}" ] || echo "peer: $TFLITE_BENCHMARK_MODEL"
echo
echo "| model | annrt-cpu 1 / $threads thr (ms) | $threads thr / 1 thr: median (range) | pairs over 1.10 | peer 1 / $threads thr (ms) | annrt-cpu / peer at 1 / $threads thr |"
echo "|---|---|---|---|---|---|"
for model in $models; do
  : >"$work/annrt"; : >"$work/peer"
  for ((p = 0; p < pairs; ++p)); do
    pair "$model" annrt "$p" >>"$work/annrt"
    if [ -n "${TFLITE_BENCHMARK_MODEL:-}" ]; then pair "$model" peer "$p" >>"$work/peer"; fi
  done
  awk '{ printf "%.4f\n", $2 / $1 }' "$work/annrt" >"$work/ratio"
  one="$(col "$work/annrt" 1)"; many="$(col "$work/annrt" 2)"
  range="$(sort -g "$work/ratio" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')"
  over="$(awk '$1 > 1.10 { ++n } END { print n + 0 }' "$work/ratio")"
  peer_one="-"; peer_many="-"; versus="- / -"
  if [ -s "$work/peer" ]; then
    peer_one="$(col "$work/peer" 1)"; peer_many="$(col "$work/peer" 2)"
    versus="$(awk -v a="$one" -v b="$many" -v c="$peer_one" -v d="$peer_many" \
      'BEGIN { printf "%.2f / %.2f", a / c, b / d }')"
  fi
  printf "| %s | %.3f / %.3f | %.2f (%s) | %s of %s | %s / %s | %s |\n" "$model" "$one" "$many" \
    "$(median <"$work/ratio")" "$range" "$over" "$pairs" "$peer_one" "$peer_many" "$versus"
done
