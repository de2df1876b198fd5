// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "devices.h"

#include <fmt/format.h>

#include "nnapi_status.h"

namespace annrt::tools {

static Result<DeviceInfo> describeDevice(ANeuralNetworksDevice* device) {
  DeviceInfo info;
  info.handle = device;
  const char* name = nullptr;
  const char* version = nullptr;
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworksDevice_getName(device, &name), "ANeuralNetworksDevice_getName"));
  ANNRT_RETURN_IF_ERROR(checkNnapi(ANeuralNetworksDevice_getType(device, &info.type),
                                   "ANeuralNetworksDevice_getType"));
  ANNRT_RETURN_IF_ERROR(checkNnapi(ANeuralNetworksDevice_getVersion(device, &version),
                                   "ANeuralNetworksDevice_getVersion"));
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworksDevice_getFeatureLevel(device, &info.featureLevel),
                 "ANeuralNetworksDevice_getFeatureLevel"));
  info.name = name != nullptr ? name : "";
  info.version = version != nullptr ? version : "";
  return info;
}

Result<std::vector<DeviceInfo>> listDevices() {
  uint32_t count = 0;
  ANNRT_RETURN_IF_ERROR(
      checkNnapi(ANeuralNetworks_getDeviceCount(&count), "ANeuralNetworks_getDeviceCount"));
  std::vector<DeviceInfo> devices;
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    ANNRT_RETURN_IF_ERROR(
        checkNnapi(ANeuralNetworks_getDevice(i, &device), "ANeuralNetworks_getDevice"));
    ANNRT_ASSIGN_OR_RETURN(DeviceInfo info, describeDevice(device));
    devices.push_back(std::move(info));
  }
  return devices;
}

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
