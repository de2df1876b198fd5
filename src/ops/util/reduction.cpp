// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/reduction.h"

#include "ops/util/shape_helpers.h"

namespace annrt::ops {

Result<ReductionPlan> makeReductionPlan(const std::vector<uint32_t>& inputDims, const int32_t* axes,
                                        size_t axisCount) {
  ReductionPlan plan;
  plan.inputDims = inputDims;
  const auto rank = static_cast<uint32_t>(inputDims.size());
  plan.reduced.assign(rank, false);
  for (size_t i = 0; i < axisCount; ++i) {
    ANNRT_ASSIGN_OR_RETURN(const uint32_t axis, resolveAxis(axes[i], rank));
    plan.reduced[axis] = true;
  }
  plan.outputStride.assign(rank, 0);
  for (uint32_t d = rank; d-- > 0;) {
    if (plan.reduced[d]) {
      plan.reducedCount *= inputDims[d];
    } else {
      plan.outputStride[d] = plan.outputCount;
      plan.outputCount *= inputDims[d];
    }
  }
  return plan;
}

std::vector<uint32_t> reducedDims(const ReductionPlan& plan, bool keepDims) {
  std::vector<uint32_t> dims;
  for (size_t d = 0; d < plan.inputDims.size(); ++d) {
    if (!plan.reduced[d]) {
      dims.push_back(plan.inputDims[d]);
    } else if (keepDims) {
      dims.push_back(1);
    }
  }
  if (dims.empty()) dims.push_back(1);
  return dims;
}

Result<ReductionPlan> reductionPlanFromInputs(const ExecutionContext& context, uint32_t maxRank) {
  const Shape& input = context.inputShape(0);
  const Shape& axes = context.inputShape(1);
  ANNRT_CHECK(maxRank == 0 || rank(input) <= maxRank, "input rank {} is above {}", rank(input),
              maxRank);
  ANNRT_CHECK(rank(axes) == 1, "axes must be a 1-D tensor, got rank {}", rank(axes));
  return makeReductionPlan(input.dims, context.input<int32_t>(1), elementCount(axes));
}

Result<void> setReducedOutputShape(ExecutionContext& context, const ReductionPlan& plan,
                                   bool keepDims) {
  Shape output = context.outputShape(0);
  output.dims = reducedDims(plan, keepDims);
  return context.setOutputShape(0, output);
}

}  // namespace annrt::ops
