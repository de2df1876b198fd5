// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// nnapi-reference: the exact, complete, single-threaded CPU device that every
// other device is tested against and that runs whatever no other device can.
#pragma once

#include <memory>

#include "common/device.h"

namespace annrt::reference {

inline constexpr const char* kReferenceDeviceName = "nnapi-reference";

std::shared_ptr<Device> createReferenceDevice();

}  // namespace annrt::reference
