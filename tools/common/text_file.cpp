// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "text_file.h"

#include <fstream>
#include <sstream>

#include "tool_result.h"

namespace annrt::tools {

Result<std::string> readTextFile(const std::string& path, std::string_view what) {
  std::ifstream file(path);
  ANNRT_CHECK(file.good(), "cannot open {} {}", what, path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace annrt::tools
