// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Errors of the command-line tools: annrt::Result with a message meant for the
// user (bad flag, missing file, NNAPI call that failed).
#pragma once

#include <fmt/format.h>

#include <string>
#include <utility>

#include "common/result.h"

namespace annrt::tools {

template <typename... Args>
Error toolError(fmt::format_string<Args...> format, Args&&... args) {
  return Error{ErrorCode::BAD_DATA, fmt::format(format, std::forward<Args>(args)...)};
}

}  // namespace annrt::tools
