// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "nnapi_status.h"

#include <android/NeuralNetworks.h>

#include "tool_result.h"

namespace annrt::tools {

const char* resultCodeName(int code) {
  static constexpr const char* kNames[] = {"NO_ERROR",
                                           "OUT_OF_MEMORY",
                                           "INCOMPLETE",
                                           "UNEXPECTED_NULL",
                                           "BAD_DATA",
                                           "OP_FAILED",
                                           "BAD_STATE",
                                           "UNMAPPABLE",
                                           "OUTPUT_INSUFFICIENT_SIZE",
                                           "UNAVAILABLE_DEVICE",
                                           "MISSED_DEADLINE_TRANSIENT",
                                           "MISSED_DEADLINE_PERSISTENT",
                                           "RESOURCE_EXHAUSTED_TRANSIENT",
                                           "RESOURCE_EXHAUSTED_PERSISTENT",
                                           "DEAD_OBJECT"};
  if (code >= 0 && code < static_cast<int>(std::size(kNames))) return kNames[code];
  return "unknown result code";
}

Result<void> checkNnapi(int code, std::string_view call) {
  if (code == ANEURALNETWORKS_NO_ERROR) return {};
  return Error{static_cast<ErrorCode>(code),
               fmt::format("{} failed: {} ({}); set ANNRT_VLOG=all for the runtime's reason", call,
                           resultCodeName(code), code)};
}

}  // namespace annrt::tools
