// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Reading a whole text file (profiles, counters, /proc files) for the tools.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace annrt::tools {

// The file's contents; an error "cannot open WHAT PATH" when it cannot be read.
Result<std::string> readTextFile(const std::string& path, std::string_view what);

}  // namespace annrt::tools
