// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// MEAN, REDUCE_SUM, REDUCE_MAX and REDUCE_MIN over one contiguous run of
// axes. The 2022-02 XNNPACK subgraph API has no reductions, but reducing
// axes a..b of a tensor is pooling a [outer, 1, reduced, inner] view of it
// over its whole width: global average pooling for MEAN (quantized too,
// requantizing to the output's scale) and REDUCE_SUM (times the count, float
// only as in NNAPI), a 1 x reduced max pooling for REDUCE_MAX (quantized on
// the raw values, which NNAPI keeps on one scale), and for REDUCE_MIN the
// same on the negated values (in float32 for quantized data, exactly).
#include <algorithm>
#include <cmath>
#include <set>

#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

std::vector<size_t> toSizes(const std::vector<uint32_t>& dims) {
  return {dims.begin(), dims.end()};
}

}  // namespace

Result<Reduction> readReduction(const LoweringContext& context, const Operation& op) {
  ANNRT_CPU_REQUIRE(op.inputs.size() == 3, "unexpected input count {}", op.inputs.size());
  ANNRT_RETURN_IF_ERROR(context.checkTensors(op, {0}));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axes, context.intTensor(op, 1));
  bool keepDims = false;
  if (op.type == OperationType::MEAN) {
    ANNRT_ASSIGN_OR_RETURN(int32_t keep, context.intScalar(op, 2));
    keepDims = keep > 0;
  } else {
    ANNRT_ASSIGN_OR_RETURN(keepDims, context.boolScalar(op, 2));
  }
  const int32_t inRank = static_cast<int32_t>(rank(input));
  std::set<uint32_t> reduced;
  for (int32_t axis : axes) {
    ANNRT_CPU_REQUIRE(axis >= -inRank && axis < inRank, "axis {} out of range", axis);
    reduced.insert(static_cast<uint32_t>(axis < 0 ? axis + inRank : axis));
  }
  ANNRT_CPU_REQUIRE(!reduced.empty(), "no axes to reduce");
  const uint32_t first = *reduced.begin(), last = *reduced.rbegin();
  ANNRT_CPU_REQUIRE(last - first + 1 == reduced.size(),
                    "only one contiguous run of axes is lowered, not {} axes from {} to {}",
                    reduced.size(), first, last);
  Reduction r;
  std::vector<uint32_t> kept, squeezed;
  for (uint32_t d = 0; d < rank(input); ++d) {
    const bool isReduced = reduced.count(d) != 0;
    if (d < first) r.outer *= input.dims[d];
    if (isReduced) r.reduced *= input.dims[d];
    if (d > last) r.inner *= input.dims[d];
    kept.push_back(isReduced ? 1 : input.dims[d]);
    if (!isReduced) squeezed.push_back(input.dims[d]);
  }
  if (squeezed.empty()) squeezed.push_back(1);
  ANNRT_CPU_REQUIRE(output.dims == (keepDims ? kept : squeezed),
                    "output {} does not match the reduction of {}", toString(output.dims),
                    toString(input.dims));
  r.spatial = rank(input) == 4 && first == 1 && last == 2;
  r.poolHeight = r.spatial ? input.dims[1] : 1;
  r.poolWidth = r.spatial ? input.dims[2] : r.reduced;
  return r;
}

