// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Activation functions: RELU, RELU1, RELU6, LOGISTIC, TANH (float32 since
// level 1, float16 since 3, quant8 since 1 (TANH 3), quant8 signed since 4),
// HARD_SWISH (all four types, level 4) and ELU (float, level 4). All are
// element-wise over an input of the output's shape.
//
// Quantized outputs: RELU* keep the input's parameters; LOGISTIC's are fixed
// to scale 1/256 (zero point 0, or -128 signed) and TANH's to 1/128 (128, or 0
// signed), which lets the reference compute them in fixed point straight into
// the output's representation; HARD_SWISH's are free.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/operation.h"
#include "ops/util/activation_fixed_point.h"
#include "ops/util/elementwise_unary.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::activations {
namespace {

constexpr OperandType kFloat32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kFloat16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kQuant8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQuant8Signed = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kActivationTypes[] = {kFloat32, kFloat16, kQuant8, kQuant8Signed};
constexpr OperandType kFloatTypes[] = {kFloat32, kFloat16};

// Runs `floatFn` on float tensors and `executeQuantized(tag, context)` on
// quant8 ones.
template <typename FloatFn, typename ExecuteQuantized>
Result<void> executeActivation(ExecutionContext& context, FloatFn floatFn,
                               ExecuteQuantized executeQuantized) {
  return dispatchOperandType<kFloat32, kFloat16, kQuant8, kQuant8Signed>(
      context.inputType(0), [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        if constexpr (kComputesInFloat<T>) {
          return mapTensor<T>(context, liftFloat<T>(floatFn));
        } else {
          return executeQuantized(tag, context);
        }
      });
}

Result<void> prepareUpTo4d(ExecutionContext& context) {
  return prepareSameShape(context, 4);
}
Result<void> prepareAnyRank(ExecutionContext& context) {
  return prepareSameShape(context);
}

// RELU, RELU1, RELU6: clamping to the activation's range. -------------------

template <FusedActivation kActivation>
Result<void> validateRelu(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kActivationTypes, 4));
  if (!isQuant8Tensor(context.inputType(0))) return {};
  // The kernel clamps raw values, which only means something on one scale.
  return validateOutputQuantization(context, context.inputShape(0).scale,
                                    context.inputShape(0).zeroPoint);
}

template <FusedActivation kActivation>
Result<void> executeRelu(ExecutionContext& context) {
  float low = 0.0f;
  float high = 0.0f;
  activationRangeFloat(kActivation, &low, &high);
  return executeActivation(
      context, [low, high](float x) { return std::min(std::max(low, x), high); },
      [](auto tag, ExecutionContext& context) {
        using T = typename decltype(tag)::type;
        int32_t qLow = 0;
        int32_t qHigh = 0;
        activationRange(kActivation, context.inputShape(0), &qLow, &qHigh);
        return mapTensor<T>(context, [qLow, qHigh](T x) {
          return static_cast<T>(std::min(std::max(qLow, static_cast<int32_t>(x)), qHigh));
        });
      });
}

// LOGISTIC and TANH ----------------------------------------------------------

// The output parameters the spec fixes for a quantized LOGISTIC or TANH.
struct SigmoidOutput {
  float scale;
  int32_t zeroPoint;        // of TENSOR_QUANT8_ASYMM
  int32_t zeroPointSigned;  // of TENSOR_QUANT8_ASYMM_SIGNED
  int fractionalBits;       // log2(1 / scale)
};
constexpr SigmoidOutput kLogisticOutput = {1.0f / 256, 0, -128, 8};
constexpr SigmoidOutput kTanhOutput = {1.0f / 128, 128, 0, 7};

template <const SigmoidOutput& kOutput>
Result<void> validateSigmoid(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kActivationTypes, 4));
  const OperandType type = context.inputType(0);
  if (!isQuant8Tensor(type)) return {};
  return validateOutputQuantization(context, kOutput.scale,
                                    type == kQuant8 ? kOutput.zeroPoint : kOutput.zeroPointSigned);
}

// The input, centered and rescaled to Q4.27 as the reference does: inputs
// beyond +-radius saturate the output.
struct Q4Input {
  int32_t zeroPoint = 0;
  QuantizedMultiplier multiplier;
  int32_t radius = 0;
};

Result<Q4Input> q4Input(const Shape& input) {
  constexpr int kIntegerBits = 4;
  const double multiplier = input.scale * static_cast<double>(1 << (31 - kIntegerBits));
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, multiplier > 1.0,
                   "input scale {} is too small for a fixed-point sigmoid", input.scale);
  Q4Input q4{.zeroPoint = input.zeroPoint, .multiplier = quantizeMultiplier(multiplier)};
  const double maxRescaled =
      ((1 << kIntegerBits) - 1) * std::ldexp(1.0, 31 - kIntegerBits - q4.multiplier.shift);
  q4.radius = static_cast<int32_t>(std::floor(maxRescaled));
  return q4;
}

