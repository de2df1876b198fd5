// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The runtime's per-device counters (ANNRT_STATS), as annrt-benchmark shows
// them after a run: which devices compiled and ran the model, and how often a
// device failed and the CPU took over.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace annrt::tools {

struct DeviceCounters {
  std::string device;
  int64_t compilations = 0;
  int64_t inferences = 0;
  int64_t cacheHits = 0;
  int64_t cacheMisses = 0;
  int64_t fallbacks = 0;
};

// Parses {"devices": {"NAME": {"compilations": n, ...}}}; devices sorted by name.
Result<std::vector<DeviceCounters>> parseDeviceCounters(std::string_view json);
Result<std::vector<DeviceCounters>> readDeviceCounters(const std::string& path);

// One "Device NAME: ..." line per device.
std::vector<std::string> deviceCounterLines(const std::vector<DeviceCounters>& counters);

}  // namespace annrt::tools
