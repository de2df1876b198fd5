// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "client/devices.h"

#include "client/result_codes.h"

namespace annrt::client {
namespace {

Result<DeviceInfo> describeDevice(ANeuralNetworksDevice* device) {
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

}  // namespace

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

ANeuralNetworksDevice* findDevice(std::string_view name) {
  auto devices = listDevices();
  if (!devices.ok()) return nullptr;
  for (const DeviceInfo& device : *devices) {
    if (device.name == name) return device.handle;
  }
  return nullptr;
}

}  // namespace annrt::client
