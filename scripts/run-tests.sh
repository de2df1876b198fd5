#!/usr/bin/env bash
# Installs dependencies, builds annrt (Release, then ASan+UBSan) and runs every
# test in both builds, and the tests of threads under TSan (scripts/run-tsan.sh)
# between them. This is what .ci/run runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
# The accuracy tests compare every default model with real TensorFlow Lite;
# without network they skip, saying so, rather than fail the build.
"$root/scripts/fetch-models.sh" ||
  echo "run-tests: could not fetch the default models; the model tests will be skipped" >&2

"$root/scripts/build.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure -j"$(nproc)")

if [ "${ANNRT_SKIP_SANITIZERS:-0}" != "1" ]; then
  "$root/scripts/run-tsan.sh" "$root/build-tsan"
  CMAKE_BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" "$root/build-asan" \
    -DANNRT_SANITIZE=address,undefined
  (cd "$root/build-asan" && \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure -j"$(nproc)")
fi

# aarch64: cross-built and run under qemu-user (docs/aarch64.md).
[ "${ANNRT_SKIP_AARCH64:-0}" = "1" ] || "$root/scripts/run-aarch64-tests.sh" "$root/build-aarch64" "$root/build"