Result<void> lowerReduction(LoweringContext& context, const Operation& op) {
  ANNRT_ASSIGN_OR_RETURN(Reduction r, readReduction(context, op));
  const Shape& input = context.input(op, 0).shape;
  const Shape& output = context.output(op, 0).shape;
  const bool quantized = isQuantized8(input.type);
  ANNRT_CPU_REQUIRE(!quantized || op.type != OperationType::REDUCE_SUM, "REDUCE_SUM is float only");
  if (quantized && op.type == OperationType::MEAN) {
    const float ratio = input.scale / output.scale;
    ANNRT_CPU_REQUIRE(ratio >= 0x1.0p-8f && ratio < 0x1.0p+8f,
                      "input scale {} / output scale {} is outside XNNPACK's [2^-8, 2^8)",
                      input.scale, output.scale);
  }
  if (quantized && op.type != OperationType::MEAN) {
    ANNRT_RETURN_IF_ERROR(context.checkSameQuantization(op, {0}));
  }
  if (context.checking()) return {};
  xnn_subgraph_t s = context.subgraph();
  if (r.reduced == 1) {
    // Reducing axes of size 1 only drops them: a copy (XNNPACK has no 1x1
    // pooling), requantized through float32 if MEAN changes the scale.
    const std::vector<size_t> sizes = toSizes(output.dims);
    auto copy = [&](uint32_t from, uint32_t to) {
      return checkXnn(xnn_define_static_reshape(s, sizes.size(), sizes.data(), from, to, 0),
                      "xnn_define_static_reshape");
    };
    if (!quantized || (input.scale == output.scale && input.zeroPoint == output.zeroPoint)) {
      ANNRT_ASSIGN_OR_RETURN(uint32_t from, context.inputValue(op, 0));
      ANNRT_ASSIGN_OR_RETURN(uint32_t to, context.outputValue(op, 0));
      return copy(from, to);
    }
    ANNRT_ASSIGN_OR_RETURN(uint32_t from, context.floatInputValue(op, 0));
    return context.withFloatOutput(op, 0, [&](uint32_t to) { return copy(from, to); });
  }
  const std::vector<uint32_t> view{r.outer, 1, r.reduced, r.inner};
  const std::vector<uint32_t> pooledDims{r.outer, 1, 1, r.inner};
  const bool isFloat = !quantized || op.type == OperationType::REDUCE_MIN;
  // A new internal value of the computation's type: float32, or (quantized
  // MEAN and REDUCE_MAX) the input's before pooling and the output's after.
  auto newValue = [&](const std::vector<uint32_t>& dims, uint32_t like) -> Result<uint32_t> {
    if (isFloat) return context.internalValue(dims);
    return context.internalValueLike(dims, like);
  };
  auto reshape = [&](uint32_t from, uint32_t to, const std::vector<uint32_t>& dims) {
    const std::vector<size_t> sizes = toSizes(dims);
    return checkXnn(xnn_define_static_reshape(s, sizes.size(), sizes.data(), from, to, 0),
                    "xnn_define_static_reshape");
  };
  uint32_t x = XNN_INVALID_VALUE_ID;
  if (op.type == OperationType::REDUCE_MIN) {  // min(x) = -max(-x)
    ANNRT_ASSIGN_OR_RETURN(uint32_t real, context.floatInputValue(op, 0));
    ANNRT_ASSIGN_OR_RETURN(x, context.internalValue(input.dims));
    ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_negate(s, real, x, 0), "xnn_define_negate"));
  } else {
    ANNRT_ASSIGN_OR_RETURN(x, context.inputValue(op, 0));
  }
  if (!r.spatial) {
    ANNRT_ASSIGN_OR_RETURN(uint32_t viewed, newValue(view, op.inputs[0]));
    ANNRT_RETURN_IF_ERROR(reshape(x, viewed, view));
    x = viewed;
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t pooled, newValue(pooledDims, op.outputs[0]));
  if (op.type == OperationType::MEAN || op.type == OperationType::REDUCE_SUM) {
    ANNRT_RETURN_IF_ERROR(
        checkXnn(xnn_define_global_average_pooling_2d(s, -INFINITY, INFINITY, x, pooled, 0),
                 "xnn_define_global_average_pooling_2d"));
  } else {
    ANNRT_RETURN_IF_ERROR(
        checkXnn(xnn_define_max_pooling_2d(s, 0, 0, 0, 0, r.poolHeight, r.poolWidth, 1, 1, 1, 1,
                                           -INFINITY, INFINITY, x, pooled, 0),
                 "xnn_define_max_pooling_2d"));
  }
  uint32_t last = pooled;
  if (op.type == OperationType::REDUCE_SUM || op.type == OperationType::REDUCE_MIN) {
    ANNRT_ASSIGN_OR_RETURN(last, context.internalValue(pooledDims));
    if (op.type == OperationType::REDUCE_SUM) {
      ANNRT_ASSIGN_OR_RETURN(uint32_t count,
                             context.staticValue({1}, {static_cast<float>(r.reduced)}));
      ANNRT_RETURN_IF_ERROR(
          checkXnn(xnn_define_multiply2(s, -INFINITY, INFINITY, pooled, count, last, 0),
                   "xnn_define_multiply2"));
    } else {
      ANNRT_RETURN_IF_ERROR(checkXnn(xnn_define_negate(s, pooled, last, 0), "xnn_define_negate"));
    }
  }
  // The pooled [outer, 1, 1, inner] result takes the output's shape.
  if (isFloat) {
    return context.withFloatOutput(
        op, 0, [&](uint32_t result) { return reshape(last, result, output.dims); });
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t result, context.outputValue(op, 0));
  return reshape(last, result, output.dims);
}

}  // namespace annrt::cpu
