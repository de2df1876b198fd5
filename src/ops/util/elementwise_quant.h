// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Requantization between two 8-bit quantized operands, as the NNAPI
// reference does it for MAXIMUM, MINIMUM and SELECT: through a real value,
// rounded half away from zero and saturated.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "common/types.h"

namespace annrt::ops {

// The real value is formed in float (as int * float scale) and divided in
// double, matching the reference bit for bit at the rounding boundaries.
template <typename T>
T requantize(T value, const Shape& from, const Shape& to) {
  const double real = static_cast<float>(static_cast<int32_t>(value) - from.zeroPoint) * from.scale;
  const double q = real / to.scale + to.zeroPoint;
  if (q < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
  if (q > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  return static_cast<T>(std::round(q));
}

}  // namespace annrt::ops
