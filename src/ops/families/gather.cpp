// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// GATHER: picks slices of the input along one axis by a tensor of indices;
// the indices' shape replaces that axis in the output.
#include <cstring>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::gather {
namespace {

constexpr uint32_t kAxis = 1;
constexpr uint32_t kIndices = 2;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 0));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kAxis, OperandType::INT32, "axis"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kIndices, OperandType::TENSOR_INT32, "indices"));
  return {};
}

Result<uint32_t> gatherAxis(const ExecutionContext& context) {
  return resolveAxis(context.scalar<int32_t>(kAxis), rank(context.inputShape(0)));
}

Result<void> prepare(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, gatherAxis(context));
  const std::vector<uint32_t>& in = context.inputShape(0).dims;
  const std::vector<uint32_t>& indices = context.inputShape(kIndices).dims;
  std::vector<uint32_t> dims(in.begin(), in.begin() + axis);
  dims.insert(dims.end(), indices.begin(), indices.end());
  dims.insert(dims.end(), in.begin() + axis + 1, in.end());
  return setOutputDims(context, std::move(dims));
}

Result<void> execute(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, gatherAxis(context));
  const Shape& input = context.inputShape(0);
  const uint32_t axisSize = input.dims[axis];
  const size_t count = elementCount(context.inputShape(kIndices));
  const int32_t* indices = context.input<int32_t>(kIndices);
  for (size_t j = 0; j < count; ++j) {
    ANNRT_CHECK(indices[j] >= 0 && static_cast<uint32_t>(indices[j]) < axisSize,
                "index {} is out of range for axis {} of size {}", indices[j], axis, axisSize);
  }
  size_t outer = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= input.dims[d];
  const size_t block = byteSize(input) / (outer * axisSize);
  const auto* in = static_cast<const uint8_t*>(context.inputData(0));
  auto* out = static_cast<uint8_t*>(context.outputData(0));
  for (size_t row = 0; row < outer; ++row) {
    for (size_t j = 0; j < count; ++j, out += block) {
      std::memcpy(out, in + (row * axisSize + indices[j]) * block, block);
    }
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::GATHER,
     .name = "GATHER",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::gather
