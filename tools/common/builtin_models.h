// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Models the tools construct in-process through the NNAPI C API, selected with
// --graph=builtin:NAME, so that the tools work without any model file.
//
// builtin:mobilenet_block - a MobileNet-style residual block, float32, fixed
// deterministic weights:
//   input [1,64,64,3]
//   -> CONV_2D 3x3 (3->16), SAME, stride 1, RELU6          "conv_expand"
//   -> DEPTHWISE_CONV_2D 3x3 (x1), SAME, stride 1, RELU6    "conv_depthwise"
//   -> CONV_2D 1x1 (16->16), no activation                  "conv_project"
//   -> ADD with the CONV_2D 3x3 output (residual)           "residual_add"
//   -> AVERAGE_POOL_2D 64x64 (global), VALID                "global_pool"
//   -> FULLY_CONNECTED 16->10                               "logits"
//   -> SOFTMAX beta=1                                       "probabilities"  output [1,10]
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model_source.h"

namespace annrt::tools {

// Names accepted after "builtin:".
std::vector<std::string> builtinModelNames();

Result<std::unique_ptr<ModelSource>> makeBuiltinModel(const std::string& name,
                                                      const ModelSourceOptions& options);

}  // namespace annrt::tools
