#!/usr/bin/env bash
# Makes the fuzzers' seed corpora from real inputs (run by the build, target
# fuzz_seeds): OUT/<target>/ for every target in fuzz/.
#   make-seeds.sh OUT SEED_WRITER ANNRT_BENCHMARK CTS_DIR MODELS_DIR
# CTS cases come from CTS_DIR (../shared/nnapi-cts), the small default models
# from MODELS_DIR; either may be missing (fewer seeds, said so). Cache files
# are written by annrt itself: annrt-benchmark compiles the built-in model on
# annrt-cpu with the automatic cache in a temporary directory.
set -euo pipefail
out="$1" seed_writer="$2" benchmark="$3" cts="$4" models="$5"
rm -rf "$out"
mkdir -p "$out"/{fuzz_cpu_vs_reference,fuzz_tflite_import,fuzz_nnapi_calls,fuzz_cache_file,fuzz_abi_model,fuzz_cts_reader,fuzz_diff_inputs}

# A few small CTS files of each kind of model: elementwise, convolution,
# quantized, per-channel, IF (a referenced model); each under 128 KB.
cases=()
for name in V1_0/add.json V1_0/conv_float.json V1_0/fully_connected_quant8.json \
  V1_0/softmax_float_1.json V1_1/pad.json V1_2/cast.json V1_2/depthwise_conv2d_per_channel.json \
  V1_3/if_constant.json V1_3/add_quant8_signed.json; do
  if [ -f "$cts/$name" ]; then cases+=("$cts/$name"); fi
done
if [ ${#cases[@]} -eq 0 ]; then
  echo "make-seeds: no CTS cases under $cts: no CTS, NNAPI-call or ABI seeds" >&2
else
  cp "${cases[@]}" "$out/fuzz_cts_reader/"
  "$seed_writer" nnapi-calls "$out/fuzz_nnapi_calls" "${cases[@]}"
  "$seed_writer" abi-model "$out/fuzz_abi_model" "${cases[@]}"
fi
# WHILE: the smallest WHILE file (the others are over 128 KB), whose loop
# ends only at the fuzzers' loop timeout; its mutants change the condition
# and the body.
while_case="$cts/V1_3/while_infinite_loop.json"
if [ -f "$while_case" ]; then
  "$seed_writer" nnapi-calls "$out/fuzz_nnapi_calls" "$while_case"
  "$seed_writer" abi-model "$out/fuzz_abi_model" "$while_case"
fi
"$seed_writer" diff-inputs "$out/fuzz_diff_inputs"
"$seed_writer" image-models "$out/fuzz_cpu_vs_reference"
"$seed_writer" tflite "$out/fuzz_tflite_import"
# The smallest default model (229 KB); the others take seconds per run on
# the reference device under ASan.
if [ -f "$models/face_detection_short_range.tflite" ]; then
  cp "$models/face_detection_short_range.tflite" "$out/fuzz_tflite_import/"
fi

cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
ANNRT_CACHE_PATH="$cache" ANNRT_NUM_THREADS=1 "$benchmark" --graph=builtin:mobilenet_block \
  --nnapi_accelerator_name=annrt-cpu --num_runs=1 --warmup_runs=0 >/dev/null 2>&1 || true
count=0
for file in "$cache"/*.annrtcc; do
  [ -f "$file" ] || continue
  count=$((count + 1))
  # fuzz_cache_file: an even first byte, the whole file; an odd one, the payload.
  { printf '\0'; cat "$file"; } >"$out/fuzz_cache_file/file$count"
  { printf '\1'; tail -c +257 "$file"; } >"$out/fuzz_cache_file/payload$count"
done
echo "make-seeds: $count cache entries written by annrt-benchmark"
