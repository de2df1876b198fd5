// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The parameter echo benchmark_model prints before loading the model
// ("Min num runs: [50]", "Graph: [x.tflite]", "Use NNAPI: [1]", ...): a
// parameter is listed when given on the command line, or always with
// --verbose=true; the graph is always listed.
#pragma once

#include <string>
#include <vector>

#include "benchmark_params.h"
#include "flag_parser.h"

namespace annrt::tools {

// Lines without the "INFO: " prefix. `availableDevices` is the
// "NNAPI accelerators available" list (printed with --use_nnapi=true).
std::vector<std::string> parameterLines(const BenchmarkParams& params, const FlagSet& flags,
                                        const std::string& availableDevices);

}  // namespace annrt::tools
