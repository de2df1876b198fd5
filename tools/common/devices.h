// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// How the tools name and print the NNAPI devices (annrt_client lists them).
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string>
#include <vector>

#include "client/devices.h"

namespace annrt::tools {

using client::DeviceInfo;
using client::listDevices;

// "CPU", "GPU", "ACCELERATOR", "OTHER", "UNKNOWN".
const char* deviceTypeName(int32_t type);
// "FEATURE_LEVEL_8 (1000008)", "FEATURE_LEVEL_5 (31)", or the number.
std::string featureLevelName(int64_t featureLevel);
// "nnapi-reference,other" (benchmark_model's "NNAPI accelerators available" list).
std::string joinDeviceNames(const std::vector<DeviceInfo>& devices, const char* separator = ",");

}  // namespace annrt::tools
