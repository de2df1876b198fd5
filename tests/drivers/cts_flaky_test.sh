#!/bin/sh
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# annrt-cts's rerun of a listed case that failed: through sample-failing in
# execute-once mode, the case fails once and passes in the rerun (FLAKY, exit
# 0, the report keeps the pass and the first failure); in execute mode it
# fails both times (a regression, exit 1, no FLAKY).
#
# usage: cts_flaky_test.sh ANNRT_CTS VECTORS_DIR   (ANNRT_DRIVER_PATH set by ctest)
set -u
cts="$1" vectors="$2"
[ -d "$vectors" ] || { echo "skipped: no conformance vectors at $vectors"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo add > "$work/expected.txt"
# Only the case it runs: reading all of the vectors took ~29 s per run under
# ASan, which a loaded CI machine pushed past the test's timeout.
mkdir -p "$work/vectors/V1_0"
cp "$vectors/V1_0/add.json" "$work/vectors/V1_0/"

run() {  # run MODE: annrt-cts on the one case `add`, sample-failing alone
  rm -f "$work/once" "$work/report.json"
  ANNRT_SAMPLE_FAILING_MODE="$1" ANNRT_SAMPLE_FAILING_ONCE_FILE="$work/once" \
    "$cts" --vectors "$work/vectors" --devices sample-failing --filter '^add$' \
    --expected-pass "$work/expected.txt" --check-expected --report "$work/report.json" \
    > "$work/out.txt" 2>&1
  status=$?
  sed "s/^/  [$1] /" "$work/out.txt"
}
fail() { echo "FAIL: $*"; exit 1; }

run execute-once
[ "$status" -eq 0 ] || fail "execute-once: exit $status, expected 0"
grep -q '^FLAKY add (failed at compute, OP_FAILED.*passed when run again$' \
  "$work/out.txt" || fail "execute-once: no FLAKY line with the first failure"
grep -q '"status": "passed"' "$work/report.json" || fail "the report does not keep the rerun's pass"
grep -q '"flakyFirstFailure": "add (failed at' "$work/report.json" ||
  fail "the report does not keep the first failure"

run execute
[ "$status" -eq 1 ] || fail "execute: exit $status, expected 1 (a regression)"
grep -q '^FLAKY' "$work/out.txt" && fail "execute: a case failing twice printed as FLAKY"
grep -q 'did not pass' "$work/out.txt" || fail "execute: the regression is not reported"
echo "PASS"
