// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu as a driver of the plug-in ABI, registered by the device manager
// after nnapi-reference.
#pragma once

#include <annrt/driver.h>

namespace annrt::cpu {

const AnnrtDriver* cpuDriver();

}  // namespace annrt::cpu
