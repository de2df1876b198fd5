// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/quantization.h"

#include <cmath>

namespace annrt::ops {

QuantizedMultiplier quantizeMultiplier(double real) {
  // Scales of +inf pass validation (as in AOSP), so a ratio of scales can be
  // infinite or NaN: it has no fixed-point form, and 0 is as good a result
  // as any (fuzz_abi_model: a NaN cast to an integer).
  if (real == 0.0 || !std::isfinite(real)) return {};
  int shift = 0;
  const double mantissa = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(mantissa * static_cast<double>(1LL << 31)));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) return {};  // underflows to zero
  return {static_cast<int32_t>(fixed), shift};
}

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t product = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = product >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return static_cast<int32_t>((product + nudge) / (1LL << 31));
}

int32_t roundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((1LL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m) {
  const int leftShift = m.shift > 0 ? m.shift : 0;
  const int rightShift = m.shift > 0 ? 0 : -m.shift;
  // The product wraps to 32 bits as TFLite's int32 arithmetic does; from a
  // shift of 32 nothing is left of it (and a shift of 64 or more, from
  // input scales far above the output's, would be undefined).
  const auto shifted =
      leftShift >= 32 ? 0 : static_cast<int32_t>(static_cast<int64_t>(x) * (1LL << leftShift));
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(shifted, m.multiplier), rightShift);
}

Result<double> convolutionMultiplier(float inputScale, float filterScale, float biasScale,
                                     float outputScale) {
  const double inputProductScale = static_cast<double>(inputScale) * filterScale;
  ANNRT_CHECK(std::abs(inputProductScale - biasScale) <=
                  1e-6 * std::min(inputProductScale, static_cast<double>(biasScale)),
              "bias scale {} is not input scale * filter scale = {}", biasScale, inputProductScale);
  ANNRT_CHECK(outputScale > 0, "output scale {} must be positive", outputScale);
  return inputProductScale / outputScale;
}

void activationRange(FusedActivation activation, const Shape& output, int32_t* outMin,
                     int32_t* outMax) {
  if (output.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    activationRange<int8_t>(activation, output.scale, output.zeroPoint, outMin, outMax);
  } else {
    activationRange<uint8_t>(activation, output.scale, output.zeroPoint, outMin, outMax);
  }
}

void activationRangeFloat(FusedActivation activation, float* outMin, float* outMax) {
  switch (activation) {
    case FusedActivation::RELU:
      *outMin = 0.0f;
      *outMax = std::numeric_limits<float>::max();
      break;
    case FusedActivation::RELU1:
      *outMin = -1.0f;
      *outMax = 1.0f;
      break;
    case FusedActivation::RELU6:
      *outMin = 0.0f;
      *outMax = 6.0f;
      break;
    case FusedActivation::NONE:
    default:
      *outMin = std::numeric_limits<float>::lowest();
      *outMax = std::numeric_limits<float>::max();
      break;
  }
}

float applyActivation(FusedActivation activation, float value) {
  float lo = 0.0f;
  float hi = 0.0f;
  activationRangeFloat(activation, &lo, &hi);
  return std::clamp(value, lo, hi);
}

Result<FusedActivation> toFusedActivation(int32_t code) {
  ANNRT_CHECK(code >= 0 && code <= 3, "fused activation code {} is not one of 0..3", code);
  return static_cast<FusedActivation>(code);
}

}  // namespace annrt::ops
