#!/usr/bin/env bash
# One fuzz test (ctest label fuzz): the fuzzer for ANNRT_FUZZ_SECONDS
# (default 60) over a scratch copy of its seeds, then every input in its
# regression directory once. Its random seed is fixed (ANNRT_FUZZ_SEED,
# default 1), so a run explores the same inputs in the same order on every
# machine, as far as its time reaches: CI repeats what passed before it,
# and longer or other-seeded runs outside CI look for new findings.
#   run-fuzzer.sh FUZZER SEEDS REGRESSIONS WORK MAX_LEN
set -euo pipefail
fuzzer="$1" seeds="$2" regressions="$3" work="$4" max_len="$5"
seconds="${ANNRT_FUZZ_SECONDS:-60}"
seed="${ANNRT_FUZZ_SEED:-1}"
# What a finding is: any ASan/UBSan report, a leak, one input over 25 s (the
# targets bound their work to well under a second; the margin is for a
# sanitized build sharing two busy cores with other tests), or over 2 GB.
flags=(-rss_limit_mb=2048 -timeout=25 -max_len="$max_len" -print_final_stats=1)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
"$fuzzer" "${flags[@]}" -seed="$seed" -max_total_time="$seconds" -artifact_prefix="$work/artifacts/" \
  "$work/corpus" "$seeds" 2>"$work/log" || { tail -n 60 "$work/log"; exit 1; }
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::number_of_executed_units|^Done' "$work/log" || true
mapfile -t inputs < <(find "$regressions" -type f ! -name '.*' 2>/dev/null | sort)
if [ ${#inputs[@]} -gt 0 ]; then
  "$fuzzer" "${flags[@]}" "${inputs[@]}" >"$work/replay.log" 2>&1 || {
    tail -n 60 "$work/replay.log"
    exit 1
  }
  echo "run-fuzzer: ${#inputs[@]} regression inputs replayed"
fi
