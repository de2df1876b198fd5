// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <cstring>

namespace annrt::test {

// Op unit tests check the reference kernels; compiling with plain
// Compilation_create would let a faster device (annrt-cpu, a plug-in found via
// ANNRT_DRIVER_PATH) run the op instead, so pin the reference device.
inline int createReferenceCompilation(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation) {
  uint32_t count = 0;
  ANeuralNetworks_getDeviceCount(&count);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    const char* name = nullptr;
    if (ANeuralNetworks_getDevice(i, &device) != ANEURALNETWORKS_NO_ERROR) continue;
    if (ANeuralNetworksDevice_getName(device, &name) != ANEURALNETWORKS_NO_ERROR) continue;
    if (std::strcmp(name, "nnapi-reference") == 0) {
      return ANeuralNetworksCompilation_createForDevices(model, &device, 1, compilation);
    }
  }
  return ANEURALNETWORKS_BAD_STATE;
}

}  // namespace annrt::test
