// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// SLICE (begin + size per axis) and STRIDED_SLICE (begin/end/stride per axis
// with TensorFlow's masks and index clamping). Both select, per axis, the
// indices begin, begin + stride, ... (count of them).
#include <algorithm>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::slice {
namespace {

struct AxisRange {
  int64_t begin = 0;
  int64_t stride = 1;
  uint32_t count = 0;
};

Result<void> validateIndexTensors(const ValidationContext& context, uint32_t first, uint32_t last) {
  for (uint32_t i = first; i <= last; ++i) {
    ANNRT_RETURN_IF_ERROR(validateInputType(context, i, OperandType::TENSOR_INT32, "index tensor"));
    ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(i), 1, "index tensor"));
  }
  return {};
}

// Copies the selected elements; the output is row-major over `ranges`.
Result<void> copyRanges(ExecutionContext& context, const std::vector<AxisRange>& ranges) {
  const Shape& input = context.inputShape(0);
  const std::vector<size_t> strides = rowMajorStrides(input.dims);
  std::vector<uint32_t> dims(ranges.size());
  for (size_t d = 0; d < ranges.size(); ++d) dims[d] = ranges[d].count;
  gatherElements(context.inputData(0), context.outputData(0), dims, elementSize(input.type),
                 nullptr, [&](const std::vector<uint32_t>& o) {
                   int64_t index = 0;
                   for (size_t d = 0; d < o.size(); ++d) {
                     index += (ranges[d].begin + o[d] * ranges[d].stride) *
                              static_cast<int64_t>(strides[d]);
                   }
                   return index;
                 });
  return {};
}

// SLICE

Result<void> validateSlice(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypesWithInt32, 0));
  return validateIndexTensors(context, 1, 2);
}

Result<std::vector<AxisRange>> sliceRanges(const ExecutionContext& context) {
  const std::vector<uint32_t>& dims = context.inputShape(0).dims;
  const auto n = static_cast<int64_t>(dims.size());
  ANNRT_CHECK(n > 0, "input must have rank 1 or more");
  ANNRT_ASSIGN_OR_RETURN(auto begin, int32Vector(context, 1, n));
  ANNRT_ASSIGN_OR_RETURN(auto size, int32Vector(context, 2, n));
  std::vector<AxisRange> ranges(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t b = begin[d];
    const int64_t s = size[d] == -1 ? dims[d] - b : size[d];
    ANNRT_CHECK(b >= 0 && s >= 0 && b + s <= dims[d],
                "slice begin {} size {} does not fit axis {} of size {}", begin[d], size[d], d,
                dims[d]);
    ranges[d] = AxisRange{b, 1, static_cast<uint32_t>(s)};
  }
  return ranges;
}

Result<void> prepareSlice(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto ranges, sliceRanges(context));
  std::vector<uint32_t> dims;
  dims.reserve(ranges.size());
  for (const AxisRange& r : ranges) dims.push_back(r.count);
  return setOutputDims(context, std::move(dims));
}

Result<void> executeSlice(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(auto ranges, sliceRanges(context));
  return copyRanges(context, ranges);
}

// STRIDED_SLICE

constexpr uint32_t kBeginMask = 4;
constexpr uint32_t kEndMask = 5;
constexpr uint32_t kShrinkMask = 6;

Result<void> validateStridedSlice(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 7, 7));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  ANNRT_RETURN_IF_ERROR(validateMovedTensor(context, 0, kMovementTypes, 4));
  ANNRT_RETURN_IF_ERROR(validateIndexTensors(context, 1, 3));
  for (uint32_t i = kBeginMask; i <= kShrinkMask; ++i) {
    ANNRT_RETURN_IF_ERROR(validateInputType(context, i, OperandType::INT32, "mask"));
  }
  return {};
}

// TensorFlow's index normalization: negative indices count from the end, and
// out-of-range indices clamp to just past the end in the stride's direction.
int64_t clampedIndex(int64_t index, int64_t dim, bool positiveStride) {
  if (positiveStride) {
    if (index >= dim) return dim;
    index = std::clamp(index, -dim, dim);
  } else {
    if (index < -dim) return -1;
    index = std::clamp(index, -dim, dim - 1);
  }
  return dim == 0 ? 0 : ((index % dim) + dim) % dim;
}

struct StridedSlice {
  std::vector<AxisRange> ranges;
  std::vector<uint32_t> outputDims;
};

Result<StridedSlice> stridedSlice(const ExecutionContext& context) {
  const std::vector<uint32_t>& dims = context.inputShape(0).dims;
  const auto n = static_cast<int64_t>(dims.size());
  ANNRT_ASSIGN_OR_RETURN(auto begins, int32Vector(context, 1, n));
  ANNRT_ASSIGN_OR_RETURN(auto ends, int32Vector(context, 2, n));
  ANNRT_ASSIGN_OR_RETURN(auto strides, int32Vector(context, 3, n));
  const auto beginMask = static_cast<uint32_t>(context.scalar<int32_t>(kBeginMask));
  const auto endMask = static_cast<uint32_t>(context.scalar<int32_t>(kEndMask));
  const auto shrinkMask = static_cast<uint32_t>(context.scalar<int32_t>(kShrinkMask));
  StridedSlice result;
  for (int64_t d = 0; d < n; ++d) {
    const int64_t dim = dims[d];
    const int64_t stride = strides[d];
    ANNRT_CHECK(stride != 0, "stride of axis {} is zero", d);
    const bool positive = stride > 0;
    const int64_t begin =
        (beginMask >> d) & 1 ? (positive ? 0 : dim - 1) : clampedIndex(begins[d], dim, positive);
    const int64_t end =
        (endMask >> d) & 1 ? (positive ? dim : -1) : clampedIndex(ends[d], dim, positive);
    const int64_t span = positive ? end - begin : begin - end;
    const int64_t step = positive ? stride : -stride;
    const auto count = static_cast<uint32_t>(span > 0 ? (span + step - 1) / step : 0);
    if ((shrinkMask >> d) & 1) {
      // A shrunk axis selects the single element at begin.
      ANNRT_CHECK(positive && count == 1,
                  "shrunk axis {} must select one element with a positive stride, selects {} "
                  "with stride {}",
                  d, count, stride);
    } else {
      result.outputDims.push_back(count);
    }
    result.ranges.push_back(AxisRange{begin, stride, count});
  }
  if (result.outputDims.empty()) result.outputDims.push_back(1);
  return result;
}

Result<void> prepareStridedSlice(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(StridedSlice s, stridedSlice(context));
  return setOutputDims(context, std::move(s.outputDims));
}

Result<void> executeStridedSlice(ExecutionContext& context) {
  ANNRT_ASSIGN_OR_RETURN(StridedSlice s, stridedSlice(context));
  // Shrunk axes have count 1, so the row-major order over all ranges is the
  // output's order.
  return copyRanges(context, s.ranges);
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::STRIDED_SLICE,
     .name = "STRIDED_SLICE",
     .validate = validateStridedSlice,
     .prepare = prepareStridedSlice,
     .execute = executeStridedSlice},
    {.type = OperationType::SLICE,
     .name = "SLICE",
     .validate = validateSlice,
     .prepare = prepareSlice,
     .execute = executeSlice,
     .allowZeroSizedInput = true},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::slice
