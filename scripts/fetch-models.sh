#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Fetches the default .tflite models (MediaPipe, from npm packages at pinned
# versions) into models/ and verifies each against scripts/models.sha256.
# Idempotent: a model already present with the right hash is not fetched again.
# Non-interactive; exits non-zero with a clear message on any mismatch.
#
# usage: scripts/fetch-models.sh [DEST_DIR]      (default: <repo>/models)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$root/models}"
sums="$root/scripts/models.sha256"

# package@version followed by the models it provides.
packages=(
  "@mediapipe/face_detection@0.4.1657300184 face_detection_short_range face_detection_full_range face_detection_full_range_sparse"
  "@mediapipe/hands@0.4.1675469240 hand_landmark_lite hand_landmark_full"
  "@mediapipe/pose@0.5.1675469404 pose_landmark_lite pose_landmark_full"
  "@mediapipe/selfie_segmentation@0.1.1675465747 selfie_segmentation selfie_segmentation_landscape"
)

expected_sha() {
  awk -v f="$1.tflite" '$2 == f { print $1 }' "$sums"
}

# verified NAME -> 0 when DEST/NAME.tflite exists with the pinned hash.
verified() {
  local file="$dest/$1.tflite" want
  want="$(expected_sha "$1")"
  [ -n "$want" ] || { echo "fetch-models: no hash for $1 in $sums" >&2; exit 1; }
  [ -f "$file" ] && [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$want" ]
}

fetch_package() {
  local spec="$1"; shift
  local missing=()
  for model in "$@"; do verified "$model" || missing+=("$model"); done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "fetch-models: $spec: all present and verified"
    return
  fi
  command -v npm >/dev/null || { echo "fetch-models: npm not found (run scripts/setup.sh)" >&2; exit 1; }
  local tmp
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' RETURN
  echo "fetch-models: $spec: npm pack (${missing[*]})"
  (cd "$tmp" && npm pack "$spec" --silent >/dev/null)
  local tarball
  tarball="$(ls "$tmp"/*.tgz)"
  for model in "${missing[@]}"; do
    tar -xzf "$tarball" -C "$tmp" "package/$model.tflite" ||
      { echo "fetch-models: $spec has no $model.tflite" >&2; exit 1; }
    local got want
    got="$(sha256sum "$tmp/package/$model.tflite" | cut -d' ' -f1)"
    want="$(expected_sha "$model")"
    if [ "$got" != "$want" ]; then
      echo "fetch-models: SHA-256 MISMATCH for $model.tflite from $spec" >&2
      echo "  expected $want" >&2
      echo "  got      $got" >&2
      exit 1
    fi
    install -m 0644 "$tmp/package/$model.tflite" "$dest/$model.tflite"
    echo "fetch-models: $model.tflite OK"
  done
}

mkdir -p "$dest"
for entry in "${packages[@]}"; do
  # shellcheck disable=SC2086
  fetch_package $entry
done
echo "fetch-models: ${#packages[@]} packages, models in $dest"