// `fn` maps a Q4.27 input to a Q0.31 result in [-1, 1], which becomes the
// output by a rounding shift to its fixed scale.
template <const SigmoidOutput& kOutput, typename FixedFn>
Result<void> executeSigmoid(ExecutionContext& context, float (*floatFn)(float), FixedFn fn) {
  return executeActivation(
      context, floatFn, [fn](auto tag, ExecutionContext& context) -> Result<void> {
        using T = typename decltype(tag)::type;
        ANNRT_ASSIGN_OR_RETURN(const Q4Input q4, q4Input(context.inputShape(0)));
        const int32_t outputZero = context.outputShape(0).zeroPoint;
        return mapTensor<T>(context, [q4, outputZero, fn](T x) {
          const int32_t centered = static_cast<int32_t>(x) - q4.zeroPoint;
          if (centered <= -q4.radius) return std::numeric_limits<T>::min();
          if (centered >= q4.radius) return std::numeric_limits<T>::max();
          const fixed_point::Fixed<4> in{multiplyByQuantizedMultiplier(centered, q4.multiplier)};
          const int32_t out = roundingDivideByPOT(fn(in).raw, 31 - kOutput.fractionalBits);
          return saturateCast<T>(out + outputZero);
        });
      });
}

float logisticFloat(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}
float tanhFloat(float x) {
  return std::tanh(x);
}

Result<void> executeLogistic(ExecutionContext& context) {
  return executeSigmoid<kLogisticOutput>(context, logisticFloat,
                                         [](auto x) { return fixed_point::logistic(x); });
}

Result<void> executeTanh(ExecutionContext& context) {
  return executeSigmoid<kTanhOutput>(context, tanhFloat,
                                     [](auto x) { return fixed_point::tanh(x); });
}

// HARD_SWISH: x * relu6(x + 3) / 6. -------------------------------------------

Result<void> validateHardSwish(const ValidationContext& context) {
  return validateUnary(context, kActivationTypes);
}

// The reference's 16-bit fixed-point primitives.
int16_t saturateInt16(int64_t x) {
  return static_cast<int16_t>(std::clamp<int64_t>(x, std::numeric_limits<int16_t>::min(),
                                                  std::numeric_limits<int16_t>::max()));
}
int16_t doublingHighMul16(int16_t a, int16_t b, bool rounding) {
  if (a == b && a == std::numeric_limits<int16_t>::min())
    return std::numeric_limits<int16_t>::max();
  const int32_t product = static_cast<int32_t>(a) * b;
  const int32_t nudge = !rounding ? 0 : product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((product + nudge) / (1 << 15));
}
int16_t saturatingLeftShift16(int16_t x, int amount) {
  // Any non-zero int16 saturates well before a shift of 32.
  return saturateInt16(static_cast<int64_t>(x) * (int64_t{1} << std::min(amount, 32)));
}
// A Q31 multiplier rounded to Q15.
int16_t toInt16Multiplier(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRounding) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((multiplier + kRounding) >> 16);
}

struct HardSwishParams {
  int32_t inputZero = 0;
  int32_t outputZero = 0;
  int16_t outputMultiplier = 0;
  int outputShift = 0;  // <= 0
  int16_t reluishMultiplier = 0;
  int reluishShift = 0;
};

// The input is first put on a "high-res" scale 128x finer; from there one
// multiplier takes it to the output scale and another to a scale where 3.0 is
// 32768 (the "relu-ish" factor in [-1, 1]). The scales are float, as in the
// reference.
Result<HardSwishParams> hardSwishParams(const Shape& input, const Shape& output) {
  const float hiresInputScale = (1.0f / 128.0f) * input.scale;
  const float reluishScale = 3.0f / 32768.0f;
  const QuantizedMultiplier toOutput = quantizeMultiplier(hiresInputScale / output.scale);
  const QuantizedMultiplier toReluish = quantizeMultiplier(hiresInputScale / reluishScale);
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, toOutput.shift <= 0,
                   "input scale {} is too large for output scale {}", input.scale, output.scale);
  return HardSwishParams{.inputZero = input.zeroPoint,
                         .outputZero = output.zeroPoint,
                         .outputMultiplier = toInt16Multiplier(toOutput.multiplier),
                         .outputShift = toOutput.shift,
                         .reluishMultiplier = toInt16Multiplier(toReluish.multiplier),
                         .reluishShift = toReluish.shift};
}

