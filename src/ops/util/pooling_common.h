// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Small helpers shared by the pooling, resize, softmax and reduction-like
// families: running an NHWC kernel on NCHW data, checking a 4-D image input,
// and the outer/axis/inner decomposition of a shape around one axis.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "common/types.h"
#include "ops/util/convolution.h"
#include "ops/util/shape_helpers.h"

namespace annrt::ops {

// Runs `kernel(in, inDims, out, outDims)` on NHWC data. With `nchw`, the input
// is transposed to NHWC first and the NHWC result transposed back into `out`.
template <typename T, typename Kernel>
void runInNhwc(bool nchw, const T* in, const std::vector<uint32_t>& inDims, T* out,
               const std::vector<uint32_t>& outDims, Kernel&& kernel) {
  if (!nchw) {
    kernel(in, inDims, out, outDims);
    return;
  }
  const std::vector<uint32_t> nhwcIn = nchwToNhwcDims(inDims);
  const std::vector<uint32_t> nhwcOut = nchwToNhwcDims(outDims);
  std::vector<T> inBuffer(elementCount(inDims));
  std::vector<T> outBuffer(elementCount(outDims));
  nchwToNhwc(in, inBuffer.data(), inDims, sizeof(T));
  kernel(static_cast<const T*>(inBuffer.data()), nhwcIn, outBuffer.data(), nhwcOut);
  nhwcToNchw(outBuffer.data(), out, nhwcOut, sizeof(T));
}

// The dims of a rank-4 image input in either layout, of which only the batch
// may be zero (pooling and resize accept zero-sized batches).
Result<conv::ImageDims> batchOnlyEmptyImage(const Shape& input, bool nchw);

// A shape seen as [outer, axis, inner] around one axis.
struct AxisSplit {
  size_t outer = 1;
  size_t axis = 1;
  size_t inner = 1;
};

inline AxisSplit splitAtAxis(const std::vector<uint32_t>& dims, uint32_t axis) {
  AxisSplit split;
  for (uint32_t i = 0; i < dims.size(); ++i) {
    if (i < axis) split.outer *= dims[i];
    if (i == axis) split.axis = dims[i];
    if (i > axis) split.inner *= dims[i];
  }
  return split;
}

}  // namespace annrt::ops
