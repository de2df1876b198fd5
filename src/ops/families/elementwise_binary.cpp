// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// ADD, SUB, MUL, DIV (inputs: two tensors and a fused activation code) and
// MAXIMUM, MINIMUM (two tensors): element-wise arithmetic with numpy
// broadcasting. Types: TENSOR_FLOAT32 and TENSOR_FLOAT16 everywhere;
// TENSOR_QUANT8_ASYMM and _SIGNED everywhere but DIV; TENSOR_INT32 everywhere
// (with activation NONE). Quantized operands may all have different scales
// and zero points. ADD/SUB/MUL/DIV take tensors of rank at most 4 and allow
// zero-sized inputs.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/elementwise_quant.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::elementwise_binary {
namespace {

enum class Op { ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM };

constexpr bool hasActivation(Op op) {
  return op != Op::MAXIMUM && op != Op::MINIMUM;
}
constexpr uint32_t kActivationInput = 2;
constexpr uint32_t kMaxRank = 4;

Result<void> checkActivation(OperandType type, int32_t code) {
  ANNRT_ASSIGN_OR_RETURN(const FusedActivation activation, toFusedActivation(code));
  ANNRT_CHECK(type != OperandType::TENSOR_INT32 || activation == FusedActivation::NONE,
              "TENSOR_INT32 takes no fused activation, got code {}", code);
  return {};
}

// A quantized MUL needs output_scale > input1_scale * input2_scale (the spec's
// condition; it keeps the requantization multiplier below one).
Result<void> validateMulScales(const ValidationContext& context) {
  const float product = context.inputShape(0).scale * context.inputShape(1).scale;
  ANNRT_CHECK(context.outputShape(0).scale > product,
              "output scale {} must exceed input1 scale * input2 scale = {}",
              context.outputShape(0).scale, product);
  return {};
}

// ADD, SUB, MUL, DIV: two tensors and a fused activation code.
Result<void> validateArithmetic(const ValidationContext& context, Op op) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(0);
  ANNRT_RETURN_IF_ERROR(
      op == Op::DIV ? validateTypeIn(type,
                                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                      OperandType::TENSOR_INT32},
                                     "input")
                    : validateTypeIn(type,
                                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                      OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                      OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                                     "input"));
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {type, type, OperandType::INT32}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {type}));
  ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(0), kMaxRank, "input0"));
  ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(1), kMaxRank, "input1"));
  if (const void* code = context.constantInput(kActivationInput)) {
    ANNRT_RETURN_IF_ERROR(checkActivation(type, *static_cast<const int32_t*>(code)));
  }
  if (op == Op::MUL && isQuant8Tensor(type)) ANNRT_RETURN_IF_ERROR(validateMulScales(context));
  return validateBroadcastable(context.inputShape(0), context.inputShape(1));
}

template <Op kOp>
Result<void> validate(const ValidationContext& context) {
  if constexpr (hasActivation(kOp)) {
    return validateArithmetic(context, kOp);
  } else {
    return validateBroadcastBinaryOp(
        context,
        {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32,
         OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED});
  }
}

template <Op kOp>
Result<void> prepare(ExecutionContext& context) {
  if constexpr (hasActivation(kOp)) {
    ANNRT_RETURN_IF_ERROR(
        checkActivation(context.inputType(0), context.scalar<int32_t>(kActivationInput)));
    ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(0), kMaxRank, "input0"));
    ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(1), kMaxRank, "input1"));
  }
  return setBroadcastOutputShape(context);
}

template <Op kOp>
float floatOp(float a, float b) {
  switch (kOp) {
    case Op::ADD: return a + b;
    case Op::SUB: return a - b;
    case Op::MUL: return a * b;
    case Op::DIV: return a / b;
    case Op::MAXIMUM: return std::max(a, b);
    case Op::MINIMUM: return std::min(a, b);
  }
  return 0.0f;
}

// Division rounding toward negative infinity. Division by zero is undefined
// in the spec; it gives 0 here rather than a trap, and INT32_MIN / -1 wraps.
int32_t floorDivide(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return static_cast<int32_t>(0u - static_cast<uint32_t>(a));
  int32_t quotient = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --quotient;
  return quotient;
}

// Overflow wraps (two's complement) instead of being undefined behavior.
template <Op kOp>
int32_t integerOp(int32_t a, int32_t b) {
  const auto ua = static_cast<uint32_t>(a);
  const auto ub = static_cast<uint32_t>(b);
  switch (kOp) {
    case Op::ADD: return static_cast<int32_t>(ua + ub);
    case Op::SUB: return static_cast<int32_t>(ua - ub);
    case Op::MUL: return static_cast<int32_t>(ua * ub);
    case Op::DIV: return floorDivide(a, b);
    case Op::MAXIMUM: return std::max(a, b);
    case Op::MINIMUM: return std::min(a, b);
  }
  return 0;
}

// Float16 is computed in float and rounded once.
template <Op kOp, typename T>
void executeFloat(ExecutionContext& context, FusedActivation activation) {
  float lo = 0.0f;
  float hi = 0.0f;
  activationRangeFloat(activation, &lo, &hi);
  // An unbounded side stays unbounded, so infinities are not clamped to finite values.
  if (lo == std::numeric_limits<float>::lowest()) lo = -std::numeric_limits<float>::infinity();
  if (hi == std::numeric_limits<float>::max()) hi = std::numeric_limits<float>::infinity();
  broadcastBinary<T, T>(context, [lo, hi](T a, T b) {
    const float result = floatOp<kOp>(static_cast<float>(a), static_cast<float>(b));
    return static_cast<T>(std::clamp(result, lo, hi));
  });
}

struct QuantizedRange {
  int32_t lo = 0;
  int32_t hi = 0;
};

