// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Runtime side of the plug-in ABI: an AnnrtDevice seen as an annrt::Device.
#pragma once

#include <annrt/driver.h>

#include <memory>

#include "common/device.h"

namespace annrt::abi {

// `library` keeps the driver's code loaded for as long as the device and its
// prepared models live (nullptr for drivers linked into the runtime).
std::shared_ptr<Device> wrapDevice(std::shared_ptr<void> library, const AnnrtDevice* device);

// Device `index` of a validated driver: the array's structs are
// devices[0].size bytes each, which is less than sizeof(AnnrtDevice) for a
// driver built against an older header.
const AnnrtDevice* driverDevice(const AnnrtDriver& driver, uint32_t index);

// Checks what a driver returned from annrt_driver_init; the error names the problem.
Result<void> validateDriver(const AnnrtDriver* driver);

}  // namespace annrt::abi
