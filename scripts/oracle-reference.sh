#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Writes real TensorFlow Lite reference outputs of the default models, using
# the shared tflite-oracle (TFLite WebAssembly under Node), for the accuracy
# tests. The oracle is copied into OUT_DIR/oracle and `npm install`ed there
# once; nothing is written outside OUT_DIR.
#
# usage: scripts/oracle-reference.sh OUT_DIR [MODELS_DIR [VARIANT_TOOL [DYNAMIC_TOOL]]]
# VARIANT_TOOL (tests/tflite's tflite_builtin_variant) rewrites the models
# stock TFLite cannot run (MediaPipe's custom Convolution2DTransposeBias) with
# the equivalent builtin TRANSPOSE_CONV; their references come from those
# variants (OUT_DIR/variants/NAME.tflite).
# DYNAMIC_TOOL (tests/tflite's tflite_dynamic_batch) writes each model with a
# dynamic batch (input shape_signature[0] = -1) to OUT_DIR/dynamic/NAME.tflite
# for annrt, and TFLite's outputs of the same (of its builtin variant for the
# selfie models) to OUT_DIR/NAME_dynamic_batch.json.
# Exits 0 having written OUT_DIR/NAME.json for each model it could run, and
# OUT_DIR/SKIPPED (with the reason) when node, the oracle or the models are
# missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: oracle-reference.sh OUT_DIR [MODELS_DIR]}"
models="${2:-$root/models}"
variant_tool="${3:-}"
dynamic_tool="${4:-}"
# The shared oracle: $ANNRT_TFLITE_ORACLE, or shared/tools/tflite-oracle next
# to the checkout (or next to the worktrees folder holding it).
oracle_src="${ANNRT_TFLITE_ORACLE:-}"
for candidate in "$root/../shared/tools/tflite-oracle" "$root/../../shared/tools/tflite-oracle"; do
  [ -n "$oracle_src" ] || { [ -f "$candidate/run_tflite.mjs" ] && oracle_src="$candidate"; }
done
# Models stock TFLite cannot run (MediaPipe custom op); see tests/tflite.
unsupported="selfie_segmentation selfie_segmentation_landscape"

mkdir -p "$out"
rm -f "$out/SKIPPED"
skip() { echo "$1" > "$out/SKIPPED"; echo "oracle-reference: skipped: $1"; exit 0; }

command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"
[ -f "$oracle_src/run_tflite.mjs" ] ||
  skip "no tflite-oracle found (set ANNRT_TFLITE_ORACLE to its folder)"
ls "$models"/*.tflite >/dev/null 2>&1 || skip "no models in $models (run scripts/fetch-models.sh)"

oracle="$out/oracle"
if [ ! -d "$oracle/node_modules/@tensorflow/tfjs-tflite" ]; then
  rm -rf "$oracle"
  mkdir -p "$oracle"
  cp "$oracle_src"/run_tflite.mjs "$oracle_src"/package.json "$oracle_src"/compare.py "$oracle/"
  chmod -R u+w "$oracle"
  (cd "$oracle" && npm install --silent --no-audit --no-fund >/dev/null 2>&1) ||
    skip "npm install of the oracle failed (offline?)"
fi

# reference MODEL NAME: TFLite's outputs of MODEL in OUT_DIR/NAME.json.
reference() {
  local json="$out/$2.json" sum
  sum="$(sha256sum "$1" | cut -d' ' -f1)"
  if [ -f "$json" ] && grep -q "\"model_sha256\":\"$sum\"" "$json"; then
    return 0  # up to date
  fi
  node "$oracle/run_tflite.mjs" "$1" --out "$json" --runs 1 --warmup 0 >/dev/null ||
    { echo "oracle-reference: TFLite failed on $2" >&2; rm -f "$json"; }
}

mkdir -p "$out/variants" "$out/dynamic"
for model in "$models"/*.tflite; do
  name="$(basename "$model" .tflite)"
  oracle_model="$model"
  case " $unsupported " in
    *" $name "*)
      [ -x "$variant_tool" ] || continue
      "$variant_tool" "$model" "$out/variants/$name.tflite" >/dev/null || continue
      oracle_model="$out/variants/$name.tflite"
      ;;
  esac
  reference "$oracle_model" "$name"
  [ -x "$dynamic_tool" ] || continue
  "$dynamic_tool" "$model" "$out/dynamic/$name.tflite" >/dev/null || continue
  dynamic_oracle_model="$out/dynamic/$name.tflite"
  if [ "$oracle_model" != "$model" ]; then
    dynamic_oracle_model="$out/variants/${name}_dynamic_batch.tflite"
    "$dynamic_tool" "$oracle_model" "$dynamic_oracle_model" >/dev/null || continue
  fi
  reference "$dynamic_oracle_model" "${name}_dynamic_batch"
done
echo "oracle-reference: references in $out"
