// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Where RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR sample the input along
// one axis, with NNAPI's align_corners and half_pixel_centers rules: shared
// by the reference kernels (ops/families/resize.cpp) and annrt-cpu's own
// (drivers/cpu/native_resize.cpp), so that both sample the same pixels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace annrt::ops {

// Input distance between neighbouring output samples along one axis.
inline float resizeScale(uint32_t inSize, uint32_t outSize, bool alignCorners) {
  if (alignCorners && outSize > 1) {
    return static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1);
  }
  return static_cast<float>(inSize) / static_cast<float>(outSize);
}

// Where output index `i` samples the input along one axis.
inline float sourcePosition(uint32_t i, float scale, bool halfPixelCenters) {
  return halfPixelCenters ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
}

// The two input indices around a bilinear sample and the sample position.
struct Interpolation {
  float position;
  uint32_t lower;
  uint32_t upper;
};

inline Interpolation interpolation(uint32_t i, float scale, uint32_t inSize,
                                   bool halfPixelCenters) {
  const float position =
      halfPixelCenters ? sourcePosition(i, scale, true) - 0.5f : sourcePosition(i, scale, false);
  const float last = static_cast<float>(inSize - 1);
  return {position, static_cast<uint32_t>(std::clamp(std::floor(position), 0.0f, last)),
          static_cast<uint32_t>(std::clamp(std::ceil(position), 0.0f, last))};
}

}  // namespace annrt::ops
