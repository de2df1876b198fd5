// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Turning NNAPI result codes into tool errors.
#pragma once

#include <string_view>

#include "common/result.h"

namespace annrt::tools {

// "BAD_DATA", ... ("code N" for unknown codes).
const char* resultCodeName(int code);
// Ok for ANEURALNETWORKS_NO_ERROR, else "`call` failed: NAME".
Result<void> checkNnapi(int code, std::string_view call);

}  // namespace annrt::tools
