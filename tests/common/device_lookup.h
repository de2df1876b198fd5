// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <android/NeuralNetworks.h>

#include <string_view>

#include "client/devices.h"

namespace annrt::test {

// The NNAPI device of that name, or null if the runtime has none.
inline const ANeuralNetworksDevice* findDevice(std::string_view name) {
  return client::findDevice(name);
}

}  // namespace annrt::test
