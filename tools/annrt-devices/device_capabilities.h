// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The capabilities the NDK API does not expose (performance per operand type),
// read through the support library's device queries that libneuralnetworks.so
// exports (<annrt/device_performance.h>): annrt-devices sees the devices of the
// one registry in the library, plug-ins included.
#pragma once

#include <vector>

#include "device_report.h"
#include "devices.h"

namespace annrt::tools {

// Indexed like `devices`; a device whose ratings cannot be read is left
// unreported.
std::vector<DeviceCapabilities> queryCapabilities(const std::vector<DeviceInfo>& devices);

}  // namespace annrt::tools
