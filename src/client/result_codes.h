// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// NNAPI result codes as a client meets them: their names and turning a
// failed call into an annrt::Error.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

#include "common/result.h"

namespace annrt::client {

// "BAD_DATA", ... ("UNKNOWN_RESULT_CODE" for codes NNAPI does not define).
const char* resultCodeName(int code);

// Ok for ANEURALNETWORKS_NO_ERROR, else "`call` failed: NAME (code)".
Result<void> checkNnapi(int code, std::string_view call);

// The same, the call described by `describe()` only when it failed: an
// importer checks every call it makes, and formatting each description
// beforehand was most of the importer's string work.
template <std::invocable Describe>
Result<void> checkNnapi(int code, Describe&& describe) {
  if (code == 0) return {};  // ANEURALNETWORKS_NO_ERROR
  const std::string call = describe();
  return checkNnapi(code, std::string_view(call));
}

}  // namespace annrt::client
