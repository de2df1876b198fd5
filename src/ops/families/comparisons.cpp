// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL (level 3):
// element-wise comparison of two tensors of one type with numpy
// broadcasting, into a TENSOR_BOOL8. Types: TENSOR_BOOL8, TENSOR_FLOAT16,
// TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED
// (level 4). Quantized inputs may differ in scale and zero point and are
// compared by their real values.
#include <cstdint>
#include <type_traits>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/quantization.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::comparisons {
namespace {

enum class Cmp { EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL };

Result<void> validate(const ValidationContext& context) {
  return validateBroadcastBinaryOp(
      context,
      {OperandType::TENSOR_BOOL8, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
       OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
       OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
      OperandType::TENSOR_BOOL8);
}

template <Cmp kCmp, typename T>
bool compare(T a, T b) {
  switch (kCmp) {
    case Cmp::EQUAL: return a == b;
    case Cmp::NOT_EQUAL: return a != b;
    case Cmp::GREATER: return a > b;
    case Cmp::GREATER_EQUAL: return a >= b;
    case Cmp::LESS: return a < b;
    case Cmp::LESS_EQUAL: return a <= b;
  }
  return false;
}

template <Cmp kCmp, typename T>
void compareQuantized(ExecutionContext& context) {
  const Shape& a = context.inputShape(0);
  const Shape& b = context.inputShape(1);
  broadcastBinary<T, uint8_t>(context, [&](T x, T y) {
    return compare<kCmp>(dequantize(x, a.scale, a.zeroPoint), dequantize(y, b.scale, b.zeroPoint));
  });
}

template <Cmp kCmp>
Result<void> execute(ExecutionContext& context) {
  const OperandType type = context.inputType(0);
  visitElementType(type, [&]<typename T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
      if (isQuant8Tensor(type)) return compareQuantized<kCmp, T>(context);
    }
    broadcastBinary<T, uint8_t>(context, compare<kCmp, T>);
  });
  return {};
}

template <Cmp kCmp>
constexpr OperationRegistration registration(OperationType type, const char* name) {
  return {.type = type,
          .name = name,
          .validate = validate,
          .prepare = prepareBroadcastBinaryOp,
          .execute = execute<kCmp>};
}

constexpr OperationRegistration kOperations[] = {
    registration<Cmp::EQUAL>(OperationType::EQUAL, "EQUAL"),
    registration<Cmp::NOT_EQUAL>(OperationType::NOT_EQUAL, "NOT_EQUAL"),
    registration<Cmp::GREATER>(OperationType::GREATER, "GREATER"),
    registration<Cmp::GREATER_EQUAL>(OperationType::GREATER_EQUAL, "GREATER_EQUAL"),
    registration<Cmp::LESS>(OperationType::LESS, "LESS"),
    registration<Cmp::LESS_EQUAL>(OperationType::LESS_EQUAL, "LESS_EQUAL"),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::comparisons
