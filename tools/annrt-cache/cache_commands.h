// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cache's commands on a compilation cache directory.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/compilation_cache.h"

namespace annrt::tools {

// Runs `annrt-cache [--path P] list|verify|clear` (args without the program
// name): output to `out`, errors to `err`; returns the exit status (0 fine,
// 1 bad entries or an error, 2 bad usage).
int runCacheTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// One line per entry: key, device, device version, annrt version, file
// size and time since last use (and what is wrong with it, if anything).
std::string formatCacheEntries(const std::vector<runtime::CacheEntryInfo>& entries,
                               std::chrono::system_clock::time_point now);

// "42s", "5m", "3h", "12d".
std::string formatAge(std::chrono::system_clock::duration age);

}  // namespace annrt::tools
