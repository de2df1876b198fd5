// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-diff's flags (modelled on TFLite's inference_diff).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "flag_parser.h"

namespace annrt::tools {

struct DiffParams {
  std::string graph;  // .tflite file or builtin:NAME
  std::string referenceDevice = "nnapi-reference";
  std::string testDevice;  // "" = the runtime's own selection
  int32_t numRuns = 50;
  bool nnapiAllowFp16 = false;  // test side only
  std::string inputLayer;
  std::string inputLayerShape;
  float maxAllowedError = -1;  // >= 0: fail when an output differs more
  bool help = false;
};

void registerDiffFlags(FlagSet& flags, DiffParams& params);
Result<void> validateDiffParams(const DiffParams& params);

}  // namespace annrt::tools
