// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// TILE: repeats the input multiples[i] times along each axis i.
#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::tile {
namespace {

constexpr uint32_t kMultiples = 1;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 0));
  ANNRT_RETURN_IF_ERROR(
      validateInputType(context, kMultiples, OperandType::TENSOR_INT32, "multiples"));
  return validateRank(context.inputShape(kMultiples), 1, "multiples");
}

Result<void> prepare(ExecutionContext& context) {
  std::vector<uint32_t> dims = context.inputShape(0).dims;
  ANNRT_ASSIGN_OR_RETURN(auto multiples, int32Vector(context, kMultiples, dims.size()));
  for (size_t d = 0; d < dims.size(); ++d) {
    ANNRT_CHECK(multiples[d] >= 1, "multiple {} of axis {} must be at least 1", multiples[d], d);
    ANNRT_ASSIGN_OR_RETURN(dims[d], checkedDim(uint64_t{dims[d]} * multiples[d]));
  }
  return setOutputDims(context, std::move(dims));
}

Result<void> execute(ExecutionContext& context) {
  const Shape& input = context.inputShape(0);
  const std::vector<size_t> strides = rowMajorStrides(input.dims);
  gatherElements(context.inputData(0), context.outputData(0), context.outputShape(0).dims,
                 elementSize(input.type), nullptr, [&](const std::vector<uint32_t>& o) {
                   int64_t index = 0;
                   for (size_t d = 0; d < o.size(); ++d) {
                     index += static_cast<int64_t>((o[d] % input.dims[d]) * strides[d]);
                   }
                   return index;
                 });
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::TILE,
     .name = "TILE",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::tile
