// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Per-operation profiles written by the runtime. When ANNRT_PROFILE names a
// file, the runtime writes, as each compilation is freed:
//   {"compilations": [{"model_operations": N,
//                      "steps": [{"device": "...", "operations": [i, ...]}],
//                      "operations": [{"index": i, "type": "CONV_2D", "device": "...",
//                                      "count": n, "total_ns": t}]}]}
// `count` is how many times operation i ran, `total_ns` its total time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "model_source.h"

namespace annrt::tools {

struct ProfiledOperation {
  uint32_t index = 0;
  std::string type;    // NNAPI operation
  std::string device;  // device that ran it
  int64_t count = 0;
  int64_t totalNs = 0;
};

struct ProfiledStep {
  std::string device;
  std::vector<uint32_t> operations;
};

struct CompilationProfile {
  uint32_t modelOperations = 0;
  std::vector<ProfiledStep> steps;
  std::vector<ProfiledOperation> operations;
};

Result<std::vector<CompilationProfile>> parseProfileJson(std::string_view text);
Result<std::vector<CompilationProfile>> readProfileFile(const std::string& path);

// The last compilation of a model with `operationCount` operations, or null.
const CompilationProfile* findCompilation(const std::vector<CompilationProfile>& profiles,
                                          size_t operationCount);

// A profile without timings, listing the model's operations, for when the
// runtime wrote none: every operation on `device`, in one step.
CompilationProfile unprofiledCompilation(const std::vector<OperationLabel>& operations,
                                         const std::string& device);

}  // namespace annrt::tools
