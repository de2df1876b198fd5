// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "device_counters.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "text_file.h"
#include "tool_result.h"

namespace annrt::tools {
namespace {

Result<int64_t> counter(const nlohmann::json& device, const std::string& name,
                        const std::string& key) {
  const auto it = device.find(key);
  ANNRT_CHECK(it != device.end() && it->is_number_integer() && it->get<int64_t>() >= 0,
              "device counters of {}: \"{}\" is missing or not a count", name, key);
  return it->get<int64_t>();
}

Result<DeviceCounters> parseDevice(const std::string& name, const nlohmann::json& device) {
  ANNRT_CHECK(device.is_object(), "device counters of {}: not an object", name);
  DeviceCounters c{name};
  ANNRT_ASSIGN_OR_RETURN(c.compilations, counter(device, name, "compilations"));
  ANNRT_ASSIGN_OR_RETURN(c.inferences, counter(device, name, "inferences"));
  ANNRT_ASSIGN_OR_RETURN(c.cacheHits, counter(device, name, "cache_hits"));
  ANNRT_ASSIGN_OR_RETURN(c.cacheMisses, counter(device, name, "cache_misses"));
  ANNRT_ASSIGN_OR_RETURN(c.fallbacks, counter(device, name, "fallbacks"));
  return c;
}

}  // namespace

Result<std::vector<DeviceCounters>> parseDeviceCounters(std::string_view json) {
  const nlohmann::json root = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  ANNRT_CHECK(!root.is_discarded(), "device counters: not valid JSON");
  const auto devices = root.find("devices");
  ANNRT_CHECK(root.is_object() && devices != root.end() && devices->is_object(),
              "device counters: no \"devices\" object");
  std::vector<DeviceCounters> result;
  for (const auto& [name, device] : devices->items()) {
    ANNRT_ASSIGN_OR_RETURN(DeviceCounters c, parseDevice(name, device));
    result.push_back(std::move(c));
  }
  return result;  // nlohmann's objects iterate in key order
}

Result<std::vector<DeviceCounters>> readDeviceCounters(const std::string& path) {
  ANNRT_ASSIGN_OR_RETURN(std::string text, readTextFile(path, "device counters"));
  return parseDeviceCounters(text);
}

std::vector<std::string> deviceCounterLines(const std::vector<DeviceCounters>& counters) {
  std::vector<std::string> lines;
  lines.reserve(counters.size());
  for (const DeviceCounters& c : counters) {
    lines.push_back(fmt::format(
        "Device {}: compilations={} inferences={} fallbacks={} cache_hits={} cache_misses={}",
        c.device, c.compilations, c.inferences, c.fallbacks, c.cacheHits, c.cacheMisses));
  }
  return lines;
}

}  // namespace annrt::tools
