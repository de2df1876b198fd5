// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The reduction loop shared by MEAN and the REDUCE_* family: which axes an
// axes tensor selects, the output shape with or without keep_dims, and a walk
// over the input that folds every element into its output slot.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "common/types.h"
#include "ops/operation.h"

namespace annrt::ops {

struct ReductionPlan {
  std::vector<uint32_t> inputDims;
  std::vector<bool> reduced;         // per input axis
  std::vector<size_t> outputStride;  // per input axis; 0 for reduced axes
  size_t outputCount = 1;
  size_t reducedCount = 1;  // input elements folded into each output
};

// `axes` holds `axisCount` possibly negative, possibly repeated axes.
Result<ReductionPlan> makeReductionPlan(const std::vector<uint32_t>& inputDims, const int32_t* axes,
                                        size_t axisCount);

// Output dims: reduced axes become 1 (keepDims) or disappear; reducing every
// axis without keepDims gives [1].
std::vector<uint32_t> reducedDims(const ReductionPlan& plan, bool keepDims);

// The plan for input 0 reduced over the 1-D TENSOR_INT32 axes of input 1, of
// rank at most `maxRank` (0: any). Validation keeps known ranks to 4 for MEAN
// and REDUCE_*; at run time AOSP's REDUCE_* prepare checks it again, while
// its MEAN (meanPrepare, meanGeneric) reduces an input of any rank, so an
// input declared with an unknown rank runs at rank 5 and up.
Result<ReductionPlan> reductionPlanFromInputs(const ExecutionContext& context, uint32_t maxRank);
// Sets output 0 to the reduced shape.
Result<void> setReducedOutputShape(ExecutionContext& context, const ReductionPlan& plan,
                                   bool keepDims);

// Folds each input element into `acc[outputIndex] = combine(acc[outputIndex],
// element)`; `acc` holds plan.outputCount initialized accumulators.
template <typename In, typename Acc, typename Combine>
void reduceInto(const ReductionPlan& plan, const In* input, Acc* acc, Combine&& combine) {
  const std::vector<uint32_t>& dims = plan.inputDims;
  const size_t rank = dims.size();
  const size_t inputCount = elementCount(dims);
  std::vector<uint32_t> coord(rank, 0);
  size_t out = 0;
  for (size_t i = 0; i < inputCount; ++i) {
    acc[out] = combine(acc[out], input[i]);
    for (size_t d = rank; d-- > 0;) {
      out += plan.outputStride[d];
      if (++coord[d] < dims[d]) break;
      out -= plan.outputStride[d] * dims[d];
      coord[d] = 0;
    }
  }
}

}  // namespace annrt::ops
