// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The capabilities the NNAPI C API does not expose (performance per operand
// type), read from annrt's own device registry. annrt-devices links the
// runtime statically for this, so it sees the same in-tree devices and
// plug-ins (ANNRT_DRIVER_PATH, ANNRT_DISABLE_DEVICES, ...) as the library.
#pragma once

#include <vector>

#include "device_report.h"
#include "devices.h"

namespace annrt::tools {

// Indexed like `devices`; a device the registry does not know is left
// unreported.
std::vector<DeviceCapabilities> queryCapabilities(const std::vector<DeviceInfo>& devices);

}  // namespace annrt::tools
