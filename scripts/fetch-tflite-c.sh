#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Fetches TensorFlow Lite 2.9's C API (headers, libtensorflowlite_c.so and the
# external-delegate loader libexternal_delegate_obj.so) from the npm package
# tfjs-tflite-node@0.0.2 (Apache-2.0), for building and testing annrt's TFLite
# delegate (src/tflite_delegate) against real TFLite. Nothing of it is
# installed or shipped: it lands in OUT_DIR (a build directory) only. The
# tarball and every file taken from it are checked against the SHA-256 sums
# below.
#
# usage: scripts/fetch-tflite-c.sh OUT_DIR
#   OUT_DIR/include/tensorflow/lite/...  and  OUT_DIR/lib/*.so
# Exit status 0 when OUT_DIR is complete; otherwise 1 with the reason on stderr.
set -euo pipefail
out="${1:?usage: fetch-tflite-c.sh OUT_DIR}"
package="tfjs-tflite-node@0.0.2"
tarball_sha256="3be1632328a76a2475e5b6833253763c802c859433becb4d879ee1860e3b5284"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) arch=linux_amd64
    libtflite_sha256=dc89b4cd86d956516570bd483668e6dd98907f49901d0567dedc69a29a56b7f7
    libexternal_sha256=84cce7d984c01c55d8f286244e789294ef2f6893e2947b39e256941b55835c19 ;;
  Linux-aarch64) arch=linux_arm64
    libtflite_sha256=ec0dee4fb3418e680d010248ac1e304d9656cc5c8de54caaf91d666712e2f633
    libexternal_sha256=7cc05a58e977a67b2907e60f43b3d9e18d9d5090a2292af3cf31b67645938b98 ;;
  *) echo "fetch-tflite-c: $package has libraries for Linux x86-64 and arm64 only" >&2; exit 1 ;;
esac

# member path (under package/cc_deps) -> destination (under OUT_DIR) and SHA-256.
files=(
  "include/tensorflow/lite/c/c_api.h include/tensorflow/lite/c/c_api.h 7b4b0e05b9d82a9c9bdc75d83e5fb12c09686a3ee0f73e7686706ee5762faae5"
  "include/tensorflow/lite/c/c_api_types.h include/tensorflow/lite/c/c_api_types.h 1ad66312ea5f89471436b77d9395f747ee789a6a7afecacf0214ce0bfa16c4cd"
  "include/tensorflow/lite/c/common.h include/tensorflow/lite/c/common.h b19c1f2ae6fd049ed159fc857e4d0e214d72fe6c0a12e69739078c01a5a7e5be"
  "include/tensorflow/lite/delegates/external/external_delegate.h include/tensorflow/lite/delegates/external/external_delegate.h ceb2b1f5ec6004c73e3dc8a64cb16dda8de7febdc122676a23a48147a394ad49"
  "$arch/libtensorflowlite_c.so lib/libtensorflowlite_c.so $libtflite_sha256"
  "$arch/libexternal_delegate_obj.so lib/libexternal_delegate_obj.so $libexternal_sha256"
)

complete() {
  local entry member destination sum
  for entry in "${files[@]}"; do
    read -r member destination sum <<<"$entry"
    [ -f "$out/$destination" ] && echo "$sum  $out/$destination" | sha256sum --check --status ||
      return 1
  done
}
complete && exit 0
command -v npm >/dev/null || { echo "fetch-tflite-c: npm not found" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "$package" --silent >/dev/null 2>&1) ||
  { echo "fetch-tflite-c: npm pack $package failed (offline?)" >&2; exit 1; }
tarball="$(ls "$tmp"/*.tgz)"
echo "$tarball_sha256  $tarball" | sha256sum --check --status ||
  { echo "fetch-tflite-c: $package's tarball has an unexpected SHA-256" >&2; exit 1; }
tar xzf "$tarball" -C "$tmp" package/cc_deps
for entry in "${files[@]}"; do
  read -r member destination sum <<<"$entry"
  echo "$sum  $tmp/package/cc_deps/$member" | sha256sum --check --status ||
    { echo "fetch-tflite-c: $member has an unexpected SHA-256" >&2; exit 1; }
  mkdir -p "$(dirname "$out/$destination")"
  cp "$tmp/package/cc_deps/$member" "$out/$destination"
done
