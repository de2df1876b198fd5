// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "device_capabilities.h"

#include <fmt/format.h>

#include "runtime/device_manager.h"

namespace annrt::tools {
namespace {

std::string performance(const PerformanceInfo& info) {
  return fmt::format("{:g}/{:g}", info.execTime, info.powerUsage);
}

DeviceCapabilities describe(const Capabilities& caps) {
  DeviceCapabilities result;
  std::vector<std::string> types;
  std::string text = fmt::format("exec time/power (reference = 1; lower is better): default {}",
                                 performance(caps.defaultPerformance));
  for (const auto& [type, info] : caps.operandPerformance) {
    types.emplace_back(operandTypeName(type));
    text += fmt::format(", {} {}", operandTypeName(type), performance(info));
  }
  text += fmt::format(", relaxed fp32->fp16 tensor {} scalar {}, IF {}, WHILE {}",
                      performance(caps.relaxedFloat32toFloat16Tensor),
                      performance(caps.relaxedFloat32toFloat16Scalar),
                      performance(caps.ifPerformance), performance(caps.whilePerformance));
  // A device without per-type entries rates every type the same.
  result.operandTypes =
      types.empty() ? std::vector<std::string>{"all (one default rating)"} : types;
  result.performance = text;
  return result;
}

}  // namespace

std::vector<DeviceCapabilities> queryCapabilities(const std::vector<DeviceInfo>& devices) {
  const auto& registry = runtime::DeviceManager::get();
  std::vector<DeviceCapabilities> result(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    if (auto device = registry.find(devices[i].name)) {
      result[i] = describe(device->capabilities());
    }
  }
  return result;
}

}  // namespace annrt::tools
