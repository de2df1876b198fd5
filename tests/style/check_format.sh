#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Fails, naming each file and line, where a C or C++ source differs from what
# clang-format makes of it. The files are the *.c, *.cc, *.cpp and *.h of the
# project's source directories that git tracks (all of them where the tree is
# not a git checkout git can read), but include/android, which keeps the NDK
# headers as Android ships them. Skips (77) without clang-format 14: other
# versions lay out the same style differently.
#
# usage: check_format.sh --clang-format=PATH --source-dir=DIR
set -euo pipefail
clang_format="" source_dir=""
for argument in "$@"; do
  case "$argument" in
    --clang-format=*) clang_format="${argument#*=}" ;;
    --source-dir=*) source_dir="${argument#*=}" ;;
    *) echo "check_format: unknown argument $argument" >&2; exit 2 ;;
  esac
done
if [ -z "$source_dir" ]; then
  echo "check_format: --source-dir is required" >&2
  exit 2
fi
if [ -z "$clang_format" ] || ! [ -x "$clang_format" ]; then
  echo "check_format: clang-format not found; skipped"
  exit 77
fi
version="$("$clang_format" --version)"
if ! [[ "$version" =~ version\ 14\. ]]; then
  echo "check_format: $version is not clang-format 14; skipped"
  exit 77
fi
cd "$source_dir"
directories=(bench fuzz include python src tests tools)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${directories[@]}" | grep -E '\.(c|cc|cpp|h)$' |
    grep -v '^include/android/')
else
  mapfile -t files < <(find "${directories[@]}" -path include/android -prune -o \
    -path '*/node_modules' -prune -o -type f \
    \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' \) -print | sort)
fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "check_format: no source files under $source_dir" >&2
  exit 1
fi
report="$(printf '%s\0' "${files[@]}" | xargs -0 "$clang_format" --dry-run 2>&1 || true)"
marker=': warning: code should be clang-formatted'
if grep -q "$marker" <<<"$report"; then
  echo "check_format: these files differ from clang-format's layout (run clang-format -i on them):"
  grep "$marker" <<<"$report" | cut -d: -f1 | uniq -c |
    awk '{ printf "  %s (%d places)\n", $2, $1 }'
  echo "check_format: the first places:"
  grep "$marker" <<<"$report" | head -n 10
  exit 1
fi
if [ -n "$report" ]; then
  echo "check_format: clang-format failed:" >&2
  echo "$report" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files as clang-format lays them out"