int16_t reluishFactor(int16_t hiresInput, const HardSwishParams& p) {
  // Left shifts are split around the multiply so that saturation, when it
  // happens, happens last and is exact.
  int16_t value = hiresInput;
  if (p.reluishShift > 0) value = saturatingLeftShift16(value, p.reluishShift - 1);
  value = doublingHighMul16(value, p.reluishMultiplier, /*rounding=*/true);
  if (p.reluishShift > 0) value = saturatingLeftShift16(value, 1);
  if (p.reluishShift < 0) value = static_cast<int16_t>(roundingDivideByPOT(value, -p.reluishShift));
  // From [-1, 1] to [0, 1].
  return static_cast<int16_t>((value + (1 << 15)) >> 1);
}

template <typename T>
T hardSwishQuantized(T x, const HardSwishParams& p) {
  const auto hiresInput = static_cast<int16_t>((static_cast<int32_t>(x) - p.inputZero) * (1 << 7));
  const int16_t preshiftInput = doublingHighMul16(hiresInput, p.outputMultiplier, true);
  // Not rounding here cancels the bias of the rounding multiplies above.
  const int16_t preshiftOutput =
      doublingHighMul16(reluishFactor(hiresInput, p), preshiftInput, /*rounding=*/false);
  return saturateCast<T>(roundingDivideByPOT(preshiftOutput, -p.outputShift) + p.outputZero);
}

float hardSwishFloat(float x) {
  return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f;
}

Result<void> executeHardSwish(ExecutionContext& context) {
  return executeActivation(
      context, hardSwishFloat, [](auto tag, ExecutionContext& context) -> Result<void> {
        using T = typename decltype(tag)::type;
        ANNRT_ASSIGN_OR_RETURN(const HardSwishParams params,
                               hardSwishParams(context.inputShape(0), context.outputShape(0)));
        return mapTensor<T>(context, [params](T x) { return hardSwishQuantized(x, params); });
      });
}

// ELU: max(0, x) + min(0, alpha * (exp(x) - 1)), alpha a scalar input. --------

Result<void> validateElu(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateUnary(context, kFloatTypes, 0, 2));
  const OperandType alphaType =
      context.inputType(0) == kFloat16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  ANNRT_CHECK(context.inputType(1) == alphaType, "alpha has type {}, expected {}",
              operandTypeName(context.inputType(1)), operandTypeName(alphaType));
  return {};
}

Result<void> executeElu(ExecutionContext& context) {
  const float alpha = context.inputType(0) == kFloat16
                          ? static_cast<float>(context.scalar<Float16>(1))
                          : context.scalar<float>(1);
  return mapFloatTensor(context, [alpha](float x) {
    return std::max(0.0f, x) + std::min(0.0f, alpha * (std::exp(x) - 1.0f));
  });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::RELU,
     .name = "RELU",
     .validate = validateRelu<FusedActivation::RELU>,
     .prepare = prepareUpTo4d,
     .execute = executeRelu<FusedActivation::RELU>,
     .allowZeroSizedInput = true},
    {.type = OperationType::RELU1,
     .name = "RELU1",
     .validate = validateRelu<FusedActivation::RELU1>,
     .prepare = prepareUpTo4d,
     .execute = executeRelu<FusedActivation::RELU1>,
     .allowZeroSizedInput = true},
    {.type = OperationType::RELU6,
     .name = "RELU6",
     .validate = validateRelu<FusedActivation::RELU6>,
     .prepare = prepareUpTo4d,
     .execute = executeRelu<FusedActivation::RELU6>,
     .allowZeroSizedInput = true},
    {.type = OperationType::LOGISTIC,
     .name = "LOGISTIC",
     .validate = validateSigmoid<kLogisticOutput>,
     .prepare = prepareUpTo4d,
     .execute = executeLogistic,
     .allowZeroSizedInput = true},
    {.type = OperationType::TANH,
     .name = "TANH",
     .validate = validateSigmoid<kTanhOutput>,
     .prepare = prepareUpTo4d,
     .execute = executeTanh,
     .allowZeroSizedInput = true},
    {.type = OperationType::HARD_SWISH,
     .name = "HARD_SWISH",
     .validate = validateHardSwish,
     .prepare = prepareAnyRank,
     .execute = executeHardSwish,
     .allowZeroSizedInput = true},
    {.type = OperationType::ELU,
     .name = "ELU",
     .validate = validateElu,
     .prepare = prepareAnyRank,
     .execute = executeElu,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::activations
