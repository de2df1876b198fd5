// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cache [--path P] list|verify|clear: looks after a compilation cache
// directory (docs/caching.md).

#include <iostream>

#include "cache_commands.h"

int main(int argc, char** argv) {
  return annrt::tools::runCacheTool(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                    std::cerr);
}