template <typename T>
QuantizedRange outputRange(const Shape& output, FusedActivation activation) {
  QuantizedRange range;
  activationRange<T>(activation, output.scale, output.zeroPoint, &range.lo, &range.hi);
  return range;
}

// The reference's fixed-point scheme: both inputs are shifted left by 20 bits
// and scaled to a common scale of twice the larger input scale, summed, then
// scaled to the output. SUB negates the second input's multiplier.
template <typename T>
void addSubQuant(ExecutionContext& context, FusedActivation activation, bool subtract) {
  constexpr int kLeftShift = 20;
  const Shape& in0 = context.inputShape(0);
  const Shape& in1 = context.inputShape(1);
  const Shape& out = context.outputShape(0);
  const double twiceMaxScale = 2.0 * std::max(in0.scale, in1.scale);
  const QuantizedMultiplier m0 = quantizeMultiplier(in0.scale / twiceMaxScale);
  QuantizedMultiplier m1 = quantizeMultiplier(in1.scale / twiceMaxScale);
  if (subtract) m1.multiplier = -m1.multiplier;
  const QuantizedMultiplier mOut =
      quantizeMultiplier(twiceMaxScale / (static_cast<double>(1 << kLeftShift) * out.scale));
  const QuantizedRange range = outputRange<T>(out, activation);
  broadcastBinary<T, T>(context, [&](T a, T b) {
    const int32_t shiftedA = (static_cast<int32_t>(a) - in0.zeroPoint) * (1 << kLeftShift);
    const int32_t shiftedB = (static_cast<int32_t>(b) - in1.zeroPoint) * (1 << kLeftShift);
    const int32_t sum =
        multiplyByQuantizedMultiplier(shiftedA, m0) + multiplyByQuantizedMultiplier(shiftedB, m1);
    const int32_t result = multiplyByQuantizedMultiplier(sum, mOut) + out.zeroPoint;
    return static_cast<T>(std::clamp(result, range.lo, range.hi));
  });
}

// The product of the zero-point-corrected inputs, requantized with
// input1_scale * input2_scale / output_scale (the scale product is formed in
// float, as the reference does).
template <typename T>
void mulQuant(ExecutionContext& context, FusedActivation activation) {
  const Shape& in0 = context.inputShape(0);
  const Shape& in1 = context.inputShape(1);
  const Shape& out = context.outputShape(0);
  const float productScale = in0.scale * in1.scale;
  const QuantizedMultiplier m = quantizeMultiplier(static_cast<double>(productScale) / out.scale);
  const QuantizedRange range = outputRange<T>(out, activation);
  broadcastBinary<T, T>(context, [&](T a, T b) {
    const int32_t product =
        (static_cast<int32_t>(a) - in0.zeroPoint) * (static_cast<int32_t>(b) - in1.zeroPoint);
    const int32_t result = multiplyByQuantizedMultiplier(product, m) + out.zeroPoint;
    return static_cast<T>(std::clamp(result, range.lo, range.hi));
  });
}

// Both inputs are requantized to the output's parameters, then compared.
template <typename T>
void minMaxQuant(ExecutionContext& context, bool minimum) {
  const Shape& in0 = context.inputShape(0);
  const Shape& in1 = context.inputShape(1);
  const Shape& out = context.outputShape(0);
  broadcastBinary<T, T>(context, [&](T a, T b) {
    const T qa = requantize(a, in0, out);
    const T qb = requantize(b, in1, out);
    return minimum ? std::min(qa, qb) : std::max(qa, qb);
  });
}

template <Op kOp, typename T>
Result<void> executeQuant(ExecutionContext& context, FusedActivation activation) {
  if constexpr (kOp == Op::ADD || kOp == Op::SUB) {
    addSubQuant<T>(context, activation, kOp == Op::SUB);
  } else if constexpr (kOp == Op::MUL) {
    mulQuant<T>(context, activation);
  } else if constexpr (kOp == Op::MAXIMUM || kOp == Op::MINIMUM) {
    minMaxQuant<T>(context, kOp == Op::MINIMUM);
  } else {
    return makeError(ErrorCode::OP_FAILED, "quantized DIV is not defined");
  }
  return {};
}

template <Op kOp>
Result<void> execute(ExecutionContext& context) {
  const auto activation =
      hasActivation(kOp) ? static_cast<FusedActivation>(context.scalar<int32_t>(kActivationInput))
                         : FusedActivation::NONE;
  switch (context.inputType(0)) {
    case OperandType::TENSOR_INT32:
      broadcastBinary<int32_t, int32_t>(context, integerOp<kOp>);
      return {};
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<kOp, uint8_t>(context, activation);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return executeQuant<kOp, int8_t>(context, activation);
    case OperandType::TENSOR_FLOAT16: executeFloat<kOp, Float16>(context, activation); return {};
    default: executeFloat<kOp, float>(context, activation); return {};
  }
}

template <Op kOp>
constexpr OperationRegistration registration(OperationType type, const char* name) {
  return {.type = type,
          .name = name,
          .validate = validate<kOp>,
          .prepare = prepare<kOp>,
          .execute = execute<kOp>,
          .allowZeroSizedInput = hasActivation(kOp)};
}

constexpr OperationRegistration kOperations[] = {
    registration<Op::ADD>(OperationType::ADD, "ADD"),
    registration<Op::SUB>(OperationType::SUB, "SUB"),
    registration<Op::MUL>(OperationType::MUL, "MUL"),
    registration<Op::DIV>(OperationType::DIV, "DIV"),
    registration<Op::MAXIMUM>(OperationType::MAXIMUM, "MAXIMUM"),
    registration<Op::MINIMUM>(OperationType::MINIMUM, "MINIMUM"),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::elementwise_binary
