// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/broadcast_kernel.h"

#include <algorithm>

#include "ops/util/validation.h"

namespace annrt::ops {

Result<void> validateBroadcastable(const Shape& a, const Shape& b) {
  const size_t rankA = a.dims.size();
  const size_t rankB = b.dims.size();
  for (size_t i = 1; i <= std::min(rankA, rankB); ++i) {
    const uint32_t da = a.dims[rankA - i];
    const uint32_t db = b.dims[rankB - i];
    ANNRT_CHECK(da == 0 || db == 0 || da == db || da == 1 || db == 1, "cannot broadcast {} with {}",
                toString(a.dims), toString(b.dims));
  }
  return {};
}

Result<void> validateBroadcastBinaryOp(const ValidationContext& context,
                                       std::initializer_list<OperandType> allowed,
                                       std::optional<OperandType> outputType) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 2, 2));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType type = context.inputType(0);
  ANNRT_RETURN_IF_ERROR(validateTypeIn(type, allowed, "input"));
  ANNRT_RETURN_IF_ERROR(validateInputTypes(context, {type, type}));
  ANNRT_RETURN_IF_ERROR(validateOutputTypes(context, {outputType.value_or(type)}));
  return validateBroadcastable(context.inputShape(0), context.inputShape(1));
}

Result<void> setBroadcastOutputShape(ExecutionContext& context, uint32_t a, uint32_t b) {
  ANNRT_ASSIGN_OR_RETURN(auto dims,
                         broadcastDims(context.inputShape(a).dims, context.inputShape(b).dims));
  Shape output = context.outputShape(0);
  output.dims = std::move(dims);
  return context.setOutputShape(0, output);
}

Result<void> prepareBroadcastBinaryOp(ExecutionContext& context) {
  return setBroadcastOutputShape(context, 0, 1);
}

}  // namespace annrt::ops
