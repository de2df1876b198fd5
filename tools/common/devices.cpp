// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "devices.h"

#include <fmt/format.h>

namespace annrt::tools {

const char* deviceTypeName(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_DEVICE_OTHER: return "OTHER";
    case ANEURALNETWORKS_DEVICE_CPU: return "CPU";
    case ANEURALNETWORKS_DEVICE_GPU: return "GPU";
    case ANEURALNETWORKS_DEVICE_ACCELERATOR: return "ACCELERATOR";
    default: return "UNKNOWN";
  }
}

std::string featureLevelName(int64_t featureLevel) {
  static constexpr int64_t kLevels[] = {
      ANEURALNETWORKS_FEATURE_LEVEL_1, ANEURALNETWORKS_FEATURE_LEVEL_2,
      ANEURALNETWORKS_FEATURE_LEVEL_3, ANEURALNETWORKS_FEATURE_LEVEL_4,
      ANEURALNETWORKS_FEATURE_LEVEL_5, ANEURALNETWORKS_FEATURE_LEVEL_6,
      ANEURALNETWORKS_FEATURE_LEVEL_7, ANEURALNETWORKS_FEATURE_LEVEL_8};
  for (size_t i = 0; i < std::size(kLevels); ++i) {
    if (kLevels[i] == featureLevel)
      return fmt::format("FEATURE_LEVEL_{} ({})", i + 1, featureLevel);
  }
  return std::to_string(featureLevel);
}

std::string joinDeviceNames(const std::vector<DeviceInfo>& devices, const char* separator) {
  std::string names;
  for (const DeviceInfo& device : devices) {
    if (!names.empty()) names += separator;
    names += device.name;
  }
  return names;
}

}  // namespace annrt::tools
