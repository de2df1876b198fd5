// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV_2D (level 3+): the gradient of CONV_2D with respect to its
// input. Input pixel (h, w) scatters filter [depth_out, filter_height,
// filter_width, depth_in] into output (h * stride - pad_top + i,
// w * stride - pad_left + j). Explicit padding, or implicit padding computed
// from an output shape tensor; the layout BOOL is required. Right/bottom
// padding may be negative to pick the larger of two possible output sizes.
#include <limits>

#include "ops/operation.h"
#include "ops/util/convolution.h"
#include "ops/util/shape_helpers.h"

namespace annrt::ops::families::transpose_conv_2d {
namespace {

constexpr conv::Signature kSignature{.layoutRequired = true, .implicitOutputShape = true};
constexpr uint32_t kOutputShape = 3;

// Implicit padding of one axis given the requested output size: SAME pads
// like a forward convolution over the output, with the tail fitted tightly
// to the last stride (so it may be negative).
Result<void> implicitAxis(int32_t scheme, int64_t outSize, int32_t stride, uint32_t filterSize,
                          int32_t* head, int32_t* tail) {
  ANNRT_CHECK(scheme == static_cast<int32_t>(PaddingScheme::SAME) ||
                  scheme == static_cast<int32_t>(PaddingScheme::VALID),
              "padding scheme {} is neither SAME (1) nor VALID (2)", scheme);
  ANNRT_CHECK(outSize > 0, "output shape size {} must be positive", outSize);
  *head = 0;
  *tail = 0;
  if (scheme == static_cast<int32_t>(PaddingScheme::VALID)) return {};
  const int64_t windows = (outSize + stride - 1) / stride;
  const int64_t needed = (windows - 1) * stride + filterSize - outSize;
  if (needed > 0) *head = static_cast<int32_t>(needed / 2);
  *tail = static_cast<int32_t>(needed - *head);
  return {};
}

Result<void> resolveImplicitPadding(const ExecutionContext& context, conv::Params& params,
                                    uint32_t filterHeight, uint32_t filterWidth) {
  const Shape& shape = context.inputShape(kOutputShape);
  ANNRT_CHECK(rank(shape) == 1 && shape.dims[0] == 4, "output shape tensor {} must be [4]",
              toString(shape.dims));
  const int32_t* dims = context.input<int32_t>(kOutputShape);
  const int64_t height = dims[params.nchw ? 2 : 1];
  const int64_t width = dims[params.nchw ? 3 : 2];
  ANNRT_RETURN_IF_ERROR(implicitAxis(params.paddingScheme, height, params.strideHeight,
                                     filterHeight, &params.padTop, &params.padBottom));
  return implicitAxis(params.paddingScheme, width, params.strideWidth, filterWidth, &params.padLeft,
                      &params.padRight);
}

Result<uint32_t> outputSize(uint32_t inSize, uint32_t filterSize, int32_t stride, int32_t head,
                            int32_t tail) {
  const int64_t size = static_cast<int64_t>(inSize) * stride + filterSize - stride - head - tail;
  ANNRT_CHECK(size > 0 && size <= std::numeric_limits<int32_t>::max(),
              "output size {} is out of range", size);
  return static_cast<uint32_t>(size);
}

Result<conv::Geometry> geometry(const ExecutionContext& context, conv::Params& params) {
  conv::Geometry g;
  ANNRT_ASSIGN_OR_RETURN(g.input, conv::inputImage(context, params.nchw));
  const Shape& filter = context.inputShape(conv::kFilter);
  g.filterHeight = filter.dims[1];
  g.filterWidth = filter.dims[2];
  ANNRT_CHECK(g.input.height > 0 && g.input.width > 0 && g.input.channels > 0,
              "input height {}, width {} and depth {} must be positive", g.input.height,
              g.input.width, g.input.channels);
  ANNRT_CHECK(filter.dims[0] > 0 && g.filterHeight > 0 && g.filterWidth > 0 &&
                  filter.dims[3] == g.input.channels,
              "filter {} does not fit input depth {}", toString(filter.dims), g.input.channels);
  if (!params.explicitPadding) {
    ANNRT_RETURN_IF_ERROR(resolveImplicitPadding(context, params, g.filterHeight, g.filterWidth));
  }
  g.output.batches = g.input.batches;
  g.output.channels = filter.dims[0];
  ANNRT_ASSIGN_OR_RETURN(g.output.height,
                         outputSize(g.input.height, g.filterHeight, params.strideHeight,
                                    params.padTop, params.padBottom));
  ANNRT_ASSIGN_OR_RETURN(
      g.output.width, outputSize(g.input.width, g.filterWidth, params.strideWidth, params.padLeft,
                                 params.padRight));
  g.ocStride = static_cast<size_t>(g.filterHeight) * g.filterWidth * g.input.channels;
  g.tapStride = g.input.channels;
  g.strideHeight = params.strideHeight;
  g.strideWidth = params.strideWidth;
  g.padTop = params.padTop;
  g.padLeft = params.padLeft;
  g.transposed = true;
  return g;
}

constexpr OperationRegistration kOperations[] = {
    conv::registration<kSignature, geometry>(OperationType::TRANSPOSE_CONV_2D, "TRANSPOSE_CONV_2D",
                                             conv::validateOp<kSignature, 0>),
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::transpose_conv_2d
