// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX (level 1; float16 and an axis input since level 3, quant8 signed
// since level 4) and LOG_SOFTMAX (level 3, float only), along one axis (the
// last by default). Quantized SOFTMAX follows the reference's fixed-point
// algorithm: exp() of rescaled input differences in Q5.26, summed in Q12.19,
// then scaled by a fixed-point reciprocal into an output of scale 1/256.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/operation.h"
#include "ops/util/activation_fixed_point.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/movement.h"
#include "ops/util/pooling_common.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::softmax {
namespace {

constexpr uint32_t kInput = 0;
constexpr uint32_t kBeta = 1;
constexpr uint32_t kAxis = 2;

OperandType betaTypeFor(OperandType inputType) {
  return inputType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

// Quantized outputs are probabilities in [0, 1) with scale 1/256.
Result<void> validateQuantizedOutput(const Shape& output) {
  const int32_t expectedZeroPoint =
      output.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ? -128 : 0;
  ANNRT_CHECK(output.scale == 1.0f / 256 && output.zeroPoint == expectedZeroPoint,
              "quantized softmax output must have scale 1/256 and zero point {}, got {} and {}",
              expectedZeroPoint, output.scale, output.zeroPoint);
  return {};
}

Result<void> validateSignature(const ValidationContext& context, uint32_t minInputs,
                               bool floatOnly) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, minInputs, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(kInput);
  ANNRT_CHECK(!floatOnly || isFloatTensor(type), "input type {} is not a float tensor",
              operandTypeName(type));
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, kMovementTypes, "input"));
  ANNRT_CHECK(context.inputType(kBeta) == betaTypeFor(type), "beta has type {}, expected {}",
              operandTypeName(context.inputType(kBeta)), operandTypeName(betaTypeFor(type)));
  if (context.inputCount() > kAxis) {
    ANNRT_CHECK(context.inputType(kAxis) == OperandType::INT32, "axis has type {}, expected INT32",
                operandTypeName(context.inputType(kAxis)));
  }
  return validateOutputTypes(context, {type});
}

Result<void> validateSoftmax(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateSignature(context, 2, /*floatOnly=*/false));
  ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(kInput), 4, "input"));
  if (isQuant8Tensor(context.inputType(kInput))) {
    return validateQuantizedOutput(context.outputShape(0));
  }
  return {};
}

Result<void> validateLogSoftmax(const ValidationContext& context) {
  return validateSignature(context, 3, /*floatOnly=*/true);
}

float beta(const ExecutionContext& context) {
  if (context.inputType(kInput) == OperandType::TENSOR_FLOAT16) {
    return static_cast<float>(context.scalar<Float16>(kBeta));
  }
  return context.scalar<float>(kBeta);
}

Result<uint32_t> axis(const ExecutionContext& context) {
  const int32_t value = context.inputCount() > kAxis ? context.scalar<int32_t>(kAxis) : -1;
  return resolveAxis(value, rank(context.inputShape(kInput)));
}

Result<void> prepare(ExecutionContext& context, uint32_t maxRank) {
  const Shape& input = context.inputShape(kInput);
  ANNRT_CHECK(rank(input) >= 1 && rank(input) <= maxRank, "input rank {} is not in [1, {}]",
              rank(input), maxRank);
  ANNRT_CHECK(beta(context) > 0.0f, "beta must be positive, got {}", beta(context));
  ANNRT_RETURN_IF_ERROR(axis(context));
  Shape output = context.outputShape(0);
  output.dims = input.dims;
  return context.setOutputShape(0, output);
}

// Visits every 1-D slice along `axis`: `f(in, out, count, stride)`.
template <typename In, typename Out, typename F>
void forEachSlice(const In* in, Out* out, const std::vector<uint32_t>& dims, uint32_t axis, F&& f) {
  const AxisSplit split = splitAtAxis(dims, axis);
  for (size_t outer = 0; outer < split.outer; ++outer) {
    for (size_t inner = 0; inner < split.inner; ++inner) {
      const size_t base = outer * split.axis * split.inner + inner;
      f(in + base, out + base, split.axis, split.inner);
    }
  }
}

// Float softmax (or log-softmax) of one slice, in float whatever T is.
template <typename T>
void floatSlice(const T* in, T* out, size_t count, size_t stride, float beta, bool logOutput) {
  float maxValue = std::numeric_limits<float>::lowest();
  for (size_t i = 0; i < count; ++i)
    maxValue = std::max(maxValue, static_cast<float>(in[i * stride]));
  float sum = 0.0f;
  for (size_t i = 0; i < count; ++i) {
    sum += std::exp((static_cast<float>(in[i * stride]) - maxValue) * beta);
  }
  const float logSum = std::log(sum);
  for (size_t i = 0; i < count; ++i) {
    const float scaled = (static_cast<float>(in[i * stride]) - maxValue) * beta;
    out[i * stride] = static_cast<T>(logOutput ? scaled - logSum : std::exp(scaled) / sum);
  }
}

// The fixed-point parameters of one quantized softmax.
struct QuantParams {
  static constexpr int kDiffIntegerBits = 5;  // input differences in Q5.26
  static constexpr int kSumIntegerBits = 12;  // sum of exps in Q12.19
  int32_t multiplier = 0;
  int leftShift = 0;
  int32_t diffMin = 0;  // differences below this contribute exp() ~ 0
};

// The largest input difference magnitude whose rescaled value still fits the
// Q5.26 format, with a left shift of `leftShift` in the beta multiplier.
int32_t inputRadius(int leftShift) {
  constexpr int kBits = QuantParams::kDiffIntegerBits;
  const double maxRescaled = static_cast<double>((1 << kBits) - 1) *
                             static_cast<double>(int64_t{1} << (31 - kBits)) /
                             static_cast<double>(int64_t{1} << leftShift);
  return static_cast<int32_t>(std::floor(maxRescaled));
}

