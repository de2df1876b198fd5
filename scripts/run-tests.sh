#!/usr/bin/env bash
# Installs dependencies, builds annrt (Release, then ASan+UBSan with clang and
# the fuzzers) and runs every test in both builds (the fuzzers 30 s each),
# the tests of threads under TSan (scripts/run-tsan.sh) between them, and
# the aarch64 tests under qemu-user last. This is what .ci/run runs.
#
# The downloads that only later phases need (PyTorch for tests/pytorch, the
# aarch64 cross compiler, qemu and sysroot) run in the background while the
# Release build compiles. Each phase's time is printed at the end, and CI's
# limit (ANNRT_CI_LIMIT_MIN, 90 minutes) sizes the aarch64 phase: whole,
# smaller (ANNRT_AARCH64_SIZE=small), or skipped saying so, by what is left.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
started=$(date +%s)
phase_start=$started
times=()
phase() {  # phase NAME: records the time since the previous phase
  local now
  now=$(date +%s)
  times+=("$1 $(((now - phase_start) / 60))m$(((now - phase_start) % 60))s")
  phase_start=$now
}
elapsed_min() { echo $((($(date +%s) - started) / 60)); }
report_times() {
  echo "run-tests: phase times: $(IFS=';'; echo "${times[*]}");" \
    "then $(($(date +%s) - phase_start))s in the next step; total $(elapsed_min) min;" \
    "host ISA: $(grep -o 'avx512[a-z]*\|avx2\|fma' /proc/cpuinfo | sort -u | tr '\n' ' ')"
}
trap report_times EXIT

"$root/scripts/setup.sh" build
phase "setup"
mkdir -p "$root/build"
prefetch_log="$root/build/prefetch.log"
(
  "$root/scripts/setup.sh" tests
  if [ "${ANNRT_SKIP_AARCH64:-0}" != "1" ]; then
    "$root/scripts/cross-aarch64.sh" --prepare "$root/build-aarch64" || true
  fi
) >"$prefetch_log" 2>&1 &
prefetch=$!

# The accuracy tests compare every default model with real TensorFlow Lite;
# without network they skip, saying so, rather than fail the build.
"$root/scripts/fetch-models.sh" ||
  echo "run-tests: could not fetch the default models; the model tests will be skipped" >&2
phase "models"

"$root/scripts/build.sh" "$root/build"
phase "Release build"
if ! wait "$prefetch"; then
  echo "run-tests: the background set-up failed:" >&2
  cat "$prefetch_log" >&2
  exit 1
fi
cat "$prefetch_log"
phase "waiting for the downloads"
(cd "$root/build" && ctest --output-on-failure -j"$(nproc)")
phase "Release tests"

if [ "${ANNRT_SKIP_SANITIZERS:-0}" != "1" ]; then
  "$root/scripts/run-tsan.sh" "$root/build-tsan"
  phase "TSan build and tests"
  # Built with clang so that the same build has the libFuzzer targets
  # (fuzz/, docs/fuzzing.md): each runs ANNRT_FUZZ_SECONDS over its seeds,
  # then replays its regressions, beside the other tests. Line tables are all
  # the sanitizers' reports need, and compile 10-20% faster than full -g.
  # Its conformance suites run a third of the cases each (tests/CMakeLists.txt).
  CC=clang-16 CXX=clang++-16 CMAKE_BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" \
    "$root/build-asan" -DANNRT_SANITIZE=address,undefined -DANNRT_BUILD_BENCHMARKS=OFF \
    -DANNRT_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG"
  phase "ASan+UBSan build"
  (cd "$root/build-asan" && \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ANNRT_FUZZ_SECONDS="${ANNRT_FUZZ_SECONDS:-30}" ctest --output-on-failure -j"$(nproc)")
  phase "ASan+UBSan tests"
fi

# aarch64: cross-built and run under qemu-user (docs/aarch64.md). Cold, on
# 2 cores: unit 7 minutes, small 15, full about 19 (docs/aarch64.md).
# The phase stops 3 minutes before CI's limit whatever its size: CI's time
# ran out once, and a phase cut short says so rather than fail the run.
if [ "${ANNRT_SKIP_AARCH64:-0}" != "1" ]; then
  left=$((${ANNRT_CI_LIMIT_MIN:-90} - $(elapsed_min)))
  size="${ANNRT_AARCH64_SIZE:-}"
  if [ -z "$size" ]; then
    if [ "$left" -ge 27 ]; then
      size=full
    elif [ "$left" -ge 20 ]; then
      size=small
    elif [ "$left" -ge 11 ]; then
      size=unit
    else
      size=none
    fi
  fi
  if [ "$size" = none ] || [ "$left" -le 3 ]; then
    echo "run-tests: aarch64 phase SKIPPED: $left min left of the CI limit, too few for" \
      "its cross build and tests (run scripts/run-aarch64-tests.sh alone)" >&2
  else
    status=0
    aarch64_build="$root/build-aarch64"
    failed_file="$aarch64_build/failed-tests.txt"  # written by run-aarch64-tests.sh
    rm -f "$failed_file"
    ANNRT_AARCH64_SIZE="$size" timeout --kill-after=20s "$((left - 3))m" \
      "$root/scripts/run-aarch64-tests.sh" "$aarch64_build" "$root/build" || status=$?
    phase "aarch64 ($size)"
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      if [ -s "$failed_file" ]; then
        echo "run-tests: aarch64 phase STOPPED at CI's time limit after these FAILED:" \
          "$(tr '\n' ' ' < "$failed_file")" >&2
        exit 1
      fi
      echo "run-tests: aarch64 phase STOPPED at CI's time limit ($((left - 3)) min), before" \
        "it finished; nothing failed in what ran (run scripts/run-aarch64-tests.sh alone)" >&2
    elif [ "$status" -ne 0 ]; then
      exit "$status"
    fi
  fi
fi
