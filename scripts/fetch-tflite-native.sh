#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Fetches a native TensorFlow Lite C library for bench/model_table.sh, which
# times annrt-cpu beside real TFLite + XNNPACK on the same machine in the same
# run (bench/tflite_c_bench.cpp). It is no dependency of annrt and is never
# installed or shipped: it lands in OUT_DIR (a build directory) only.
#
# The library is TFLite 2.9.0's libtensorflowlite_c.so, with the XNNPACK
# delegate, as the npm package tfjs-tflite-node@0.0.2 (Apache-2.0) ships it
# prebuilt, fetched and SHA-256 checked by scripts/fetch-tflite-c.sh.
#
# usage: scripts/fetch-tflite-native.sh OUT_DIR    (prints the library's path)
set -euo pipefail
out="${1:?usage: fetch-tflite-native.sh OUT_DIR}"
"$(dirname "$0")/fetch-tflite-c.sh" "$out"
echo "$out/lib/libtensorflowlite_c.so"
