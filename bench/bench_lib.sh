# shellcheck shell=bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Shell functions the bench/ scripts share; sourced, not run.

# start_busy_load N: N CPU-bound processes ("auto": one per core but one),
# stopped when the sourcing script exits. Sets busy_load to the count.
start_busy_load() {
  busy_load="$1"
  [ "$busy_load" = auto ] && busy_load=$(($(nproc) - 1))
  busy_pids=()
  trap 'if [ ${#busy_pids[@]} -gt 0 ]; then kill "${busy_pids[@]}" 2>/dev/null || true; fi' EXIT
  local i
  for ((i = 0; i < busy_load; ++i)); do
    (while :; do :; done) &
    busy_pids+=($!)
  done
}

# host_isa: the vector extensions /proc/cpuinfo lists (for the table's header).
host_isa() {
  grep -o 'avx512[a-z]*\|avx2\|fma\|asimd' /proc/cpuinfo | sort -u | tr '\n' ' '
}

# timings: benchmark_model's output -> "avg_ms init_ms first_ms overall_mb peak_mb"
timings() {
  awk '
    /Inference timings in us/ {
      for (i = 1; i <= NF; ++i) {
        if ($i == "Init:") init = $(i + 1) / 1000
        if ($i == "First") first = $(i + 2) / 1000
        if ($i == "Inference" && $(i + 1) == "(avg):") avg = $(i + 2) / 1000
      }
    }
    /Memory footprint delta/ { split($0, a, "overall="); overall = a[2] + 0 }
    /Overall peak memory footprint/ { peak = $NF + 0 }
    END { printf "%.3f %.1f %.1f %.1f %.1f", avg, init, first, overall, peak }'
}

# tflite_file BUILD_DIR MODEL -> the file stock TFLite runs: the model, or its
# builtin variant where MediaPipe's custom op needs one
tflite_file() {
  if [ -f "$1/tflite-reference/variants/$2.tflite" ]; then
    echo "$1/tflite-reference/variants/$2.tflite"
  else
    echo "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/models/$2.tflite"
  fi
}

# median: the median of the numbers on stdin, one a line
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
