#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# A long fuzzing campaign, outside CI (docs/fuzzing.md): each target in turn
# for SECONDS, one job, a random seed, its corpus kept in CORPUS_DIR/<target>
# across campaigns (started from the build's seeds), its findings in
# CORPUS_DIR/<target>-findings/. Prints one line per target: executions,
# executions per second, coverage (edges), features, corpus entries, peak RSS
# and findings; exits 1 when a target found something. With RUNS set, a
# target also stops after that many executions (the bar: 10 million
# executions or 2 hours, whichever comes first); the seconds column is then
# the time it took. JOBS=N runs N processes of a target side by side on its
# one corpus (libFuzzer reloads what the others add), each with RUNS / N;
# the line then sums their executions and rates and takes the largest
# coverage, features, corpus and RSS. The targets' own stderr is closed
# (-close_fd_mask=2; libFuzzer's lines and sanitizer reports still reach
# the log): the runtime's error lines for rejected calls ran to 70 MB a
# minute per process (fuzz_nnapi_calls: 9 GB in a 2-hour campaign).
#   [RUNS=N] [JOBS=N] fuzz/long-run.sh BUILD_DIR SECONDS CORPUS_DIR [TARGET...]
# BUILD_DIR is a clang build with -DANNRT_BUILD_FUZZERS=ON (build-asan-clang).
set -uo pipefail
build="$1" seconds="$2" corpus="$3"
shift 3
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd "$build/fuzz" && ls fuzz_* | grep -v '\.' )
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
status=0
printf '| target | seconds | executions | exec/s | cov | ft | corpus | peak RSS MB | findings |\n|---|---|---|---|---|---|---|---|---|\n'
jobs="${JOBS:-1}"
limits=(-max_total_time="$seconds")
[ -z "${RUNS:-}" ] || limits+=(-runs="$((RUNS / jobs))")
for target in "${targets[@]}"; do
  mkdir -p "$corpus/$target" "$corpus/$target-findings"
  logs=()
  start=$SECONDS
  for ((j = 0; j < jobs; ++j)); do
    log="$corpus/$target.log"
    [ "$jobs" -eq 1 ] || log="$corpus/$target.$j.log"
    logs+=("$log")
    "$build/fuzz/$target" -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 -close_fd_mask=2 \
      -seed="$((RANDOM * 32768 + RANDOM + j))" "${limits[@]}" \
      -artifact_prefix="$corpus/$target-findings/" \
      "$corpus/$target" "$build/fuzz/seeds/$target" >"$log" 2>&1 &
  done
  wait
  took=$((SECONDS - start))
  # slow-unit-* files only say an input took over 10 s, which a busy
  # machine causes too; -timeout decides what is a hang.
  findings=$(find "$corpus/$target-findings" -type f ! -name 'slow-unit-*' | wc -l)
  [ "$findings" -eq 0 ] || status=1
  awk -v t="$target" -v s="$took" -v f="$findings" '
    /^#[0-9]+/ && / cov: / { for (i = 1; i <= NF; ++i) { if ($i == "cov:") cov[FILENAME] = $(i + 1);
        if ($i == "ft:") ft[FILENAME] = $(i + 1);
        if ($i == "corp:") { split($(i + 1), c, "/"); corp[FILENAME] = c[1] } } }
    /^stat::number_of_executed_units:/ { execs += $2 }
    /^stat::average_exec_per_sec:/ { rate += $2 }
    /^stat::peak_rss_mb:/ { if ($2 > rss) rss = $2 }
    END { for (l in cov) { if (cov[l] > maxCov) maxCov = cov[l]; if (ft[l] > maxFt) maxFt = ft[l];
            if (corp[l] > maxCorp) maxCorp = corp[l] }
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t, s, execs, rate, maxCov, maxFt, maxCorp, rss, f }' "${logs[@]}"
done
exit "$status"
