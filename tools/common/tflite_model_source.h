// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ModelSource over annrt::tflite::importFile. Only compiled when the
// annrt_tflite library exists (ANNRT_TOOLS_WITH_TFLITE).
#pragma once

#include <memory>
#include <string>

#include "model_source.h"

namespace annrt::tools {

Result<std::unique_ptr<ModelSource>> importTfliteModel(const std::string& path,
                                                       const ModelSourceOptions& options);

}  // namespace annrt::tools
