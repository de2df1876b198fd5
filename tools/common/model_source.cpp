// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "model_source.h"

#include <filesystem>

#include "builtin_models.h"
#include "tool_result.h"
#ifdef ANNRT_TOOLS_WITH_TFLITE
#include "tflite_model_source.h"
#endif

namespace annrt::tools {

bool tfliteSupported() {
#ifdef ANNRT_TOOLS_WITH_TFLITE
  return true;
#else
  return false;
#endif
}

Result<std::unique_ptr<ModelSource>> openModelSource(const std::string& graph,
                                                     const ModelSourceOptions& options) {
  if (graph.starts_with(kBuiltinPrefix)) {
    return makeBuiltinModel(graph.substr(std::string_view(kBuiltinPrefix).size()), options);
  }
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(graph, ignored)) {
    return toolError("model file {} not found", graph);
  }
#ifdef ANNRT_TOOLS_WITH_TFLITE
  return importTfliteModel(graph, options);
#else
  return toolError(
      "cannot open {}: this build has no .tflite importer (the annrt_tflite library was not "
      "built); use --graph=builtin:mobilenet_block",
      graph);
#endif
}

}  // namespace annrt::tools
