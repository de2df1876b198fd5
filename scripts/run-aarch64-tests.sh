#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Cross-builds annrt for aarch64 (scripts/cross-aarch64.sh) and runs, under
# qemu-user through ctest: the unit and API tests, the conformance suite on
# nnapi-reference and on annrt-cpu (their expected-pass gates), and the
# accuracy tests of the default models against the TensorFlow Lite references
# the x86-64 build's oracle wrote (copied from NATIVE_BUILD/tflite-reference:
# no oracle runs here). Timings under qemu say nothing about Arm hardware.
#
# usage: scripts/run-aarch64-tests.sh [BUILD_DIR [NATIVE_BUILD]]
#   BUILD_DIR defaults to build-aarch64, NATIVE_BUILD to build.
#   ANNRT_AARCH64_SIZE=small leaves out the second annrt-cpu conformance run
#   (FP16 CPU) and the model accuracy tests, about 6 of the 12-13 minutes the
#   tests take under qemu on 2 cores; ANNRT_AARCH64_SIZE=unit builds and runs
#   only the unit, API and operation tests (no annrt-cts, no annrt-cpu
#   tests); run-tests.sh picks a size by what is left of CI's time.
# Exits 0 saying SKIPPED when the arm64 packages cannot be fetched (offline).
# See docs/aarch64.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-aarch64}"
native="${2:-$root/build}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
jobs="${ANNRT_JOBS:-$(nproc)}"

# Test directories of the build tree and the targets their tests need:
# annrt_tests_<area> is every test binary of tests/<area> (tests/CMakeLists.txt).
unit_dirs=(tests/unit tests/api tests/ops_conv tests/ops_elementwise tests/ops_movement tests/ops_pool)
size="${ANNRT_AARCH64_SIZE:-full}"
targets=()
for dir in "${unit_dirs[@]}"; do targets+=("annrt_tests_${dir#tests/}"); done
[ "$size" = unit ] || targets+=(annrt_tests_cpu annrt-cts tflite_accuracy_tests)

started=$(date +%s)
phase_start=$started
times=()
phase() {  # phase NAME: the time since the last phase
  local now
  now=$(date +%s)
  times+=("$1 $((now - phase_start))s")
  phase_start=$now
}

status=0
"$root/scripts/cross-aarch64.sh" "$build" "${targets[@]}" || status=$?
if [ "$status" -eq 77 ]; then
  echo "run-aarch64-tests: SKIPPED: no aarch64 sysroot or toolchain (see above); nothing ran" >&2
  exit 0
fi
[ "$status" -eq 0 ] || exit "$status"
phase "cross build"

failed=()
# What failed so far, also in a file, for a caller that stops this script
# at a time limit (run-tests.sh) to tell a cut run from a failed one.
failed_file="$build/failed-tests.txt"
: > "$failed_file"
run() {  # run NAME DIR [ctest args...]: ctest of one test directory under qemu
  local name="$1" dir="$2"
  shift 2
  echo "run-aarch64-tests: $name" >&2
  if ! ctest --test-dir "$build/$dir" --output-on-failure -j"$jobs" "$@"; then
    failed+=("$name")
    echo "$name" >> "$failed_file"
  fi
  phase "$name"
}

finish() {  # finish [NOTE]: the times, and the exit status of what ran
  echo "run-aarch64-tests: times: $(IFS=';'; echo "${times[*]}"); total $(($(date +%s) - started))s"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "run-aarch64-tests: FAILED: ${failed[*]}" >&2
    exit 1
  fi
  echo "run-aarch64-tests: all passed${1:-}"
  exit 0
}
for dir in "${unit_dirs[@]}"; do run "$dir" "$dir"; done
if [ "$size" = unit ]; then
  finish " (unit: the unit, API and operation tests only)"
fi
# CpuThreadHintTest counts the process's threads in /proc/self/task, where
# qemu-user's own threads come and go: its counts are off by one there
# (2, 4, 4, 5 for 3, 5, 5, 6 after a start of 3), not annrt's.
# The cache tests compile a default model several times each: over a
# minute per test on the large models under qemu, 5 s on the smallest, whose
# 12 (all cases at 1 and 2 threads) cover annrt-cpu's cache format on Arm.
run "tests/cpu (annrt-cpu)" tests/cpu \
  -E "^conformance_|^CpuThreadHintTest\\.|CpuCacheTest\\.[A-Za-z]+/(face_detection_full|hand|pose|selfie)"
run "CTS nnapi-reference" tests/conformance -R "^conformance_reference$"
run "CTS annrt-cpu" tests/cpu -R "^conformance_cpu$"
if [ "$size" = small ]; then
  finish " (small: without the FP16 CPU conformance run and the model accuracy tests)"
fi
# Again on a CPU with FP16 arithmetic (qemu's `max`), where XNNPACK computes
# relaxed models in float16: what boards like RK3588 run.
QEMU_CPU=max run "CTS annrt-cpu, FP16 CPU" tests/cpu -R "^conformance_cpu$"

# The x86-64 oracle's references (keyed by the models' SHA-256), without the
# oracle itself; the accuracy tests skip, saying why, without them.
reference="$build/tflite-reference"
rm -rf "$reference"
mkdir -p "$reference"
if [ -d "$native/tflite-reference" ]; then
  (cd "$native/tflite-reference" && find . -path ./oracle -prune -o -type f -print0 |
    xargs -0 -r cp --parents -t "$reference")
else
  echo "no x86-64 references in $native/tflite-reference (run its tflite_oracle_reference)" \
    > "$reference/SKIPPED"
fi
# The default plans (annrt-cpu on XNNPACK's NEON kernels, with the
# reference): the reference device alone, plain C++, takes 3/4 of the time
# under qemu and its operations are checked by the conformance suite above.
run "accuracy" tests/tflite -R "AccuracyTest.*_DefaultPlan" -FS tflite_oracle

finish
