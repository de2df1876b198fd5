// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "diff_params.h"

#include "tool_result.h"

namespace annrt::tools {

void registerDiffFlags(FlagSet& flags, DiffParams& p) {
  flags.addString("graph", &p.graph, ".tflite file, or builtin:mobilenet_block");
  flags.addString("reference_device", &p.referenceDevice,
                  "NNAPI device giving the reference outputs");
  flags.addString("test_device", &p.testDevice,
                  "NNAPI device under test; empty: the runtime's own device selection "
                  "(ANeuralNetworksCompilation_create)");
  flags.addInt("num_runs", &p.numRuns, "number of runs, each with new pseudo-random inputs");
  flags.addBool("nnapi_allow_fp16", &p.nnapiAllowFp16,
                "let the test side compute float32 in float16");
  flags.addString("input_layer", &p.inputLayer, "input layer names, comma-separated");
  flags.addString("input_layer_shape", &p.inputLayerShape,
                  "input layer shapes, ':'-separated, e.g. 1,224,224,4:1,20");
  flags.addFloat("max_allowed_error", &p.maxAllowedError,
                 "exit with status 1 if any output's max absolute difference exceeds this "
                 "(negative: never)");
  flags.addBool("help", &p.help, "print the flags and exit");
}

Result<void> validateDiffParams(const DiffParams& params) {
  ANNRT_CHECK(!params.graph.empty(),
              "give the model with --graph=FILE.tflite or --graph=builtin:mobilenet_block");
  ANNRT_CHECK(params.numRuns > 0, "--num_runs={} must be positive", params.numRuns);
  ANNRT_CHECK(!params.referenceDevice.empty(), "--reference_device must name a device");
  return {};
}

}  // namespace annrt::tools
