// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// PRELU: output = input >= 0 ? input : input * alpha, with alpha broadcast
// against input (numpy rules). TENSOR_FLOAT32, TENSOR_FLOAT16,
// TENSOR_QUANT8_ASYMM (level 3) and TENSOR_QUANT8_ASYMM_SIGNED (level 4);
// input, alpha and output share the type, not the quantization.
#include <cstdint>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/quantization.h"

namespace annrt::ops::families::prelu {
namespace {

Result<void> validate(const ValidationContext& context) {
  return validateBroadcastBinaryOp(
      context, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED});
}

template <typename T>
void preluFloat(ExecutionContext& context) {
  broadcastBinary<T, T>(context, [](T x, T alpha) {
    const float value = static_cast<float>(x);
    return static_cast<T>(value >= 0.0f ? value : value * static_cast<float>(alpha));
  });
}

// Non-negative inputs are rescaled by input_scale / output_scale, negative
// ones multiplied by alpha and rescaled by input_scale * alpha_scale /
// output_scale; both scale ratios are formed in float like the reference.
template <typename T>
void preluQuant(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  const Shape& alpha = context.inputShape(1);
  const Shape& out = context.outputShape(0);
  const float positiveScale = input.scale / out.scale;
  const float productScale = input.scale * alpha.scale;
  const QuantizedMultiplier positive = quantizeMultiplier(positiveScale);
  const QuantizedMultiplier negative =
      quantizeMultiplier(static_cast<double>(productScale) / out.scale);
  broadcastBinary<T, T>(context, [&](T x, T a) {
    const int32_t value = static_cast<int32_t>(x) - input.zeroPoint;
    const int32_t scaled = value >= 0
                               ? multiplyByQuantizedMultiplier(value, positive)
                               : multiplyByQuantizedMultiplier(
                                     value * (static_cast<int32_t>(a) - alpha.zeroPoint), negative);
    return saturateCast<T>(scaled + out.zeroPoint);
  });
}

Result<void> execute(ExecutionContext& context) {
  switch (context.inputType(0)) {
    case OperandType::TENSOR_QUANT8_ASYMM: preluQuant<uint8_t>(context); break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: preluQuant<int8_t>(context); break;
    case OperandType::TENSOR_FLOAT16: preluFloat<Float16>(context); break;
    default: preluFloat<float>(context); break;
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::PRELU,
     .name = "PRELU",
     .validate = validate,
     .prepare = prepareBroadcastBinaryOp,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::prelu
