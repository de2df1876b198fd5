#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Fetches a native TensorFlow Lite C library for bench/model_table.sh, which
# times annrt-cpu beside real TFLite + XNNPACK on the same machine in the same
# run (bench/tflite_c_bench.cpp). It is no dependency of annrt and is never
# installed or shipped: it lands in OUT_DIR (a build directory) only.
#
# The library is TFLite 2.9.0's libtensorflowlite_c.so for Linux x86-64, with
# the XNNPACK delegate, as the npm package tfjs-tflite-node@0.0.2 (Apache-2.0)
# ships it prebuilt; the package's tarball and the library are checked against
# the SHA-256 sums below.
#
# usage: scripts/fetch-tflite-native.sh OUT_DIR    (prints the library's path)
set -euo pipefail
out="${1:?usage: fetch-tflite-native.sh OUT_DIR}"
package="tfjs-tflite-node@0.0.2"
tarball_sha256="3be1632328a76a2475e5b6833253763c802c859433becb4d879ee1860e3b5284"
library_sha256="dc89b4cd86d956516570bd483668e6dd98907f49901d0567dedc69a29a56b7f7"
member="package/cc_deps/linux_amd64/libtensorflowlite_c.so"
lib="$out/libtensorflowlite_c.so"

if [ -f "$lib" ] && echo "$library_sha256  $lib" | sha256sum --check --status; then
  echo "$lib"
  exit 0
fi
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] ||
  { echo "fetch-tflite-native: $package has a library for Linux x86-64 only" >&2; exit 1; }
command -v npm >/dev/null || { echo "fetch-tflite-native: npm not found" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "$package" --silent >/dev/null 2>&1) ||
  { echo "fetch-tflite-native: npm pack $package failed (offline?)" >&2; exit 1; }
tarball="$(ls "$tmp"/*.tgz)"
echo "$tarball_sha256  $tarball" | sha256sum --check --status ||
  { echo "fetch-tflite-native: $package's tarball has an unexpected SHA-256" >&2; exit 1; }
tar xzf "$tarball" -C "$tmp" "$member"
echo "$library_sha256  $tmp/$member" | sha256sum --check --status ||
  { echo "fetch-tflite-native: the library has an unexpected SHA-256" >&2; exit 1; }
mkdir -p "$out"
cp "$tmp/$member" "$lib"
echo "$lib"
