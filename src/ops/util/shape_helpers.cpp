// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/shape_helpers.h"

#include <cstring>

namespace annrt::ops {

Result<std::vector<uint32_t>> broadcastDims(const std::vector<uint32_t>& a,
                                            const std::vector<uint32_t>& b) {
  const size_t outRank = std::max(a.size(), b.size());
  std::vector<uint32_t> out(outRank);
  for (size_t i = 0; i < outRank; ++i) {
    const uint32_t da = i < outRank - a.size() ? 1 : a[i - (outRank - a.size())];
    const uint32_t db = i < outRank - b.size() ? 1 : b[i - (outRank - b.size())];
    ANNRT_CHECK(da == db || da == 1 || db == 1, "cannot broadcast {} with {}", toString(a),
                toString(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

size_t broadcastIndex(const std::vector<uint32_t>& dims, const std::vector<uint32_t>& coord) {
  const size_t offset = coord.size() - dims.size();
  size_t index = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    const uint32_t c = dims[i] == 1 ? 0 : coord[i + offset];
    index = index * dims[i] + c;
  }
  return index;
}

bool nextCoordinate(const std::vector<uint32_t>& dims, std::vector<uint32_t>& coord) {
  for (size_t i = dims.size(); i-- > 0;) {
    if (++coord[i] < dims[i]) return true;
    coord[i] = 0;
  }
  return false;
}

Result<Padding> implicitPadding(int32_t scheme, uint32_t inSize, uint32_t stride, uint32_t dilation,
                                uint32_t filterSize) {
  ANNRT_CHECK(scheme == 1 || scheme == 2, "padding scheme {} is neither SAME (1) nor VALID (2)",
              scheme);
  ANNRT_CHECK(stride > 0 && dilation > 0, "stride {} and dilation {} must be positive", stride,
              dilation);
  if (scheme == static_cast<int32_t>(PaddingScheme::VALID)) return Padding{};
  const int64_t effectiveFilter = static_cast<int64_t>(filterSize - 1) * dilation + 1;
  const int64_t outSize = (static_cast<int64_t>(inSize) + stride - 1) / stride;
  const int64_t needed = std::max<int64_t>(0, (outSize - 1) * stride + effectiveFilter - inSize);
  return Padding{static_cast<uint32_t>(needed / 2), static_cast<uint32_t>(needed - needed / 2)};
}

Result<uint32_t> windowOutputSize(uint32_t inSize, uint32_t filterSize, uint32_t stride,
                                  uint32_t dilation, Padding padding) {
  ANNRT_CHECK(stride > 0 && dilation > 0, "stride {} and dilation {} must be positive", stride,
              dilation);
  const int64_t effectiveFilter = (static_cast<int64_t>(filterSize) - 1) * dilation + 1;
  const int64_t padded = static_cast<int64_t>(inSize) + padding.head + padding.tail;
  ANNRT_CHECK(padded >= effectiveFilter, "window {} does not fit in padded input {}",
              effectiveFilter, padded);
  return static_cast<uint32_t>((padded - effectiveFilter) / stride + 1);
}

namespace {

// Moves axis 1 to the end (NCHW -> NHWC) or the last axis to 1 (NHWC -> NCHW).
void permute4d(const uint8_t* in, uint8_t* out, const uint32_t (&inDims)[4],
               const uint32_t (&perm)[4], size_t bytes) {
  uint32_t outDims[4];
  for (int i = 0; i < 4; ++i) outDims[i] = inDims[perm[i]];
  size_t inStrides[4];
  inStrides[3] = 1;
  for (int i = 2; i >= 0; --i) inStrides[i] = inStrides[i + 1] * inDims[i + 1];
  size_t o = 0;
  for (uint32_t a = 0; a < outDims[0]; ++a)
    for (uint32_t b = 0; b < outDims[1]; ++b)
      for (uint32_t c = 0; c < outDims[2]; ++c)
        for (uint32_t d = 0; d < outDims[3]; ++d, ++o) {
          const size_t i = a * inStrides[perm[0]] + b * inStrides[perm[1]] +
                           c * inStrides[perm[2]] + d * inStrides[perm[3]];
          std::memcpy(out + o * bytes, in + i * bytes, bytes);
        }
}

}  // namespace

void nchwToNhwc(const void* in, void* out, const std::vector<uint32_t>& d, size_t bytes) {
  permute4d(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), {d[0], d[1], d[2], d[3]},
            {0, 2, 3, 1}, bytes);
}

void nhwcToNchw(const void* in, void* out, const std::vector<uint32_t>& d, size_t bytes) {
  permute4d(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), {d[0], d[1], d[2], d[3]},
            {0, 3, 1, 2}, bytes);
}

std::vector<uint32_t> nchwToNhwcDims(const std::vector<uint32_t>& d) {
  return {d[0], d[2], d[3], d[1]};
}

std::vector<uint32_t> nhwcToNchwDims(const std::vector<uint32_t>& d) {
  return {d[0], d[3], d[1], d[2]};
}

Result<uint32_t> resolveAxis(int32_t axis, uint32_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  ANNRT_CHECK(axis >= -r && axis < r, "axis {} out of range for rank {}", axis, rank);
  return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

}  // namespace annrt::ops