Result<QuantParams> quantParams(float beta, float inputScale) {
  const double real = std::min(static_cast<double>(beta) * inputScale *
                                   static_cast<double>(1 << (31 - QuantParams::kDiffIntegerBits)),
                               static_cast<double>((int64_t{1} << 31) - 1));
  ANNRT_CHECK(real > 1.0, "beta * input scale {} is too small for quantized softmax",
              beta * inputScale);
  const QuantizedMultiplier m = quantizeMultiplier(real);
  QuantParams params;
  params.multiplier = m.multiplier;
  params.leftShift = m.shift;
  params.diffMin = -inputRadius(m.shift);
  return params;
}

// exp(diff * beta * scale) as a raw Q0.31 value, diff <= 0 and >= diffMin.
int32_t expOfDiff(int32_t diff, const QuantParams& p) {
  // |diff| * 2^leftShift fits in int32 because diff >= diffMin.
  const auto shifted = static_cast<int32_t>(int64_t{diff} * (int64_t{1} << p.leftShift));
  const int32_t rescaled = saturatingRoundingDoublingHighMul(shifted, p.multiplier);
  return fixed_point::expOnNegativeValues(
             fixed_point::Fixed<QuantParams::kDiffIntegerBits>{rescaled})
      .raw;
}

template <typename T>
void quantSlice(const T* in, T* out, size_t count, size_t stride, const QuantParams& p) {
  constexpr int32_t kZeroPoint = std::is_signed_v<T> ? -128 : 0;
  int32_t maxValue = std::numeric_limits<T>::min();
  for (size_t i = 0; i < count; ++i) maxValue = std::max<int32_t>(maxValue, in[i * stride]);
  int64_t wideSum = 0;  // Q12.19
  for (size_t i = 0; i < count; ++i) {
    const int32_t diff = in[i * stride] - maxValue;
    if (diff >= p.diffMin) {
      wideSum += roundingDivideByPOT(expOfDiff(diff, p), QuantParams::kSumIntegerBits);
    }
  }
  // Only past 4096 equal maxima does the sum leave Q12.19; saturate there.
  const auto sum = static_cast<int32_t>(std::min<int64_t>(wideSum, INT32_MAX));
  // 1/sum as a Q0.31 reciprocal of the sum normalized to [1, 2), plus the
  // number of bits the sum has above 1.0.
  const int headroom = std::countl_zero(static_cast<uint32_t>(sum));
  const int bitsOverUnit = QuantParams::kSumIntegerBits - headroom;
  const auto normalizedMinusOne = static_cast<int32_t>((static_cast<uint32_t>(sum) << headroom) -
                                                       (static_cast<uint32_t>(1) << 31));
  const int32_t reciprocal = fixed_point::oneOverOnePlusX({normalizedMinusOne}).raw;
  for (size_t i = 0; i < count; ++i) {
    const int32_t diff = in[i * stride] - maxValue;
    int32_t value = kZeroPoint;
    if (diff >= p.diffMin) {
      // Output units are 1/256: shift the Q0.31 product right by 23 more bits.
      const int shift = bitsOverUnit + 31 - 8;
      const int32_t product = saturatingRoundingDoublingHighMul(reciprocal, expOfDiff(diff, p));
      // Past 31 bits (a sum over 512) the non-negative product rounds to 0.
      value = (shift > 31 ? 0 : roundingDivideByPOT(product, shift)) + kZeroPoint;
    }
    out[i * stride] = saturateCast<T>(value);
  }
}

Result<void> execute(ExecutionContext& context, bool logOutput) {
  const Shape& input = context.inputShape(kInput);
  ANNRT_ASSIGN_OR_RETURN(const uint32_t axisIndex, axis(context));
  const float betaValue = beta(context);
  return dispatchOperandType<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                             OperandType::TENSOR_QUANT8_ASYMM,
                             OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(
      input.type, [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        const T* in = context.input<T>(kInput);
        T* out = context.output<T>(0);
        if constexpr (kComputesInFloat<T>) {
          forEachSlice(in, out, input.dims, axisIndex, [&](const T* i, T* o, size_t n, size_t s) {
            floatSlice(i, o, n, s, betaValue, logOutput);
          });
        } else {
          ANNRT_ASSIGN_OR_RETURN(const QuantParams params, quantParams(betaValue, input.scale));
          forEachSlice(in, out, input.dims, axisIndex, [&](const T* i, T* o, size_t n, size_t s) {
            quantSlice(i, o, n, s, params);
          });
        }
        return {};
      });
}

Result<void> prepareSoftmax(ExecutionContext& context) {
  return prepare(context, 4);
}
Result<void> prepareLogSoftmax(ExecutionContext& context) {
  return prepare(context, std::numeric_limits<uint32_t>::max());
}
Result<void> executeSoftmax(ExecutionContext& context) {
  return execute(context, false);
}
Result<void> executeLogSoftmax(ExecutionContext& context) {
  return execute(context, true);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::SOFTMAX,
     .name = "SOFTMAX",
     .validate = validateSoftmax,
     .prepare = prepareSoftmax,
     .execute = executeSoftmax,
     .allowZeroSizedInput = true},
    {.type = OperationType::LOG_SOFTMAX,
     .name = "LOG_SOFTMAX",
     .validate = validateLogSoftmax,
     .prepare = prepareLogSoftmax,
     .execute = executeLogSoftmax},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::softmax
