// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Ops that change only the shape of a tensor, never its bytes: RESHAPE,
// SQUEEZE and EXPAND_DIMS. The kernel is one memcpy; the work is in prepare.
#include <fmt/ranges.h>

#include <cstring>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::reshape {
namespace {

Result<void> copyInput(ExecutionContext& context) {
  std::memcpy(context.outputData(0), context.inputData(0), byteSize(context.inputShape(0)));
  return {};
}

// RESHAPE

Result<void> validateReshape(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 4));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 1, OperandType::TENSOR_INT32, "shape"));
  return validateRankAtMost(context.inputShape(1), 1, "shape");
}

// The target shape with its -1 component resolved.
Result<std::vector<uint32_t>> reshapeDims(const std::vector<int32_t>& target, size_t inputCount) {
  std::vector<uint32_t> dims(target.size());
  size_t known = 1;
  int inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      ANNRT_CHECK(inferred < 0, "shape {} has more than one -1", fmt::join(target, ","));
      inferred = static_cast<int>(i);
      continue;
    }
    ANNRT_CHECK(target[i] >= 0, "shape has negative dimension {}", target[i]);
    dims[i] = static_cast<uint32_t>(target[i]);
    ANNRT_CHECK(!__builtin_mul_overflow(known, size_t{dims[i]}, &known), "shape {} is too large",
                fmt::join(target, ","));
  }
  if (inferred >= 0) {
    ANNRT_CHECK(known != 0 && inputCount % known == 0,
                "cannot infer the -1 dimension of {} for {} elements", fmt::join(target, ","),
                inputCount);
    ANNRT_ASSIGN_OR_RETURN(dims[inferred], checkedDim(inputCount / known));
    known *= dims[inferred];
  }
  ANNRT_CHECK(known == inputCount, "shape {} holds {} elements, the input has {}",
              fmt::join(target, ","), known, inputCount);
  return dims;
}

Result<void> prepareReshape(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto target, int32Vector(context, 1));
  ANNRT_ASSIGN_OR_RETURN(auto dims, reshapeDims(target, elementCount(context.inputShape(0))));
  return setOutputDims(context, std::move(dims));
}

// SQUEEZE

Result<void> validateSqueeze(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 1, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  if (context.inputCount() < 2 || context.isOmittedInput(1)) return {};
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 1, OperandType::TENSOR_INT32, "squeeze dims"));
  return validateRankAtMost(context.inputShape(1), 1, "squeeze dims");
}

Result<void> prepareSqueeze(ExecutionContext& context) {
  const std::vector<uint32_t>& inDims = context.inputShape(0).dims;
  const auto inRank = static_cast<uint32_t>(inDims.size());
  std::vector<int32_t> axes;
  if (context.inputCount() >= 2 && !context.isOmittedInput(1)) {
    ANNRT_ASSIGN_OR_RETURN(axes, int32Vector(context, 1));
  }
  std::vector<bool> squeezed(inRank, false);
  // No axes (omitted or empty) squeezes every dimension of size 1.
  for (uint32_t i = 0; i < inRank && axes.empty(); ++i) squeezed[i] = inDims[i] == 1;
  for (int32_t axis : axes) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t a, resolveAxis(axis, inRank));
    ANNRT_CHECK(inDims[a] == 1, "cannot squeeze dimension {} of size {}", a, inDims[a]);
    squeezed[a] = true;
  }
  std::vector<uint32_t> dims;
  for (uint32_t i = 0; i < inRank; ++i) {
    if (!squeezed[i]) dims.push_back(inDims[i]);
  }
  if (dims.empty()) dims.push_back(1);  // the spec keeps squeezed-away tensors 1-D
  return setOutputDims(context, std::move(dims));
}

// EXPAND_DIMS

Result<void> validateExpandDims(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 0));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 1, OperandType::INT32, "axis"));
  return {};
}

Result<void> prepareExpandDims(ExecutionContext& context) {
  std::vector<uint32_t> dims = context.inputShape(0).dims;
  // The new axis may also go after the last one: range [-(n + 1), n].
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, resolveAxis(context.scalar<int32_t>(1),
                                                    static_cast<uint32_t>(dims.size() + 1)));
  dims.insert(dims.begin() + axis, 1);
  return setOutputDims(context, std::move(dims));
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::RESHAPE,
     .name = "RESHAPE",
     .validate = validateReshape,
     .prepare = prepareReshape,
     .execute = copyInput},
    {.type = OperationType::SQUEEZE,
     .name = "SQUEEZE",
     .validate = validateSqueeze,
     .prepare = prepareSqueeze,
     .execute = copyInput,
     .allowOmittedOperand = true},
    {.type = OperationType::EXPAND_DIMS,
     .name = "EXPAND_DIMS",
     .validate = validateExpandDims,
     .prepare = prepareExpandDims,
     .execute = copyInput},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::reshape
