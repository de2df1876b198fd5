// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "device_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace annrt::tools {
namespace {

constexpr const char* kNotReported = "not reported";

std::string capabilityLines(const DeviceCapabilities& capabilities) {
  std::string text;
  text += fmt::format("      supported operand types: {}\n",
                      capabilities.operandTypes
                          ? fmt::format("{}", fmt::join(*capabilities.operandTypes, ", "))
                          : kNotReported);
  text += fmt::format("      performance:             {}\n",
                      capabilities.performance.value_or(kNotReported));
  return text;
}

std::string deviceBlock(size_t index, const DeviceInfo& device,
                        const DeviceCapabilities& capabilities) {
  std::string text = fmt::format("  [{}] {}\n", index, device.name);
  text += fmt::format("      type:                    {}\n", deviceTypeName(device.type));
  text += fmt::format("      version:                 {}\n", device.version);
  text += fmt::format("      feature level:           {}\n", featureLevelName(device.featureLevel));
  return text + capabilityLines(capabilities);
}

}  // namespace

std::string formatDeviceList(const std::vector<DeviceInfo>& devices,
                             const std::vector<DeviceCapabilities>& capabilities) {
  std::string text = fmt::format("{} NNAPI device(s):\n", devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    text += deviceBlock(i, devices[i],
                        i < capabilities.size() ? capabilities[i] : DeviceCapabilities{});
  }
  return text;
}

}  // namespace annrt::tools
