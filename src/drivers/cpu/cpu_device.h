// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-cpu: a multi-threaded CPU device on XNNPACK. It claims the float32
// NHWC operations it can lower with fully known shapes and constant weights,
// and compiles each partition into XNNPACK runtimes: one, or with several
// threads one per stage (stage_plan.h).
#pragma once

#include <memory>

#include "common/device.h"

namespace annrt::cpu {

inline constexpr const char* kCpuDeviceName = "annrt-cpu";

std::shared_ptr<Device> createCpuDevice();

}  // namespace annrt::cpu
