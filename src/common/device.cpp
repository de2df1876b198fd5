// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/device.h"

namespace annrt {

PerformanceInfo Capabilities::forOperandType(OperandType type) const {
  auto it = operandPerformance.find(type);
  return it != operandPerformance.end() ? it->second : defaultPerformance;
}

}  // namespace annrt
