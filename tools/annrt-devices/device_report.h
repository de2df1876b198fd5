// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-devices' listing of the NNAPI devices.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "devices.h"

namespace annrt::tools {

// What the NNAPI C API does not report per device (see device_capabilities.h).
struct DeviceCapabilities {
  std::optional<std::vector<std::string>> operandTypes;  // e.g. TENSOR_FLOAT32, ...
  std::optional<std::string> performance;                // e.g. relative float32/quant8 speed
};

// One block per device: name, type, version, feature level, capabilities.
// `capabilities` is indexed like `devices` (missing entries = not reported).
std::string formatDeviceList(const std::vector<DeviceInfo>& devices,
                             const std::vector<DeviceCapabilities>& capabilities = {});

}  // namespace annrt::tools
