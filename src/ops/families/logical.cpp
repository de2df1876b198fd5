// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// LOGICAL_AND, LOGICAL_OR (two TENSOR_BOOL8 with numpy broadcasting) and
// LOGICAL_NOT (one TENSOR_BOOL8, same shape out); level 3. Any non-zero
// byte reads as true; outputs are 0 or 1.
#include <cstdint>

#include "ops/operation.h"
#include "ops/util/broadcast_kernel.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::logical {
namespace {

enum class Logic { AND, OR, NOT };

template <Logic kOp>
Result<void> validate(const ValidationContext& context) {
  if constexpr (kOp == Logic::NOT) {
    ANNRT_RETURN_IF_ERROR(validateInputCount(context, 1, 1));
    ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
    ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {OperandType::TENSOR_BOOL8}));
    return validateOutputTypes(context, {OperandType::TENSOR_BOOL8});
  } else {
    return validateBroadcastBinaryOp(context, {OperandType::TENSOR_BOOL8});
  }
}

template <Logic kOp>
Result<void> prepare(ExecutionContext& context) {
  if constexpr (kOp == Logic::NOT) {
    Shape output = context.outputShape(0);
    output.dims = context.inputShape(0).dims;
    return context.setOutputShape(0, output);
  } else {
    return prepareBroadcastBinaryOp(context);
  }
}

template <Logic kOp>
Result<void> execute(ExecutionContext& context) {
  if constexpr (kOp == Logic::NOT) {
    const Shape& input = context.inputShape(0);
    broadcastApply(
        input.dims, context.output<uint8_t>(0), [](uint8_t x) { return x == 0; },
        BroadcastOperand<uint8_t>{input.dims, context.input<uint8_t>(0)});
  } else {
    broadcastBinary<uint8_t, uint8_t>(context, [](uint8_t a, uint8_t b) {
      return kOp == Logic::AND ? (a != 0 && b != 0) : (a != 0 || b != 0);
    });
  }
  return {};
}

template <Logic kOp>
constexpr OperationRegistration registration(OperationType type, const char* name) {
  return {.type = type,
          .name = name,
          .validate = validate<kOp>,
          .prepare = prepare<kOp>,
          .execute = execute<kOp>};
}

constexpr OperationRegistration kOperations[] = {
    registration<Logic::AND>(OperationType::LOGICAL_AND, "LOGICAL_AND"),
    registration<Logic::OR>(OperationType::LOGICAL_OR, "LOGICAL_OR"),
    registration<Logic::NOT>(OperationType::LOGICAL_NOT, "LOGICAL_NOT"),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::logical
