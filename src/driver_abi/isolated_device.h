// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A device of a plug-in running in an annrt-driver-host process, seen as an
// annrt::Device (docs/driver-isolation.md). Its name, version and
// capabilities come from the host's HELLO; everything else is a request.
#pragma once

#include <memory>
#include <vector>

#include "common/device.h"
#include "driver_abi/host_channel.h"

namespace annrt::abi {

// One Device per device of the host's HELLO, in its order.
std::vector<std::shared_ptr<Device>> isolatedDevices(const std::shared_ptr<HostChannel>& channel);

}  // namespace annrt::abi
