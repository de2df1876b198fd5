// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Ops that permute elements within a tensor: TRANSPOSE (permutes axes),
// CHANNEL_SHUFFLE (permutes indices along one axis, group-major to
// group-minor) and REVERSE (reverses one axis).
#include <numeric>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::transpose {
namespace {

// Copies input 0 to output 0 where output coordinate `o` reads the input
// element at `sourceCoord(o)` (written in place into a scratch coordinate).
template <typename SourceCoord>
Result<void> permuteElements(ExecutionContext& context, SourceCoord&& sourceCoord) {
  const Shape& input = context.inputShape(0);
  const std::vector<size_t> strides = rowMajorStrides(input.dims);
  std::vector<uint32_t> in(input.dims.size());
  gatherElements(context.inputData(0), context.outputData(0), context.outputShape(0).dims,
                 elementSize(input.type), nullptr, [&](const std::vector<uint32_t>& o) {
                   sourceCoord(o, in);
                   size_t index = 0;
                   for (size_t d = 0; d < in.size(); ++d) index += in[d] * strides[d];
                   return static_cast<int64_t>(index);
                 });
  return {};
}

Result<void> prepareSameShape(ExecutionContext& context) {
  return setOutputDims(context, context.inputShape(0).dims);
}

// TRANSPOSE

Result<void> validateTranspose(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 1, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  if (context.inputCount() < 2 || context.isOmittedInput(1)) return {};
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 1, OperandType::TENSOR_INT32, "perm"));
  return validateRankAtMost(context.inputShape(1), 1, "perm");
}

// The permutation, defaulting to reversed axes.
Result<std::vector<uint32_t>> permutation(const ExecutionContext& context) {
  const auto n = static_cast<uint32_t>(rank(context.inputShape(0)));
  std::vector<uint32_t> perm(n);
  if (context.inputCount() < 2 || context.isOmittedInput(1)) {
    for (uint32_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
    return perm;
  }
  ANNRT_ASSIGN_OR_RETURN(auto values, int32Vector(context, 1, n));
  std::vector<bool> seen(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    ANNRT_CHECK(values[i] >= 0 && values[i] < static_cast<int32_t>(n) && !seen[values[i]],
                "perm is not a permutation of 0..{}", n - 1);
    seen[values[i]] = true;
    perm[i] = static_cast<uint32_t>(values[i]);
  }
  return perm;
}

Result<void> prepareTranspose(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto perm, permutation(context));
  std::vector<uint32_t> dims(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) dims[i] = context.inputShape(0).dims[perm[i]];
  return setOutputDims(context, std::move(dims));
}

Result<void> executeTranspose(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto perm, permutation(context));
  return permuteElements(context, [&](const std::vector<uint32_t>& o, std::vector<uint32_t>& in) {
    for (size_t i = 0; i < perm.size(); ++i) in[perm[i]] = o[i];
  });
}

// CHANNEL_SHUFFLE

constexpr uint32_t kGroups = 1;
constexpr uint32_t kShuffleAxis = 2;

Result<void> validateChannelShuffle(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kGroups, OperandType::INT32, "groups"));
  return validateInputType(context, kShuffleAxis, OperandType::INT32, "axis");
}

struct Shuffle {
  uint32_t axis = 0;
  uint32_t groups = 1;
  uint32_t groupSize = 1;
};

Result<Shuffle> shuffleParameters(const ExecutionContext& context) {
  const std::vector<uint32_t>& dims = context.inputShape(0).dims;
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, resolveAxis(context.scalar<int32_t>(kShuffleAxis),
                                                    static_cast<uint32_t>(dims.size())));
  const int32_t groups = context.scalar<int32_t>(kGroups);
  ANNRT_CHECK(groups > 0 && dims[axis] % groups == 0,
              "{} groups do not divide dimension {} of size {}", groups, axis, dims[axis]);
  return Shuffle{axis, static_cast<uint32_t>(groups), dims[axis] / groups};
}

Result<void> prepareChannelShuffle(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(shuffleParameters(context));
  return prepareSameShape(context);
}

Result<void> executeChannelShuffle(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(Shuffle s, shuffleParameters(context));
  // Output index k * groups + g holds input index g * groupSize + k.
  return permuteElements(context, [&](const std::vector<uint32_t>& o, std::vector<uint32_t>& in) {
    in = o;
    in[s.axis] = (o[s.axis] % s.groups) * s.groupSize + o[s.axis] / s.groups;
  });
}

// REVERSE

Result<void> validateReverse(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 0));
  const Shape& axis = context.inputShape(1);
  ANNRT_RETURN_IF_ERROR(validateInputType(context, 1, OperandType::TENSOR_INT32, "axis"));
  ANNRT_CHECK(rank(axis) == 0 || (rank(axis) == 1 && axis.dims[0] <= 1),
              "axis must have shape [1], has {}", toString(axis.dims));
  const Shape& input = context.inputShape(0);
  const Shape& output = context.outputShape(0);
  ANNRT_CHECK(rank(input) == 0 || rank(output) == 0 || rank(input) == rank(output),
              "output rank {} differs from input rank {}", rank(output), rank(input));
  return {};
}

Result<uint32_t> reverseAxis(const ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto axis, int32Vector(context, 1, 1));
  return resolveAxis(axis[0], rank(context.inputShape(0)));
}

Result<void> prepareReverse(ExecutionContext& context) {
  ANNRT_RETURN_IF_ERROR(reverseAxis(context));
  return prepareSameShape(context);
}

Result<void> executeReverse(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, reverseAxis(context));
  const uint32_t last = context.inputShape(0).dims[axis] - 1;
  return permuteElements(context, [&](const std::vector<uint32_t>& o, std::vector<uint32_t>& in) {
    in = o;
    in[axis] = last - o[axis];
  });
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::TRANSPOSE,
     .name = "TRANSPOSE",
     .validate = validateTranspose,
     .prepare = prepareTranspose,
     .execute = executeTranspose,
     .allowOmittedOperand = true,
     .allowZeroSizedInput = true},
    {.type = OperationType::CHANNEL_SHUFFLE,
     .name = "CHANNEL_SHUFFLE",
     .validate = validateChannelShuffle,
     .prepare = prepareChannelShuffle,
     .execute = executeChannelShuffle},
    {.type = OperationType::REVERSE,
     .name = "REVERSE",
     .validate = validateReverse,
     .prepare = prepareReverse,
     .execute = executeReverse},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::transpose
