// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shape inference helpers shared by operation families: numpy-style
// broadcasting, SAME/VALID padding, NCHW<->NHWC data layout.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "common/types.h"

namespace annrt::ops {

// Broadcast result of two shapes (trailing dims aligned; 1 stretches).
Result<std::vector<uint32_t>> broadcastDims(const std::vector<uint32_t>& a,
                                            const std::vector<uint32_t>& b);

// Flat index into a tensor of `dims` for the broadcast output coordinate
// `coord` (rank of the output, right-aligned with dims).
size_t broadcastIndex(const std::vector<uint32_t>& dims, const std::vector<uint32_t>& coord);

// Advances a row-major coordinate; returns false after the last element.
bool nextCoordinate(const std::vector<uint32_t>& dims, std::vector<uint32_t>& coord);

enum class PaddingScheme : int32_t { SAME = 1, VALID = 2 };

struct Padding {
  uint32_t head = 0;
  uint32_t tail = 0;
};

// Explicit padding for an implicit padding scheme (NNAPI PaddingCode).
Result<Padding> implicitPadding(int32_t scheme, uint32_t inSize, uint32_t stride, uint32_t dilation,
                                uint32_t filterSize);
// Output size of a convolution or pooling window; error when the window
// does not fit.
Result<uint32_t> windowOutputSize(uint32_t inSize, uint32_t filterSize, uint32_t stride,
                                  uint32_t dilation, Padding padding);

// Converts an NCHW buffer to NHWC (and back) for T-sized elements.
void nchwToNhwc(const void* in, void* out, const std::vector<uint32_t>& nchwDims,
                size_t elementBytes);
void nhwcToNchw(const void* in, void* out, const std::vector<uint32_t>& nhwcDims,
                size_t elementBytes);
std::vector<uint32_t> nchwToNhwcDims(const std::vector<uint32_t>& dims);
std::vector<uint32_t> nhwcToNchwDims(const std::vector<uint32_t>& dims);

// Resolves a possibly negative axis against a rank.
Result<uint32_t> resolveAxis(int32_t axis, uint32_t rank);

}  // namespace annrt::ops
