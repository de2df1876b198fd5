// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Ops between shapes and data: FILL (a tensor of a given shape holding one
// value) and RANK (the number of dimensions of a tensor, as an INT32 scalar).
#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::fill_rank {
namespace {

// FILL

Result<void> validateFill(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.outputType(0);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(
      type, {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32},
      "output"));
  const OperandType valueType = type == OperandType::TENSOR_FLOAT16   ? OperandType::FLOAT16
                                : type == OperandType::TENSOR_FLOAT32 ? OperandType::FLOAT32
                                                                      : OperandType::INT32;
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {OperandType::TENSOR_INT32, valueType}));
  return validateRank(context.inputShape(0), 1, "dims");
}

Result<void> prepareFill(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto values, int32Vector(context, 0));
  std::vector<uint32_t> dims;
  for (int32_t d : values) {
    ANNRT_CHECK(d >= 0, "dimension {} is negative", d);
    dims.push_back(static_cast<uint32_t>(d));
  }
  return setOutputDims(context, std::move(dims));
}

Result<void> executeFill(ExecutionContext& context) {
  // Every output element is the fill element: no source index.
  gatherElements(nullptr, context.outputData(0), context.outputShape(0).dims,
                 elementSize(context.outputShape(0).type), context.inputData(1),
                 [](const std::vector<uint32_t>&) { return int64_t{-1}; });
  return {};
}

// RANK

Result<void> validateRankOp(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 1, 1));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(0);
  ANNRT_CHECK(isTensorType(type) && type != OperandType::TENSOR_OEM_BYTE,
              "input type {} is not a tensor type", operandTypeName(type));
  ANNRT_CHECK(context.outputType(0) == OperandType::INT32, "output has type {}, expected INT32",
              operandTypeName(context.outputType(0)));
  return {};
}

Result<void> prepareRank(ExecutionContext& context) {
  return setOutputDims(context, {});
}

Result<void> executeRank(ExecutionContext& context) {
  *context.output<int32_t>(0) = static_cast<int32_t>(rank(context.inputShape(0)));
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::FILL,
     .name = "FILL",
     .validate = validateFill,
     .prepare = prepareFill,
     .execute = executeFill},
    {.type = OperationType::RANK,
     .name = "RANK",
     .validate = validateRankOp,
     .prepare = prepareRank,
     .execute = executeRank,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::fill_rank
