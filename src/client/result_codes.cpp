// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "client/result_codes.h"

#include <android/NeuralNetworks.h>
#include <fmt/format.h>

namespace annrt::client {

const char* resultCodeName(int code) {
  if (code < ANEURALNETWORKS_NO_ERROR || code > ANEURALNETWORKS_DEAD_OBJECT) {
    return "UNKNOWN_RESULT_CODE";
  }
  return errorCodeName(static_cast<ErrorCode>(code));
}

Result<void> checkNnapi(int code, std::string_view call) {
  if (code == ANEURALNETWORKS_NO_ERROR) return {};
  return Error{static_cast<ErrorCode>(code),
               fmt::format("{} failed: {} ({}); set ANNRT_VLOG=all for the runtime's reason", call,
                           resultCodeName(code), code)};
}

}  // namespace annrt::client
