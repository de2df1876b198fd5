// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string_view>

namespace annrt::test {

// The NNAPI device of that name, or null if the runtime has none.
inline const ANeuralNetworksDevice* findDevice(std::string_view name) {
  uint32_t count = 0;
  if (ANeuralNetworks_getDeviceCount(&count) != ANEURALNETWORKS_NO_ERROR) return nullptr;
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    const char* deviceName = nullptr;
    if (ANeuralNetworks_getDevice(i, &device) != ANEURALNETWORKS_NO_ERROR) continue;
    if (ANeuralNetworksDevice_getName(device, &deviceName) != ANEURALNETWORKS_NO_ERROR) continue;
    if (name == deviceName) return device;
  }
  return nullptr;
}

}  // namespace annrt::test
