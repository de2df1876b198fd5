// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the exported C functions (ndk_api.cpp, support_library_api.cpp) share:
// how a function is exported, and what an ANeuralNetworksDevice handle is
// (a registry Device, handed out by ANeuralNetworks_getDevice).
#pragma once

#include <android/NeuralNetworks.h>

#include "common/device.h"

#define ANNRT_EXPORT extern "C" __attribute__((visibility("default")))

namespace annrt::runtime {

inline Device* toDevice(const ANeuralNetworksDevice* device) {
  return reinterpret_cast<Device*>(const_cast<ANeuralNetworksDevice*>(device));
}

}  // namespace annrt::runtime
