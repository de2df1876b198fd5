// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The NNAPI devices, as reported by ANeuralNetworks_getDevice and friends.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace annrt::tools {

struct DeviceInfo {
  ANeuralNetworksDevice* handle = nullptr;
  std::string name;
  int32_t type = ANEURALNETWORKS_DEVICE_UNKNOWN;  // DeviceTypeCode
  std::string version;
  int64_t featureLevel = 0;
};

Result<std::vector<DeviceInfo>> listDevices();

// "CPU", "GPU", "ACCELERATOR", "OTHER", "UNKNOWN".
const char* deviceTypeName(int32_t type);
// "FEATURE_LEVEL_8 (1000008)", "FEATURE_LEVEL_5 (31)", or the number.
std::string featureLevelName(int64_t featureLevel);
// "nnapi-reference,other" (benchmark_model's "NNAPI accelerators available" list).
std::string joinDeviceNames(const std::vector<DeviceInfo>& devices, const char* separator = ",");

}  // namespace annrt::tools
