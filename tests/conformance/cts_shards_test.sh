#!/bin/sh
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# annrt-cts --shard I/N: the shards of a suite are disjoint, together list
# every case (derived runs with their base case), none is empty, and a bad
# shard or one with --write-expected is a usage error (exit 2).
#
# usage: cts_shards_test.sh ANNRT_CTS VECTORS_DIR
set -u
cts="$1" vectors="$2"
[ -d "$vectors" ] || { echo "skipped: no conformance vectors at $vectors"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Two versions' worth of cases keeps the test short under ASan.
mkdir -p "$work/vectors"
cp -r "$vectors/V1_0" "$vectors/V1_1" "$work/vectors/"
fail() { echo "FAILED: $*"; exit 1; }

"$cts" --vectors "$work/vectors" --derived --list | sort > "$work/all.txt" ||
  fail "--list exited $?"
[ -s "$work/all.txt" ] || fail "no cases listed"
: > "$work/union.txt"
for shard in 0 1 2; do
  "$cts" --vectors "$work/vectors" --derived --shard "$shard/3" --list > "$work/shard$shard.txt" ||
    fail "--shard $shard/3 exited $?"
  count=$(wc -l < "$work/shard$shard.txt")
  echo "shard $shard/3: $count of $(wc -l < "$work/all.txt") runs"
  [ "$count" -gt 0 ] || fail "shard $shard/3 is empty"
  cat "$work/shard$shard.txt" >> "$work/union.txt"
done
sort "$work/union.txt" > "$work/union_sorted.txt"
cmp -s "$work/all.txt" "$work/union_sorted.txt" ||
  fail "the shards are not a partition of the whole list"
# A derived run is in its base case's shard.
for shard in 0 1 2; do
  sed 's/#.*//' "$work/shard$shard.txt" | sort -u > "$work/bases$shard.txt"
done
overlap=$(sort "$work/bases0.txt" "$work/bases1.txt" "$work/bases2.txt" | uniq -d | wc -l)
[ "$overlap" -eq 0 ] || fail "$overlap base cases are in two shards"

for bad in 3/3 1/0 x/3 1/3x -1/3; do
  "$cts" --vectors "$work/vectors" --shard "$bad" --list > /dev/null 2>&1
  status=$?
  [ "$status" -eq 2 ] || fail "--shard $bad exited $status, not 2"
done
"$cts" --vectors "$work/vectors" --shard 0/3 --write-expected "$work/w.txt" > /dev/null 2>&1
status=$?
[ "$status" -eq 2 ] || fail "--shard with --write-expected exited $status, not 2"
echo "passed"
