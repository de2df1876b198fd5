// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The NNAPI devices as an application sees them (ANeuralNetworks_getDevice
// and friends): the one device listing and lookup by name of annrt's tools,
// tests and importer.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace annrt::client {

struct DeviceInfo {
  ANeuralNetworksDevice* handle = nullptr;
  std::string name;
  int32_t type = ANEURALNETWORKS_DEVICE_UNKNOWN;  // DeviceTypeCode
  std::string version;
  int64_t featureLevel = 0;
};

// Every device, described; the first failing NNAPI call is the error.
Result<std::vector<DeviceInfo>> listDevices();

// The device named `name`, or null when the runtime has none of that name.
ANeuralNetworksDevice* findDevice(std::string_view name);

}  // namespace annrt::client
