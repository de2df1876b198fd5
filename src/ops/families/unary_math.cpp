// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Element-wise math functions of one tensor: ABS, EXP, FLOOR, LOG, NEG, RSQRT,
// SIN, SQRT. All take float32 and float16 (FLOOR float32 since level 1, the
// rest since 3); ABS and NEG also int32 (ABS since level 4, NEG since 3), and
// RSQRT quant8 / quant8 signed (level 7), computed on dequantized values and
// requantized to the output's parameters. FLOOR is limited to rank 4. Output
// has the input's shape and type.
#include <cmath>
#include <cstdint>

#include "ops/operation.h"
#include "ops/util/elementwise_unary.h"

namespace annrt::ops::families::unary_math {
namespace {

constexpr OperandType kFloat32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kFloat16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kInt32 = OperandType::TENSOR_INT32;
constexpr OperandType kQuant8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQuant8Signed = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

// Two's-complement negation: INT32_MIN maps to itself instead of overflowing.
int32_t wrappingNegate(int32_t x) {
  return static_cast<int32_t>(0u - static_cast<uint32_t>(x));
}

// Each function: its operand types, rank limit (0: none), the float function
// and, where int32 is allowed, the int32 one.
struct Abs {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16, kInt32};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return std::fabs(x); }
  static int32_t applyInt(int32_t x) { return x < 0 ? wrappingNegate(x) : x; }
};
struct Neg {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16, kInt32};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return -x; }
  static int32_t applyInt(int32_t x) { return wrappingNegate(x); }
};
struct Floor {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16};
  static constexpr uint32_t kMaxRank = 4;
  static float apply(float x) { return std::floor(x); }
};
struct Exp {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return std::exp(x); }
};
struct Log {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return std::log(x); }
};
struct Sin {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return std::sin(x); }
};
struct Sqrt {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return std::sqrt(x); }
};
struct Rsqrt {
  static constexpr OperandType kTypes[] = {kFloat32, kFloat16, kQuant8, kQuant8Signed};
  static constexpr uint32_t kMaxRank = 0;
  static float apply(float x) { return 1.0f / std::sqrt(x); }
};

template <typename Function>
Result<void> validate(const ValidationContext& context) {
  return validateUnary(context, Function::kTypes, Function::kMaxRank);
}

template <typename Function>
Result<void> prepare(ExecutionContext& context) {
  return prepareSameShape(context, Function::kMaxRank);
}

template <typename Function>
Result<void> execute(ExecutionContext& context) {
  return dispatchOperandType<kFloat32, kFloat16, kInt32, kQuant8, kQuant8Signed>(
      context.inputType(0), [&](auto tag) -> Result<void> {
        using T = typename decltype(tag)::type;
        if constexpr (kComputesInFloat<T>) {
          return mapTensor<T>(context, liftFloat<T>(Function::apply));
        } else if constexpr (std::is_same_v<T, int32_t>) {
          if constexpr (requires { Function::applyInt(T{}); }) {
            return mapTensor<T>(context, Function::applyInt);
          }
        } else {
          return mapTensor<T>(context, liftDequantized<T>(Function::apply, context.inputShape(0),
                                                          context.outputShape(0)));
        }
        return makeError(ErrorCode::BAD_DATA, "unsupported type {}",
                         operandTypeName(context.inputType(0)));
      });
}

template <typename Function>
constexpr OperationRegistration registration(OperationType type, const char* name) {
  return {.type = type,
          .name = name,
          .validate = validate<Function>,
          .prepare = prepare<Function>,
          .execute = execute<Function>};
}

constexpr OperationRegistration kOperations[] = {
    registration<Abs>(OperationType::ABS, "ABS"),
    registration<Exp>(OperationType::EXP, "EXP"),
    registration<Floor>(OperationType::FLOOR, "FLOOR"),
    registration<Log>(OperationType::LOG, "LOG"),
    registration<Neg>(OperationType::NEG, "NEG"),
    registration<Rsqrt>(OperationType::RSQRT, "RSQRT"),
    registration<Sin>(OperationType::SIN, "SIN"),
    registration<Sqrt>(OperationType::SQRT, "SQRT"),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::unary_math
