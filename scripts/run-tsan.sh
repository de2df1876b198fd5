#!/usr/bin/env bash
# Builds the tests labelled `threads` (executions, events, bursts, annrt-cpu
# and its thread pool, the conformance suite on annrt-cpu) with
# ThreadSanitizer and runs them. ANNRT_CPU_HANDOFF_US=0 puts every annrt-cpu
# operation on the pool, so every kernel runs on two threads, and
# ANNRT_CPU_ADAPTIVE_THREADS=0 keeps it there when the machine is busy.
# The stress test (tests/stress) runs ANNRT_STRESS_EXECUTIONS iterations per
# thread: its full 1000 took 5-8 s under TSan on 2 busy cores (lower it here if
# the phase runs short of time).
# annrt-cpu's cache tests run only with its pool (the *_2threads cases): at
# one thread they start no thread, and under TSan they took 431 of the
# phase's 1,086 s of test time (their bytes are checked in the Release and
# ASan builds). Line tables (-g1) are all a TSan report needs, and they
# compile faster than full -g (native_convolution.cpp: 53 -> 39 s).
# Usage: scripts/run-tsan.sh [BUILD_DIR]   (default: build-tsan)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-tsan}"
jobs="${ANNRT_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DANNRT_SANITIZE=thread \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cmake --build "$build" -j"$jobs" --target annrt_thread_tests
cd "$build"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp" \
  ANNRT_NUM_THREADS=2 ANNRT_CPU_HANDOFF_US=0 ANNRT_CPU_ADAPTIVE_THREADS=0 \
  ANNRT_STRESS_EXECUTIONS="${ANNRT_STRESS_EXECUTIONS:-1000}" \
  ctest --output-on-failure -j"$(nproc)" -L threads -E 'CpuCacheTest\..*_1threads'
