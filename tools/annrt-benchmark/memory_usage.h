// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Resident memory of the process from /proc/self/status: VmRSS (now) and
// VmHWM (the kernel's high-water mark of VmRSS).
#pragma once

#include <cstdint>
#include <string_view>

namespace annrt::tools {

struct ProcessMemory {
  bool valid = false;
  int64_t rssKb = 0;   // VmRSS
  int64_t peakKb = 0;  // VmHWM
};

ProcessMemory parseProcStatus(std::string_view text);
ProcessMemory readProcessMemory();

}  // namespace annrt::tools
