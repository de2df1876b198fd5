#!/usr/bin/env bash
# Runs clang-tidy 16 with the project's .clang-tidy over every C++ source the
# build compiles (src, tools, tests, bench, python) and fails if it reports
# anything. clang-tidy 14, Debian 12's default, cannot parse the _Float16 of
# src/common/types.h on x86-64, so the check uses Debian's clang-tidy-16
# (scripts/setup.sh lint). It takes about 20 minutes on 2 cores, which is why
# .ci/run does not run it; run it before a change lands.
# Usage: scripts/run-clang-tidy.sh [BUILD_DIR] [FILE_REGEX]
#   BUILD_DIR (default build-tidy) is configured with a compilation database
#   and the files it generates are built; FILE_REGEX narrows the files checked
#   (default: every project source).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-tidy}"
files="${2:-$root/(src|tools|tests|bench|python)/}"
jobs="${ANNRT_JOBS:-$(nproc)}"
"$root/scripts/setup.sh" lint
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
# The headers flatc generates must exist for the sources that include them
# to parse.
cmake --build "$build" -j"$jobs" --target annrt_tflite_schema annrt_tflite_object_file
log="$build/clang-tidy.log"
run-clang-tidy-16 -clang-tidy-binary clang-tidy-16 -p "$build" -j "$jobs" -quiet "$files" \
  >"$log" 2>&1 || true
# Colour codes off, one line per finding, each finding once (a header's
# findings repeat for every file that includes it), none in the headers the
# build generates (flatc's schema header).
findings="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^/.*: (warning|error): ' |
  grep -v "^$(realpath "$build")/" | sort -u || true)"
if [ -n "$findings" ]; then
  echo "run-clang-tidy: $(wc -l <<<"$findings") findings (the whole output: $log):"
  echo "$findings"
  exit 1
fi
echo "run-clang-tidy: clean ($(grep -c '^clang-tidy-16\|^\[' "$log" || true) files; $log)"
