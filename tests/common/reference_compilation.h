// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <android/NeuralNetworks.h>

#include "common/device_lookup.h"

namespace annrt::test {

// Op unit tests check the reference kernels; compiling with plain
// Compilation_create would let a faster device (annrt-cpu, a plug-in found via
// ANNRT_DRIVER_PATH) run the op instead, so pin the reference device.
inline int createReferenceCompilation(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation) {
  const ANeuralNetworksDevice* device = findDevice("nnapi-reference");
  if (device == nullptr) return ANEURALNETWORKS_BAD_STATE;
  return ANeuralNetworksCompilation_createForDevices(model, &device, 1, compilation);
}

}  // namespace annrt::test
