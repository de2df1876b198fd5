// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Fixed-point requantization as the NNAPI spec and its reference use it: a
// real multiplier becomes a Q31 mantissa plus a power-of-two exponent, and is
// applied with saturating rounding doubling high multiply + rounding shift.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "common/result.h"
#include "common/types.h"

namespace annrt::ops {

struct QuantizedMultiplier {
  int32_t multiplier = 0;  // Q31 mantissa in [2^30, 2^31), or 0
  int shift = 0;           // > 0: left shift, < 0: right shift
};

// real == mantissa * 2^shift, mantissa rounded to Q31 (TFLite's QuantizeMultiplier).
QuantizedMultiplier quantizeMultiplier(double real);

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b);
// x / 2^exponent rounded half away from zero; exponent in [0, 31].
int32_t roundingDivideByPOT(int32_t x, int exponent);
// x * real, with real given as quantizeMultiplier(real).
int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m);

// input_scale * filter_scale / output_scale; checks that the bias scale is
// input_scale * filter_scale as the spec requires (with a small tolerance).
Result<double> convolutionMultiplier(float inputScale, float filterScale, float biasScale,
                                     float outputScale);

// [min, max] of a fused activation on a quantized output of type T.
template <typename T>
void activationRange(FusedActivation activation, float scale, int32_t zeroPoint, int32_t* outMin,
                     int32_t* outMax) {
  const int32_t qmin = std::numeric_limits<T>::min();
  const int32_t qmax = std::numeric_limits<T>::max();
  // A tiny (valid) scale puts f / scale past int32, or at infinity: clamped
  // before the conversion, as the range is anyway (fuzz_abi_model).
  auto quantize = [&](float f) {
    const double q = zeroPoint + std::round(static_cast<double>(f) / scale);
    return static_cast<int32_t>(std::clamp<double>(q, qmin, qmax));
  };
  switch (activation) {
    case FusedActivation::RELU:
      *outMin = std::max(qmin, quantize(0.0f));
      *outMax = qmax;
      break;
    case FusedActivation::RELU1:
      *outMin = std::max(qmin, quantize(-1.0f));
      *outMax = std::min(qmax, quantize(1.0f));
      break;
    case FusedActivation::RELU6:
      *outMin = std::max(qmin, quantize(0.0f));
      *outMax = std::min(qmax, quantize(6.0f));
      break;
    case FusedActivation::NONE:
    default:
      *outMin = qmin;
      *outMax = qmax;
      break;
  }
}

// Same for a quantized output given by its shape (QUANT8_ASYMM or _SIGNED).
void activationRange(FusedActivation activation, const Shape& output, int32_t* outMin,
                     int32_t* outMax);
// [min, max] of a fused activation on float data.
void activationRangeFloat(FusedActivation activation, float* outMin, float* outMax);
// Applies a float fused activation to one value.
float applyActivation(FusedActivation activation, float value);
// Fused activation code is one of NONE/RELU/RELU1/RELU6.
Result<FusedActivation> toFusedActivation(int32_t code);

// round(value / scale) + zeroPoint, saturated to T.
template <typename T>
T quantize(float value, float scale, int32_t zeroPoint) {
  const float q = std::round(value / scale) + static_cast<float>(zeroPoint);
  const float lo = static_cast<float>(std::numeric_limits<T>::min());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  return static_cast<T>(std::clamp(q, lo, hi));
}

template <typename T>
float dequantize(T value, float scale, int32_t zeroPoint) {
  return scale * static_cast<float>(static_cast<int32_t>(value) - zeroPoint);
}

template <typename T>
T saturateCast(int32_t value) {
  return static_cast<T>(
      std::clamp<int32_t>(value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

}  // namespace annrt::ops
