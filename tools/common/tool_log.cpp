// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "tool_log.h"

#include <iostream>

namespace annrt::tools {

void logInfo(std::string_view line) {
  std::cout << "INFO: " << line << std::endl;
}

void logWarn(std::string_view line) {
  std::cout << "WARN: " << line << std::endl;
}

void logError(std::string_view line) {
  std::cout.flush();
  std::cerr << "ERROR: " << line << std::endl;
}

void logRaw(std::string_view text) {
  std::cout << text << std::flush;
}

}  // namespace annrt::tools
