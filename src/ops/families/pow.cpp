// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// POW (level 3): base ^ exponent element-wise with numpy broadcasting, for
// TENSOR_FLOAT32 and TENSOR_FLOAT16 (computed in float, rounded once).
#include <cmath>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"

namespace annrt::ops::families::pow {
namespace {

Result<void> validate(const ValidationContext& context) {
  return validateBroadcastBinaryOp(context,
                                   {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16});
}

template <typename T>
void powKernel(ExecutionContext& context) {
  broadcastBinary<T, T>(context, [](T base, T exponent) {
    return static_cast<T>(std::pow(static_cast<float>(base), static_cast<float>(exponent)));
  });
}

Result<void> execute(ExecutionContext& context) {
  if (context.inputType(0) == OperandType::TENSOR_FLOAT16) {
    powKernel<Float16>(context);
  } else {
    powKernel<float>(context);
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::POW,
     .name = "POW",
     .validate = validate,
     .prepare = prepareBroadcastBinaryOp,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::pow
