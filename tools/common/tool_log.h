// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Log lines in TensorFlow Lite's tool format: "INFO: ..." and "WARN: ..." on
// stdout, "ERROR: ..." on stderr, so that scripts written for benchmark_model
// parse annrt's tools unchanged.
#pragma once

#include <string_view>

namespace annrt::tools {

void logInfo(std::string_view line);
void logWarn(std::string_view line);
void logError(std::string_view line);
// Text printed as is (continuation lines of a multi-line INFO block).
void logRaw(std::string_view text);

}  // namespace annrt::tools
