// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/elementwise_unary.h"

#include "ops/util/validation.h"

namespace annrt::ops {
namespace {

// Dims known on both sides (rank known, non-zero entries) must be equal.
Result<void> validateSameKnownDims(const Shape& input, const Shape& output) {
  if (rank(input) == 0 || rank(output) == 0) return {};
  ANNRT_CHECK(rank(input) == rank(output), "output rank {} differs from input rank {}",
              rank(output), rank(input));
  for (uint32_t axis = 0; axis < rank(input); ++axis) {
    const uint32_t in = input.dims[axis];
    const uint32_t out = output.dims[axis];
    ANNRT_CHECK(in == 0 || out == 0 || in == out, "output dims {} differ from input dims {}",
                toString(output.dims), toString(input.dims));
  }
  return {};
}

bool contains(std::span<const OperandType> types, OperandType type) {
  for (OperandType candidate : types) {
    if (candidate == type) return true;
  }
  return false;
}

}  // namespace

Result<void> validateConversion(const ValidationContext& context,
                                std::span<const OperandType> inputTypes,
                                std::span<const OperandType> outputTypes, uint32_t maxRank,
                                uint32_t inputCount) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, inputCount, inputCount));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_CHECK(contains(inputTypes, context.inputType(0)), "unsupported input type {}",
              operandTypeName(context.inputType(0)));
  ANNRT_CHECK(contains(outputTypes, context.outputType(0)), "unsupported output type {}",
              operandTypeName(context.outputType(0)));
  if (maxRank != 0) {
    ANNRT_RETURN_IF_ERROR(validateRankAtMost(context.inputShape(0), maxRank, "input"));
  }
  return validateSameKnownDims(context.inputShape(0), context.outputShape(0));
}

Result<void> validateUnary(const ValidationContext& context, std::span<const OperandType> types,
                           uint32_t maxRank, uint32_t inputCount) {
  ANNRT_RETURN_IF_ERROR(validateConversion(context, types, types, maxRank, inputCount));
  ANNRT_CHECK(context.outputType(0) == context.inputType(0),
              "output type {} differs from input type {}", operandTypeName(context.outputType(0)),
              operandTypeName(context.inputType(0)));
  return {};
}

Result<void> validateOutputQuantization(const ValidationContext& context, float scale,
                                        int32_t zeroPoint) {
  const Shape& output = context.outputShape(0);
  ANNRT_CHECK(output.scale == scale && output.zeroPoint == zeroPoint,
              "output scale {} and zero point {} must be {} and {}", output.scale, output.zeroPoint,
              scale, zeroPoint);
  return {};
}

Result<void> prepareSameShape(ExecutionContext& context, uint32_t maxRank) {
  const Shape& input = context.inputShape(0);
  if (maxRank != 0) ANNRT_RETURN_IF_ERROR(validateRankAtMost(input, maxRank, "input"));
  Shape output = context.outputShape(0);
  output.dims = input.dims;
  return context.setOutputShape(0, output);
}

}  // namespace annrt::ops
